//! Fault injection on the write side: a writer that fails after k bytes
//! for every k across a small file, a failing record in the middle of a
//! seekable stream, and failures inside `to_path` (the previous file stays,
//! no temporary file remains).

use std::cell::Cell;
use std::io::{Cursor, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use npy_serde::{NpyWriter, WriteOptions};
use serde::{Deserialize, Serialize, Serializer};

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Rec {
    id: u32,
    x: f64,
    name: String,
}

fn records(n: u32) -> Vec<Rec> {
    (0..n)
        .map(|i| Rec {
            id: i,
            x: f64::from(i) / 4.0,
            name: format!("r{}", i % 10),
        })
        .collect()
}

/// itemsize of Rec with names of 2 characters: 4 + 8 + 2 * 4
const ITEMSIZE: usize = 20;
/// Header bytes of `records(n)` (its descr needs two 64-byte blocks more).
const HEADER: usize = 192;

/// Accepts `limit` bytes in all, then fails every write (a full disk).
/// Writes are partial where the limit falls inside a buffer.
struct FailAfter {
    limit: usize,
    out: Vec<u8>,
}

impl Write for FailAfter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let room = self.limit - self.out.len();
        if room == 0 && !buf.is_empty() {
            return Err(std::io::Error::other("disk full"));
        }
        let n = room.min(buf.len());
        self.out.extend_from_slice(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Names "r0".."r4", then "r55": not uniform, so `to_writer` cannot take
/// its single in-memory pass and streams through its chunk buffer instead.
fn uneven_records() -> Vec<Rec> {
    let mut recs = records(6);
    recs[5].name = "r5".to_owned();
    recs[0].name = "r".to_owned();
    recs
}

#[test]
fn to_writer_fails_cleanly_at_every_byte() {
    // uniform values (one pass, then written whole) and uneven ones
    // (two passes, written in chunks): both name the record
    for recs in [records(6), uneven_records()] {
        to_writer_fails_at_every_byte(&recs);
    }
}

fn to_writer_fails_at_every_byte(recs: &[Rec]) {
    let full = npy_serde::to_vec(&recs).unwrap();
    assert_eq!(full.len(), HEADER + 6 * ITEMSIZE);
    for k in 0..full.len() {
        let mut w = FailAfter {
            limit: k,
            out: Vec::new(),
        };
        let err = npy_serde::to_writer(&mut w, recs).unwrap_err().to_string();
        assert!(err.contains("disk full"), "k={k}: {err}");
        if k >= HEADER {
            let record = (k - HEADER) / ITEMSIZE;
            assert!(
                err.starts_with(&format!("record {record}: ")),
                "k={k}: {err}"
            );
        }
        assert_eq!(w.out, full[..k], "k={k}: bytes before the failure");
    }
    let mut w = FailAfter {
        limit: full.len(),
        out: Vec::new(),
    };
    npy_serde::to_writer(&mut w, recs).unwrap();
    assert_eq!(w.out, full);
}

#[test]
fn to_writer_fortran_and_2d_fail_cleanly() {
    let grid: Vec<[u16; 3]> = (0..5).map(|i| [i, i + 1, i + 2]).collect();
    let full = npy_serde::to_vec(&grid).unwrap();
    let head = full.len() - 5 * 6;
    for k in 0..full.len() {
        let mut w = FailAfter {
            limit: k,
            out: Vec::new(),
        };
        let err = npy_serde::to_writer(&mut w, &grid).unwrap_err().to_string();
        if k >= head {
            // rows of 3 u16: the row being written is named
            let row = (k - head) / 6;
            assert!(err.starts_with(&format!("record {row}: ")), "k={k}: {err}");
        }
        let mut w = FailAfter {
            limit: k,
            out: Vec::new(),
        };
        let err = WriteOptions::new()
            .fortran_order(true)
            .to_writer(&mut w, &grid)
            .unwrap_err();
        assert!(err.to_string().contains("disk full"), "k={k}: {err}");
    }
}

#[test]
fn npy_writer_fails_cleanly_at_every_byte() {
    let recs = records(6);
    let full = npy_serde::to_vec(&recs).unwrap();
    for k in 0..full.len() {
        let mut w = NpyWriter::with_len(
            FailAfter {
                limit: k,
                out: Vec::new(),
            },
            None,
            6,
        );
        let mut first_error = None;
        for (i, r) in recs.iter().enumerate() {
            if let Err(e) = w.serialize(r) {
                first_error = Some((i, e.to_string()));
                break;
            }
        }
        let (i, err) = first_error.unwrap_or_else(|| panic!("k={k}: no error"));
        assert!(err.contains("disk full"), "k={k}: {err}");
        if k >= HEADER {
            let record = (k - HEADER) / ITEMSIZE;
            assert_eq!(i, record, "k={k}");
            assert!(
                err.starts_with(&format!("record {record}: ")),
                "k={k}: {err}"
            );
        }
        // finishing a writer short of its promise is an error, not a panic
        assert!(w.finish().is_err(), "k={k}");
    }
}

/// A seekable writer that fails the `fail_on`-th write call (counting
/// from 0) after accepting `partial` bytes of it; all other writes work.
struct FailOnce {
    inner: Cursor<Vec<u8>>,
    calls: usize,
    fail_on: usize,
    partial: usize,
}

impl Write for FailOnce {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let call = self.calls;
        self.calls += 1;
        if call == self.fail_on {
            let n = self.partial.min(buf.len());
            self.inner.write_all(&buf[..n])?;
            return Err(std::io::Error::other("disk full"));
        }
        self.inner.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Seek for FailOnce {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.inner.seek(pos)
    }
}

/// A record whose bytes only partly reach the file is taken back: the
/// writer stays usable, the next record overwrites the partial bytes, and
/// `finish` patches the header to the records actually written.
#[test]
fn seekable_writer_takes_back_a_partly_written_record() {
    let recs = records(6);
    for failing in 0..6 {
        for partial in [0, 1, ITEMSIZE / 2, ITEMSIZE - 1] {
            // write call 0 is the header, call i + 1 record i
            let out = FailOnce {
                inner: Cursor::new(Vec::new()),
                calls: 0,
                fail_on: failing + 1,
                partial,
            };
            let mut w = NpyWriter::new(out).unwrap();
            let mut good = Vec::new();
            for (i, r) in recs.iter().enumerate() {
                match w.serialize(r) {
                    Ok(()) => good.push(r.clone()),
                    Err(e) => {
                        assert_eq!(i, failing);
                        assert_eq!(
                            e.to_string(),
                            format!("record {i}: writing the data: disk full")
                        );
                    }
                }
            }
            assert_eq!(w.len(), 5);
            let bytes = w.finish().unwrap().inner.into_inner();
            let expected = npy_serde::to_vec(&good).unwrap();
            let case = format!("record {failing} failed after {partial} bytes");
            assert_eq!(bytes[..expected.len()], expected[..], "{case}");
            if failing < 5 || partial == 0 {
                assert_eq!(bytes.len(), expected.len(), "{case}");
            } else {
                // the last record failed: its partial bytes stay after the
                // data (a Write + Seek cannot be truncated); readers that
                // stop at the data read the good records
                assert_eq!(bytes.len(), expected.len() + partial, "{case}");
            }
            let back: Vec<Rec> = npy_serde::from_reader(&bytes[..]).unwrap();
            assert_eq!(back, good, "{case}");
        }
    }
}

/// A partly written header on a seekable writer is written again in place.
#[test]
fn seekable_writer_rewrites_a_partly_written_header() {
    let recs = records(3);
    let out = FailOnce {
        inner: Cursor::new(Vec::new()),
        calls: 0,
        fail_on: 0,
        partial: 7,
    };
    let mut w = NpyWriter::new(out).unwrap();
    let e = w.serialize(&recs[0]).unwrap_err().to_string();
    assert_eq!(e, "writing the npy header: disk full");
    w.serialize(&recs[1]).unwrap();
    w.serialize(&recs[2]).unwrap();
    let bytes = w.finish().unwrap().inner.into_inner();
    assert_eq!(bytes, npy_serde::to_vec(&recs[1..]).unwrap());
}

/// On a writer that cannot seek, a partly written record (or header)
/// breaks the stream: later records and `finish` are refused instead of
/// writing them at shifted offsets.
#[test]
fn plain_writer_refuses_records_after_a_partial_write() {
    struct NoSeek(FailOnce);
    impl Write for NoSeek {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.write(buf)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let recs = records(4);
    for (fail_on, what) in [(0, "the header"), (2, "record 1")] {
        let out = NoSeek(FailOnce {
            inner: Cursor::new(Vec::new()),
            calls: 0,
            fail_on,
            partial: 7,
        });
        let mut w = NpyWriter::with_len(out, None, 4);
        let mut errors = Vec::new();
        for r in &recs {
            if let Err(e) = w.serialize(r) {
                errors.push(e.to_string());
            }
        }
        let first = if fail_on == 0 { 0 } else { 1 };
        assert_eq!(errors.len(), 4 - first, "{errors:?}");
        assert!(errors[0].contains("disk full"), "{errors:?}");
        for e in &errors[1..] {
            assert!(e.contains(&format!("{what} was partly written")), "{e}");
        }
        let e = w.finish().err().unwrap().to_string();
        assert!(e.contains("partly written"), "{e}");
    }
}

// ---- npz members ----------------------------------------------------------

/// A seekable `FailAfter`: fails once `limit` bytes sit past the start.
struct FailAfterSeek {
    limit: u64,
    out: Cursor<Vec<u8>>,
}

impl Write for FailAfterSeek {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let room = self.limit.saturating_sub(self.out.position());
        if room == 0 && !buf.is_empty() {
            return Err(std::io::Error::other("disk full"));
        }
        let n = (room as usize).min(buf.len());
        self.out.write(&buf[..n])
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Seek for FailAfterSeek {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.out.seek(pos)
    }
}

/// `NpzWriter::add` writes a member in one walk and starts the entry again
/// when the values are not uniform: a disk that fills at any byte of the
/// archive gives an error naming the member (never a panic), and an archive
/// that fit is the one written without a limit.
#[test]
fn npz_members_fail_cleanly_at_every_byte() {
    let write = |w: FailAfterSeek| -> (npy_serde::Result<()>, FailAfterSeek) {
        let mut z = npy_serde::npz::NpzWriter::new(w);
        let r = z
            .add("even", &records(6))
            .and_then(|()| z.add("uneven", &uneven_records()));
        match r.and_then(|()| z.finish()) {
            Ok(w) => (Ok(()), w),
            Err(e) => (
                Err(e),
                FailAfterSeek {
                    limit: 0,
                    out: Cursor::new(Vec::new()),
                },
            ),
        }
    };
    let (ok, full) = write(FailAfterSeek {
        limit: u64::MAX,
        out: Cursor::new(Vec::new()),
    });
    ok.unwrap();
    let full = full.out.into_inner();
    for k in 0..full.len() as u64 {
        let (r, _) = write(FailAfterSeek {
            limit: k,
            out: Cursor::new(Vec::new()),
        });
        let err = r.unwrap_err().to_string();
        assert!(err.contains("disk full"), "k={k}: {err}");
    }
    let (ok, w) = write(FailAfterSeek {
        limit: full.len() as u64,
        out: Cursor::new(Vec::new()),
    });
    ok.unwrap();
    assert_eq!(w.out.into_inner(), full);
}

// ---- to_path ---------------------------------------------------------------

/// A fresh, empty directory under the system temp dir.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("npy_serde_faults_{name}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn dir_entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A record `{x, s}` that fails (or panics) once `budget` records have
/// been serialized, counting every pass the writer makes over the values.
/// Its strings widen after the first record, so the writer cannot take its
/// single in-memory pass: it infers the dtype in one pass and streams the
/// data in 64-KiB chunks in a second, and the failure comes after chunks
/// reached the file (what a full disk looks like to the caller).
struct Flaky<'a> {
    budget: &'a Cell<u64>,
    panic: bool,
    wide: bool,
}

impl Serialize for Flaky<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let left = self.budget.get();
        if left == 0 {
            if self.panic {
                panic!("serialization panicked");
            }
            return Err(serde::ser::Error::custom("no space left on device"));
        }
        self.budget.set(left - 1);
        let mut st = s.serialize_struct("Flaky", 2)?;
        st.serialize_field("x", &1.5f64)?;
        st.serialize_field("s", if self.wide { "bb" } else { "a" })?;
        st.end()
    }
}

#[test]
fn to_path_failure_keeps_the_old_file() {
    let dir = scratch_dir("keep");
    let path = dir.join("data.npy");
    npy_serde::to_path(&path, &vec![1u8, 2, 3]).unwrap();
    let old = std::fs::read(&path).unwrap();
    assert_eq!(dir_entries(&dir), ["data.npy"]);

    // fails in the values themselves, before anything is written
    let ragged = vec![vec![1u8], vec![1, 2]];
    assert!(npy_serde::to_path(&path, &ragged).is_err());
    assert_eq!(std::fs::read(&path).unwrap(), old);
    assert_eq!(dir_entries(&dir), ["data.npy"]);

    // fails in the middle of the data, after 64-KiB chunks were written:
    // 20000 records of 16 bytes = 320 KB; the speculative pass stops at the
    // second record, the inference pass takes 20000, the write pass fails
    // after about 15000 (the temporary file then holds over 200 KB)
    let n = 20_000u64;
    for panic in [false, true] {
        let budget = Cell::new(n + 15_000);
        let values: Vec<Flaky> = (0..n)
            .map(|i| Flaky {
                budget: &budget,
                panic,
                wide: i > 0,
            })
            .collect();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            npy_serde::to_path(&path, &values)
        }));
        match result {
            Ok(r) => {
                assert!(!panic);
                let err = r.unwrap_err().to_string();
                assert!(err.contains("no space left on device"), "{err}");
                // the file, then the record being serialized when it failed
                let at = format!("file '{}', record 14", path.display());
                assert!(err.starts_with(&at), "{err}");
            }
            Err(_) => assert!(panic),
        }
        assert_eq!(budget.get(), 0, "the failure happened while writing");
        assert_eq!(std::fs::read(&path).unwrap(), old);
        assert_eq!(dir_entries(&dir), ["data.npy"], "panic: {panic}");
    }

    // a successful write replaces the file
    npy_serde::to_path(&path, &vec![9u8]).unwrap();
    assert_eq!(npy_serde::from_path::<Vec<u8>>(&path).unwrap(), [9]);
    assert_eq!(dir_entries(&dir), ["data.npy"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `to_path` writes uniform values in one walk straight into its temporary
/// file (no checking walk: a failure deletes that file). Every way that
/// walk can end gives the bytes `to_vec` gives.
#[test]
fn to_path_writes_what_to_vec_writes() {
    let dir = scratch_dir("same");
    let path = dir.join("x.npy");
    let same = |value: &dyn Fn(&Path) -> npy_serde::Result<()>, expected: Vec<u8>, what: &str| {
        value(&path).unwrap();
        assert!(std::fs::read(&path).unwrap() == expected, "{what}");
        assert_eq!(dir_entries(&dir), ["x.npy"], "{what}");
    };
    // uniform, many 64-KiB chunks
    let recs = records(20_000);
    same(
        &|p| npy_serde::to_path(p, &recs),
        npy_serde::to_vec(&recs).unwrap(),
        "uniform records",
    );
    // no element: the dtype cannot be inferred, the exact path refuses it
    // as to_vec does (naming the file), and nothing is left behind
    let empty: Vec<Rec> = Vec::new();
    assert_eq!(
        npy_serde::to_path(&path, &empty).unwrap_err().to_string(),
        format!(
            "file '{}': {}",
            path.display(),
            npy_serde::to_vec(&empty).unwrap_err()
        )
    );
    assert_eq!(dir_entries(&dir), ["x.npy"]);
    let typed = WriteOptions::new().dtype("<f8".parse().unwrap());
    let no_floats: Vec<f64> = Vec::new();
    same(
        &|p| typed.to_path(p, &no_floats),
        typed.to_vec(&no_floats).unwrap(),
        "empty, dtype given",
    );
    // a scalar: shape ()
    same(
        &|p| npy_serde::to_path(p, &recs[0]),
        npy_serde::to_vec(&recs[0]).unwrap(),
        "one record, shape ()",
    );
    // strings widen after chunks reached the file: emptied, written again
    let mut widening = records(20_000);
    widening[19_000].name = "a much longer name than the others".into();
    same(
        &|p| npy_serde::to_path(p, &widening),
        npy_serde::to_vec(&widening).unwrap(),
        "strings widen late",
    );
    // iterators without an exact length: the header is written for the
    // hinted shape (zeros) and corrected at the end. numpy pads the header
    // so that the first axis can grow to 21 digits, so a wrong first axis
    // is rewritten in place; an inner axis can move the header across its
    // 64-byte steps (the field name's length moves it there), and then the
    // file is written again
    let n = 20_000usize;
    for name_len in [1, 30, 70] {
        let name = "n".repeat(name_len);
        let all: Vec<Named<'_>> = (0..n).map(|i| Named(&name, i as u8)).collect();
        same(
            &|p| npy_serde::to_path(p, &Unsized(&all)),
            npy_serde::to_vec(&all).unwrap(),
            &format!("no length hint, name of {name_len}"),
        );
    }
    let (mut in_place, mut again) = (0, 0);
    for name_len in 1..=70 {
        let name = "n".repeat(name_len);
        let row = |k: usize| -> Vec<Named<'_>> { (0..k).map(|i| Named(&name, i as u8)).collect() };
        let small = vec![row(1), row(1)];
        let (a, b) = (row(40_000), row(40_000));
        let big = [Unsized(&a), Unsized(&b)];
        let expected = npy_serde::to_vec(&vec![a.clone(), b.clone()]).unwrap();
        let header_small = npy_serde::to_vec(&small).unwrap().len() - 2;
        if header_small == expected.len() - 80_000 {
            in_place += 1;
        } else {
            again += 1;
        }
        same(
            &|p| npy_serde::to_path(p, &Unsized(&big)),
            expected,
            &format!("no length hints, two axes, name of {name_len}"),
        );
    }
    assert!(in_place > 0 && again > 0, "{in_place} {again}");
    // a given dtype converts: the exact path, written once
    let opts = WriteOptions::new().dtype("<f4".parse().unwrap());
    let xs: Vec<f64> = (0..50_000).map(|i| i as f64).collect();
    same(
        &|p| opts.to_path(p, &xs),
        opts.to_vec(&xs).unwrap(),
        "given dtype",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The single writing walk of `to_path` fails after chunks reached the
/// temporary file: the old file stays, no temporary remains.
#[test]
fn to_path_failure_in_its_single_walk() {
    let dir = scratch_dir("single");
    let path = dir.join("data.npy");
    npy_serde::to_path(&path, &vec![1u8, 2, 3]).unwrap();
    let old = std::fs::read(&path).unwrap();
    let n = 20_000u64;
    let budget = Cell::new(15_000);
    let values: Vec<Flaky> = (0..n)
        .map(|_| Flaky {
            budget: &budget,
            panic: false,
            wide: false,
        })
        .collect();
    let err = npy_serde::to_path(&path, &values).unwrap_err().to_string();
    assert!(err.contains("no space left on device"), "{err}");
    assert_eq!(budget.get(), 0);
    assert_eq!(std::fs::read(&path).unwrap(), old);
    assert_eq!(dir_entries(&dir), ["data.npy"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A one-field record whose field name is chosen at run time (a map).
#[derive(Clone)]
struct Named<'a>(&'a str, u8);

impl Serialize for Named<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(self.0, &self.1)?;
        m.end()
    }
}

/// A sequence that gives serde no length (as a filtered iterator does).
struct Unsized<'a, T>(&'a [T]);

impl<T: Serialize> Serialize for Unsized<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().filter(|_| true))
    }
}

#[test]
fn to_path_errors_name_the_path() {
    let dir = scratch_dir("names");
    // the directory does not exist
    let missing = dir.join("no/such/dir/x.npy");
    let err = npy_serde::to_path(&missing, &1u8).unwrap_err().to_string();
    assert!(err.contains("no/such/dir"), "{err}");
    // the target is a directory: the rename fails, the temporary goes
    let sub = dir.join("sub");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(sub.join("keep"), b"x").unwrap();
    let err = npy_serde::to_path(&sub, &1u8).unwrap_err().to_string();
    assert!(err.contains("cannot replace"), "{err}");
    assert_eq!(dir_entries(&dir), ["sub"]);
    // not a file name at all
    assert!(npy_serde::to_path(dir.join(".."), &1u8).is_err());
    // reading a missing file names it
    let err = npy_serde::from_path::<u8>(dir.join("absent.npy"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("absent.npy"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn to_path_keeps_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch_dir("perm");
    let path = dir.join("p.npy");
    npy_serde::to_path(&path, &1u8).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    npy_serde::to_path(&path, &2u8).unwrap();
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    assert_eq!(npy_serde::from_path::<u8>(&path).unwrap(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn path_round_trip_with_options() {
    let dir = scratch_dir("opts");
    let path = dir.join("r.npy");
    let recs = records(3);
    WriteOptions::new()
        .version(2, 0)
        .to_path(&path, &recs)
        .unwrap();
    let back: Vec<Rec> = npy_serde::ReadOptions::new().from_path(&path).unwrap();
    assert_eq!(back, recs);
    assert_eq!(std::fs::read(&path).unwrap()[6], 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An I/O error says which operation on which file failed, the OS error
/// its source: appending to a file opened without read access, opening
/// files that are not there.
#[cfg(unix)]
#[test]
fn io_errors_say_what_failed_on_which_file() {
    use std::error::Error as _;
    let dir = std::env::temp_dir().join(format!("npy_serde_io_context_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a.npy");
    std::fs::write(&path, npy_serde::to_vec(&[1u32, 2]).unwrap()).unwrap();
    let write_only = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    let err = NpyWriter::append(write_only).unwrap_err();
    let os = err
        .source()
        .unwrap()
        .downcast_ref::<std::io::Error>()
        .unwrap();
    assert_eq!(os.raw_os_error(), Some(9), "{err}");
    assert!(matches!(err.kind(), npy_serde::ErrorKind::Io(_)));
    std::fs::remove_dir_all(&dir).unwrap();
    let missing = npy_serde::from_path::<Vec<u8>>("no/such/dir/x.npy").unwrap_err();
    let missing_npz =
        npy_serde::npz::from_path::<std::collections::BTreeMap<String, Vec<u8>>>("no/such/x.npz")
            .unwrap_err();
    for e in [&missing, &missing_npz] {
        let os = e
            .source()
            .unwrap()
            .downcast_ref::<std::io::Error>()
            .unwrap();
        assert_eq!(os.kind(), std::io::ErrorKind::NotFound, "{e}");
    }
    let text =
        format!("append, write-only: {err}\nfrom_path: {missing}\nnpz::from_path: {missing_npz}\n");
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("io_errors_say_what_failed", text);
    });
}

/// Every other error of a path function names its file first, as
/// `Segment::File`, outermost of the position: a read into the wrong type,
/// a file that is not an npy file, an npz member that is not there, a value
/// `to_path` refuses, a map of the wrong type. The I/O errors above name
/// their file in their own words and get no second name.
#[test]
fn path_errors_name_the_file() {
    use npy_serde::Segment;
    let dir = scratch_dir("named");
    let npy = dir.join("a.npy");
    npy_serde::to_path(&npy, &[1.5f64, 300.0]).unwrap();
    let npz = dir.join("b.npz");
    npy_serde::npz::to_path(&npz, &std::collections::BTreeMap::from([("x", vec![1u8])])).unwrap();
    let garbage = dir.join("c.npy");
    std::fs::write(&garbage, b"not an npy file").unwrap();

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct NeedsY {
        y: Vec<u8>,
    }
    let errors = [
        (
            "from_path into Vec<u8>",
            npy_serde::from_path::<Vec<u8>>(&npy).unwrap_err(),
        ),
        (
            "from_path of garbage",
            npy_serde::from_path::<Vec<u8>>(&garbage).unwrap_err(),
        ),
        (
            "ReadOptions::from_path over max_elements",
            npy_serde::ReadOptions::new()
                .max_elements(1)
                .from_path::<Vec<f64>>(&npy)
                .unwrap_err(),
        ),
        (
            "npz::from_path, a missing member",
            npy_serde::npz::from_path::<NeedsY>(&npz).unwrap_err(),
        ),
        (
            "to_path of a value that does not fit the dtype",
            WriteOptions::new()
                .dtype("|u1".parse().unwrap())
                .to_path(dir.join("d.npy"), &[1i64, 300])
                .unwrap_err(),
        ),
    ];
    let mut text = String::new();
    for (what, err) in &errors {
        assert!(
            matches!(err.path().next(), Some(Segment::File(_))),
            "{what}: {err:?}"
        );
        let shown = err.to_string().replace(&dir.display().to_string(), "DIR");
        text += &format!("{what}: {shown}\n");
    }
    // an I/O error is not named twice
    let missing = npy_serde::from_path::<Vec<u8>>(dir.join("missing.npy")).unwrap_err();
    assert!(missing.path().next().is_none(), "{missing}");
    assert_eq!(dir_entries(&dir), ["a.npy", "b.npz", "c.npy"]);
    std::fs::remove_dir_all(&dir).unwrap();
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("path_errors_name_the_file", text);
    });
}
