//! Peak memory (and a profiling target) for `bench/compare`.
//!
//! `bench_rss MODE N [PATH]` runs one operation on `N` `Particle` records
//! and prints one JSON line: the peak RSS (`VmHWM`) before and after the
//! operation and the size it is compared with.
//!
//! Modes: `to_vec` (output size), `from_slice` (the decoded `Vec`),
//! `stream_write` (an `NpyWriter` into `BufWriter<File>` at PATH, records
//! made one at a time, never held), `stream_read` (an `NpyReader` iterator
//! over PATH, records dropped as they come), `from_path` (the records
//! streamed to PATH first, then `from_path::<Vec<Particle>>` of it: the
//! decoded `Vec`), `write_ops` / `read_ops`
//! (`to_vec` / `from_slice` once, for callgrind), `writer_ops` (`to_writer`
//! into `BufWriter<File>` at PATH), `f64_write` / `f64_read`
//! (the same on a `Vec<f64>`).

use std::fs::File;
use std::io::{BufReader, BufWriter};

use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
struct Particle {
    id: u64,
    pos: [f64; 3],
    vel: [f32; 3],
    mass: f32,
    charge: i8,
}

fn particle(i: usize) -> Particle {
    let x = i as f64;
    Particle {
        id: i as u64 * 7919,
        pos: [x * 0.25, -x, x + 0.5],
        vel: [(i % 1000) as f32 * 0.5, 1.25, -2.0],
        mass: (i % 97) as f32 + 0.75,
        charge: (i % 7) as i8 - 3,
    }
}

/// Peak resident set size so far, in bytes.
fn hwm() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

fn main() -> Result<(), npy_serde::Error> {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map_or("to_vec", String::as_str);
    let n: usize = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let path = args
        .get(3)
        .cloned()
        .unwrap_or_else(|| "/tmp/bench_rss.npy".into());
    let (before, after, compared) = match mode {
        "to_vec" => {
            let recs: Vec<Particle> = (0..n).map(particle).collect();
            let before = hwm();
            let bytes = npy_serde::to_vec(&recs)?;
            (before, hwm(), bytes.len() as u64)
        }
        "from_slice" => {
            // the file's bytes, made without holding the records
            let mut w = npy_serde::NpyWriter::new(std::io::Cursor::new(Vec::new()))?;
            for i in 0..n {
                w.serialize(&particle(i))?;
            }
            let bytes = w.finish()?.into_inner();
            let before = hwm();
            let back: Vec<Particle> = npy_serde::from_slice(&bytes)?;
            let size = (back.len() * std::mem::size_of::<Particle>()) as u64;
            (before, hwm(), size)
        }
        "from_path" => {
            // the file, written without holding the records
            let mut w = npy_serde::NpyWriter::new(BufWriter::new(File::create(&path)?))?;
            for i in 0..n {
                w.serialize(&particle(i))?;
            }
            w.finish()?;
            let before = hwm();
            let back: Vec<Particle> = npy_serde::from_path(&path)?;
            assert_eq!(back.len(), n);
            let size = (back.len() * std::mem::size_of::<Particle>()) as u64;
            (before, hwm(), size)
        }
        "stream_write" => {
            let before = hwm();
            let mut w = npy_serde::NpyWriter::new(BufWriter::new(File::create(&path)?))?;
            for i in 0..n {
                w.serialize(&particle(i))?;
            }
            w.finish()?;
            let size = std::fs::metadata(&path)?.len();
            (before, hwm(), size)
        }
        "stream_read" => {
            let before = hwm();
            let mut r = npy_serde::NpyReader::new(BufReader::new(File::open(&path)?))?;
            let mut count = 0u64;
            for p in r.deserialize::<Particle>() {
                std::hint::black_box(p?);
                count += 1;
            }
            assert_eq!(count, n as u64);
            (before, hwm(), std::fs::metadata(&path)?.len())
        }
        "write_ops" => {
            let recs: Vec<Particle> = (0..n).map(particle).collect();
            let bytes = npy_serde::to_vec(&recs)?;
            (0, 0, bytes.len() as u64)
        }
        "read_ops" => {
            let recs: Vec<Particle> = (0..n).map(particle).collect();
            let bytes = npy_serde::to_vec(&recs)?;
            let back: Vec<Particle> = npy_serde::from_slice(&bytes)?;
            assert!(back == recs);
            (0, 0, bytes.len() as u64)
        }
        "writer_ops" => {
            let recs: Vec<Particle> = (0..n).map(particle).collect();
            let before = hwm();
            npy_serde::to_writer(BufWriter::new(File::create(&path)?), &recs)?;
            (before, hwm(), std::fs::metadata(&path)?.len())
        }
        "f64_write" => {
            let xs: Vec<f64> = (0..n).map(|i| i as f64 * 0.5).collect();
            let bytes = npy_serde::to_vec(&xs)?;
            (0, 0, bytes.len() as u64)
        }
        "f64_read" => {
            let xs: Vec<f64> = (0..n).map(|i| i as f64 * 0.5).collect();
            let bytes = npy_serde::to_vec(&xs)?;
            let back: Vec<f64> = npy_serde::from_slice(&bytes)?;
            assert!(back == xs);
            (0, 0, bytes.len() as u64)
        }
        other => panic!("unknown mode {other}"),
    };
    println!(
        "{{\"mode\": \"{mode}\", \"n\": {n}, \"hwm_before\": {before}, \"hwm_after\": {after}, \"compared\": {compared}}}"
    );
    Ok(())
}
