//! Columnar npz writing (`npz::to_writer` on a sequence of records) encodes
//! one field per column walk: every record shape the encoder accepts gives
//! members equal to the field's values written alone, and reads back.

use std::collections::BTreeMap;
use std::io::Cursor;

use npy_serde::Padding;
use npy_serde::npz::{self, NpzReader};
use serde::{Deserialize, Serialize};

/// Writes `records` as columns; checks each member is exactly `to_vec` of
/// that column's values, in `expected` order.
fn columns<T: Serialize>(records: &T, expected: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut file = Cursor::new(Vec::new());
    npz::to_writer(&mut file, records).unwrap();
    let bytes = file.into_inner();
    let mut z = NpzReader::new(Cursor::new(&bytes[..])).unwrap();
    let names: Vec<&str> = expected.iter().map(|(k, _)| *k).collect();
    assert_eq!(z.names(), names);
    for (key, member) in expected {
        assert_eq!(&z.raw(key).unwrap(), member, "member {key}");
    }
    bytes
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Inner {
    a: u8,
    _gap: Padding<3>,
    b: f32,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Rec {
    #[serde(rename = "ID")]
    id: u32,
    _pad: Padding<4>,
    inner: Inner,
    pos: [f64; 2],
    name: String,
}

fn recs() -> Vec<Rec> {
    (0..2000u32)
        .map(|i| Rec {
            id: i,
            _pad: Padding,
            inner: Inner {
                a: i as u8,
                _gap: Padding,
                b: i as f32 * 0.5,
            },
            pos: [i as f64, -(i as f64)],
            name: if i == 0 {
                "longest".into()
            } else {
                format!("r{}", i % 10)
            },
        })
        .collect()
}

#[test]
fn struct_records_with_renames_padding_and_nested_gaps() {
    let rs = recs();
    let inner: Vec<Inner> = rs.iter().map(|r| r.inner.clone()).collect();
    let pos: Vec<[f64; 2]> = rs.iter().map(|r| r.pos).collect();
    // strings take the width of the longest value over all records
    let names: Vec<String> = rs.iter().map(|r| r.name.clone()).collect();
    let bytes = columns(
        &rs,
        &[
            (
                "ID",
                npy_serde::to_vec(&rs.iter().map(|r| r.id).collect::<Vec<_>>()).unwrap(),
            ),
            ("inner", npy_serde::to_vec(&inner).unwrap()),
            ("pos", npy_serde::to_vec(&pos).unwrap()),
            ("name", npy_serde::to_vec(&names).unwrap()),
        ],
    );
    let back: Vec<Rec> = npz::from_reader(Cursor::new(bytes)).unwrap();
    assert_eq!(back, rs);
}

#[test]
fn map_tuple_and_newtype_records() {
    // string-keyed maps (how `flatten` arrives)
    let maps: Vec<BTreeMap<String, i64>> = (0..300)
        .map(|i| BTreeMap::from([("x".to_string(), i), ("y".to_string(), -i)]))
        .collect();
    let xs: Vec<i64> = (0..300).collect();
    let ys: Vec<i64> = (0..300).map(|i| -i).collect();
    columns(
        &maps,
        &[
            ("x", npy_serde::to_vec(&xs).unwrap()),
            ("y", npy_serde::to_vec(&ys).unwrap()),
        ],
    );

    // mixed tuples: fields f0, f1 by position
    let tuples: Vec<(u8, f64)> = (0..300).map(|i| (i as u8, i as f64 * 0.25)).collect();
    columns(
        &tuples,
        &[
            (
                "f0",
                npy_serde::to_vec(&tuples.iter().map(|t| t.0).collect::<Vec<_>>()).unwrap(),
            ),
            (
                "f1",
                npy_serde::to_vec(&tuples.iter().map(|t| t.1).collect::<Vec<_>>()).unwrap(),
            ),
        ],
    );

    // a newtype around a struct is transparent
    #[derive(Serialize)]
    struct Wrapped(Inner);
    let wrapped: Vec<Wrapped> = recs()
        .into_iter()
        .take(10)
        .map(|r| Wrapped(r.inner))
        .collect();
    columns(
        &wrapped,
        &[
            (
                "a",
                npy_serde::to_vec(&wrapped.iter().map(|w| w.0.a).collect::<Vec<_>>()).unwrap(),
            ),
            (
                "b",
                npy_serde::to_vec(&wrapped.iter().map(|w| w.0.b).collect::<Vec<_>>()).unwrap(),
            ),
        ],
    );
}

/// A `Serialize` that drops a field after its first `k` calls: whatever
/// walk sees the change first, the archive is refused ("serialized
/// differently") or holds only members that agree with what was serialized
/// (here: `a` = [1], and `b` = [2] if present). Never a wrong member; and
/// a change between the layout walk and the column walks is refused.
#[test]
fn a_record_that_changes_between_walks_is_refused() {
    use std::cell::Cell;
    struct Fickle<'a>(&'a Cell<u32>, u32);
    impl Serialize for Fickle<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let n = self.0.get();
            self.0.set(n + 1);
            let mut st = s.serialize_struct("Fickle", 2)?;
            st.serialize_field("a", &1u8)?;
            if n < self.1 {
                st.serialize_field("b", &2u8)?;
            }
            st.end()
        }
    }
    let mut refused = 0;
    for k in 1..=8 {
        let calls = Cell::new(0);
        let v = [Fickle(&calls, k)];
        let mut out = Cursor::new(Vec::new());
        match npz::to_writer(&mut out, &v[..]) {
            Err(e) => {
                let e = e.to_string();
                assert!(e.contains("serialized differently"), "k={k}: {e}");
                refused += 1;
            }
            Ok(()) => {
                out.set_position(0);
                let mut z = NpzReader::new(out).unwrap();
                for name in z.names().iter().map(|n| n.to_string()).collect::<Vec<_>>() {
                    let want = if name == "a" { 1u8 } else { 2 };
                    let got: Vec<u8> = z.by_name(&name).unwrap();
                    assert_eq!(got, [want], "k={k}, member {name}");
                }
            }
        }
    }
    assert!(refused > 0);
}

/// A member whose npy header claims far more data than the archive holds
/// (32 GB, within the default element limit): the columnar reader sizes its
/// buffer by what the member can really hold, so the claim allocates
/// nothing and reads as a clear error.
#[test]
fn a_huge_size_claim_in_a_column_allocates_nothing() {
    #[derive(Serialize, Deserialize, Debug)]
    struct R {
        a: u64,
    }
    let mut file = Cursor::new(Vec::new());
    npz::to_writer(&mut file, &[R { a: 1 }, R { a: 2 }]).unwrap();
    let mut bytes = file.into_inner();
    let from = b"'shape': (2,), }";
    let to = b"'shape': (4000000000,), }";
    let at = bytes.windows(from.len()).position(|w| w == from).unwrap();
    // same header length: the claim replaces padding spaces
    let end = at + to.len();
    assert!(bytes[at + from.len()..end].iter().all(|&b| b == b' '));
    bytes[at..end].copy_from_slice(to);
    let err = npz::from_reader::<Vec<R>>(Cursor::new(bytes)).unwrap_err();
    // the member ends after its 16 real bytes, where the zip crate finds
    // the CRC-32 of the edited header wrong
    assert_eq!(
        err.to_string(),
        "member 'a': bad CRC-32: the member's data is damaged"
    );
}
