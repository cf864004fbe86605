//! The main job in one file: write `particles.npy` and `snapshot.npz` from
//! derived structs, read them back, and print how to open them in Python.
//!
//! ```sh
//! cargo run --example quickstart            # writes into a fresh temp dir
//! cargo run --example quickstart -- OUTDIR  # or into OUTDIR
//! ```

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// One record of `particles.npy`: numpy sees
/// `[('id', '<u8'), ('pos', '<f8', (3,)), ('vel', '<f4', (3,)), ('mass', '<f4'), ('charge', '|i1')]`.
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Particle {
    id: u64,
    pos: [f64; 3],
    vel: [f32; 3],
    mass: f32,
    charge: i8,
}

/// `snapshot.npz`: one member per field.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Snapshot {
    time: f64,
    ids: Vec<u64>,
    positions: Vec<[f64; 3]>,
}

fn main() -> npy_serde::Result<()> {
    let dir = match std::env::args().nth(1) {
        Some(d) => PathBuf::from(d),
        None => std::env::temp_dir().join(format!("npy_serde_quickstart_{}", std::process::id())),
    };
    std::fs::create_dir_all(&dir)?;
    let particles: Vec<Particle> = (0..4u8)
        .map(|i| Particle {
            id: u64::from(i) + 100,
            pos: [f64::from(i), f64::from(i) * 0.5, -1.0],
            vel: [0.25, 0.0, f32::from(i)],
            mass: 1.0 + f32::from(i),
            charge: if i % 2 == 0 { 1 } else { -1 },
        })
        .collect();

    let npy_path = dir.join("particles.npy");
    npy_serde::to_path(&npy_path, &particles)?;
    let back: Vec<Particle> = npy_serde::from_path(&npy_path)?;
    assert_eq!(back, particles);
    let reader = npy_serde::NpyReader::new(std::fs::File::open(&npy_path)?)?;
    println!("wrote {} ({} records)", npy_path.display(), back.len());
    println!("  header: {}", reader.header());
    println!("  read back {} records, first: {:?}", back.len(), back[0]);

    let snapshot = Snapshot {
        time: 12.5,
        ids: particles.iter().map(|p| p.id).collect(),
        positions: particles.iter().map(|p| p.pos).collect(),
    };
    let npz_path = dir.join("snapshot.npz");
    npy_serde::npz::to_path(&npz_path, &snapshot)?;
    let back: Snapshot = npy_serde::npz::from_path(&npz_path)?;
    assert_eq!(back, snapshot);
    let archive = npy_serde::npz::NpzReader::new(std::fs::File::open(&npz_path)?)?;
    let names = archive.names();
    println!("wrote {} (members {names:?})", npz_path.display());
    println!(
        "  read back: time {}, {} ids, {} positions",
        back.time,
        back.ids.len(),
        back.positions.len()
    );

    println!();
    println!("open them in Python:");
    println!(
        "  python3 -c \"import numpy as np; a = np.load('{}'); z = np.load('{}'); print(a.dtype, a['pos'], z['positions'])\"",
        npy_path.display(),
        npz_path.display()
    );
    Ok(())
}
