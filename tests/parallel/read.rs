//! `par_from_slice` and `par_from_path` against `from_slice::<Vec<T>>` and
//! `from_path::<Vec<T>>`: the same values, and when a record fails, the
//! same error (same record index, same message), wherever the failure is:
//! the first chunk, a middle one, the last, either side of a boundary.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use npy_serde::{ReadOptions, WriteOptions};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// 64 bytes a record: a chunk (256 KiB) is 4096 records.
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Rec {
    id: u64,
    pos: [f64; 3],
    v: [f32; 3],
    tag: i32,
    flag: u8,
    pad: [u8; 7],
}

/// The same layout, read back with `tag` as `u32`: a negative tag fails.
#[derive(Deserialize, Debug, PartialEq)]
struct Strict {
    id: u64,
    pos: [f64; 3],
    v: [f32; 3],
    tag: u32,
    flag: u8,
}

const CHUNK_RECORDS: usize = 4096;

fn rec(i: usize) -> Rec {
    let x = i as f64;
    Rec {
        id: i as u64 * 7,
        pos: [x, -x, x * 0.5],
        v: [i as f32, 1.5, -2.0],
        tag: i as i32,
        flag: (i % 256) as u8,
        pad: [i as u8; 7],
    }
}

fn records(n: usize) -> Vec<Rec> {
    (0..n).map(rec).collect()
}

pub(crate) fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("npy_serde_parallel_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Both parallel readers agree with the sequential ones on `bytes`, at 1,
/// 2 and 3 threads: the same value or the same error message.
fn agree<T>(bytes: &[u8], name: &str)
where
    T: serde::de::DeserializeOwned + Send + Sync + PartialEq + std::fmt::Debug,
{
    let seq = npy_serde::from_slice::<Vec<T>>(bytes).map_err(|e| e.to_string());
    let path = temp_file(name, bytes);
    let seq_path = npy_serde::from_path::<Vec<T>>(&path).map_err(|e| e.to_string());
    for threads in [1, 2, 3] {
        pool(threads).install(|| {
            let par = npy_serde::par_from_slice::<T>(bytes).map_err(|e| e.to_string());
            assert_eq!(par, seq, "par_from_slice at {threads} thread(s)");
            let par = npy_serde::par_from_path::<T>(&path).map_err(|e| e.to_string());
            assert_eq!(par, seq_path, "par_from_path at {threads} thread(s)");
        });
    }
    std::fs::remove_file(path).unwrap();
}

#[test]
fn many_chunks_read_as_sequentially() {
    let recs = records(5 * CHUNK_RECORDS + 123);
    let bytes = npy_serde::to_vec(&recs).unwrap();
    assert_eq!(npy_serde::par_from_slice::<Rec>(&bytes).unwrap(), recs);
    agree::<Rec>(&bytes, "many.npy");
}

#[test]
fn a_failing_record_gives_the_sequential_error_wherever_it_is() {
    let n = 4 * CHUNK_RECORDS + 10;
    for bad in [
        0,
        1,
        CHUNK_RECORDS - 1,
        CHUNK_RECORDS,
        2 * CHUNK_RECORDS + 17,
        3 * CHUNK_RECORDS,
        n - 1,
    ] {
        let mut recs = records(n);
        recs[bad].tag = -5;
        let bytes = npy_serde::to_vec(&recs).unwrap();
        let err = npy_serde::par_from_slice::<Strict>(&bytes).unwrap_err();
        assert!(
            err.to_string()
                .starts_with(&format!("record {bad}, field tag")),
            "{err}"
        );
        agree::<Strict>(&bytes, "bad.npy");
    }
    // two failures: the first in file order is the one reported
    let mut recs = records(n);
    recs[3 * CHUNK_RECORDS + 1].tag = -1;
    recs[CHUNK_RECORDS + 2].tag = -1;
    let bytes = npy_serde::to_vec(&recs).unwrap();
    let err = npy_serde::par_from_slice::<Strict>(&bytes).unwrap_err();
    assert!(
        err.to_string()
            .starts_with(&format!("record {}, field tag", CHUNK_RECORDS + 2)),
        "{err}"
    );
}

/// Whether [`Panics`] has panicked yet.
static PANICKED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Reads `Rec`'s bytes, panicking at one `id` the first time it is read
/// (its own bug, not bad input): were the panic taken for a failing record,
/// the sequential read that follows would succeed.
#[derive(Debug)]
struct Panics;

impl<'de> Deserialize<'de> for Panics {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let r = Rec::deserialize(d)?;
        if r.id == 7 * 3 * CHUNK_RECORDS as u64 && !PANICKED.swap(true, Ordering::SeqCst) {
            panic!("the type's own panic");
        }
        Ok(Panics)
    }
}

/// A failing record stops the parallel decoding without a panic message
/// (the sequential path then gives its error); a panic of the type's own
/// `Deserialize` is not mistaken for a failing record: it reaches the
/// caller, at one thread and at many.
#[test]
fn a_panic_of_the_type_goes_on_unwinding() {
    let bytes = npy_serde::to_vec(&records(4 * CHUNK_RECORDS)).unwrap();
    for threads in [1, 3] {
        PANICKED.store(false, Ordering::SeqCst);
        let caught = pool(threads)
            .install(|| std::panic::catch_unwind(|| npy_serde::par_from_slice::<Panics>(&bytes)));
        let payload = caught.expect_err("the panic reaches the caller");
        let msg = payload.downcast_ref::<&str>().copied().unwrap_or_default();
        assert_eq!(msg, "the type's own panic");
    }
}

#[test]
fn cut_and_overlong_files_give_the_sequential_errors() {
    let bytes = npy_serde::to_vec(&records(3 * CHUNK_RECORDS)).unwrap();
    for len in [bytes.len() - 1, bytes.len() - 64 * CHUNK_RECORDS, 200] {
        assert!(npy_serde::par_from_slice::<Rec>(&bytes[..len]).is_err());
        agree::<Rec>(&bytes[..len], "cut.npy");
    }
    let mut long = bytes.clone();
    long.extend_from_slice(&[0; 64]);
    // from_slice refuses bytes after the data; from_path does not look at them
    agree::<Rec>(&long, "long.npy");
}

#[test]
fn rows_of_2d_files_in_both_orders_and_byte_orders() {
    let rows: Vec<[f64; 3]> = (0..40_000).map(|i| [i as f64, -(i as f64), 0.25]).collect();
    for descr in ["<f8", ">f8", ">f4", "<f4"] {
        for fortran in [false, true] {
            let opts = WriteOptions::new()
                .dtype(format!("'{descr}'").parse().unwrap())
                .fortran_order(fortran);
            let bytes = opts.to_vec(&rows).unwrap();
            agree::<[f64; 3]>(&bytes, "rows.npy");
            agree::<Vec<f64>>(&bytes, "rows.npy");
            let back = npy_serde::par_from_slice::<[f64; 3]>(&bytes).unwrap();
            assert_eq!(back, rows, "{descr} fortran={fortran}"); // exact in f4 too
        }
    }
}

#[test]
fn small_zero_d_and_empty_files_take_the_sequential_path() {
    agree::<f64>(&npy_serde::to_vec(&1.5f64).unwrap(), "zero_d.npy");
    let f8 = WriteOptions::new().dtype("'<f8'".parse().unwrap());
    agree::<f64>(&f8.to_vec(&Vec::<f64>::new()).unwrap(), "empty.npy");
    agree::<Rec>(&npy_serde::to_vec(&records(10)).unwrap(), "small.npy");
}

#[test]
fn options_apply() {
    let xs: Vec<i64> = (0..200_000).map(|i| (1 << 60) | i).collect();
    let bytes = npy_serde::to_vec(&xs).unwrap();
    let err = npy_serde::par_from_slice::<f64>(&bytes).unwrap_err();
    let seq = npy_serde::from_slice::<Vec<f64>>(&bytes).unwrap_err();
    assert_eq!(err.to_string(), seq.to_string());
    let lossy = ReadOptions::new().lossy(true);
    let want: Vec<f64> = xs.iter().map(|&x| x as f64).collect();
    assert_eq!(lossy.par_from_slice::<f64>(&bytes).unwrap(), want);
    let path = temp_file("lossy.npy", &bytes);
    assert_eq!(lossy.par_from_path::<f64>(&path).unwrap(), want);
    std::fs::remove_file(path).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn random_files_read_as_sequentially(
        n in 1usize..(3 * CHUNK_RECORDS + 50), // 0 records cannot tell their dtype
        bad in proptest::option::of(0usize..(3 * CHUNK_RECORDS + 50)),
        cut in proptest::option::of(0usize..64),
    ) {
        let mut recs = records(n);
        if let Some(b) = bad.filter(|&b| b < n) {
            recs[b].tag = -1;
        }
        let mut bytes = npy_serde::to_vec(&recs).unwrap();
        if let Some(c) = cut {
            bytes.truncate(bytes.len().saturating_sub(c));
        }
        agree::<Strict>(&bytes, "random.npy");
    }
}

/// Large plain-number data in one block (`Bulk`, `NdArray`) is split
/// across the pool's threads: the same values in either byte order, at
/// one thread and at several, for sizes around the split's chunks.
#[test]
fn bulk_blocks_read_the_same_on_every_pool() {
    use npy_serde::{Bulk, NdArray};
    // 512 KiB of f64 is where the split starts; 2 MiB plus one element
    // leaves a short last chunk
    for n in [65_535usize, 65_536, 262_145] {
        let xs: Vec<f64> = (0..n).map(|i| i as f64 * 0.5 - 7.0).collect();
        let rows: Vec<[f32; 3]> = (0..n / 3).map(|i| [i as f32, -1.0, 0.25]).collect();
        for dtype in ["<f8", ">f8"] {
            let opts = WriteOptions::new().dtype(dtype.parse().unwrap());
            let bytes = opts.to_vec(&xs).unwrap();
            let f4 = if dtype == "<f8" { "<f4" } else { ">f4" };
            let row_bytes = WriteOptions::new()
                .dtype(f4.parse().unwrap())
                .to_vec(&rows)
                .unwrap();
            for threads in [1, 3] {
                pool(threads).install(|| {
                    let bulk: Bulk<f64> = npy_serde::from_slice(&bytes).unwrap();
                    assert_eq!(*bulk, xs, "{n} {dtype} {threads}");
                    let nd: NdArray<f64> = npy_serde::from_slice(&bytes).unwrap();
                    assert_eq!(nd.data(), xs);
                    let back: Bulk<[f32; 3]> = npy_serde::from_slice(&row_bytes).unwrap();
                    assert_eq!(*back, rows);
                    let streamed: Bulk<f64> = npy_serde::from_reader(&bytes[..]).unwrap();
                    assert_eq!(*streamed, xs);
                });
            }
        }
    }
}
