//! Cookbook: read a file whose layout is not yours.
//!
//! ```sh
//! cargo run --example read_any_order -- OUTDIR   # default: a fresh temp dir
//! ```
//!
//! Another program wrote the fields in another order, big-endian, with a
//! title, padding, a narrower integer and an extra column. Fields are
//! matched by name, so a struct with only the fields it needs reads it.
//! (The "other program" is played by `WriteOptions::dtype`.)

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// What the other program wrote.
#[derive(Serialize)]
struct Theirs {
    flags: u8,
    energy: f64,
    id: i32,
}

/// What we want: other order, wider id, no `flags`.
#[derive(Deserialize)]
struct Mine {
    id: i64,
    energy: f64,
}

fn out_dir() -> std::io::Result<PathBuf> {
    let dir = match std::env::args().nth(1) {
        Some(d) => PathBuf::from(d),
        None => {
            std::env::temp_dir().join(format!("npy_serde_read_any_order_{}", std::process::id()))
        }
    };
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

fn main() -> npy_serde::Result<()> {
    let dir = out_dir()?;
    let dtype: npy_serde::Dtype =
        "[('flags', '|u1'), ('', '|V3'), (('Energy in eV', 'energy'), '>f8'), ('id', '>i4')]"
            .parse()?;
    let theirs = vec![
        Theirs {
            flags: 3,
            energy: 1.5,
            id: 7,
        },
        Theirs {
            flags: 0,
            energy: -0.25,
            id: 8,
        },
        Theirs {
            flags: 1,
            energy: 1e3,
            id: 9,
        },
    ];
    let path = dir.join("theirs.npy");
    std::fs::write(
        &path,
        npy_serde::WriteOptions::new()
            .dtype(dtype)
            .to_vec(&theirs)?,
    )?;

    let reader = npy_serde::NpyReader::new(std::fs::File::open(&path)?)?;
    println!("theirs.npy has dtype {}", reader.dtype());
    let mine: Vec<Mine> = npy_serde::from_path(&path)?;
    for m in &mine {
        println!("id {} energy {}", m.id, m.energy);
    }

    // A field the file lacks is serde's `missing field` error, with the record.
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct NeedsMass {
        id: i64,
        mass: f64,
    }
    let err = npy_serde::from_path::<Vec<NeedsMass>>(&path).unwrap_err();
    println!("reading a struct with a field the file lacks: {err}");
    Ok(())
}
