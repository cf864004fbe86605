//! Deflate levels 0 to 9: per archive (`NpzWriter::compression_level`,
//! `NpzOptions`), per member (`NpzWriter::level_for_next`); every level
//! reads back, sizes follow the levels, level 6 is numpy's default and
//! byte for byte what `compressed(true)` writes, `NpzOptions` writes what
//! `NpzWriter` writes, and other levels are refused with one message.

use std::io::Cursor;

use npy_serde::npz::{self, NpzOptions, NpzReader, NpzWriter};
use npy_serde::{Dtype, ScalarType};
use serde::{Deserialize, Serialize};

fn snap(name: &str, text: String) {
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!(name, text);
    });
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Row {
    id: u32,
    pos: [f64; 3],
}

/// Compressible arrays, the first of several 256 KiB deflate pieces.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Snapshot {
    ramp: Vec<u32>,
    rows: Vec<Row>,
    step: u64,
}

fn snapshot() -> Snapshot {
    Snapshot {
        ramp: (0..150_000u32).map(|i| i / 7 + i % 3).collect(),
        rows: (0..2_000u32)
            .map(|i| Row {
                id: i,
                pos: [f64::from(i % 10), 0.5, f64::from(i) / 8.0],
            })
            .collect(),
        step: 7,
    }
}

/// The archive of [`snapshot`] through an `NpzWriter` set up by `setup`.
fn write_with(
    setup: impl FnOnce(NpzWriter<Cursor<Vec<u8>>>) -> npy_serde::Result<NpzWriter<Cursor<Vec<u8>>>>,
) -> Vec<u8> {
    let s = snapshot();
    let mut w = setup(NpzWriter::new(Cursor::new(Vec::new()))).unwrap();
    w.add("ramp", &s.ramp).unwrap();
    w.add("rows", &s.rows).unwrap();
    w.add("step", &s.step).unwrap();
    w.finish().unwrap().into_inner()
}

/// Each member's (name, zip method, compressed size, uncompressed size).
fn entries(bytes: &[u8]) -> Vec<(String, zip::CompressionMethod, u64, u64)> {
    let mut z = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
    (0..z.len())
        .map(|i| {
            let f = z.by_index(i).unwrap();
            (
                f.name().to_owned(),
                f.compression(),
                f.compressed_size(),
                f.size(),
            )
        })
        .collect()
}

#[test]
fn every_level_reads_back_and_sizes_follow_the_levels() {
    let mut sizes = Vec::new();
    for level in [0, 1, 6, 9] {
        let bytes = write_with(|w| w.compression_level(level));
        let back: Snapshot = npz::from_reader(Cursor::new(&bytes)).unwrap();
        assert!(back == snapshot(), "level {level}");
        let mut z = NpzReader::new(Cursor::new(&bytes)).unwrap();
        assert_eq!(z.names(), ["ramp", "rows", "step"]);
        assert_eq!(
            z.raw("rows").unwrap(),
            npy_serde::to_vec(&snapshot().rows).unwrap(),
            "level {level}: the member's bytes are to_vec's"
        );
        for (name, method, ..) in entries(&bytes) {
            assert_eq!(method, zip::CompressionMethod::Deflated, "{name}");
        }
        sizes.push((level, bytes.len()));
    }
    let stored = write_with(Ok).len();
    let [(_, l0), (_, l1), (_, l6), (_, l9)] = sizes[..] else {
        unreachable!()
    };
    // level 0 is stored blocks: the data and a little more
    assert!(
        l0 > stored - 200 && l0 > 4 * l9,
        "{sizes:?}, stored {stored}"
    );
    assert!(l1 < l0 && l6 < l1 && l9 <= l6, "{sizes:?}");
}

#[test]
fn level_6_is_compressed_true_byte_for_byte() {
    let default = write_with(|w| Ok(w.compressed(true)));
    assert_eq!(write_with(|w| w.compression_level(6)), default);
    // the level is kept when compression is switched off and on again
    assert_eq!(
        write_with(|w| Ok(w.compression_level(9)?.compressed(false).compressed(true))),
        write_with(|w| w.compression_level(9))
    );
    assert_eq!(
        write_with(|w| Ok(w.compression_level(9)?.compressed(false))),
        write_with(Ok)
    );
    // npz::to_writer and NpzOptions write what NpzWriter writes
    let options = |opts: NpzOptions| {
        let mut file = Cursor::new(Vec::new());
        opts.to_writer(&mut file, &snapshot()).unwrap();
        file.into_inner()
    };
    assert_eq!(options(NpzOptions::new().compressed(true)), default);
    assert_eq!(options(NpzOptions::new().compression_level(6)), default);
    for level in [0, 1, 9] {
        assert_eq!(
            options(NpzOptions::new().compression_level(level)),
            write_with(|w| w.compression_level(level)),
            "level {level}"
        );
    }
    let mut file = Cursor::new(Vec::new());
    npz::to_writer(&mut file, &snapshot()).unwrap();
    assert_eq!(options(NpzOptions::new()), file.into_inner());
    assert_eq!(
        file_of_to_path(NpzOptions::new().compression_level(1)),
        options(NpzOptions::new().compression_level(1))
    );
}

/// What `to_path` with `opts` writes for [`snapshot`].
fn file_of_to_path(opts: NpzOptions) -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!("npz-levels-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.npz");
    opts.to_path(&path, &snapshot()).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    bytes
}

#[test]
fn one_member_gets_its_own_level() {
    let s = snapshot();
    // a stored archive with one member deflated at 9, streamed by `start`
    let mut w = NpzWriter::new(Cursor::new(Vec::new()));
    w.add("ramp", &s.ramp).unwrap();
    let mut col = w
        .level_for_next(9)
        .unwrap()
        .start("step", Dtype::scalar(ScalarType::UInt(8)), 3)
        .unwrap();
    for x in [1u64, 2, 3] {
        col.serialize(&x).unwrap();
    }
    col.finish().unwrap();
    w.add("rows", &s.rows).unwrap();
    let bytes = w.finish().unwrap().into_inner();
    let methods: Vec<_> = entries(&bytes).into_iter().map(|e| (e.0, e.1)).collect();
    use zip::CompressionMethod::{Deflated, Stored};
    assert_eq!(
        methods,
        [
            ("ramp.npy".to_owned(), Stored),
            ("step.npy".to_owned(), Deflated),
            ("rows.npy".to_owned(), Stored)
        ]
    );
    let mut z = NpzReader::new(Cursor::new(&bytes)).unwrap();
    assert_eq!(z.by_name::<Vec<u64>>("step").unwrap(), [1, 2, 3]);
    assert_eq!(z.by_name::<Vec<Row>>("rows").unwrap(), s.rows);

    // a level-9 archive with one member at 0 and one at 1: each member's
    // bytes are those of an archive at that level
    let mut w = NpzWriter::new(Cursor::new(Vec::new()))
        .compression_level(9)
        .unwrap();
    w.level_for_next(0).unwrap().add("ramp", &s.ramp).unwrap();
    w.level_for_next(1).unwrap().add("rows", &s.rows).unwrap();
    w.add("step", &s.step).unwrap();
    let mixed = entries(&w.finish().unwrap().into_inner());
    let at = |level| entries(&write_with(|w| w.compression_level(level)));
    assert_eq!(mixed[0], at(0)[0]);
    assert_eq!(mixed[1], at(1)[1]);
    assert_eq!(mixed[2], at(9)[2]);
}

#[test]
fn the_level_for_next_is_used_once_even_by_a_failed_or_restarted_member() {
    let s = snapshot();
    // strings that widen late: the single pass starts the entry again
    let mut widening: Vec<String> = (0..20_000).map(|i| format!("{:04}", i % 10_000)).collect();
    widening[19_000] = "a much longer string".into();
    let mut w = NpzWriter::new(Cursor::new(Vec::new()));
    w.add("ramp", &s.ramp).unwrap();
    // a duplicate key fails and takes the level with it
    assert!(w.level_for_next(9).unwrap().add("ramp", &s.ramp).is_err());
    w.add("rows", &s.rows).unwrap();
    w.level_for_next(1)
        .unwrap()
        .add("widening", &widening)
        .unwrap();
    // a refused level leaves the next member as the archive has it
    assert!(w.level_for_next(10).is_err());
    w.add("step", &s.step).unwrap();
    let bytes = w.finish().unwrap().into_inner();
    let got = entries(&bytes);
    use zip::CompressionMethod::{Deflated, Stored};
    let methods: Vec<_> = got.iter().map(|e| (e.0.as_str(), e.1)).collect();
    assert_eq!(
        methods,
        [
            ("ramp.npy", Stored),
            ("rows.npy", Stored),
            ("widening.npy", Deflated),
            ("step.npy", Stored)
        ]
    );
    // the restarted member is deflated at 1, as a level-1 archive has it
    let mut one = NpzWriter::new(Cursor::new(Vec::new()))
        .compression_level(1)
        .unwrap();
    one.add("widening", &widening).unwrap();
    assert_eq!(got[2], entries(&one.finish().unwrap().into_inner())[0]);
    let mut z = NpzReader::new(Cursor::new(&bytes)).unwrap();
    assert_eq!(z.by_name::<Vec<String>>("widening").unwrap(), widening);
}

#[test]
fn other_levels_are_refused() {
    let new = || NpzWriter::new(Cursor::new(Vec::new()));
    let err = new().compression_level(10).unwrap_err();
    assert!(
        matches!(err.kind(), npy_serde::ErrorKind::Unsupported(_)),
        "{err:?}"
    );
    let msg = err.to_string();
    snap("npz_compression_level_refused", msg.clone());
    // every setter says the same, with its level
    let mut w = new();
    assert_eq!(w.level_for_next(10).unwrap_err().to_string(), msg);
    let mut file = Cursor::new(Vec::new());
    let opts = NpzOptions::new().compression_level(10);
    assert_eq!(
        opts.to_writer(&mut file, &snapshot())
            .unwrap_err()
            .to_string(),
        msg
    );
    assert!(file.get_ref().is_empty(), "nothing written");
    let err = new().compression_level(u32::MAX).unwrap_err().to_string();
    assert!(err.contains(&format!("level {}:", u32::MAX)), "{err}");
    // to_path refuses before the file is touched
    let dir = std::env::temp_dir().join(format!("npz-level-refused-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.npz");
    assert_eq!(
        opts.to_path(&path, &snapshot()).unwrap_err().to_string(),
        msg
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}
