//! `to_writer` on arrays larger than its chunks (64 KiB for the checking
//! walk, 1 MiB for the writing walk): the bytes equal `to_vec`'s; arrays
//! over 4 MiB reach the writer in bounded writes after the header, each
//! but the last ending on a 4 KiB page boundary of the file, smaller ones
//! (kept from the checking walk) at once; a
//! value that cannot be encoded anywhere in the array (even in the last
//! chunk) leaves the writer untouched, and an I/O error names the record.

use std::io::Write;

use npy_serde::{Dtype, ScalarType, WriteOptions, to_vec, to_writer};
use serde::Serialize;

#[derive(Serialize, Clone)]
struct Particle {
    id: u64,
    pos: [f64; 3],
    vel: [f32; 3],
    mass: f32,
    charge: i8,
}

fn particles(n: usize) -> Vec<Particle> {
    (0..n)
        .map(|i| Particle {
            id: i as u64,
            pos: [i as f64, 0.5, -1.0],
            vel: [1.0, 2.0, i as f32],
            mass: 0.25,
            charge: (i % 5) as i8,
        })
        .collect()
}

/// Records every write's size (a vectored write as one).
#[derive(Default)]
struct Recorder {
    out: Vec<u8>,
    writes: Vec<usize>,
}

impl Write for Recorder {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.writes.push(buf.len());
        self.out.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn write_vectored(&mut self, bufs: &[std::io::IoSlice<'_>]) -> std::io::Result<usize> {
        let n = bufs.iter().map(|b| b.len()).sum();
        self.writes.push(n);
        for b in bufs {
            self.out.extend_from_slice(b);
        }
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn large_arrays_stream_in_bounded_writes() {
    let recs = particles(100_000); // 4.9 MB of data
    let mut rec = Recorder::default();
    to_writer(&mut rec, &recs).unwrap();
    assert_eq!(rec.out, to_vec(&recs).unwrap());
    assert!(rec.writes.len() > 5, "{:?}", rec.writes);
    assert!(rec.writes.iter().all(|&w| w <= 1024 * 1024 + 49));
    ends_on_pages(&rec.writes);

    let xs: Vec<[f32; 3]> = (0..400_000).map(|i| [i as f32, 1.0, 2.0]).collect();
    let mut rec = Recorder::default();
    to_writer(&mut rec, &xs).unwrap();
    assert_eq!(rec.out, to_vec(&xs).unwrap());
    assert!(rec.writes.iter().all(|&w| w <= 1024 * 1024 + 12));
    ends_on_pages(&rec.writes);
}

/// The header, then data writes that each end on a 4 KiB boundary of the
/// file, except the last.
#[track_caller]
fn ends_on_pages(writes: &[usize]) {
    let mut end = 0;
    for (i, w) in writes.iter().enumerate() {
        end += w;
        if i > 0 && i + 1 < writes.len() {
            assert_eq!(end % 4096, 0, "write {i} of {writes:?}");
        }
    }
}

/// A sequence that gives serde no length (as a filtered iterator does).
struct Unsized<'a, T>(&'a [T]);

impl<T: Serialize> Serialize for Unsized<'_, T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().filter(|_| true))
    }
}

#[test]
fn arrays_up_to_4_mib_are_written_from_the_checking_walk() {
    // 980 KB of records that fix their layout, with a length: written in
    // one pass (issue 34), the header and then the data
    let recs = particles(20_000);
    let mut rec = Recorder::default();
    to_writer(&mut rec, &recs).unwrap();
    assert_eq!(rec.out, to_vec(&recs).unwrap());
    assert_eq!(rec.writes.len(), 2, "header, the data");
    // no length hint: kept while under 4 MiB ...
    let mut rec = Recorder::default();
    to_writer(&mut rec, &Unsized(&recs)).unwrap();
    assert_eq!(rec.out, to_vec(&recs).unwrap());
    assert_eq!(rec.writes.len(), 3);
    // ... and given up past it: the second walk writes chunk by chunk
    let big = particles(90_000); // 4.4 MB
    let mut rec = Recorder::default();
    to_writer(&mut rec, &Unsized(&big)).unwrap();
    assert_eq!(rec.out, to_vec(&big).unwrap());
    assert!(rec.writes.iter().all(|&w| w <= 1024 * 1024 + 49));
    ends_on_pages(&rec.writes);
}

#[test]
fn small_arrays_are_one_header_and_one_data_write() {
    let recs = particles(10);
    let mut rec = Recorder::default();
    to_writer(&mut rec, &recs).unwrap();
    assert_eq!(rec.out, to_vec(&recs).unwrap());
    assert_eq!(rec.writes.len(), 2);
}

#[test]
fn a_bad_value_in_the_last_chunk_writes_nothing() {
    // None in the last record: refused, nothing written
    let mut xs: Vec<Option<f64>> = (0..100_000).map(|i| Some(f64::from(i))).collect();
    xs.push(None);
    let mut rec = Recorder::default();
    let err = to_writer(&mut rec, &xs).unwrap_err();
    assert!(err.to_string().contains("100000"), "{err}");
    assert!(rec.out.is_empty());

    // a string longer than the first one, late: the exact passes widen it
    let mut names: Vec<String> = (0..30_000).map(|i| format!("{}", i % 10)).collect();
    names.push("longer".into());
    let mut rec = Recorder::default();
    to_writer(&mut rec, &names).unwrap();
    assert_eq!(rec.out, to_vec(&names).unwrap());

    // a given dtype: a value that does not convert, late
    let mut ys: Vec<i64> = vec![1; 100_000];
    ys.push(1 << 40);
    let opts = WriteOptions::new().dtype(Dtype::scalar(ScalarType::Int(4)));
    let mut rec = Recorder::default();
    assert!(opts.to_writer(&mut rec, &ys).is_err());
    assert!(rec.out.is_empty());
    ys.pop();
    opts.to_writer(&mut rec, &ys).unwrap();
    assert_eq!(rec.out, opts.to_vec(&ys).unwrap());
    // a given dtype takes the inferred dtypes' path: under 4 MiB the
    // checking walk's chunks were kept and are written at once
    assert_eq!(
        rec.writes.len(),
        3,
        "header, the kept chunks, the last chunk"
    );
}

/// Over 4 MiB, `to_writer`'s checking walk only checks plain numbers
/// (stores nothing): the written bytes are still `to_vec`'s, an element
/// the check does not take ends the check the way the storing walk ends,
/// and a bad value anywhere still leaves the writer untouched.
#[test]
fn large_plain_arrays_are_checked_without_being_stored() {
    let xs: Vec<f64> = (0..600_000).map(|i| f64::from(i) * 0.5).collect(); // 4.8 MB
    let mut rec = Recorder::default();
    to_writer(&mut rec, &xs).unwrap();
    assert_eq!(rec.out, to_vec(&xs).unwrap());

    // a late element of another number type: a miss in the check, then
    // the tape; the result is what to_vec writes
    #[derive(Serialize)]
    #[serde(untagged)]
    enum Num {
        F(f64),
        I(i64),
    }
    let mut mixed: Vec<Num> = (0..600_000).map(|i| Num::F(f64::from(i))).collect();
    mixed[500_000] = Num::I(7);
    let mut rec = Recorder::default();
    let written = to_writer(&mut rec, &mixed).map(|()| rec.out);
    let expected = to_vec(&mixed);
    match (written, expected) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        (a, b) => panic!("to_writer {a:?}, to_vec {b:?}"),
    }

    // None late in a large array: refused, nothing written
    let mut opts: Vec<Option<f64>> = (0..600_000).map(|i| Some(f64::from(i))).collect();
    opts.push(None);
    let mut rec = Recorder::default();
    let err = to_writer(&mut rec, &opts).unwrap_err();
    assert!(err.to_string().contains("600000"), "{err}");
    assert!(rec.out.is_empty());

    // rows of three: a late short row is ragged, nothing written
    let mut rows: Vec<Vec<f32>> = (0..400_000).map(|i| vec![i as f32, 1.0, 2.0]).collect();
    let mut rec = Recorder::default();
    to_writer(&mut rec, &rows).unwrap();
    assert_eq!(rec.out, to_vec(&rows).unwrap());
    rows[399_000].pop();
    let mut rec = Recorder::default();
    assert!(to_writer(&mut rec, &rows).is_err());
    assert!(rec.out.is_empty());
}

/// Fails once `limit` bytes were accepted.
struct FailAfter {
    limit: usize,
    seen: usize,
}

impl Write for FailAfter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let room = self.limit.saturating_sub(self.seen);
        if room == 0 {
            return Err(std::io::Error::other("disk full"));
        }
        let k = room.min(buf.len());
        self.seen += k;
        Ok(k)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn an_io_error_in_a_later_chunk_names_the_record() {
    let recs = particles(20_000);
    let head = to_vec(&particles(1)).unwrap().len() - 49;
    let record = 15_000;
    let mut w = FailAfter {
        limit: head + record * 49 + 10,
        seen: 0,
    };
    let err = to_writer(&mut w, &recs).unwrap_err();
    assert!(
        err.to_string().contains(&format!("record {record}")),
        "{err}"
    );
}

/// Past 4 MiB the writing walk holds back each chunk's bytes after its
/// last page boundary and writes them in front of the next chunk: the
/// record named is still the one whose bytes failed, wherever in a
/// vectored write the writer stops (the held-back bytes or the chunk).
#[test]
fn an_io_error_in_a_streamed_chunk_names_the_record() {
    /// [`FailAfter`] taking vectored writes whole.
    struct FailAfterVectored(FailAfter);
    impl Write for FailAfterVectored {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.write(buf)
        }
        fn write_vectored(&mut self, bufs: &[std::io::IoSlice<'_>]) -> std::io::Result<usize> {
            let n: usize = bufs.iter().map(|b| b.len()).sum();
            let room = self.0.limit.saturating_sub(self.0.seen);
            if room == 0 {
                return Err(std::io::Error::other("disk full"));
            }
            let k = room.min(n);
            self.0.seen += k;
            Ok(k)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let recs = particles(100_000);
    let head = to_vec(&particles(1)).unwrap().len() - 49;
    // records whose bytes start a chunk's write (held back), end it, and
    // lie in its middle
    for record in [21_313, 42_700, 70_000, 99_999] {
        for extra in [0, 10, 48] {
            let limit = head + record * 49 + extra;
            let err = to_writer(FailAfter { limit, seen: 0 }, &recs).unwrap_err();
            assert!(
                err.to_string().contains(&format!("record {record}")),
                "{err}"
            );
            let w = FailAfterVectored(FailAfter { limit, seen: 0 });
            let err = to_writer(w, &recs).unwrap_err();
            assert!(
                err.to_string().contains(&format!("record {record}")),
                "{err}"
            );
        }
    }
}

#[derive(Serialize)]
struct Named {
    flag: u8,
    x: f64,
    name: String,
}

#[test]
fn reused_chunks_leave_no_stale_bytes() {
    // shorter strings after a long first one (their tails must be zero)
    // and, aligned, gaps between fields (zeroed again in every chunk)
    // (7 MB: chunks of the 1 MiB writing walk reused)
    let recs: Vec<Named> = (0..400_000u32)
        .map(|i| Named {
            flag: 0xff,
            x: f64::from(i),
            name: if i == 0 {
                "abcdefgh".into()
            } else {
                "z".repeat((i % 4) as usize)
            },
        })
        .collect();
    for opts in [WriteOptions::new(), WriteOptions::new().align(true)] {
        let mut rec = Recorder::default();
        opts.to_writer(&mut rec, &recs).unwrap();
        assert_eq!(rec.out, opts.to_vec(&recs).unwrap());
        assert!(rec.writes.len() > 6, "{:?}", rec.writes);
    }
}

/// A record whose field `x` is an `f64`, except at record `odd`, where it
/// is a `u8`: a `Serialize` impl that varies, which no first element can
/// foresee.
struct Varies {
    i: u64,
    odd: u64,
    name: Option<&'static str>,
}

impl Serialize for Varies {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Varies", 3)?;
        st.serialize_field("i", &self.i)?;
        if self.i == self.odd {
            st.serialize_field("x", &7u8)?;
        } else {
            st.serialize_field("x", &0.5f64)?;
        }
        if let Some(name) = self.name {
            st.serialize_field("name", name)?;
        }
        st.end()
    }
}

fn varies(n: u64, odd: u64, name: Option<&'static str>) -> Vec<Varies> {
    (0..n).map(|i| Varies { i, odd, name }).collect()
}

/// Issue 34: when the first element fixes the layout (numbers, tuples,
/// structs) and the length is known, `to_writer` writes in one pass; a
/// later element that does not fit after all ends the call with the error
/// that names the record (the one `to_vec` gives), the writer holding the
/// header and part of the data, as `serde_json::to_writer` leaves it.
#[test]
fn a_late_misfit_of_a_fixed_layout_leaves_a_partial_array() {
    let n = 300_000; // 4.8 MB: chunks were written before the misfit
    let odd = 250_000;
    let values = varies(n, odd, None);
    let mut rec = Recorder::default();
    let err = to_writer(&mut rec, &values).unwrap_err();
    assert!(err.to_string().contains(&format!("record {odd}")), "{err}");
    assert_eq!(err.to_string(), to_vec(&values).unwrap_err().to_string());
    // a prefix of the array the values would have given
    let whole = to_vec(&varies(n, n, None)).unwrap();
    assert!(!rec.out.is_empty() && rec.out.len() < whole.len());
    assert_eq!(rec.out[..], whole[..rec.out.len()]);
    // to_path stays all-or-nothing
    let path = std::env::temp_dir().join(format!("npy_serde_misfit_{}.npy", std::process::id()));
    let _ = std::fs::remove_file(&path);
    assert!(npy_serde::to_path(&path, &values).is_err());
    assert!(!path.exists());
}

/// Issue 34: a layout the first element does not fix (a string here) is
/// still checked before anything is written.
#[test]
fn a_late_misfit_of_a_variable_layout_writes_nothing() {
    let values = varies(300_000, 250_000, Some("ab"));
    let mut rec = Recorder::default();
    let err = to_writer(&mut rec, &values).unwrap_err();
    assert!(err.to_string().contains("record 250000"), "{err}");
    assert!(rec.out.is_empty());
}
