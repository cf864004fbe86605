//! The write-side fuzz oracle, shared by the cargo-fuzz target `write` and
//! the stable replay of its committed corpus inside `cargo test`
//! (`tests/robustness/fuzz_write.rs` includes this file).
//!
//! The input bytes drive [`arbitrary::Unstructured`] to build one case:
//!
//! * **typed**: a random dtype (every kind, both byte orders, nested
//!   records, subarrays), a random shape and order, and values generated
//!   for that dtype (sometimes a leaf of another kind), written with
//!   `WriteOptions::dtype`;
//! * **derived**: random values of derived structs and plain Rust types,
//!   written with the inferred dtype.
//!
//! The oracle fails (panics) when the crate panics; when `to_vec`,
//! `to_writer` and a record-at-a-time `NpyWriter` disagree (bytes, or
//! success); when a written file's header is not the text numpy writes
//! (`{'descr': ..., 'fortran_order': ..., 'shape': ..., }`, padded with
//! spaces and `\n` to a multiple of 64) or its data is not the size the
//! header describes; and when reading the file back does not give the
//! values written (floats by bits; `S` values without their trailing NULs,
//! as numpy reads them).

use std::fmt;

use arbitrary::{Arbitrary, Unstructured};
use npy_serde::{
    ByteOrder, DatetimeUnit, Dtype, Header, ReadOptions, Scalar, ScalarType, TimeUnit, WriteOptions,
};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

/// A self-describing value: what a generic serde value holds, floats kept
/// as bits so that equality is bit equality.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    Bool(bool),
    I64(i64),
    U64(u64),
    F32(u32),
    F64(u64),
    Str(String),
    Bytes(Vec<u8>),
    Seq(Vec<Val>),
    Map(Vec<(String, Val)>),
    None,
}

impl Serialize for Val {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Val::Bool(b) => s.serialize_bool(*b),
            Val::I64(x) => s.serialize_i64(*x),
            Val::U64(x) => s.serialize_u64(*x),
            Val::F32(b) => s.serialize_f32(f32::from_bits(*b)),
            Val::F64(b) => s.serialize_f64(f64::from_bits(*b)),
            Val::Str(t) => s.serialize_str(t),
            Val::Bytes(b) => s.serialize_bytes(b),
            Val::Seq(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Val::Map(entries) => {
                let mut map = s.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
            Val::None => s.serialize_none(),
        }
    }
}

impl<'de> Deserialize<'de> for Val {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Val, D::Error> {
        d.deserialize_any(ValVisitor)
    }
}

struct ValVisitor;

impl<'de> Visitor<'de> for ValVisitor {
    type Value = Val;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Val, E> {
        Ok(Val::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Val, E> {
        Ok(Val::I64(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Val, E> {
        Ok(Val::U64(v))
    }
    fn visit_f32<E: de::Error>(self, v: f32) -> Result<Val, E> {
        Ok(Val::F32(v.to_bits()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Val, E> {
        Ok(Val::F64(v.to_bits()))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Val, E> {
        Ok(Val::Str(v.to_owned()))
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Val, E> {
        Ok(Val::Bytes(v.to_vec()))
    }
    fn visit_none<E: de::Error>(self) -> Result<Val, E> {
        Ok(Val::None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Val, E> {
        Ok(Val::None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Val, D::Error> {
        d.deserialize_any(ValVisitor)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Val, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element()? {
            items.push(v);
        }
        Ok(Val::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Val, A::Error> {
        let mut entries = Vec::new();
        while let Some(e) = map.next_entry()? {
            entries.push(e);
        }
        Ok(Val::Map(entries))
    }
}

type U<'a, 'b> = &'a mut Unstructured<'b>;

const NAMES: &[&str] = &["a", "x", "id", "é", "pos", "t"];

const UNITS: &[TimeUnit] = &[
    TimeUnit::Years,
    TimeUnit::Months,
    TimeUnit::Weeks,
    TimeUnit::Days,
    TimeUnit::Hours,
    TimeUnit::Seconds,
    TimeUnit::Milliseconds,
    TimeUnit::Nanoseconds,
    TimeUnit::Attoseconds,
];

fn scalar(ty: ScalarType, u: U) -> arbitrary::Result<Dtype> {
    let order = match ty {
        ScalarType::Bool
        | ScalarType::Int(1)
        | ScalarType::UInt(1)
        | ScalarType::Bytes(_)
        | ScalarType::Void(_) => ByteOrder::NotApplicable,
        _ if bool::arbitrary(u)? => ByteOrder::Big,
        _ => ByteOrder::Little,
    };
    Ok(Dtype::Scalar(Scalar::new(ty, order)))
}

/// A random dtype: scalars of every kind, records and subarrays nested up
/// to `depth`.
pub fn dtype(u: U, depth: u32) -> arbitrary::Result<Dtype> {
    let top = if depth > 0 { 12 } else { 10 };
    let size = |u: U, sizes: &[u8]| u.choose(sizes).copied();
    let ty = match u.int_in_range(0..=top)? {
        0 => ScalarType::Bool,
        1 => ScalarType::Int(size(u, &[1, 2, 4, 8])?),
        2 => ScalarType::UInt(size(u, &[1, 2, 4, 8])?),
        3 => ScalarType::Float(size(u, &[2, 4, 8])?),
        4 => ScalarType::Complex(size(u, &[8, 16])?),
        5 => ScalarType::Bytes(u.int_in_range(1..=5)?),
        6 => ScalarType::Unicode(u.int_in_range(1..=4)?),
        7 => ScalarType::Void(u.int_in_range(1..=4)?),
        8 | 9 => {
            let unit = DatetimeUnit {
                unit: *u.choose(UNITS)?,
                multiplier: *u.choose(&[1, 1, 1, 25])?,
            };
            if bool::arbitrary(u)? {
                ScalarType::Datetime(unit)
            } else {
                ScalarType::Timedelta(unit)
            }
        }
        10 => ScalarType::Float(8),
        11 => {
            let n = u.int_in_range(1..=4)?;
            let mut b = Dtype::record().align(u.ratio(1, 4)?);
            for i in 0..n {
                let name = format!("{}{i}", u.choose(NAMES)?);
                b = b.field(name, dtype(u, depth - 1)?);
            }
            return b.build().map_err(|_| arbitrary::Error::IncorrectFormat);
        }
        _ => {
            let dims = (0..u.int_in_range(1..=2)?)
                .map(|_| u.int_in_range(0..=3))
                .collect::<arbitrary::Result<Vec<u64>>>()?;
            return Dtype::subarray(dtype(u, depth - 1)?, dims)
                .map_err(|_| arbitrary::Error::IncorrectFormat);
        }
    };
    scalar(ty, u)
}

/// An f16's bits widened to f32 bits (NaN payloads kept).
fn f16_to_f32(h: u16) -> u32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from((h >> 10) & 0x1f);
    let man = u32::from(h & 0x3ff);
    match (exp, man) {
        (0, 0) => sign,
        (0, _) => {
            // subnormal: normalise
            let shift = man.leading_zeros() - 21;
            let man = (man << shift) & 0x3ff;
            sign | ((113 - shift) << 23) | (man << 13)
        }
        (31, _) => sign | 0x7f80_0000 | (man << 13),
        _ => sign | ((exp + 112) << 23) | (man << 13),
    }
}

/// A value of any kind (for the leaves that do not match their dtype).
fn any_val(u: U, depth: u32) -> arbitrary::Result<Val> {
    Ok(match u.int_in_range(0..=if depth > 0 { 9 } else { 7 })? {
        0 => Val::Bool(u.arbitrary()?),
        1 => Val::I64(u.arbitrary()?),
        2 => Val::U64(u.arbitrary()?),
        3 => Val::F32(u.arbitrary()?),
        4 => Val::F64(u.arbitrary()?),
        5 => Val::Str(u.arbitrary()?),
        6 => Val::Bytes(u.arbitrary()?),
        7 => Val::None,
        8 => Val::Seq(
            (0..u.int_in_range(0..=3)?)
                .map(|_| any_val(u, depth - 1))
                .collect::<arbitrary::Result<_>>()?,
        ),
        _ => Val::Map(
            (0..u.int_in_range(0..=3)?)
                .map(|i| Ok((format!("{}{i}", u.choose(NAMES)?), any_val(u, depth - 1)?)))
                .collect::<arbitrary::Result<_>>()?,
        ),
    })
}

/// A value for `dt` and what reading it back gives, or `None` for the
/// expectation when some leaf is of another kind (then only success or a
/// clean error is checked).
fn val_for(u: U, dt: &Dtype, exact: &mut bool) -> arbitrary::Result<(Val, Val)> {
    if u.ratio(1, 40)? {
        *exact = false;
        let v = any_val(u, 2)?;
        return Ok((v.clone(), v));
    }
    let pair = |v: Val| (v.clone(), v);
    Ok(match dt {
        Dtype::Scalar(s) => match s.ty() {
            ScalarType::Bool => pair(Val::Bool(u.arbitrary()?)),
            ScalarType::Int(n) => {
                let bits = 8 * u32::from(n);
                let x: i64 = u.arbitrary()?;
                pair(Val::I64(if bits == 64 { x } else { x >> (64 - bits) }))
            }
            ScalarType::UInt(n) => {
                let bits = 8 * u32::from(n);
                let x: u64 = u.arbitrary()?;
                pair(Val::U64(if bits == 64 { x } else { x >> (64 - bits) }))
            }
            ScalarType::Float(2) => {
                let h: u16 = u.arbitrary()?;
                // f16 NaN payloads through f32 are issue 15's (exactness
                // of NaN conversions); the canonical quiet NaN only here
                let h = if h & 0x7c00 == 0x7c00 && h & 0x3ff != 0 {
                    0x7e00
                } else {
                    h
                };
                pair(Val::F32(f16_to_f32(h)))
            }
            ScalarType::Float(4) => pair(Val::F32(u.arbitrary()?)),
            ScalarType::Float(_) => pair(Val::F64(u.arbitrary()?)),
            // a signalling NaN as a complex part is quieted on the way
            // (the crate widens the parts; issue 15 makes NaN conversions
            // exact): quiet NaNs only here, until then
            ScalarType::Complex(8) => {
                let part = |b: u32| {
                    if f32::from_bits(b).is_nan() {
                        b | 0x0040_0000
                    } else {
                        b
                    }
                };
                pair(Val::Seq(vec![
                    Val::F32(part(u.arbitrary()?)),
                    Val::F32(part(u.arbitrary()?)),
                ]))
            }
            ScalarType::Complex(_) => pair(Val::Seq(vec![
                Val::F64(u.arbitrary()?),
                Val::F64(u.arbitrary()?),
            ])),
            ScalarType::Bytes(n) => {
                let len = u.int_in_range(0..=n)?;
                let b = u.bytes(len)?.to_vec();
                let kept = b.len() - b.iter().rev().take_while(|&&x| x == 0).count();
                let read = b[..kept].iter().map(|&x| Val::U64(x.into())).collect();
                (Val::Bytes(b), Val::Seq(read))
            }
            ScalarType::Void(n) => {
                let b = u.bytes(n)?.to_vec();
                // fewer bytes than the width are zero padded, as numpy pads
                let mut read: Vec<Val> = b.iter().map(|&x| Val::U64(x.into())).collect();
                read.resize(n, Val::U64(0));
                (Val::Bytes(b), Val::Seq(read))
            }
            ScalarType::Unicode(n) => {
                let s: String = (0..u.int_in_range(0..=n)?)
                    .map(|_| char::arbitrary(u))
                    .collect::<arbitrary::Result<_>>()?;
                let read = s.trim_end_matches('\0').to_owned();
                (Val::Str(s), Val::Str(read))
            }
            ScalarType::Datetime(_) | ScalarType::Timedelta(_) => pair(Val::I64(u.arbitrary()?)),
            _ => pair(Val::None),
        },
        Dtype::Subarray(base, dims) => nested(u, base, dims, exact)?,
        Dtype::Record(r) => {
            let mut w = Vec::new();
            let mut e = Vec::new();
            for f in r.fields() {
                let (a, b) = val_for(u, f.dtype(), exact)?;
                w.push((f.name().to_owned(), a));
                e.push((f.name().to_owned(), b));
            }
            (Val::Map(w), Val::Map(e))
        }
    })
}

/// Values for an array of `dt` of shape `dims`, nested in C order.
fn nested(u: U, dt: &Dtype, dims: &[u64], exact: &mut bool) -> arbitrary::Result<(Val, Val)> {
    let Some((&n, rest)) = dims.split_first() else {
        return val_for(u, dt, exact);
    };
    let (mut w, mut e) = (Vec::new(), Vec::new());
    for _ in 0..n {
        let (a, b) = nested(u, dt, rest, exact)?;
        w.push(a);
        e.push(b);
    }
    Ok((Val::Seq(w), Val::Seq(e)))
}

/// The tuple numpy writes for a shape: `()`, `(3,)`, `(2, 3)`.
fn shape_text(shape: &[u64]) -> String {
    match shape {
        [d] => format!("({d},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The header of a written file is exactly numpy's text, padded to a
/// multiple of 64, and the data is the size it describes. Returns the
/// parsed header.
pub fn check_header(bytes: &[u8]) -> Header {
    let (header, offset) = Header::from_bytes(bytes, &ReadOptions::new())
        .unwrap_or_else(|e| panic!("a written header does not parse: {e}"));
    assert_eq!(offset % 64, 0, "header not padded to a multiple of 64");
    // numpy folds a subarray dtype's axes into the shape: its headers
    // never have a subarray descr
    assert!(
        !matches!(header.descr, Dtype::Subarray(..)),
        "a subarray descr {} in a header",
        header.descr
    );
    let text_start = if bytes[6] == 1 { 10 } else { 12 };
    // versions 1 and 2 are latin-1 (as numpy encodes them), 3 is UTF-8
    let raw = &bytes[text_start..offset];
    let text: String = if bytes[6] == 3 {
        std::str::from_utf8(raw)
            .expect("a version 3 header is UTF-8")
            .to_owned()
    } else {
        raw.iter().map(|&b| char::from(b)).collect()
    };
    let expected = format!(
        "{{'descr': {}, 'fortran_order': {}, 'shape': {}, }}",
        header.descr,
        if header.fortran_order {
            "True"
        } else {
            "False"
        },
        shape_text(&header.shape)
    );
    let padding = text
        .strip_prefix(&expected)
        .unwrap_or_else(|| panic!("header text {text:?} is not numpy's {expected:?}"));
    assert!(
        padding.ends_with('\n')
            && padding.trim_end_matches('\n').bytes().all(|b| b == b' ')
            && padding.matches('\n').count() == 1,
        "header padding {padding:?} is not spaces and one newline"
    );
    let data = header.data_len().expect("a written header has a data size");
    assert_eq!(
        (bytes.len() - offset) as u64,
        data,
        "the data is not the size the header describes"
    );
    header
}

/// Writes `value` with `to_vec` and `to_writer`: they must agree (bytes,
/// or the same error). Returns `to_vec`'s bytes.
fn write_both_ways<T: Serialize + ?Sized>(opts: &WriteOptions, value: &T) -> Option<Vec<u8>> {
    let a = opts.to_vec(value);
    let mut b = Vec::new();
    let b_res = opts.to_writer(&mut b, value);
    match (&a, &b_res) {
        (Ok(a), Ok(())) => assert_eq!(a, &b, "to_vec and to_writer wrote different bytes"),
        (Err(x), Err(y)) => assert_eq!(
            x.to_string(),
            y.to_string(),
            "to_vec and to_writer fail differently"
        ),
        (Ok(_), Err(e)) => panic!("to_writer failed where to_vec wrote: {e}"),
        (Err(e), Ok(())) => panic!("to_writer wrote where to_vec failed: {e}"),
    }
    a.ok()
}

/// Writes `records` one at a time through an `NpyWriter` (with `opts`'s
/// dtype, if any) and compares with `whole`, what `to_vec` wrote for the
/// array of them. With a given dtype both must succeed or fail together;
/// with an inferred one (taken from the first record, so a later wider
/// string is refused) the bytes must agree when both succeed.
fn check_streamed<R: Serialize>(
    opts: &WriteOptions,
    given: bool,
    records: &[R],
    whole: Option<&[u8]>,
) {
    let Ok(mut w) = opts.npy_writer(std::io::Cursor::new(Vec::new())) else {
        return;
    };
    let mut refusal = None;
    let refused = records
        .iter()
        .filter(|r| w.serialize(r).map_err(|e| refusal = Some(e)).is_err())
        .count();
    let streamed = if refused == 0 { w.finish().ok() } else { None };
    match (whole, streamed) {
        (Some(a), Some(b)) => assert_eq!(
            a,
            b.get_ref().as_slice(),
            "NpyWriter wrote other bytes than to_vec"
        ),
        (Some(_), None) if given => {
            panic!("NpyWriter refused what to_vec wrote ({refused} records refused: {refusal:?})")
        }
        (None, Some(_)) if given => {
            panic!("NpyWriter wrote every record of a value to_vec refused")
        }
        _ => {}
    }
}

/// A typed case: a random dtype, shape, order and version, and values for them.
fn typed(u: U) -> arbitrary::Result<()> {
    let dt = dtype(u, 3)?;
    let mut shape = (0..u.int_in_range(0..=3)?)
        .map(|_| u.int_in_range(0..=3))
        .collect::<arbitrary::Result<Vec<u64>>>()?;
    // an empty axis hides the lengths of the axes after it
    if let Some(zero) = shape.iter().position(|&d| d == 0) {
        shape.truncate(zero + 1);
    }
    let fortran = u.ratio(1, 4)?;
    let version = *u.choose(&[None, None, Some((1, 0)), Some((2, 0)), Some((3, 0))])?;
    let mut exact = true;
    let (written, expected) = nested(u, &dt, &shape, &mut exact)?;
    let mut opts = WriteOptions::new().dtype(dt.clone()).fortran_order(fortran);
    if let Some((major, minor)) = version {
        opts = opts.version(major, minor);
    }
    if std::env::var_os("WRITE_TRACE").is_some() {
        eprintln!("{dt} shape {shape:?} fortran {fortran} {version:?} exact {exact}\n{written:?}");
    }
    let bytes = write_both_ways(&opts, &written);
    if let Some(bytes) = &bytes {
        let header = check_header(bytes);
        // a subarray dtype's axes join the shape, as numpy folds them
        let (mut descr, mut full) = (&dt, shape.clone());
        while let Dtype::Subarray(base, dims) = descr {
            full.extend_from_slice(dims);
            descr = base;
        }
        assert_eq!(
            &header.descr, descr,
            "the header's descr is not the dtype given"
        );
        // (an empty sequence does not say which axes it spans)
        if exact && !full.contains(&0) {
            assert_eq!(header.shape, full, "the header's shape is not the value's");
        }
        let back = npy_serde::from_slice::<Val>(bytes)
            .unwrap_or_else(|e| panic!("a written file does not read back: {e}"));
        // (nor, under an S or V dtype, whether an empty sequence is an empty
        // axis or an empty value, which is zero padded: issue 15's rule)
        let bytes_like = matches!(descr, Dtype::Scalar(s)
            if matches!(s.ty(), ScalarType::Bytes(_) | ScalarType::Void(_)));
        if exact && !(bytes_like && full.contains(&0)) {
            assert_eq!(back, expected, "read back other values than written ({dt})");
        }
    }
    // (an empty array's header shape depends on how the axes are split
    // between the value and the record dtype; a leaf of another kind may
    // be a sequence that to_vec takes as more axes)
    if exact && !fortran && !shape.contains(&0) && dt.itemsize() > 0 {
        if let (Some((_, rest)), Val::Seq(items)) = (shape.split_first(), &written) {
            let record = if rest.is_empty() {
                Ok(dt.clone())
            } else {
                Dtype::subarray(dt.clone(), rest.to_vec())
            };
            if let Ok(record) = record {
                let mut opts = WriteOptions::new().dtype(record);
                if let Some((major, minor)) = version {
                    opts = opts.version(major, minor);
                }
                check_streamed(&opts, true, items, bytes.as_deref());
            }
        }
    }
    Ok(())
}

/// An f64 compared by bits.
#[derive(Serialize, Deserialize, Clone, Copy, Debug)]
#[serde(transparent)]
pub struct B64(pub f64);

impl PartialEq for B64 {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl<'a> Arbitrary<'a> for B64 {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(B64(f64::from_bits(u.arbitrary()?)))
    }
}

/// An f32 compared by bits.
#[derive(Serialize, Deserialize, Clone, Copy, Debug)]
#[serde(transparent)]
pub struct B32(pub f32);

impl PartialEq for B32 {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl<'a> Arbitrary<'a> for B32 {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(B32(f32::from_bits(u.arbitrary()?)))
    }
}

/// A complex number compared by bits.
#[derive(Serialize, Deserialize, Clone, Copy, Debug)]
#[serde(transparent)]
pub struct C64(pub num_complex::Complex<f64>);

impl PartialEq for C64 {
    fn eq(&self, other: &Self) -> bool {
        (self.0.re.to_bits(), self.0.im.to_bits()) == (other.0.re.to_bits(), other.0.im.to_bits())
    }
}

impl<'a> Arbitrary<'a> for C64 {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let (re, im): (u64, u64) = u.arbitrary()?;
        Ok(C64(num_complex::Complex::new(
            f64::from_bits(re),
            f64::from_bits(im),
        )))
    }
}

/// A string as numpy keeps it: no trailing NULs.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(transparent)]
pub struct Text(pub String);

impl<'a> Arbitrary<'a> for Text {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let s: String = u.arbitrary()?;
        Ok(Text(s.trim_end_matches('\0').to_owned()))
    }
}

#[derive(Serialize, Deserialize, Arbitrary, Clone, Debug, PartialEq)]
pub struct Inner {
    pub t: i64,
    pub flag: bool,
    pub w: [u16; 2],
}

#[derive(Serialize, Deserialize, Arbitrary, Clone, Debug, PartialEq)]
pub struct Particle {
    pub id: u32,
    pub x: B64,
    pub pos: [B32; 3],
    pub name: Text,
    pub inner: Inner,
    pub pair: (i8, u64),
    pub c: C64,
}

/// Derived-shaped values, written with the inferred dtype.
#[derive(Arbitrary, Debug)]
pub enum Derived {
    Particles(Vec<Particle>),
    One(Particle),
    Floats(Vec<B64>),
    Pairs(Vec<(u8, B32)>),
    Rows(Vec<[i16; 3]>),
    Strings(Vec<Text>),
    Ragged(Vec<Vec<u16>>),
    Inners(Vec<Inner>),
    Scalar(i32),
}

/// Writes `value` with the inferred dtype (aligned or packed), checks the
/// file, reads it back into `T` and compares.
fn derived_one<T>(value: &T, align: bool, records: Option<&[T::Item]>)
where
    T: Serialize + for<'de> Deserialize<'de> + PartialEq + fmt::Debug + Elements,
    T::Item: Serialize,
{
    let opts = WriteOptions::new().align(align);
    let bytes = write_both_ways(&opts, value);
    if let Some(bytes) = &bytes {
        check_header(bytes);
        let back: T = npy_serde::from_slice(bytes)
            .unwrap_or_else(|e| panic!("a written file does not read back: {e}"));
        assert_eq!(&back, value, "read back other values than written");
    }
    if let Some(items) = records {
        check_streamed(&opts, false, items, bytes.as_deref());
    }
}

/// What a value holds as records, if it is a sequence.
pub trait Elements {
    type Item;
}

impl<T> Elements for Vec<T> {
    type Item = T;
}

impl Elements for Particle {
    type Item = ();
}

impl Elements for i32 {
    type Item = ();
}

fn derived(u: U) -> arbitrary::Result<()> {
    let align = u.ratio(1, 4)?;
    match Derived::arbitrary(u)? {
        Derived::Particles(v) => derived_one(&v, align, Some(&v)),
        Derived::One(p) => derived_one(&p, align, None),
        Derived::Floats(v) => derived_one(&v, align, Some(&v)),
        Derived::Pairs(v) => derived_one(&v, align, Some(&v)),
        Derived::Rows(v) => derived_one(&v, align, Some(&v)),
        Derived::Strings(v) => derived_one(&v, align, Some(&v)),
        Derived::Ragged(v) => derived_one(&v, align, Some(&v)),
        Derived::Inners(v) => derived_one(&v, align, Some(&v)),
        Derived::Scalar(x) => derived_one(&x, align, None),
    }
    Ok(())
}

/// Runs one case built from `data`; returns whether it was a typed case.
pub fn check(data: &[u8]) -> bool {
    let mut u = Unstructured::new(data);
    let Ok(is_typed) = u.ratio(2, 3) else {
        return false;
    };
    let _ = if is_typed {
        typed(&mut u)
    } else {
        derived(&mut u)
    };
    is_typed
}
