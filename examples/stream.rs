//! Cookbook: stream 100000 records to disk and back, one record in memory
//! at a time.
//!
//! ```sh
//! cargo run --example stream -- OUTDIR   # default: a fresh temp dir
//! ```

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
struct Sample {
    t: u32,
    value: f64,
    ok: bool,
}

const N: u32 = 100_000;

fn out_dir() -> std::io::Result<PathBuf> {
    let dir = match std::env::args().nth(1) {
        Some(d) => PathBuf::from(d),
        None => std::env::temp_dir().join(format!("npy_serde_stream_{}", std::process::id())),
    };
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

fn main() -> npy_serde::Result<()> {
    let dir = out_dir()?;
    let path = dir.join("samples.npy");

    // Write: the header is written first with length 0 and patched by finish().
    let mut w = npy_serde::NpyWriter::new(BufWriter::new(File::create(&path)?))?;
    for t in 0..N {
        let value = f64::from(t % 1000) * 0.5;
        w.serialize(&Sample {
            t,
            value,
            ok: t % 3 != 0,
        })?;
    }
    let mut file = w.finish()?;
    file.flush()?;
    drop(file);
    println!(
        "wrote samples.npy: {} bytes",
        std::fs::metadata(&path)?.len()
    );

    // Read: the header first, then one record at a time.
    let mut r = npy_serde::NpyReader::new(BufReader::new(File::open(&path)?))?;
    println!("header: {}", r.header());
    let (mut count, mut t_sum, mut value_sum, mut ok) = (0u64, 0u64, 0f64, 0u64);
    for s in r.deserialize::<Sample>() {
        let s = s?;
        count += 1;
        t_sum += u64::from(s.t);
        value_sum += s.value;
        ok += u64::from(s.ok);
    }
    println!("read {count} records: sum(t) = {t_sum}, sum(value) = {value_sum}, ok = {ok}");
    Ok(())
}
