//! Cookbook: choosing the dtype yourself: `align=True`, titles, byte
//! order, and the special types (complex, datetime64, float16).
//!
//! ```sh
//! cargo run --all-features --example explicit_dtype -- OUTDIR   # default: a fresh temp dir
//! ```
//!
//! `half::f16` needs the `half` feature; without it that part is skipped.

use std::path::{Path, PathBuf};

use npy_serde::{Datetime64, Dtype, ScalarType, Timedelta64, WriteOptions, unit};
use num_complex::Complex;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Event {
    kind: u8,
    energy: f64,
    channel: u16,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Measurement {
    #[serde(with = "npy_serde::complex")]
    impedance: Complex<f64>,
    #[serde(with = "npy_serde::complex")]
    gain: Complex<f32>,
    at: Datetime64<unit::ms>,
    took: Timedelta64<unit::us>,
}

fn out_dir() -> std::io::Result<PathBuf> {
    let dir = match std::env::args().nth(1) {
        Some(d) => PathBuf::from(d),
        None => {
            std::env::temp_dir().join(format!("npy_serde_explicit_dtype_{}", std::process::id()))
        }
    };
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// Writes `bytes` to `dir/name` and prints the file's dtype.
fn save(dir: &Path, name: &str, bytes: Vec<u8>) -> npy_serde::Result<()> {
    std::fs::write(dir.join(name), &bytes)?;
    let r = npy_serde::NpyReader::new(&bytes[..])?;
    println!(
        "{name}: itemsize {}, dtype {}",
        r.dtype().itemsize(),
        r.dtype()
    );
    Ok(())
}

fn main() -> npy_serde::Result<()> {
    let dir = out_dir()?;
    let events = vec![
        Event {
            kind: 1,
            energy: 13.5,
            channel: 7,
        },
        Event {
            kind: 2,
            energy: 0.25,
            channel: 9,
        },
    ];

    // Packed, as numpy's default.
    save(&dir, "packed.npy", npy_serde::to_vec(&events)?)?;
    // Like a C struct: np.dtype([...], align=True).
    save(
        &dir,
        "aligned.npy",
        WriteOptions::new().align(true).to_vec(&events)?,
    )?;

    // Titles and byte order through the Dtype builder.
    let be = |s: &str| s.parse::<Dtype>();
    let dtype = Dtype::record()
        .field("kind", Dtype::scalar(ScalarType::UInt(1)))
        .titled_field("Energy in MeV", "energy", be(">f8")?)
        .field("channel", be(">u2")?)
        .build()?;
    save(
        &dir,
        "titled.npy",
        WriteOptions::new().dtype(dtype).to_vec(&events)?,
    )?;
    let back: Vec<Event> = npy_serde::from_path(dir.join("titled.npy"))?;
    println!("  titled.npy reads back equal: {}", back == events);

    // complex64/complex128 and datetime64/timedelta64.
    let m = vec![Measurement {
        impedance: Complex::new(50.0, -3.5),
        gain: Complex::new(0.5, 0.25),
        at: Datetime64::new(1_700_000_000_250),
        took: Timedelta64::new(1_500),
    }];
    save(&dir, "special.npy", npy_serde::to_vec(&m)?)?;
    let back: Vec<Measurement> = npy_serde::from_path(dir.join("special.npy"))?;
    println!("  special.npy reads back: {:?}", back[0]);
    // Reading in another unit converts exactly or fails: 250 ms are not whole seconds.
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct InSeconds {
        at: Datetime64<unit::s>,
    }
    let err = npy_serde::from_path::<Vec<InSeconds>>(dir.join("special.npy")).unwrap_err();
    println!("  reading 'at' in seconds: {err}");

    half_floats(&dir)
}

#[cfg(feature = "half")]
fn half_floats(dir: &Path) -> npy_serde::Result<()> {
    let values: Vec<half::f16> = [0.5f32, 1.0, 65504.0].map(half::f16::from_f32).to_vec();
    save(dir, "half.npy", npy_serde::to_vec(&values)?)?;
    let back: Vec<f32> = npy_serde::from_path(dir.join("half.npy"))?;
    println!("  half.npy as f32: {back:?}");
    Ok(())
}

#[cfg(not(feature = "half"))]
fn half_floats(_: &Path) -> npy_serde::Result<()> {
    println!("half.npy: skipped (build with --features half)");
    Ok(())
}
