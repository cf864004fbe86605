//! `NpzReader::rows`: row ranges of the members of numpy's `np.savez`
//! (stored) and `np.savez_compressed` (deflated) archives of
//! tests/data/rows equal numpy's `arr[a:b]` files read whole, into
//! `serde_json::Value` and typed targets. A stored member is read by
//! seeking; a deflated one is inflated only up to the rows' end (damage
//! after it is never reached). Refusals in snapshot `npz_rows_refusals`.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::io::{Cursor, Read, Seek, SeekFrom};
use std::rc::Rc;

use npy_serde::from_slice;
use npy_serde::npz::{NpzReader, NpzWriter};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

fn data(name: &str) -> Vec<u8> {
    let path = format!("{}/data/rows/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every (member, a, b) of cases.json that the archives hold.
fn cases() -> Vec<(String, u64, u64)> {
    let map: BTreeMap<String, Vec<(u64, u64)>> =
        serde_json::from_slice(&data("cases.json")).unwrap();
    map.into_iter()
        .filter(|(name, _)| name != "f8_1d_fortran")
        .flat_map(|(name, ranges)| ranges.into_iter().map(move |(a, b)| (name.clone(), a, b)))
        .collect()
}

fn snap(name: &str, text: String) {
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!(name, text);
    });
}

#[derive(Deserialize, Debug, PartialEq)]
struct Rec {
    id: u16,
    pos: [f32; 2],
    big: i64,
    tag: String,
}

fn same<T: DeserializeOwned + PartialEq + Debug>(
    z: &mut NpzReader<Cursor<Vec<u8>>>,
    what: &str,
    name: &str,
    a: u64,
    b: u64,
    expected: &[u8],
) {
    let want: T = from_slice(expected).unwrap_or_else(|e| panic!("{what}: {e}"));
    let got: T = z.rows(name, a..b).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(got, want, "{what}");
}

#[test]
fn member_rows_equal_numpys_slices() {
    let mut checked = 0;
    for archive in ["stored.npz", "deflated.npz"] {
        let mut z = NpzReader::new(Cursor::new(data(archive))).unwrap();
        for (name, a, b) in cases() {
            let expected = data(&format!("{name}_{a}_{b}.npy"));
            let what = format!("{archive} {name} {a}..{b}");
            let want: Value = from_slice(&expected).unwrap();
            let got: Value = z
                .rows(&name, a..b)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(got, want, "{what}");
            let z = &mut z;
            match name.as_str() {
                "f8_1d" => same::<Vec<f64>>(z, &what, &name, a, b, &expected),
                "i4_be_2d" => same::<Vec<[i32; 2]>>(z, &what, &name, a, b, &expected),
                "f8_3d" => same::<Vec<[[f64; 2]; 3]>>(z, &what, &name, a, b, &expected),
                "records" => same::<Vec<Rec>>(z, &what, &name, a, b, &expected),
                "u3_1d" => same::<Vec<String>>(z, &what, &name, a, b, &expected),
                "empty_0x3" => same::<Vec<[f64; 3]>>(z, &what, &name, a, b, &expected),
                "u1_4x0" => same::<Vec<Vec<u8>>>(z, &what, &name, a, b, &expected),
                other => panic!("no typed target for {other}"),
            }
            checked += 1;
        }
    }
    assert!(checked >= 60, "{checked}");
}

#[test]
fn npz_rows_refusals() {
    let mut lines = Vec::new();
    for archive in ["stored.npz", "deflated.npz"] {
        let mut z = NpzReader::new(Cursor::new(data(archive))).unwrap();
        for (name, range) in [
            ("f8_1d", 9..12),
            ("f8_1d", std::ops::Range { start: 4, end: 2 }),
            ("f4_2d_fortran", 0..1),
            ("zero_d", 0..1),
            ("nothing", 0..1),
        ] {
            let err = z.rows::<Value>(name, range.clone()).unwrap_err();
            lines.push(format!("{archive} {name} {range:?}: {err}"));
        }
    }
    snap("npz_rows_refusals", lines.join("\n"));
}

/// A reader that counts the bytes read through it.
struct Counting {
    inner: Cursor<Vec<u8>>,
    read: Rc<Cell<u64>>,
}

impl Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}

impl Seek for Counting {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.inner.seek(pos)
    }
}

/// 200 000 numbers that deflate poorly.
fn noise() -> Vec<u64> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    (0..200_000)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            x
        })
        .collect()
}

fn archive(compressed: bool, values: &[u64]) -> Vec<u8> {
    let mut w = NpzWriter::new(Cursor::new(Vec::new())).compressed(compressed);
    w.add("x", values).unwrap();
    w.finish().unwrap().into_inner()
}

#[test]
fn stored_rows_seek_and_deflated_rows_stop_at_their_end() {
    let values = noise();
    for compressed in [false, true] {
        let bytes = archive(compressed, &values);
        assert!(bytes.len() > 1_000_000, "{}", bytes.len());
        let read = Rc::new(Cell::new(0));
        let counting = Counting {
            inner: Cursor::new(bytes),
            read: read.clone(),
        };
        let mut z = NpzReader::new(counting).unwrap();
        let (a, b) = if compressed {
            (10, 20)
        } else {
            (199_990, 200_000)
        };
        read.set(0);
        let got: Vec<u64> = z.rows("x", a..b).unwrap();
        assert_eq!(got, values[a as usize..b as usize]);
        assert!(
            read.get() < 100_000,
            "compressed {compressed}: read {} bytes",
            read.get()
        );
    }
}

#[test]
fn damage_after_the_rows_is_not_reached() {
    let values = noise();
    let mut bytes = archive(true, &values);
    let (start, len) = {
        let mut zip = zip::ZipArchive::new(Cursor::new(&bytes)).unwrap();
        let f = zip.by_index_raw(0).unwrap();
        (f.data_start() as usize, f.compressed_size() as usize)
    };
    // the last deflated piece is damaged
    for b in &mut bytes[start + len - 2000..start + len - 1000] {
        *b = !*b;
    }
    let mut z = NpzReader::new(Cursor::new(bytes)).unwrap();
    assert!(z.by_name::<Vec<u64>>("x").is_err());
    let got: Vec<u64> = z.rows("x", 0..1000).unwrap();
    assert_eq!(got, values[..1000]);
}
