//! `par_to_vec`, `par_to_writer` and `par_to_path` against `to_vec`,
//! `to_writer` and `to_path`: the same bytes (header included), and when a
//! record fails, the same error (same record index in the whole slice,
//! same message) with nothing written, wherever the failure is: the first
//! chunk, a middle one, the last, either side of a boundary; at one thread
//! and at several.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use npy_serde::WriteOptions;
use proptest::prelude::*;
use serde::Serialize;

/// A record whose strings vary in width, nested in a record and in a
/// subarray too. The skipped ballast makes it 4 KiB in memory, so that a
/// chunk (256 KiB of records in memory) is 64 records and small tests
/// cross many boundaries.
#[derive(Serialize, Debug, Clone)]
struct Named {
    id: u32,
    name: String,
    tags: [String; 2],
    #[serde(with = "serde_bytes")]
    raw: Vec<u8>,
    inner: Inner,
    x: f64,
    #[serde(skip)]
    _ballast: [u8; 4096],
}

#[derive(Serialize, Debug, Clone)]
struct Inner {
    label: String,
    flag: u8,
}

/// Records per chunk: 256 KiB of them in memory.
const PER: usize = (256 << 10) / size_of::<Named>();

/// Record `i`, its strings `w` characters wide (`w` ≥ 1).
fn named(i: usize, w: usize) -> Named {
    let s = |c: char| std::iter::repeat_n(c, w).collect::<String>();
    Named {
        id: i as u32,
        name: s('n'),
        tags: [s('a'), format!("{i}")],
        raw: vec![1; w],
        inner: Inner {
            label: s('é'),
            flag: i as u8,
        },
        x: i as f64 * 0.5,
        _ballast: [0; 4096],
    }
}

/// A name numpy would lose (it strips trailing NULs): the write fails.
fn spoil(r: &mut Named) {
    r.name.push('\0');
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// A path of its own for each call (tests run at the same time).
fn temp_path() -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("npy_serde_par_write_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{}.npy", NEXT.fetch_add(1, Ordering::Relaxed)))
}

/// The three parallel writers agree with the sequential ones on
/// `records`, at 1, 2 and 3 threads: the same bytes, or the same error
/// and nothing written. The sequential bytes (or error) are returned.
fn agree<T: Serialize + Sync>(opts: &WriteOptions, records: &[T]) -> Result<Vec<u8>, String> {
    let seq = opts.to_vec(records).map_err(|e| e.to_string());
    let mut seq_out = Vec::new();
    let seq_writer = opts
        .to_writer(&mut seq_out, records)
        .map_err(|e| e.to_string());
    assert_eq!(seq_writer.is_ok(), seq.is_ok());
    let path = temp_path();
    let _ = std::fs::remove_file(&path);
    let seq_path = opts.to_path(&path, records).map_err(|e| e.to_string());
    let seq_file = std::fs::read(&path).ok();
    for threads in [1, 2, 3] {
        pool(threads).install(|| {
            let par = opts.par_to_vec(records).map_err(|e| e.to_string());
            assert_eq!(par, seq, "par_to_vec at {threads} thread(s)");
            let mut out = Vec::new();
            let par = opts
                .par_to_writer(&mut out, records)
                .map_err(|e| e.to_string());
            assert_eq!(par, seq_writer, "par_to_writer at {threads} thread(s)");
            assert!(
                out == seq_out,
                "par_to_writer's bytes at {threads} thread(s)"
            );
            let _ = std::fs::remove_file(&path);
            let par = opts.par_to_path(&path, records).map_err(|e| e.to_string());
            assert_eq!(par, seq_path, "par_to_path at {threads} thread(s)");
            assert!(std::fs::read(&path).ok() == seq_file, "par_to_path's file");
        });
    }
    let _ = std::fs::remove_file(&path);
    seq
}

#[test]
fn many_chunks_write_as_sequentially() {
    let recs: Vec<Named> = (0..5 * PER + 7).map(|i| named(i, 3)).collect();
    let bytes = agree(&WriteOptions::new(), &recs).unwrap();
    assert_eq!(npy_serde::par_to_vec(&recs).unwrap(), bytes);
    agree(&WriteOptions::new().align(true), &recs).unwrap();
    agree(&WriteOptions::new().version(3, 0), &recs).unwrap();
}

#[test]
fn string_widths_are_taken_over_all_chunks() {
    // the widest strings in the first, a middle and the last chunk, and
    // in a chunk of their own between narrow ones
    let n = 4 * PER + 30;
    for (wide, w) in [(0, 9), (2 * PER + 5, 4), (n - 1, 17), (PER, 2)] {
        let recs: Vec<Named> = (0..n)
            .map(|i| named(i, if i == wide { w } else { 1 }))
            .collect();
        let bytes = agree(&WriteOptions::new(), &recs).unwrap();
        let text = String::from_utf8_lossy(&bytes[..bytes.len().min(400)]).into_owned();
        assert!(text.contains(&format!("('name', '<U{w}')")), "{text}");
        // aligned records are widened by the sequential writer
        agree(&WriteOptions::new().align(true), &recs).unwrap();
    }
    // plain strings, and rows of strings
    let words: Vec<String> = (0..200_000).map(|i| "x".repeat(1 + i / 50_000)).collect();
    agree(&WriteOptions::new(), &words).unwrap();
    let rows: Vec<[String; 2]> = (0..100_000).map(|i| [i.to_string(), "ab".into()]).collect();
    agree(&WriteOptions::new(), &rows).unwrap();
}

#[test]
fn a_failing_record_gives_the_sequential_error_wherever_it_is() {
    let n = 4 * PER + 10;
    for bad in [0, 1, PER - 1, PER, 2 * PER + 17, 3 * PER, n - 1] {
        let mut recs: Vec<Named> = (0..n).map(|i| named(i, 2)).collect();
        spoil(&mut recs[bad]);
        let err = agree(&WriteOptions::new(), &recs).unwrap_err();
        assert!(
            err.starts_with(&format!("record {bad}, field name")),
            "{err}"
        );
    }
    // two failures: the first in file order is the one reported
    let mut recs: Vec<Named> = (0..n).map(|i| named(i, 2)).collect();
    spoil(&mut recs[3 * PER + 1]);
    spoil(&mut recs[PER + 2]);
    let err = npy_serde::par_to_vec(&recs).unwrap_err().to_string();
    assert!(
        err.starts_with(&format!("record {}, field name", PER + 2)),
        "{err}"
    );
}

#[test]
fn given_dtypes_convert_and_fail_as_sequentially() {
    let xs: Vec<i64> = (0..300_000).collect();
    for descr in ["'<i8'", "'>i4'", "'<f8'", "'|u1'"] {
        let opts = WriteOptions::new().dtype(descr.parse().unwrap());
        let got = agree(&opts, &xs);
        assert_eq!(got.is_err(), descr == "'|u1'", "{descr}: {got:?}");
    }
    let err = agree(&WriteOptions::new().dtype("'|u1'".parse().unwrap()), &xs).unwrap_err();
    assert!(err.starts_with("record 256"), "{err}");
    let rows: Vec<[f64; 3]> = (0..40_000).map(|i| [i as f64, -0.5, 1e300]).collect();
    agree(&WriteOptions::new(), &rows).unwrap();
    let f4 = WriteOptions::new().dtype("'<f4'".parse().unwrap());
    let err = agree(&f4, &rows).unwrap_err();
    assert!(err.starts_with("record 0"), "{err}");
    agree(&WriteOptions::new().fortran_order(true), &rows).unwrap();
}

/// A float, or in one record an integer (serde's untagged shape of a
/// number that is sometimes whole); 4 KiB in memory, as `Named`.
#[derive(Debug, Clone)]
struct Num {
    int: bool,
    _ballast: [u8; 4096],
}

impl Serialize for Num {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.int {
            s.serialize_i64(7)
        } else {
            s.serialize_f64(0.5)
        }
    }
}

#[test]
fn a_later_record_of_another_type_is_not_converted() {
    // the first chunk makes the dtype '<f8'; an integer in a later chunk
    // would convert into it exactly, but `to_vec` infers from all records
    for at in [PER, 3 * PER - 1, 4 * PER] {
        let recs: Vec<Num> = (0..=4 * PER)
            .map(|i| Num {
                int: i == at,
                _ballast: [0; 4096],
            })
            .collect();
        agree(&WriteOptions::new(), &recs).unwrap_err();
    }
}

#[test]
fn small_inputs_take_the_sequential_path() {
    agree(&WriteOptions::new(), &Vec::<f64>::new()).unwrap_err();
    agree(&WriteOptions::new(), &[1.5f64]).unwrap();
    let recs: Vec<Named> = (0..PER + 3).map(|i| named(i, 1 + i % 5)).collect();
    agree(&WriteOptions::new(), &recs).unwrap();
}

/// A writer that fails after `left` bytes.
struct Failing {
    left: usize,
    got: Vec<u8>,
}

impl Write for Failing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.left == 0 {
            return Err(std::io::Error::other("disk full"));
        }
        let n = buf.len().min(self.left);
        self.left -= n;
        self.got.extend_from_slice(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_failing_writer_gives_the_sequential_error() {
    let recs: Vec<f64> = (0..200_000).map(|i| i as f64).collect();
    for left in [0, 10, 128, 128 + 8 * 70_000 + 3, 128 + 8 * 199_999] {
        let (mut seq, mut par) = (Failing { left, got: vec![] }, Failing { left, got: vec![] });
        let want = npy_serde::to_writer(&mut seq, &recs)
            .unwrap_err()
            .to_string();
        let got = npy_serde::par_to_writer(&mut par, &recs)
            .unwrap_err()
            .to_string();
        assert_eq!(got, want);
        assert!(par.got == seq.got);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn random_records_write_as_sequentially(
        widths in proptest::collection::vec(1usize..6, 1..(4 * PER)),
        bad in proptest::option::of(prop_oneof![
            (1usize..4).prop_flat_map(|k| (k * PER - 1)..=(k * PER)),
            0usize..(4 * PER),
        ]),
        align in any::<bool>(),
        threads in 1usize..4,
    ) {
        let mut recs: Vec<Named> =
            widths.iter().enumerate().map(|(i, &w)| named(i, w)).collect();
        if let Some(b) = bad.filter(|&b| b < recs.len()) {
            spoil(&mut recs[b]);
        }
        let opts = WriteOptions::new().align(align);
        let seq = opts.to_vec(&recs).map_err(|e| e.to_string());
        let par = pool(threads).install(|| opts.par_to_vec(&recs).map_err(|e| e.to_string()));
        prop_assert_eq!(&par, &seq);
        let mut out = Vec::new();
        let par = pool(threads).install(|| opts.par_to_writer(&mut out, &recs).map_err(|e| e.to_string()));
        prop_assert_eq!(par.map(|()| out), seq);
    }
}

/// A record that notes the threads that serialize it and how often it was
/// serialized, and takes a little time doing so (so that idle threads find
/// work to steal).
struct Traced<'a> {
    name: String,
    seen: &'a Mutex<(HashSet<std::thread::ThreadId>, usize)>,
    /// 4 KiB in memory: a chunk is 64 records.
    _ballast: [u8; 4096],
}

impl Serialize for Traced<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut seen = self.seen.lock().unwrap();
        seen.0.insert(std::thread::current().id());
        seen.1 += 1;
        drop(seen);
        let start = Instant::now();
        while start.elapsed() < Duration::from_micros(20) {}
        let mut st = s.serialize_struct("Traced", 1)?;
        st.serialize_field("name", &self.name)?;
        st.end()
    }
}

#[test]
fn the_chunks_are_encoded_on_several_threads() {
    let seen = Mutex::new((HashSet::new(), 0));
    // strings of one width, and wider ones in the last chunk only
    for wide in [false, true] {
        let recs: Vec<Traced> = (0..640)
            .map(|i| Traced {
                name: if wide && i == 639 {
                    "long name".into()
                } else {
                    "n".into()
                },
                seen: &seen,
                _ballast: [0; 4096],
            })
            .collect();
        let want = npy_serde::to_vec(&recs).unwrap();
        let path = temp_path();
        let ran = |f: &(dyn Fn() + Sync)| {
            *seen.lock().unwrap() = (HashSet::new(), 0);
            pool(3).install(f);
            let (threads, walks) = &*seen.lock().unwrap();
            (threads.len(), walks / recs.len())
        };
        // and not again by the sequential writer: one walk over the records
        // (two more with the widest dtype found: its given dtype is checked
        // first), the first chunk once more to find the layout
        let (threads, walks) = ran(&|| assert!(npy_serde::par_to_vec(&recs).unwrap() == want));
        assert!(threads >= 2, "par_to_vec ran on {threads} thread(s)");
        assert!(
            walks <= if wide { 3 } else { 1 },
            "par_to_vec walked {walks} times"
        );
        let threads = ran(&|| {
            let mut out = Vec::new();
            npy_serde::par_to_writer(&mut out, &recs).unwrap();
            assert!(out == want);
        });
        assert!(threads.0 >= 2, "par_to_writer ran on {threads:?} thread(s)");
        let threads = ran(&|| {
            npy_serde::par_to_path(&path, &recs).unwrap();
            assert!(std::fs::read(&path).unwrap() == want);
        });
        assert!(threads.0 >= 2, "par_to_path ran on {threads:?} thread(s)");
        std::fs::remove_file(path).unwrap();
    }
}

/// A deflated archive whose big member spans many deflate pieces, written
/// at `threads` threads.
fn deflated_archive(threads: usize) -> Vec<u8> {
    let big: Vec<f64> = (0..400_000).map(|i| ((i % 5000) as f64).sqrt()).collect();
    pool(threads).install(|| {
        let mut out = std::io::Cursor::new(Vec::new());
        let mut w = npy_serde::npz::NpzWriter::new(&mut out).compressed(true);
        w.add("big", &big).unwrap();
        w.add("small", &[1u8, 2, 3]).unwrap();
        let dt: npy_serde::Dtype = "<u4".parse().unwrap();
        let mut m = w.start("streamed", dt, 300_000).unwrap();
        for i in 0..300_000u32 {
            m.serialize(&(i / 3)).unwrap();
        }
        m.finish().unwrap();
        w.finish().unwrap();
        out.into_inner()
    })
}

/// `NpzWriter` deflates a member in pieces on rayon's pool: the archive's
/// bytes are the same at any thread count, and its members inflate (by the
/// zip crate, a reader of our own) to the npy bytes of each array.
#[test]
fn npz_deflated_bytes_do_not_depend_on_threads() {
    use std::io::Read;
    let want = deflated_archive(1);
    for threads in [2, 5] {
        assert!(deflated_archive(threads) == want, "{threads} threads");
    }
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(&want)).unwrap();
    let mut big = Vec::new();
    zip.by_name("big.npy")
        .unwrap()
        .read_to_end(&mut big)
        .unwrap();
    let expected: Vec<f64> = (0..400_000).map(|i| ((i % 5000) as f64).sqrt()).collect();
    assert!(big == npy_serde::to_vec(&expected).unwrap());
    let mut streamed = Vec::new();
    zip.by_name("streamed.npy")
        .unwrap()
        .read_to_end(&mut streamed)
        .unwrap();
    let expected: Vec<u32> = (0..300_000u32).map(|i| i / 3).collect();
    assert!(streamed == npy_serde::to_vec(&expected).unwrap());
}
