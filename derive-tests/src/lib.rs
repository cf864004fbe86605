//! One derived type per row of npy_serde's type mapping and per serde
//! attribute, with the numpy dtype each should give (unpublished; used by
//! the tests in `tests/`).
//!
//! Each type's doc line says the `descr` numpy shows for one record. Types
//! marked *fixed* have a dtype known from the type alone, so
//! `Dtype::of::<T>()` must equal what `to_vec` writes for a sample; the
//! others depend on the values (string widths, `Vec` lengths) or are refused
//! by `Dtype::of` (flatten, untagged and tagged enums).
#![forbid(unsafe_code)]
#![allow(missing_docs)]

use half::f16;
use npy_serde::{Datetime64, Padding, Timedelta64, unit};
use num_complex::Complex;
use serde::{Deserialize, Serialize};

/// *fixed* `[('flag', '|b1')]`
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Bools {
    pub flag: bool,
}

/// *fixed* `[('a', '|i1'), ('b', '<i2'), ('c', '<i4'), ('d', '<i8')]`
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Ints {
    pub a: i8,
    pub b: i16,
    pub c: i32,
    pub d: i64,
}

/// *fixed* `[('a', '|u1'), ('b', '<u2'), ('c', '<u4'), ('d', '<u8')]`
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct UInts {
    pub a: u8,
    pub b: u16,
    pub c: u32,
    pub d: u64,
}

/// *fixed* `[('single', '<f4'), ('double', '<f8')]`
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Floats {
    pub single: f32,
    pub double: f64,
}

/// *fixed* `[('h', '<f2')]`, bit-exact
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Half {
    pub h: f16,
}

/// *fixed* `[('a', '<c8'), ('b', '<c16'), ('plain', '<f8', (2,))]`: without
/// `with`, num_complex is a pair of floats
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Complexes {
    #[serde(with = "npy_serde::complex")]
    pub a: Complex<f32>,
    #[serde(with = "npy_serde::complex")]
    pub b: Complex<f64>,
    pub plain: Complex<f64>,
}

/// *fixed* `[('c', '<U1')]`
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Chars {
    pub c: char,
}

/// `[('name', '<Un')]`, n = longest name in chars (at least 1)
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Strings {
    pub name: String,
}

/// `[('raw', '|Sn')]`, n = longest value in bytes (at least 1)
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Bytes {
    #[serde(with = "serde_bytes")]
    pub raw: Vec<u8>,
}

/// *fixed* `[('x', '<f8'), ('y', '<f8')]`
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct Inner {
    pub x: f64,
    pub y: f64,
}

/// *fixed* `[('id', '<u4'), ('inner', [('x', '<f8'), ('y', '<f8')])]`
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Nested {
    pub id: u32,
    pub inner: Inner,
}

/// *fixed* `'<f8'` (a newtype is transparent)
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct Meters(pub f64);

/// *fixed* `[('len', '<f8')]`
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct WithNewtype {
    pub len: Meters,
}

/// *fixed* `[]` (a zero-field record)
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Marker;

/// *fixed* `[('a', '|u1'), ('marker', []), ('unit', [])]`
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct WithUnits {
    pub a: u8,
    pub marker: Marker,
    pub unit: (),
}

/// *fixed* `[('v', '<f8', (3,)), ('grid', '<f4', (2, 4)), ('pair', '<i4', (2,))]`
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Arrays {
    pub v: [f64; 3],
    pub grid: [[f32; 4]; 2],
    pub pair: (i32, i32),
}

/// `[('samples', '<f4', (n,))]`, n = the one length of every record's Vec
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct VecField {
    pub samples: Vec<f32>,
}

/// *fixed* `[('f0', '|u1'), ('f1', '<f8')]`
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct TupleStruct(pub u8, pub f64);

/// *fixed* `[('t', [('f0', '|u1'), ('f1', '<f8')])]`
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct MixedTuple {
    pub t: (u8, f64),
}

/// *fixed* `[('tag', '|u1'), ('', '|V3'), ('len', '<u4')]`: padding is a gap
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Padded {
    pub tag: u8,
    pub _pad: Padding<3>,
    pub len: u32,
}

/// A unit-only enum: the variant name as `'<Un'`.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
pub enum Color {
    Red,
    Green,
    Blue,
}

/// `[('color', '<Un')]`, n = longest variant name written (from the type
/// alone: longest variant name, here 5)
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct WithEnum {
    pub color: Color,
}

/// *fixed* `[('at', '<M8[ns]'), ('took', '<m8[s]')]`
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Times {
    pub at: Datetime64<unit::ns>,
    pub took: Timedelta64<unit::s>,
}

/// *fixed* `[('X', '<f8'), ('secondValue', '<i4')]`: `rename` and `rename_all`
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Renamed {
    #[serde(rename = "X")]
    pub x: f64,
    pub second_value: i32,
}

/// *fixed* `[('kept', '<f8')]`: skipped fields are neither written nor read
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Skipped {
    pub kept: f64,
    #[serde(skip)]
    pub cache: Option<String>,
}

/// `[('id', '<u4'), ('x', '<f8'), ('y', '<f8')]`: `flatten` arrives as a
/// map and is written flat; `Dtype::of` refuses it (keys unknown)
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Flattened {
    pub id: u32,
    #[serde(flatten)]
    pub inner: Inner,
}

/// *fixed* `[('a', '|u1'), ('b', '<u2')]`: `default` only matters when reading
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Defaulted {
    pub a: u8,
    #[serde(default)]
    pub b: u16,
}

/// Serializes a `u32` as an `i64`, for `#[serde(with)]`.
pub mod as_i64 {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &u32, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(i64::from(*v))
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        let v = i64::deserialize(d)?;
        u32::try_from(v).map_err(serde::de::Error::custom)
    }
}

/// *fixed* `[('n', '<i8')]`: `with` decides the serde type
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct WithModule {
    #[serde(with = "as_i64")]
    pub n: u32,
}

/// *fixed* `[('x', '<f8')]`: an alias is accepted when reading, never written
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Aliased {
    #[serde(alias = "a", alias = "x_old")]
    pub x: f64,
}

/// *fixed* `'<f8'`: a transparent struct is its field
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(transparent)]
pub struct Transparent {
    pub value: f64,
}

/// `[('v', '<f8')]` when every record holds `F`; the layout follows the
/// values, so `Dtype::of` refuses it
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
pub enum Untagged {
    I(i64),
    F(f64),
}

/// `[('v', ...)]` holding an untagged enum
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct WithUntagged {
    pub v: Untagged,
}

/// `[('kind', '<Un'), ('r', '<f8')]` when every record is a `Circle`: an
/// internally tagged enum is a record with the tag field first; records of
/// different variants have different layouts and are refused
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "kind")]
pub enum Tagged {
    Circle { r: f64 },
    Square { side: f64 },
}

/// An externally tagged enum with data: refused by `to_vec` and `Dtype::of`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub enum WithData {
    Empty,
    Circle(f64),
}

/// *fixed* `[('a', '|u1')]`; reading a file with more fields fails
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Strict {
    pub a: u8,
}

/// *fixed* `[('a', '|u1'), ('b', '|u1')]`: `Strict` plus a field
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Wider {
    pub a: u8,
    pub b: u8,
}

/// `[('maybe', '<f8')]` when every value is `Some`; `None` is refused
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Optional {
    pub maybe: Option<f64>,
}

/// Refused everywhere: numpy has no 128-bit integers.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Wide {
    pub big: i128,
}

/// *fixed*: the crate docs' example record,
/// `[('id', '<u4'), ('pos', '<f8', (3,)), ('vel', '<f4', (3,)), ('charge', '<i1'), ('alive', '|b1')]`
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Particle {
    pub id: u32,
    pub pos: [f64; 3],
    pub vel: [f32; 3],
    pub charge: i8,
    pub alive: bool,
}

/// Everything at once, as a proptest target: `[('id', '<i8'), ('name', '<Un'),
/// ('pos', '<f8', (2,)), ('inner', [...]), ('pair', [('f0', '|u1'), ('f1', '<f4')]),
/// ('color', '<Un'), ('z', '<c16')]`
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Mixed {
    pub id: i64,
    pub name: String,
    pub pos: [f64; 2],
    pub inner: Inner,
    pub pair: (u8, f32),
    pub color: Color,
    #[serde(with = "npy_serde::complex")]
    pub z: Complex<f64>,
}
