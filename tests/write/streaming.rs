//! The streaming writer: seek patching, promised lengths, rolled-back
//! records, I/O errors, appending.

use std::io::{Cursor, Write};

use npy_serde::{Dtype, NpyWriter, ScalarType, WriteOptions, to_vec};
use serde::Serialize;

#[derive(Serialize, Clone)]
struct P {
    id: u64,
    pos: [f64; 3],
    name: &'static str,
}

fn ps(n: u64) -> Vec<P> {
    (0..n)
        .map(|i| P {
            id: i,
            pos: [i as f64, 0.5, -1.0],
            name: "abc",
        })
        .collect()
}

#[test]
fn seek_patching_matches_to_vec() {
    for n in [0u64, 1, 3, 1000] {
        let v = ps(n);
        let mut w = if n == 0 {
            let dt = npy_serde::WriteOptions::new();
            let _ = dt;
            // no record: the dtype must be given
            let dtype = Dtype::record()
                .field("id", Dtype::scalar(ScalarType::UInt(8)))
                .field(
                    "pos",
                    Dtype::subarray(Dtype::scalar(ScalarType::Float(8)), vec![3]).unwrap(),
                )
                .field("name", Dtype::scalar(ScalarType::Unicode(3)))
                .build()
                .unwrap();
            NpyWriter::with_dtype(Cursor::new(Vec::new()), dtype).unwrap()
        } else {
            NpyWriter::new(Cursor::new(Vec::new())).unwrap()
        };
        for p in &v {
            w.serialize(p).unwrap();
        }
        assert_eq!(w.len(), n);
        let bytes = w.finish().unwrap().into_inner();
        if n > 0 {
            assert_eq!(bytes, to_vec(&v).unwrap(), "n = {n}");
        } else {
            assert!(String::from_utf8_lossy(&bytes).contains("'shape': (0,), }"));
        }
    }
}

#[test]
fn writer_after_existing_bytes() {
    let mut cur = Cursor::new(Vec::new());
    cur.write_all(b"prefix").unwrap();
    let mut w = NpyWriter::new(cur).unwrap();
    w.serialize(&1.5f64).unwrap();
    w.serialize(&2.5f64).unwrap();
    let bytes = w.finish().unwrap().into_inner();
    assert_eq!(&bytes[..6], b"prefix");
    assert_eq!(&bytes[6..], &to_vec(&[1.5f64, 2.5]).unwrap()[..]);
}

#[test]
fn no_records_no_dtype() {
    let w = NpyWriter::new(Cursor::new(Vec::new())).unwrap();
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("npy_writer_no_dtype", w.finish().unwrap_err().to_string());
    });
}

#[test]
fn promised_length() {
    let v = ps(3);
    let mut w = NpyWriter::with_len(Vec::new(), None, 3);
    for p in &v {
        w.serialize(p).unwrap();
    }
    assert_eq!(w.finish().unwrap(), to_vec(&v).unwrap());

    let mut w = NpyWriter::with_len(Vec::new(), None, 3);
    w.serialize(&v[0]).unwrap();
    let short = w.finish().unwrap_err().to_string();
    let mut w = NpyWriter::with_len(Vec::new(), None, 1);
    w.serialize(&v[0]).unwrap();
    let long = w.serialize(&v[1]).unwrap_err().to_string();
    assert_eq!(w.len(), 1);
    assert_eq!(w.finish().unwrap(), to_vec(&v[..1]).unwrap());
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("npy_writer_len_mismatch", format!("{short}\n{long}"));
    });
}

#[test]
fn failed_record_is_rolled_back() {
    let dt = Dtype::record()
        .field("a", Dtype::scalar(ScalarType::Float(4)))
        .padding(4)
        .field("b", Dtype::scalar(ScalarType::Unicode(2)))
        .build()
        .unwrap();
    #[derive(Serialize)]
    struct R {
        a: f64,
        b: &'static str,
    }
    let mut w = NpyWriter::with_dtype(Cursor::new(Vec::new()), dt.clone()).unwrap();
    w.serialize(&R { a: 1.0, b: "x" }).unwrap();
    // fails in the second field after the first was encoded
    let e1 = w
        .serialize(&R { a: 2.0, b: "xyz" })
        .unwrap_err()
        .to_string();
    let e2 = w.serialize(&R { a: 0.1, b: "x" }).unwrap_err().to_string();
    w.serialize(&R { a: 3.0, b: "yy" }).unwrap();
    assert_eq!(w.len(), 2);
    let bytes = w.finish().unwrap().into_inner();
    let expected = WriteOptions::new()
        .dtype(dt)
        .to_vec(&vec![R { a: 1.0, b: "x" }, R { a: 3.0, b: "yy" }])
        .unwrap();
    assert_eq!(bytes, expected);
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("npy_writer_rolled_back", format!("{e1}\n{e2}"));
    });
}

#[test]
fn first_record_fixes_string_width() {
    let mut w = NpyWriter::new(Cursor::new(Vec::new())).unwrap();
    w.serialize(&"ab").unwrap();
    let err = w.serialize(&"abc").unwrap_err();
    assert_eq!(
        err.to_string(),
        "record 1: value of 3 characters does not fit '<U2'; a stream's widths are fixed by \
         its first record: give wider fields with NpyWriter::with_dtype(w, \
         Dtype::of_records(&first_records)?)"
    );
    w.serialize(&"c").unwrap();
    let bytes = w.finish().unwrap().into_inner();
    assert_eq!(bytes, to_vec(&["ab", "c"]).unwrap());
}

/// Fails every write after `ok` bytes.
struct Failing {
    ok: usize,
    written: Vec<u8>,
}

impl Write for Failing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.written.len() + buf.len() > self.ok {
            return Err(std::io::Error::other("disk full"));
        }
        self.written.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn io_error_names_the_record() {
    let mut w = NpyWriter::with_len(
        Failing {
            ok: 128 + 16,
            written: Vec::new(),
        },
        None,
        5,
    );
    w.serialize(&[1.0f64]).unwrap();
    w.serialize(&[2.0f64]).unwrap();
    let err = w.serialize(&[3.0f64]).unwrap_err();
    assert_eq!(err.to_string(), "record 2: writing the data: disk full");
    assert!(matches!(err.kind(), npy_serde::ErrorKind::Io(_)));
}

#[test]
fn aligned_and_version_options() {
    #[derive(Serialize)]
    struct R {
        a: i8,
        b: i32,
    }
    let opts = WriteOptions::new().align(true).version(2, 0);
    let mut w = opts.npy_writer(Cursor::new(Vec::new())).unwrap();
    w.serialize(&R { a: 1, b: 2 }).unwrap();
    let bytes = w.finish().unwrap().into_inner();
    assert_eq!(bytes, opts.to_vec(&vec![R { a: 1, b: 2 }]).unwrap());
    assert_eq!(&bytes[6..8], &[2, 0]);
}

#[test]
fn append_to_file() {
    let dir = std::env::temp_dir().join(format!("npy_serde_append_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a.npy");
    let v = ps(5);
    std::fs::write(&path, to_vec(&v[..2]).unwrap()).unwrap();
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&path)
        .unwrap();
    let mut w = NpyWriter::append(file).unwrap();
    assert_eq!(w.len(), 2);
    for p in &v[2..] {
        w.serialize(p).unwrap();
    }
    w.finish().unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), to_vec(&v).unwrap());

    // a record of another layout is refused and nothing is written
    #[derive(Serialize)]
    struct Other {
        id: u64,
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&path)
        .unwrap();
    let mut w = NpyWriter::append(file).unwrap();
    let err = w.serialize(&Other { id: 1 }).unwrap_err().to_string();
    w.finish().unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), to_vec(&v).unwrap());

    // numpy's own file (big-endian 2-d) appended with converted values
    let fx = format!("{}/data/write/fortran_2d.npy", env!("CARGO_MANIFEST_DIR"));
    let f2 = dir.join("f.npy");
    std::fs::copy(&fx, &f2).unwrap();
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&f2)
        .unwrap();
    let fortran = NpyWriter::append(file).unwrap_err().to_string();

    let c = dir.join("c.npy");
    std::fs::write(&c, to_vec(&vec![[1i64, 2, 3]]).unwrap()).unwrap();
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&c)
        .unwrap();
    let mut w = NpyWriter::append(file).unwrap();
    w.serialize(&[4i64, 5, 6]).unwrap();
    w.finish().unwrap();
    assert_eq!(
        std::fs::read(&c).unwrap(),
        to_vec(&vec![[1i64, 2, 3], [4, 5, 6]]).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("npy_writer_append_errors", format!("{err}\n{fortran}"));
    });
}

/// What a dropped, unfinished writer leaves behind (documented on
/// `NpyWriter`): a placeholder header every reader refuses, of the size
/// `finish` would have patched in.
#[test]
fn dropped_writer_leaves_a_header_every_reader_refuses() {
    use std::io::Cursor;
    let mut cursor = Cursor::new(Vec::new());
    {
        let mut w = npy_serde::NpyWriter::new(&mut cursor).unwrap();
        w.serialize(&[1.0f64, 2.0]).unwrap();
        w.serialize(&[3.0f64, 4.0]).unwrap();
        // dropped without finish()
    }
    let bytes = cursor.into_inner();
    let finished = to_vec(&vec![[1.0f64, 2.0], [3.0, 4.0]]).unwrap();
    assert_eq!(bytes.len(), finished.len());
    assert_eq!(bytes[128..], finished[128..]);
    let text = String::from_utf8_lossy(&bytes[10..128]);
    assert!(
        text.starts_with("{'descr': '<f8', 'fortran_order': False, 'shape': (None, 2), }"),
        "{text}"
    );
    let err = npy_serde::from_reader::<Vec<[f64; 2]>>(&bytes[..]).unwrap_err();
    assert_eq!(
        err.to_string(),
        npy_serde::from_slice::<Vec<[f64; 2]>>(&bytes)
            .unwrap_err()
            .to_string()
    );
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("npy_writer_unfinished_refused", err.to_string());
    });

    // A promised length on a plain writer: the file is truncated.
    let mut out = Vec::new();
    {
        let mut w = npy_serde::NpyWriter::with_len(&mut out, None, 3);
        w.serialize(&1u8).unwrap();
    }
    let err = npy_serde::from_slice::<Vec<u8>>(&out).unwrap_err();
    assert!(err.to_string().contains("data ends"), "{err}");
}
