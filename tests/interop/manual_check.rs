//! Writes a few files for a manual numpy load check (run with
//! `NPY_SERDE_CHECK_DIR=dir cargo test -p tests --test interop manual_check -- --ignored`, then
//! load them in numpy); ignored by default since numpy is not a dependency.

use npy_serde::{Datetime64, NpyWriter, Padding, WriteOptions, to_vec, unit};
use num_complex::Complex;
use serde::Serialize;

#[derive(Serialize)]
struct Body {
    pos: [f64; 3],
    tag: char,
}

#[derive(Serialize)]
struct Rec {
    id: u64,
    name: String,
    body: Body,
    #[serde(with = "npy_serde::complex")]
    z: Complex<f32>,
    t: Datetime64<unit::us>,
    _pad: Padding<3>,
    grid: [[i16; 2]; 3],
    ok: bool,
}

fn recs() -> Vec<Rec> {
    (0..4)
        .map(|i| Rec {
            id: i,
            name: "ünïcode".chars().take(i as usize + 1).collect(),
            body: Body {
                pos: [i as f64, -0.5, 1e10],
                tag: 'λ',
            },
            z: Complex::new(i as f32, -1.0),
            t: if i == 2 {
                Datetime64::NAT
            } else {
                Datetime64::new(i as i64 * 1_000_000)
            },
            _pad: Padding,
            grid: [[1, 2], [3, 4], [5, i as i16]],
            ok: i % 2 == 0,
        })
        .collect()
}

#[test]
#[ignore]
fn write_files_for_numpy() {
    let Ok(dir) = std::env::var("NPY_SERDE_CHECK_DIR") else {
        return;
    };
    let dir = std::path::Path::new(&dir);
    let bytes = to_vec(&recs()).unwrap();
    std::fs::write(dir.join("recs.npy"), &bytes).unwrap();
    let (header, _) =
        npy_serde::Header::from_bytes(&bytes, &npy_serde::ReadOptions::new()).unwrap();
    std::fs::write(
        dir.join("recs_aligned.npy"),
        WriteOptions::new().align(true).to_vec(&recs()).unwrap(),
    )
    .unwrap();
    let cube: Vec<Vec<Vec<f32>>> = (0..2)
        .map(|i| {
            (0..3)
                .map(|j| (0..4).map(|k| (i * 12 + j * 4 + k) as f32).collect())
                .collect()
        })
        .collect();
    std::fs::write(
        dir.join("cube_f.npy"),
        WriteOptions::new()
            .fortran_order(true)
            .to_vec(&cube)
            .unwrap(),
    )
    .unwrap();
    let file = std::fs::File::create(dir.join("stream.npy")).unwrap();
    // string widths vary: give the dtype (NpyWriter::new would take the first record's)
    let mut w = NpyWriter::with_dtype(file, header.descr).unwrap();
    for r in recs() {
        w.serialize(&r).unwrap();
    }
    w.finish().unwrap();
}
