//! Cookbook: `.npz` archives, as columns of a `Vec` of records and as a
//! struct of arrays.
//!
//! ```sh
//! cargo run --example npz_columns -- OUTDIR   # default: a fresh temp dir
//! ```

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Star {
    id: u32,
    pos: [f64; 3],
    mag: f32,
}

/// Struct of arrays: one member per field.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Catalog {
    epoch: f64,
    ids: Vec<u32>,
    pos: Vec<[f64; 3]>,
    names: Vec<String>,
}

fn out_dir() -> std::io::Result<PathBuf> {
    let dir = match std::env::args().nth(1) {
        Some(d) => PathBuf::from(d),
        None => std::env::temp_dir().join(format!("npy_serde_npz_columns_{}", std::process::id())),
    };
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// Prints each member's name, dtype and shape.
fn list(dir: &Path, name: &str) -> npy_serde::Result<()> {
    let file = std::io::BufReader::new(std::fs::File::open(dir.join(name))?);
    let mut z = npy_serde::npz::NpzReader::new(file)?;
    println!("{name}: members {:?}", z.names());
    for key in z.names().to_vec() {
        let r = z.reader(&key)?;
        println!("  {key}: dtype {}, shape {:?}", r.dtype(), r.shape());
    }
    Ok(())
}

fn main() -> npy_serde::Result<()> {
    let dir = out_dir()?;
    let stars: Vec<Star> = (0..5u8)
        .map(|i| Star {
            id: u32::from(i) + 1,
            pos: [f64::from(i), 0.5, -f64::from(i)],
            mag: 4.0 + f32::from(i) / 4.0,
        })
        .collect();

    // Columns: np.load('stars.npz')['pos'] is a (5, 3) float array.
    npy_serde::npz::to_path(dir.join("stars.npz"), &stars)?;
    list(&dir, "stars.npz")?;
    let back: Vec<Star> = npy_serde::npz::from_path(dir.join("stars.npz"))?;
    println!(
        "  zipped back into {} records, equal: {}",
        back.len(),
        back == stars
    );

    // Struct of arrays: a member per field, even a 0-d one for `epoch`.
    let catalog = Catalog {
        epoch: 2000.0,
        ids: stars.iter().map(|s| s.id).collect(),
        pos: stars.iter().map(|s| s.pos).collect(),
        names: ["Vega", "Deneb", "Altair", "Mira", "Algol"]
            .map(String::from)
            .to_vec(),
    };
    npy_serde::npz::to_path(dir.join("catalog.npz"), &catalog)?;
    list(&dir, "catalog.npz")?;
    let back: Catalog = npy_serde::npz::from_path(dir.join("catalog.npz"))?;
    println!("  read back, equal: {}", back == catalog);
    Ok(())
}
