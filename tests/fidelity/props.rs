//! The round-trip property: for random dtypes (every kind, nested records,
//! subarrays, both byte orders, C and Fortran order) and random data as numpy
//! would hold it (NaN payloads, bytes and strings ending in NUL), reading into
//! a generic value and writing that back with the reader's dtype and order
//! gives the same bytes.
//!
//! Out of scope, as documented refusals or normalisations: bools other than
//! 0/1 (read as `true`), non-zero bytes in the gaps between fields (written
//! as zeros), invalid `U` code points (refused on read), dtypes the reader
//! refuses, empty arrays with inner axes (a value `[]` keeps no inner axes),
//! and a 0-d `S` array holding no bytes (it reads as `[]`, which writes back
//! as an empty array).

use crate::value;

use npy_serde::{Dtype, Header, NpyReader, ScalarType, WriteOptions};
use proptest::prelude::*;
use value::Value;

/// A scalar's descr text.
fn scalar() -> impl Strategy<Value = String> {
    let order = prop_oneof![Just('<'), Just('>')];
    let units = prop_oneof![
        Just("Y"),
        Just("M"),
        Just("W"),
        Just("D"),
        Just("h"),
        Just("m"),
        Just("s"),
        Just("ms"),
        Just("us"),
        Just("ns"),
        Just("ps"),
        Just("fs"),
        Just("as"),
    ];
    let mult = prop_oneof![3 => Just(1u32), 1 => 2u32..30];
    (
        order,
        0usize..14,
        1usize..6,
        units,
        mult,
        prop_oneof![Just('M'), Just('m')],
    )
        .prop_map(|(o, kind, n, unit, mult, dm)| {
            let m = if mult == 1 {
                String::new()
            } else {
                mult.to_string()
            };
            match kind {
                0 => "|b1".to_owned(),
                1 => "|i1".to_owned(),
                2 => "|u1".to_owned(),
                3 => format!("{o}i{}", [2, 4, 8][n % 3]),
                4 => format!("{o}u{}", [2, 4, 8][n % 3]),
                5 | 6 => format!("{o}f{}", [2, 4, 8][n % 3]),
                7 => format!("{o}c{}", [8, 16][n % 2]),
                8 => format!("|S{n}"),
                9 => format!("{o}U{n}"),
                10 => format!("|V{n}"),
                _ => format!("{o}{dm}8[{m}{unit}]"),
            }
        })
}

fn dtype() -> impl Strategy<Value = Dtype> {
    let leaf = scalar().prop_map(|t| t.parse::<Dtype>().unwrap());
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            // a subarray
            (inner.clone(), proptest::collection::vec(1u64..4, 1..3))
                .prop_map(|(d, dims)| Dtype::subarray(d, dims).unwrap()),
            // a record with gaps, maybe aligned
            (
                proptest::collection::vec((inner, 0usize..3), 1..4),
                any::<bool>(),
            )
                .prop_map(|(fields, align)| {
                    let mut b = Dtype::record().align(align);
                    for (i, (d, gap)) in fields.into_iter().enumerate() {
                        b = b.field(format!("f{i}"), d);
                        if gap > 0 {
                            b = b.padding(gap);
                        }
                    }
                    b.build().unwrap()
                }),
        ]
    })
}

/// A random generator seeded by proptest: a stream of bytes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn bytes(&mut self, out: &mut [u8]) {
        for b in out {
            *b = self.next() as u8;
        }
    }
}

/// Writes one element of `dt` as numpy would hold it (gaps zero, bools 0/1,
/// valid code points; floats with NaN payloads now and then; strings and
/// bytes often shorter than their width, NUL padded).
fn fill(dt: &Dtype, out: &mut [u8], rng: &mut Rng) {
    match dt {
        Dtype::Record(r) => {
            for f in r.fields() {
                fill(
                    f.dtype(),
                    &mut out[f.offset()..f.offset() + f.dtype().itemsize()],
                    rng,
                );
            }
        }
        Dtype::Subarray(base, _) => {
            for chunk in out.chunks_exact_mut(base.itemsize()) {
                fill(base, chunk, rng);
            }
        }
        Dtype::Scalar(s) => {
            let big = s.order() == npy_serde::ByteOrder::Big;
            match s.ty() {
                ScalarType::Bool => out[0] = (rng.next() & 1) as u8,
                ScalarType::Float(n) => float(out, n as usize, big, rng),
                ScalarType::Complex(n) => {
                    let (re, im) = out.split_at_mut(n as usize / 2);
                    float(re, n as usize / 2, big, rng);
                    float(im, n as usize / 2, big, rng);
                }
                ScalarType::Bytes(n) => {
                    let len = (rng.next() as usize) % (n + 1);
                    rng.bytes(&mut out[..len]);
                }
                ScalarType::Unicode(n) => {
                    let len = (rng.next() as usize) % (n + 1);
                    for c in out.chunks_exact_mut(4).take(len) {
                        let cp = match rng.next() % 4 {
                            0 => 0, // NUL inside (and, once stripped, at the end)
                            1 => (rng.next() % 0x80) as u32,
                            _ => loop {
                                let cp = (rng.next() % 0x11_0000) as u32;
                                if char::from_u32(cp).is_some() {
                                    break cp;
                                }
                            },
                        };
                        let b = if big {
                            cp.to_be_bytes()
                        } else {
                            cp.to_le_bytes()
                        };
                        c.copy_from_slice(&b);
                    }
                }
                _ => rng.bytes(out),
            }
        }
    }
}

/// A float of `n` bytes: random bits, or a NaN with a random payload, sign
/// and signalling bit.
fn float(out: &mut [u8], n: usize, big: bool, rng: &mut Rng) {
    let bits = rng.next();
    let (exp, man) = match n {
        2 => (0x7c00u64, 0x3ffu64),
        4 => (0x7f80_0000, 0x7f_ffff),
        _ => (0x7ff0_0000_0000_0000, 0xf_ffff_ffff_ffff),
    };
    let bits = if rng.next() % 3 == 0 {
        let payload = (bits & man).max(1);
        let sign = (rng.next() & 1) << (n * 8 - 1);
        sign | exp | payload
    } else {
        bits
    };
    let le = bits.to_le_bytes();
    out.copy_from_slice(&le[..n]);
    if big {
        out.reverse();
    }
}

/// The npy bytes numpy would write for `dt` of `shape` (header from the
/// crate, which is numpy's, tested elsewhere; data from `fill`).
fn numpy_file(dt: &Dtype, shape: &[u64], fortran: bool, seed: u64) -> Vec<u8> {
    let n: u64 = shape.iter().product();
    let item = dt.itemsize();
    let mut data = vec![0u8; n as usize * item];
    let mut rng = Rng(seed);
    for el in data.chunks_exact_mut(item.max(1)) {
        fill(dt, el, &mut rng);
    }
    if shape.is_empty() && matches!(dt.as_scalar().map(|s| s.ty()), Some(ScalarType::Bytes(_))) {
        // a 0-d `S` holding no bytes reads as `[]`, which writes back as an
        // empty array: out of scope (see the module docs)
        data[0] |= 1;
    }
    // a header: write zeros of the right shape, then put the data in place
    let zeros = WriteOptions::new()
        .dtype(dt.clone())
        .fortran_order(fortran)
        .to_vec(&Zeros(shape, dt))
        .unwrap();
    let (h, start) = Header::from_bytes(&zeros, &Default::default()).unwrap();
    assert_eq!(h.data_len().unwrap(), data.len() as u64, "{h}");
    [&zeros[..start], &data[..]].concat()
}

/// Nested sequences of `shape` whose elements are read from a zeroed
/// element of `dt` (so every kind has a value it writes).
struct Zeros<'a>(&'a [u64], &'a Dtype);

impl serde::Serialize for Zeros<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        match self.0.split_first() {
            None => zero_value(self.1).serialize(s),
            Some((&n, rest)) => {
                let mut seq = s.serialize_seq(Some(n as usize))?;
                for _ in 0..n {
                    seq.serialize_element(&Zeros(rest, self.1))?;
                }
                seq.end()
            }
        }
    }
}

/// A value of `dt` read back from zero bytes (a top-level `S`/`V` element:
/// one byte, as an empty one would read as an empty array).
fn zero_value(dt: &Dtype) -> Value {
    if let Some(ScalarType::Bytes(_) | ScalarType::Void(_)) = dt.as_scalar().map(|s| s.ty()) {
        return Value::Bytes(vec![1]);
    }
    let file = header_only(dt);
    npy_serde::from_slice(&file).unwrap()
}

/// A 0-d file of `dt` holding zero bytes.
fn header_only(dt: &Dtype) -> Vec<u8> {
    let h = Header::new(dt.clone(), false, vec![]);
    let dict = h.to_string();
    let mut text = dict.into_bytes();
    // magic, version 1.0 or 3.0, length, dict padded to 64 with spaces, newline
    let v3 = !text.is_ascii();
    let pre = if v3 { 12 } else { 10 };
    let total = (pre + text.len() + 1).div_ceil(64) * 64;
    text.resize(total - pre - 1, b' ');
    text.push(b'\n');
    let mut out = b"\x93NUMPY".to_vec();
    if v3 {
        out.extend([3, 0]);
        out.extend((text.len() as u32).to_le_bytes());
    } else {
        out.extend([1, 0]);
        out.extend((text.len() as u16).to_le_bytes());
    }
    out.extend(text);
    out.extend(vec![0u8; dt.itemsize()]);
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn generic_value_round_trip_is_byte_exact(
        dt in dtype(),
        shape in proptest::collection::vec(1u64..4, 0..4),
        fortran in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let fortran = fortran && shape.len() > 1;
        let file = numpy_file(&dt, &shape, fortran, seed);
        let r = NpyReader::new(&file[..]).unwrap();
        let (rdt, rshape) = (r.dtype().clone(), r.shape().to_vec());
        let v: Value = npy_serde::from_slice(&file).unwrap();
        let out = WriteOptions::new()
            .dtype(rdt.clone())
            .fortran_order(r.fortran_order())
            .to_vec(&v);
        let out = match out {
            Ok(out) => out,
            Err(e) => return Err(TestCaseError::fail(format!("{rdt} {rshape:?}: {e}"))),
        };
        prop_assert_eq!(out, file, "{} {:?}", rdt, rshape);
    }
}
