//! `.npz` round trips of derived types in both shapes an archive takes:
//! struct of arrays (one member per field) and columnar records (one member
//! per record field), with the member list and each member's header
//! snapshotted.

mod common;

use std::io::Cursor;

use common::*;
use derive_tests::*;
use npy_serde::npz::{self, NpzReader, NpzWriter};
use serde::{Deserialize, Serialize};

/// `key: <header text>` for every member, in archive order.
fn members_text(bytes: Vec<u8>) -> String {
    let mut z = NpzReader::new(Cursor::new(bytes)).unwrap();
    let names = z.names().to_vec();
    names
        .iter()
        .map(|k| format!("{k}: {}", header_text(&z.raw(k).unwrap())))
        .collect::<Vec<_>>()
        .join("\n")
}

fn snap(name: &str, text: String) {
    insta::with_settings!({
        snapshot_path => "../../snapshots/derive-tests",
        prepend_module_to_snapshot => false,
    }, {
        insta::assert_snapshot!(name, text);
    });
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Snapshot {
    step: u64,
    time: f64,
    label: String,
    particles: Vec<Particle>,
    masses: Vec<f32>,
    grid: Vec<[f64; 2]>,
    inner: Inner,
    times: Vec<Times>,
    note: Option<String>,
    weights: Option<Vec<f64>>,
}

fn snapshot() -> Snapshot {
    Snapshot {
        step: 42,
        time: 0.125,
        label: "run 7".into(),
        particles: particles(),
        masses: vec![1.0, 2.5],
        grid: vec![[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]],
        inner: inner(1.0, -1.0),
        times: times(),
        note: None,
        weights: Some(vec![0.5]),
    }
}

#[test]
fn struct_of_arrays_round_trips() {
    for compressed in [false, true] {
        let mut out = Cursor::new(Vec::new());
        if compressed {
            let mut w = NpzWriter::new(&mut out).compressed(true);
            let s = snapshot();
            w.add("step", &s.step).unwrap();
            w.add("particles", &s.particles).unwrap();
            w.finish().unwrap();
            out.set_position(0);
            #[derive(Deserialize)]
            struct Part {
                step: u64,
                particles: Vec<Particle>,
                note: Option<String>,
            }
            let p: Part = npz::from_reader(&mut out).unwrap();
            assert_eq!((p.step, p.particles, p.note), (42, particles(), None));
        } else {
            npz::to_writer(&mut out, &snapshot()).unwrap();
            out.set_position(0);
            let back: Snapshot = npz::from_reader(&mut out).unwrap();
            assert_eq!(back, snapshot());
            snap("npz__struct_of_arrays", members_text(out.into_inner()));
        }
    }
}

#[test]
fn columnar_round_trips() {
    let mut out = Cursor::new(Vec::new());
    npz::to_writer(&mut out, &particles()).unwrap();
    out.set_position(0);
    let back: Vec<Particle> = npz::from_reader(&mut out).unwrap();
    assert_eq!(back, particles());
    snap("npz__columnar_particles", members_text(out.into_inner()));

    let mixed = vec![
        Mixed {
            id: -1,
            name: "ab".into(),
            pos: [1.0, 2.0],
            inner: inner(0.5, 0.25),
            pair: (3, 1.5),
            color: Color::Red,
            z: num_complex::Complex::new(1.0, -1.0),
        },
        Mixed {
            id: 2,
            name: "héllo".into(),
            pos: [3.0, 4.0],
            inner: inner(1.5, 2.25),
            pair: (4, -1.5),
            color: Color::Green,
            z: num_complex::Complex::new(0.0, 2.0),
        },
    ];
    let mut out = Cursor::new(Vec::new());
    npz::to_writer(&mut out, &mixed).unwrap();
    out.set_position(0);
    let back: Vec<Mixed> = npz::from_reader(&mut out).unwrap();
    assert_eq!(back, mixed);
    snap("npz__columnar_mixed", members_text(out.into_inner()));
}

#[test]
fn columnar_reads_into_a_struct_of_columns() {
    #[derive(Deserialize)]
    struct Columns {
        id: Vec<u32>,
        pos: Vec<[f64; 3]>,
        alive: Vec<bool>,
    }
    let mut out = Cursor::new(Vec::new());
    npz::to_writer(&mut out, &particles()).unwrap();
    out.set_position(0);
    let c: Columns = npz::from_reader(&mut out).unwrap();
    let ps = particles();
    assert_eq!(c.id, ps.iter().map(|p| p.id).collect::<Vec<_>>());
    assert_eq!(c.pos, ps.iter().map(|p| p.pos).collect::<Vec<_>>());
    assert_eq!(c.alive, ps.iter().map(|p| p.alive).collect::<Vec<_>>());
}
