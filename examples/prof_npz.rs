//! A profiling target for the npz paths of `tests/benches/npy.rs` (its `npz`
//! group): a struct of four arrays written or read `REPS` times, for `perf`
//! or callgrind.
//!
//! `prof_npz OP N REPS`: builds the four arrays of `N` records (`id`, `pos`,
//! `vel`, `mass` of the `Particle` records) and both archives once, then runs
//! `OP` (`write_stored`, `write_deflated`, `read_stored`, `read_deflated`;
//! `write_columns` / `read_columns`: a `Vec<Particle>` as one member per
//! field through `npz::to_writer` / `npz::from_reader`; `inflate`: only
//! the deflated members' data, inflated into a small reused buffer and
//! dropped, no decoding) `REPS`
//! times, checking each result, and prints the mean time per run.

use std::io::Cursor;

use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Snapshot {
    id: Vec<u64>,
    pos: Vec<[f64; 3]>,
    vel: Vec<[f32; 3]>,
    mass: Vec<f32>,
}

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
struct Particle {
    id: u64,
    pos: [f64; 3],
    vel: [f32; 3],
    mass: f32,
    charge: i8,
}

fn particles(s: &Snapshot) -> Vec<Particle> {
    (0..s.id.len())
        .map(|i| Particle {
            id: s.id[i],
            pos: s.pos[i],
            vel: s.vel[i],
            mass: s.mass[i],
            charge: (i % 7) as i8 - 3,
        })
        .collect()
}

fn snapshot(n: usize) -> Snapshot {
    let idx = 0..n;
    Snapshot {
        id: idx.clone().map(|i| i as u64 * 7919).collect(),
        pos: idx
            .clone()
            .map(|i| {
                let x = i as f64;
                [x * 0.25, -x, x + 0.5]
            })
            .collect(),
        vel: idx
            .clone()
            .map(|i| [(i % 1000) as f32 * 0.5, 1.25, -2.0])
            .collect(),
        mass: idx.map(|i| (i % 97) as f32 + 0.75).collect(),
    }
}

fn write(s: &Snapshot, compressed: bool) -> Result<Vec<u8>, npy_serde::Error> {
    let mut w = npy_serde::npz::NpzWriter::new(Cursor::new(Vec::new())).compressed(compressed);
    w.add("id", &s.id)?;
    w.add("pos", &s.pos)?;
    w.add("vel", &s.vel)?;
    w.add("mass", &s.mass)?;
    Ok(w.finish()?.into_inner())
}

fn main() -> Result<(), npy_serde::Error> {
    let args: Vec<String> = std::env::args().collect();
    let op = args.get(1).map_or("read_deflated", String::as_str);
    let n: usize = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let reps: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(10);
    let snap = snapshot(n);
    let stored = write(&snap, false)?;
    let deflated = write(&snap, true)?;
    let recs = particles(&snap);
    let mut columns = Cursor::new(Vec::new());
    npy_serde::npz::to_writer(&mut columns, &recs)?;
    let columns = columns.into_inner();
    let t = std::time::Instant::now();
    for _ in 0..reps {
        match op {
            "write_stored" => assert!(write(&snap, false)? == stored),
            "write_deflated" => assert!(write(&snap, true)?.len() == deflated.len()),
            "read_stored" => {
                let back: Snapshot = npy_serde::npz::from_reader(Cursor::new(&stored[..]))?;
                assert!(back == snap);
            }
            "read_deflated" => {
                let back: Snapshot = npy_serde::npz::from_reader(Cursor::new(&deflated[..]))?;
                assert!(back == snap);
            }
            "write_columns" => {
                let mut out = Cursor::new(Vec::new());
                npy_serde::npz::to_writer(&mut out, &recs)?;
                assert!(out.into_inner() == columns);
            }
            "read_columns" => {
                let back: Vec<Particle> = npy_serde::npz::from_reader(Cursor::new(&columns[..]))?;
                assert!(back == recs);
            }
            "inflate" => {
                let mut z = npy_serde::npz::NpzReader::new(Cursor::new(&deflated[..]))?;
                let mut total = 0;
                for k in ["id", "pos", "vel", "mass"] {
                    let mut member = z.reader(k)?.into_inner();
                    total += std::io::copy(&mut member, &mut std::io::sink())?;
                }
                assert!(total == 48 * n as u64);
            }
            other => panic!("unknown op {other}"),
        }
    }
    let per = t.elapsed().as_secs_f64() * 1e3 / reps.max(1) as f64;
    println!(
        "{op}: {n} records x {reps}, {per:.1} ms per run; stored {} bytes, deflated {} bytes",
        stored.len(),
        deflated.len()
    );
    Ok(())
}
