//! Cookbook: derived structs to an `.npy` record array.
//!
//! ```sh
//! cargo run --example write_records -- OUTDIR   # default: a fresh temp dir
//! ```
//!
//! Field order is declaration order; `String` becomes `<Un` (n = longest
//! value), arrays become subarray fields, nested structs nested records.

use std::path::PathBuf;

use serde::Serialize;

#[derive(Serialize)]
struct Location {
    lat: f64,
    lon: f64,
}

#[derive(Serialize)]
struct Station {
    id: u32,
    name: String,
    active: bool,
    /// Hourly temperatures in K.
    temps: [f32; 4],
    at: Location,
}

fn out_dir() -> std::io::Result<PathBuf> {
    let dir = match std::env::args().nth(1) {
        Some(d) => PathBuf::from(d),
        None => {
            std::env::temp_dir().join(format!("npy_serde_write_records_{}", std::process::id()))
        }
    };
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

fn main() -> npy_serde::Result<()> {
    let dir = out_dir()?;
    let stations = vec![
        Station {
            id: 1,
            name: "Lindenberg".into(),
            active: true,
            temps: [271.5, 272.0, 273.25, 274.0],
            at: Location {
                lat: 52.21,
                lon: 14.12,
            },
        },
        Station {
            id: 2,
            name: "Zugspitze".into(),
            active: false,
            temps: [258.0, 257.5, 257.0, 256.75],
            at: Location {
                lat: 47.42,
                lon: 10.98,
            },
        },
    ];
    let path = dir.join("stations.npy");
    npy_serde::to_path(&path, &stations)?;

    let reader = npy_serde::NpyReader::new(std::fs::File::open(&path)?)?;
    println!(
        "wrote stations.npy: {} records of {} bytes, {} bytes in all",
        reader.len(),
        reader.dtype().itemsize(),
        std::fs::metadata(&path)?.len()
    );
    println!("header: {}", reader.header());
    println!("in Python: np.load('stations.npy')['at']['lat'] is the column of latitudes");
    Ok(())
}
