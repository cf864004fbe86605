//! A profiling target: one operation of `tests/benches/npy.rs` on one data set,
//! repeated, for instruction counts under callgrind (`bench/instr`).
//!
//! `prof DATASET OP N REPS`: builds `N` records of `DATASET` (`particle`,
//! `particle_be` (the same records in a big-endian file: read operations),
//! `narrow`, `wide`, `tagged`, `f64`, `f32x3`) and the file bytes once, then
//! runs `OP` (`to_vec`, `to_writer` into a reused `Vec`, `npywriter` into a
//! reused `Vec`, `from_slice`, `from_reader` over a `BufReader` on a slice,
//! `iter` for the `NpyReader::deserialize` iterator; for `f64` and `f32x3`
//! also `bulk` = `from_slice` and `bulk_reader` = `from_reader` into
//! `npy_serde::Bulk<T>`, and `from_slice_be` / `bulk_be` of the same values
//! stored big-endian) `REPS` times. Two runs
//! with different `REPS` differ by exactly the operation's cost, so
//! `bench/instr` divides that difference by the records processed. Every
//! run checks its result against the input, so a wrong fast path shows.

use std::io::{BufReader, Cursor};

use npy_serde::{
    Bulk, ByteOrder, Datetime64, Dtype, NpyReader, NpyWriter, Scalar, WriteOptions, unit,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
struct Particle {
    id: u64,
    pos: [f64; 3],
    vel: [f32; 3],
    mass: f32,
    charge: i8,
}

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
struct Narrow {
    a: u8,
    b: i16,
}

macro_rules! wide {
    ($($f:ident)*) => {
        /// 64 `f64` fields.
        #[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
        struct Wide { $($f: f64,)* }
        impl Wide {
            fn make(i: usize) -> Self {
                let mut k = 0.0;
                $(k += 1.0; let $f = i as f64 * 0.5 + k;)*
                Wide { $($f,)* }
            }
        }
    };
}

wide!(f00 f01 f02 f03 f04 f05 f06 f07 f08 f09 f10 f11 f12 f13 f14 f15
      f16 f17 f18 f19 f20 f21 f22 f23 f24 f25 f26 f27 f28 f29 f30 f31
      f32 f33 f34 f35 f36 f37 f38 f39 f40 f41 f42 f43 f44 f45 f46 f47
      f48 f49 f50 f51 f52 f53 f54 f55 f56 f57 f58 f59 f60 f61 f62 f63);

/// `U16` + `S8` + `M8[ns]`.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Tagged {
    name: String,
    #[serde(with = "serde_bytes")]
    code: Vec<u8>,
    t: Datetime64<unit::ns>,
}

/// The check of what a read gave back: out of line, so that its cost per
/// record stays the same whatever the library's code lets the compiler
/// inline around it (an inlined compare once moved by 1-2 instructions
/// per record between versions that read identically).
#[inline(never)]
fn same<T: PartialEq>(back: &[T], recs: &[T]) -> bool {
    back == recs
}

fn run<T>(op: &str, recs: &[T], reps: usize) -> Result<(), npy_serde::Error>
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug + Send + Sync,
{
    run_file(op, recs, npy_serde::to_vec(recs)?, reps)
}

/// [`run`] over given file bytes (another dtype than the inferred one,
/// e.g. big-endian): every operation reads or writes those bytes.
fn run_file<T>(op: &str, recs: &[T], bytes: Vec<u8>, reps: usize) -> Result<(), npy_serde::Error>
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug + Send + Sync,
{
    let mut reused = Vec::with_capacity(bytes.len());
    for _ in 0..reps {
        match op {
            "to_vec" => assert_eq!(npy_serde::to_vec(recs)?, bytes),
            #[cfg(feature = "rayon")]
            "par_to_vec" => assert_eq!(npy_serde::par_to_vec(recs)?, bytes),
            "to_writer" => {
                reused.clear();
                npy_serde::to_writer(&mut reused, recs)?;
                assert_eq!(reused, bytes);
            }
            "npywriter" => {
                reused.clear();
                let mut w = NpyWriter::new(Cursor::new(&mut reused))?;
                for r in recs {
                    w.serialize(r)?;
                }
                w.finish()?;
                assert_eq!(reused, bytes);
            }
            "from_slice" => assert!(same(&npy_serde::from_slice::<Vec<T>>(&bytes)?, recs)),
            // with `--features rayon`; RAYON_NUM_THREADS=1 counts one thread's share
            #[cfg(feature = "rayon")]
            "par_from_slice" => assert!(same(&npy_serde::par_from_slice::<T>(&bytes)?, recs)),
            "from_reader" => {
                let back: Vec<T> = npy_serde::from_reader(BufReader::new(&bytes[..]))?;
                assert!(same(&back, recs));
            }
            "iter" => {
                let mut r = NpyReader::new(BufReader::new(&bytes[..]))?;
                let mut i = 0;
                for rec in r.deserialize::<T>() {
                    assert!(rec? == recs[i]);
                    i += 1;
                }
                assert_eq!(i, recs.len());
            }
            other => panic!("unknown operation {other}"),
        }
    }
    Ok(())
}

/// The typed bulk path (`Bulk<T>`) for plain numeric arrays; the other
/// operations go to [`run`].
fn run_plain<T>(op: &str, recs: &[T], reps: usize) -> Result<(), npy_serde::Error>
where
    T: npy_serde::bulk::Element + PartialEq + std::fmt::Debug + Send + Sync,
{
    let bytes = npy_serde::to_vec(recs)?;
    match op {
        "bulk" => {
            for _ in 0..reps {
                let back: Bulk<T> = npy_serde::from_slice(&bytes)?;
                assert!(same(&back, recs));
            }
            Ok(())
        }
        "bulk_reader" => {
            for _ in 0..reps {
                let back: Bulk<T> = npy_serde::from_reader(BufReader::new(&bytes[..]))?;
                assert!(same(&back, recs));
            }
            Ok(())
        }
        // the same values stored big-endian ('>f8'), into serde's Vec<T>
        // and into Bulk<T>
        "from_slice_be" | "bulk_be" => {
            let dtype = NpyReader::new(&bytes[..])?.dtype().clone();
            let s = dtype.as_scalar().expect("a plain array");
            let be = Dtype::Scalar(Scalar::new(s.ty(), ByteOrder::Big));
            let be = WriteOptions::new().dtype(be).to_vec(recs)?;
            for _ in 0..reps {
                if op == "bulk_be" {
                    let back: Bulk<T> = npy_serde::from_slice(&be)?;
                    assert!(same(&back, recs));
                } else {
                    assert!(same(&npy_serde::from_slice::<Vec<T>>(&be)?, recs));
                }
            }
            Ok(())
        }
        _ => run(op, recs, reps),
    }
}

fn particles(n: usize) -> Vec<Particle> {
    (0..n)
        .map(|i| {
            let x = i as f64;
            Particle {
                id: i as u64 * 7919,
                pos: [x * 0.25, -x, x + 0.5],
                vel: [(i % 1000) as f32 * 0.5, 1.25, -2.0],
                mass: (i % 97) as f32 + 0.75,
                charge: (i % 7) as i8 - 3,
            }
        })
        .collect()
}

fn main() -> Result<(), npy_serde::Error> {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize| args.get(i).map(String::as_str).unwrap_or("");
    let (set, op) = (arg(1), arg(2));
    let n: usize = arg(3).parse().unwrap_or(10_000);
    let reps: usize = arg(4).parse().unwrap_or(1);
    match set {
        "particle" => run(op, &particles(n), reps),
        "particle_be" => {
            // the same records in a big-endian file (read operations)
            let recs = particles(n);
            let be = "[('id', '>u8'), ('pos', '>f8', (3,)), ('vel', '>f4', (3,)), \
                      ('mass', '>f4'), ('charge', 'i1')]";
            let bytes = WriteOptions::new().dtype(be.parse()?).to_vec(&recs)?;
            run_file(op, &recs, bytes, reps)
        }
        "narrow" => {
            let recs: Vec<Narrow> = (0..n)
                .map(|i| Narrow {
                    a: i as u8,
                    b: (i as i16).wrapping_mul(31),
                })
                .collect();
            run(op, &recs, reps)
        }
        "wide" => run(op, &(0..n).map(Wide::make).collect::<Vec<_>>(), reps),
        "tagged" => {
            let recs: Vec<Tagged> = (0..n)
                .map(|i| Tagged {
                    name: if i == 0 {
                        "sixteen-chars-éé".to_string()
                    } else {
                        format!("rec-{}", i % 100_000)
                    },
                    code: if i == 0 {
                        b"ABCDEFGH".to_vec()
                    } else {
                        format!("c{}", i % 1000).into_bytes()
                    },
                    t: Datetime64::new(1_700_000_000_000_000_000 + i as i64),
                })
                .collect();
            run(op, &recs, reps)
        }
        "f64" => run_plain(
            op,
            &(0..n).map(|i| i as f64 * 0.5).collect::<Vec<_>>(),
            reps,
        ),
        "f32x3" => {
            let recs: Vec<[f32; 3]> = (0..n)
                .map(|i| [i as f32, -(i as f32), 0.5 + i as f32])
                .collect();
            run_plain(op, &recs, reps)
        }
        other => panic!("unknown data set {other:?}"),
    }
}
