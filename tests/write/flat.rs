//! The fast mode of the speculative pass (`ser/flat.rs`) for arrays of
//! plain numbers: the same bytes as the exact passes (a given dtype takes
//! those), through `to_vec`, `to_writer` and `NpyWriter`, for lengths
//! around the block and chunk sizes; elements it does not take (another
//! type, a string, a ragged row) give the same bytes or the same errors.

use std::io::Cursor;

use npy_serde::{Dtype, NpyWriter, WriteOptions};
use serde::{Serialize, Serializer};

/// Lengths around the fast mode's block (2 KiB), the window of a tuple
/// element and `to_writer`'s chunk (64 KiB).
const LENGTHS: &[usize] = &[0, 1, 2, 255, 256, 257, 1000, 8191, 8192, 8193, 20_000];

fn dt(s: &str) -> Dtype {
    s.parse().unwrap()
}

/// The file through the exact passes: the dtype given (no speculation).
fn exact<T: ?Sized + Serialize>(v: &T, descr: &str) -> Vec<u8> {
    WriteOptions::new().dtype(dt(descr)).to_vec(v).unwrap()
}

/// Every write path gives `want`.
#[track_caller]
fn all_paths<T: Serialize>(v: &[T], want: &[u8]) {
    assert_eq!(npy_serde::to_vec(v).unwrap(), want, "to_vec");
    let mut out = Vec::new();
    npy_serde::to_writer(&mut out, v).unwrap();
    assert_eq!(out, want, "to_writer");
    if v.is_empty() {
        return;
    }
    let mut w = NpyWriter::new(Cursor::new(Vec::new())).unwrap();
    for x in v {
        w.serialize(x).unwrap();
    }
    assert_eq!(w.finish().unwrap().into_inner(), want, "NpyWriter");
}

#[track_caller]
fn same_as_exact<T: Serialize>(v: &[T], descr: &str) {
    if v.is_empty() {
        // no element to infer from: the exact passes say what
        let mut out = Vec::new();
        let a = npy_serde::to_vec(v).map_err(|e| e.to_string());
        let b = npy_serde::to_writer(&mut out, v).map_err(|e| e.to_string());
        assert_eq!(a.clone().err(), b.err());
        return;
    }
    all_paths(v, &exact(v, descr));
}

#[test]
fn bare_numbers() {
    for &n in LENGTHS {
        let f: Vec<f64> = (0..n).map(|i| i as f64 * 0.5 - 3.0).collect();
        same_as_exact(&f, "<f8");
        // the data are the values' own bytes
        if n > 0 {
            let bytes = npy_serde::to_vec(&f).unwrap();
            let data: Vec<u8> = f.iter().flat_map(|x| x.to_le_bytes()).collect();
            assert!(bytes.ends_with(&data));
            assert_eq!(bytes.len(), 128 + data.len());
        }
        same_as_exact(&(0..n).map(|i| i as u8).collect::<Vec<_>>(), "|u1");
        same_as_exact(&(0..n).map(|i| i % 3 == 0).collect::<Vec<_>>(), "|b1");
        same_as_exact(&(0..n).map(|i| -(i as i16)).collect::<Vec<_>>(), "<i2");
        same_as_exact(&(0..n).map(|i| i as u32).collect::<Vec<_>>(), "<u4");
        same_as_exact(&(0..n).map(|i| i as i64 * -7).collect::<Vec<_>>(), "<i8");
        same_as_exact(&(0..n).map(|i| i as f32).collect::<Vec<_>>(), "<f4");
    }
}

/// A tuple of `N` numbers (serde's arrays stop at 32).
struct Arr<const N: usize>([f64; N]);

impl<const N: usize> Serialize for Arr<N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeTuple;
        let mut t = s.serialize_tuple(N)?;
        for x in &self.0 {
            t.serialize_element(x)?;
        }
        t.end()
    }
}

#[test]
fn tuples_of_numbers() {
    for &n in LENGTHS {
        let v: Vec<[f32; 3]> = (0..n).map(|i| [i as f32, 0.5, -(i as f32)]).collect();
        same_as_exact(&v, "('<f4', (3,))");
        let t: Vec<(u16, u16)> = (0..n).map(|i| (i as u16, 7)).collect();
        same_as_exact(&t, "('<u2', (2,))");
    }
    // the largest element of the fast mode (256 bytes), one larger, and a
    // long array that the tape repeats rather than unrolls
    let big: Vec<[f64; 32]> = (0..300).map(|i| [i as f64; 32]).collect();
    same_as_exact(&big, "('<f8', (32,))");
    let bigger: Vec<Arr<33>> = (0..300)
        .map(|i| Arr(std::array::from_fn(|k| (i * k) as f64)))
        .collect();
    same_as_exact(&bigger, "('<f8', (33,))");
    let long: Vec<[u8; 20]> = (0..500).map(|i| [i as u8; 20]).collect();
    same_as_exact(&long, "('|u1', (20,))");
    // nested arrays are not flat: the tape takes them
    let nested: Vec<[[u8; 2]; 2]> = (0..300).map(|i| [[i as u8; 2]; 2]).collect();
    same_as_exact(&nested, "('|u1', (2, 2))");
}

#[test]
fn equal_rows_of_numbers() {
    for rows in [1usize, 3, 300] {
        for cols in [1usize, 5, 300] {
            let v: Vec<Vec<f64>> = (0..rows)
                .map(|r| (0..cols).map(|c| (r * cols + c) as f64).collect())
                .collect();
            same_as_exact(&v, "<f8");
            let bytes = npy_serde::to_vec(&v).unwrap();
            let head = String::from_utf8_lossy(&bytes[..128]).into_owned();
            assert!(
                head.contains(&format!("'shape': ({rows}, {cols}), ")),
                "{head}"
            );
        }
    }
    // ragged after full blocks: refused, nothing written
    let mut v: Vec<Vec<u8>> = vec![vec![1; 3000]; 3];
    v.push(vec![1; 2999]);
    let e = npy_serde::to_vec(&v).unwrap_err().to_string();
    let mut out = Vec::new();
    let w = npy_serde::to_writer(&mut out, &v).unwrap_err().to_string();
    assert_eq!(e, w);
    assert!(out.is_empty());
}

/// A newtype over a number (transparent) and an `Option` (`Some` only).
#[derive(Serialize, Clone, Copy)]
struct Meters(f64);

#[test]
fn newtypes_and_options_are_transparent() {
    let v: Vec<Meters> = (0..3000).map(|i| Meters(i as f64)).collect();
    let plain: Vec<f64> = (0..3000).map(|i| i as f64).collect();
    all_paths(&v, &npy_serde::to_vec(&plain).unwrap());
    let o: Vec<Option<f64>> = plain.iter().copied().map(Some).collect();
    all_paths(&o, &npy_serde::to_vec(&plain).unwrap());
    let a: Vec<[Meters; 2]> = (0..3000).map(|i| [Meters(i as f64); 2]).collect();
    let p: Vec<[f64; 2]> = (0..3000).map(|i| [i as f64; 2]).collect();
    all_paths(&a, &npy_serde::to_vec(&p).unwrap());
}

/// How the crate's `Bulk<T>` wrapper serializes: a newtype named
/// `npy_serde::bulk` over the sequence of elements.
struct W(Vec<f64>);

impl Serialize for W {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct("npy_serde::bulk", &self.0)
    }
}

struct W3(Vec<[f32; 3]>);

impl Serialize for W3 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct("npy_serde::bulk", &self.0)
    }
}

#[test]
fn a_bulk_newtype_writes_like_the_plain_vec() {
    for &n in LENGTHS {
        let v: Vec<f64> = (0..n).map(|i| i as f64 * 1.25).collect();
        let want = npy_serde::to_vec(&v);
        let w = W(v);
        let got = npy_serde::to_vec(&w);
        assert_eq!(
            got.map_err(|e| e.to_string()),
            want.map_err(|e| e.to_string())
        );
        if n > 0 {
            assert_eq!(npy_serde::to_vec(&w).unwrap(), exact(&w.0, "<f8"));
        }
        let mut out = Vec::new();
        if npy_serde::to_writer(&mut out, &w).is_ok() {
            assert_eq!(out, npy_serde::to_vec(&w.0).unwrap());
        }
        let t: Vec<[f32; 3]> = (0..n).map(|i| [i as f32; 3]).collect();
        let want = npy_serde::to_vec(&t).map_err(|e| e.to_string());
        let w3 = W3(t);
        assert_eq!(npy_serde::to_vec(&w3).map_err(|e| e.to_string()), want);
    }
}

#[derive(Serialize, Clone)]
#[serde(untagged)]
enum Val {
    F(f64),
    I(i64),
    S(&'static str),
    T([f32; 3]),
    U([f64; 3]),
}

#[test]
fn other_elements_after_full_blocks() {
    for at in [1usize, 255, 256, 257, 5000] {
        // a number of another type: the exact passes (here: an error in
        // strict inference, or a widened dtype) decide, as before
        let mut v: Vec<Val> = (0..6000).map(|i| Val::F(i as f64)).collect();
        v[at] = Val::I(3);
        let a = npy_serde::to_vec(&v).map_err(|e| e.to_string());
        let mut out = Vec::new();
        let b = npy_serde::to_writer(&mut out, &v).map_err(|e| e.to_string());
        assert_eq!(a.clone().err(), b.clone().err());
        if let Ok(bytes) = &a {
            assert_eq!(&out, bytes);
        } else {
            assert!(out.is_empty());
        }
        // a string: refused, nothing written
        v[at] = Val::S("x");
        let e = npy_serde::to_vec(&v).unwrap_err().to_string();
        let mut out = Vec::new();
        let w = npy_serde::to_writer(&mut out, &v).unwrap_err().to_string();
        assert_eq!(e, w);
        assert!(out.is_empty());
        assert!(e.contains(&format!("record {at}")), "{e}");
        // tuples of another type
        let mut t: Vec<Val> = (0..6000).map(|i| Val::T([i as f32; 3])).collect();
        t[at] = Val::U([1.0; 3]);
        let e = npy_serde::to_vec(&t).map_err(|e| e.to_string());
        let mut out = Vec::new();
        let w = npy_serde::to_writer(&mut out, &t).map_err(|e| e.to_string());
        assert_eq!(e.clone().err(), w.err());
        if let Ok(bytes) = e {
            assert_eq!(out, bytes);
        }
    }
}

#[test]
fn given_dtype_conversions_are_unchanged() {
    // a given dtype never speculates; the same values convert as before
    let v: Vec<f64> = (0..3000).map(|i| i as f64).collect();
    let bytes = WriteOptions::new().dtype(dt("<f4")).to_vec(&v).unwrap();
    let back: Vec<f32> = npy_serde::from_slice(&bytes).unwrap();
    assert_eq!(back.len(), 3000);
    assert_eq!(back[2999], 2999.0);
}

/// A sequence serialized element by element (`serialize_seq` and
/// `serialize_element`, not serde's `collect_seq`), optionally failing
/// after `fail_at` elements.
struct Manual {
    n: usize,
    fail_at: Option<usize>,
    hint: bool,
}

impl Serialize for Manual {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeSeq};
        let mut seq = s.serialize_seq(self.hint.then_some(self.n))?;
        for i in 0..self.n {
            if self.fail_at == Some(i) {
                return Err(S::Error::custom("the values ran out"));
            }
            seq.serialize_element(&(i as f64))?;
        }
        seq.end()
    }
}

#[test]
fn element_by_element_and_failing_sequences() {
    for &n in LENGTHS {
        for hint in [false, true] {
            let m = Manual {
                n,
                fail_at: None,
                hint,
            };
            if n > 0 {
                let plain: Vec<f64> = (0..n).map(|i| i as f64).collect();
                let want = npy_serde::to_vec(&plain).unwrap();
                assert_eq!(npy_serde::to_vec(&m).unwrap(), want);
                let mut out = Vec::new();
                npy_serde::to_writer(&mut out, &m).unwrap();
                assert_eq!(out, want);
            }
            let bad = Manual {
                n,
                fail_at: Some(n / 2),
                hint,
            };
            if n > 0 {
                let e = npy_serde::to_vec(&bad).unwrap_err().to_string();
                assert!(e.contains("the values ran out"), "{e}");
                let mut out = Vec::new();
                assert!(npy_serde::to_writer(&mut out, &bad).is_err());
                assert!(out.is_empty());
            }
        }
    }
}

/// Takes `limit` bytes, then fails.
struct FailAfter {
    limit: usize,
    seen: usize,
}

impl std::io::Write for FailAfter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let room = self.limit - self.seen;
        if room == 0 {
            return Err(std::io::Error::other("disk full"));
        }
        let n = buf.len().min(room);
        self.seen += n;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn an_io_error_in_a_later_chunk_names_the_record() {
    let v: Vec<f64> = (0..100_000).map(|i| i as f64).collect();
    let record = 70_001;
    let mut w = FailAfter {
        limit: 128 + record * 8 + 3,
        seen: 0,
    };
    let err = npy_serde::to_writer(&mut w, &v).unwrap_err().to_string();
    assert!(err.contains(&format!("record {record}")), "{err}");
    assert!(err.contains("disk full"), "{err}");
}

/// A record of plain numbers and arrays of them: the fast mode's records.
#[derive(Serialize, Clone, Copy, PartialEq, Debug)]
struct P {
    id: u64,
    pos: [f64; 3],
    vel: [f32; 3],
    mass: f32,
    charge: i8,
    ok: bool,
}

impl P {
    fn make(i: usize) -> P {
        let x = i as f64;
        P {
            id: i as u64 * 3,
            pos: [x, -x, 0.5],
            vel: [x as f32, 1.0, -2.0],
            mass: 1.5,
            charge: (i % 7) as i8 - 3,
            ok: i % 2 == 0,
        }
    }
}

const P_DESCR: &str = "[('id', '<u8'), ('pos', '<f8', (3,)), ('vel', '<f4', (3,)), \
                       ('mass', '<f4'), ('charge', '|i1'), ('ok', '|b1')]";

#[derive(Serialize, Clone, Copy)]
struct Narrow {
    a: u8,
    b: i16,
}

/// The same field names as [`Narrow`] in another type (its keys may sit at
/// other addresses: matched by name then).
#[derive(Serialize, Clone, Copy)]
struct Narrow2 {
    a: u8,
    b: i16,
}

/// [`Narrow`]'s fields in the other order.
#[derive(Serialize, Clone, Copy)]
struct Swapped {
    b: i16,
    a: u8,
}

/// [`Narrow`] with a field that may be left out.
#[derive(Serialize, Clone, Copy)]
struct Gappy {
    a: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    b: Option<i16>,
}

/// [`Narrow`] with `b` of another type.
#[derive(Serialize, Clone, Copy)]
struct Wider {
    a: u8,
    b: i32,
}

#[derive(Serialize, Clone, Copy)]
#[serde(untagged)]
enum Rec {
    N(Narrow),
    N2(Narrow2),
    S(Swapped),
    G(Gappy),
    W(Wider),
}

#[test]
fn records_of_numbers() {
    for &n in LENGTHS {
        let v: Vec<P> = (0..n).map(P::make).collect();
        same_as_exact(&v, P_DESCR);
        let narrow: Vec<Narrow> = (0..n)
            .map(|i| Narrow {
                a: i as u8,
                b: -(i as i16),
            })
            .collect();
        same_as_exact(&narrow, "[('a', '|u1'), ('b', '<i2')]");
        if n > 0 {
            // the data are the fields' own bytes, back to back
            let bytes = npy_serde::to_vec(&narrow).unwrap();
            let data: Vec<u8> = narrow
                .iter()
                .flat_map(|r| [[r.a].as_slice(), &r.b.to_le_bytes()].concat())
                .collect();
            assert!(bytes.ends_with(&data));
        }
    }
}

/// A record of the fields `$f` of type `$t`, then an `f64`.
macro_rules! many {
    ($name:ident, $t:ty: $($f:ident)*) => {
        #[derive(Serialize, Clone, Copy)]
        struct $name {
            $($f: $t,)*
            last: f64,
        }

        impl $name {
            fn make(i: usize) -> $name {
                $name {
                    $($f: i as $t,)*
                    last: i as f64,
                }
            }

            fn descr(code: &str) -> String {
                let mut d = vec![$(format!("('{}', '{code}')", stringify!($f)),)*];
                d.push("('last', '<f8')".to_owned());
                format!("[{}]", d.join(", "))
            }
        }
    };
}

// 21 fields (28 bytes), and 35 (280 bytes: past the fast mode's window
// of 256, the element encoder's)
many!(Many, u8: f0 f1 f2 f3 f4 f5 f6 f7 f8 f9 f10 f11 f12 f13 f14 f15 f16 f17 f18 f19);
many!(Big, f64: g0 g1 g2 g3 g4 g5 g6 g7 g8 g9 g10 g11 g12 g13 g14 g15 g16 g17 g18 g19
    g20 g21 g22 g23 g24 g25 g26 g27 g28 g29 g30 g31 g32 g33);

#[test]
fn records_of_many_fields_and_records_that_are_not_flat() {
    for &n in LENGTHS {
        let a: Vec<Many> = (0..n).map(Many::make).collect();
        same_as_exact(&a, &Many::descr("|u1"));
        let b: Vec<Big> = (0..n).map(Big::make).collect();
        same_as_exact(&b, &Big::descr("<f8"));
    }
    // nested records, strings and nested arrays: the element encoder's
    #[derive(Serialize, Clone, Copy)]
    struct Outer {
        n: Narrow,
        x: f32,
    }
    let v: Vec<Outer> = (0..3000)
        .map(|i| Outer {
            n: Narrow { a: i as u8, b: 2 },
            x: 0.5,
        })
        .collect();
    same_as_exact(&v, "[('n', [('a', '|u1'), ('b', '<i2')]), ('x', '<f4')]");
    #[derive(Serialize, Clone, Copy)]
    struct Grid {
        g: [[u8; 2]; 2],
        s: &'static str,
    }
    let v: Vec<Grid> = (0..3000)
        .map(|i| Grid {
            g: [[i as u8; 2]; 2],
            s: "ab",
        })
        .collect();
    same_as_exact(&v, "[('g', '|u1', (2, 2)), ('s', '<U2')]");
}

#[test]
fn other_records_after_full_blocks() {
    let narrow = |i: usize| Narrow {
        a: i as u8,
        b: i as i16,
    };
    let want = npy_serde::to_vec(&(0..6000).map(narrow).collect::<Vec<_>>()).unwrap();
    for at in [1usize, 2, 681, 682, 683, 5000, 5999] {
        let base: Vec<Rec> = (0..6000).map(|i| Rec::N(narrow(i))).collect();
        // the same fields by another type: matched by name, the same bytes
        let mut v = base.clone();
        v[at] = Rec::N2(Narrow2 {
            a: at as u8,
            b: at as i16,
        });
        all_paths(&v, &want);
        let mut v = base.clone();
        v[at] = Rec::G(Gappy {
            a: at as u8,
            b: Some(at as i16),
        });
        all_paths(&v, &want);
        // a field of another type, one left out, the fields in another
        // order: as the element encoder says, the same on every path
        for other in [
            Rec::W(Wider {
                a: at as u8,
                b: at as i32,
            }),
            Rec::W(Wider { a: 1, b: 1 << 20 }),
            Rec::G(Gappy { a: 1, b: None }),
            Rec::S(Swapped {
                b: at as i16,
                a: at as u8,
            }),
        ] {
            let mut v = base.clone();
            v[at] = other;
            let a = npy_serde::to_vec(&v).map_err(|e| e.to_string());
            let mut out = Vec::new();
            let b = npy_serde::to_writer(&mut out, &v).map_err(|e| e.to_string());
            assert_eq!(a.clone().err(), b.clone().err());
            match &a {
                Ok(bytes) => assert_eq!(&out, bytes),
                Err(e) => {
                    assert!(out.is_empty());
                    assert!(e.contains(&format!("record {at}")), "{e}");
                }
            }
        }
    }
}
