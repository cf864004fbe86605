//! Any element of any dtype, read through the library and typed by the dtype.
//!
//! The library decodes every byte (byte order, NUL stripping, UCS-4, the
//! checks and their messages) and presents an element to `deserialize_any`
//! by its serde shape. That shape keeps what numpy means only together with
//! the dtype: an `f4` arrives as `f32` (so it is not widened), but an `f2`
//! arrives as `f32` too, `S` and `V` as sequences of `u8`, a datetime as its
//! `i64` count, a complex number as `[re, im]`. So an element is read in two
//! steps: [`Raw`] takes the shape as serde hands it over (record fields in
//! the file's order), and [`Value::of`] walks the dtype and the raw value
//! together into what numpy means. Every command prints a [`Value`]; no
//! command decodes bytes itself.

use std::fmt;

use npy_serde::{Dtype, ScalarType};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// An element as `deserialize_any` presents it.
#[derive(Debug)]
pub enum Raw {
    Bool(bool),
    Int(i64),
    UInt(u64),
    F32(f32),
    F64(f64),
    Str(String),
    Bytes(Vec<u8>),
    Seq(Vec<Raw>),
    Map(Vec<(String, Raw)>),
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Raw, D::Error> {
        d.deserialize_any(RawVisitor)
    }
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = Raw;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any numpy value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Raw, E> {
        Ok(Raw::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Raw, E> {
        Ok(Raw::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Raw, E> {
        Ok(Raw::UInt(v))
    }
    // serde's default widens f32 to f64: keep it, so it prints as an f32
    fn visit_f32<E>(self, v: f32) -> Result<Raw, E> {
        Ok(Raw::F32(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Raw, E> {
        Ok(Raw::F64(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Raw, E> {
        Ok(Raw::Str(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Raw, E> {
        Ok(Raw::Str(v))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Raw, E> {
        Ok(Raw::Bytes(v.to_vec()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Raw::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw, A::Error> {
        let mut fields = Vec::new();
        while let Some(entry) = map.next_entry()? {
            fields.push(entry);
        }
        Ok(Raw::Map(fields))
    }
}

/// A float of the width the file stores, so it prints as numpy prints
/// that width (the `f16` value is exact in the `f32`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Float {
    F16(f32),
    F32(f32),
    F64(f64),
}

/// An element as numpy means it.
#[derive(Debug, PartialEq)]
pub enum Value {
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(Float),
    Complex(Float, Float),
    /// `S`: the bytes without trailing NULs.
    Bytes(Vec<u8>),
    /// `V`: the raw bytes.
    Void(Vec<u8>),
    /// `U`
    Str(String),
    /// `M8` and `m8` in numpy's text (`2024-01-01T00:00`, `5 seconds`, `NaT`).
    Time(String),
    /// A subarray or an inner axis.
    Array(Vec<Value>),
    /// Fields in dtype order.
    Record(Vec<(String, Value)>),
}

impl Value {
    /// The value of one element of `dtype` whose raw form is `raw`. A shape
    /// that does not fit the dtype is this tool's bug, reported as such.
    pub fn of(raw: Raw, dtype: &Dtype) -> Result<Value, String> {
        match dtype {
            Dtype::Scalar(s) => scalar(raw, s.ty()).ok_or_else(|| bug(dtype)),
            Dtype::Subarray(base, shape) => Value::of_dims(raw, shape, base),
            Dtype::Record(rec) => {
                let Raw::Map(entries) = raw else {
                    return Err(bug(dtype));
                };
                if entries.len() != rec.fields().len() {
                    return Err(bug(dtype));
                }
                // the library yields the fields in dtype order: checked here
                let mut fields = Vec::with_capacity(entries.len());
                for ((key, raw), field) in entries.into_iter().zip(rec.fields()) {
                    if key != field.name() {
                        return Err(bug(dtype));
                    }
                    fields.push((key, Value::of(raw, field.dtype())?));
                }
                Ok(Value::Record(fields))
            }
        }
    }

    /// An array of `dims` of `base` elements (a row of an n-d array, a
    /// subarray field); the element itself when `dims` is empty.
    pub fn of_dims(raw: Raw, dims: &[u64], base: &Dtype) -> Result<Value, String> {
        let Some((&n, rest)) = dims.split_first() else {
            return Value::of(raw, base);
        };
        match raw {
            Raw::Seq(items) if u64::try_from(items.len()) == Ok(n) => items
                .into_iter()
                .map(|item| Value::of_dims(item, rest, base))
                .collect::<Result<_, _>>()
                .map(Value::Array),
            _ => Err(bug(base)),
        }
    }
}

#[cold]
fn bug(dtype: &Dtype) -> String {
    format!("internal error: a value of dtype {dtype} was presented in another shape")
}

/// A scalar; `None` when the shape is not the one the type is presented as.
fn scalar(raw: Raw, ty: ScalarType) -> Option<Value> {
    Some(match (ty, raw) {
        (ScalarType::Bool, Raw::Bool(b)) => Value::Bool(b),
        (ScalarType::Int(_), Raw::Int(i)) => Value::Int(i),
        (ScalarType::UInt(_), Raw::UInt(u)) => Value::UInt(u),
        (ScalarType::Float(2), Raw::F32(x)) => Value::Float(Float::F16(x)),
        (ScalarType::Float(4), Raw::F32(x)) => Value::Float(Float::F32(x)),
        (ScalarType::Float(8), Raw::F64(x)) => Value::Float(Float::F64(x)),
        (ScalarType::Complex(n), Raw::Seq(parts)) => match (n, parts.as_slice()) {
            (8, [Raw::F32(re), Raw::F32(im)]) => Value::Complex(Float::F32(*re), Float::F32(*im)),
            (16, [Raw::F64(re), Raw::F64(im)]) => Value::Complex(Float::F64(*re), Float::F64(*im)),
            _ => return None,
        },
        (ScalarType::Bytes(_), raw) => Value::Bytes(bytes(raw)?),
        (ScalarType::Void(_), raw) => Value::Void(bytes(raw)?),
        (ScalarType::Unicode(_), Raw::Str(s)) => Value::Str(s),
        (ScalarType::Datetime(unit), Raw::Int(count)) => {
            Value::Time(unit.datetime_as_string(count))
        }
        (ScalarType::Timedelta(unit), Raw::Int(count)) => {
            Value::Time(unit.timedelta_as_string(count))
        }
        _ => return None,
    })
}

/// `S` and `V` arrive as a sequence of `u8` (or as bytes).
fn bytes(raw: Raw) -> Option<Vec<u8>> {
    match raw {
        Raw::Bytes(b) => Some(b),
        Raw::Seq(items) => items
            .into_iter()
            .map(|item| match item {
                Raw::UInt(b) => u8::try_from(b).ok(),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// Reads a whole array through `deserialize_any`, keeping nothing but one
/// outer element at a time: every value decoded, none stored.
pub struct Discard;

impl<'de> Deserialize<'de> for Discard {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Discard, D::Error> {
        d.deserialize_any(DiscardVisitor)
    }
}

struct DiscardVisitor;

impl<'de> Visitor<'de> for DiscardVisitor {
    type Value = Discard;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any numpy array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Discard, A::Error> {
        while seq.next_element::<Raw>()?.is_some() {}
        Ok(Discard)
    }

    // a 0-d array: its one element; a member that is not .npy: its bytes
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Discard, A::Error> {
        RawVisitor.visit_map(map).map(|_| Discard)
    }
    fn visit_bytes<E>(self, _: &[u8]) -> Result<Discard, E> {
        Ok(Discard)
    }
    fn visit_bool<E>(self, _: bool) -> Result<Discard, E> {
        Ok(Discard)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Discard, E> {
        Ok(Discard)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Discard, E> {
        Ok(Discard)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Discard, E> {
        Ok(Discard)
    }
    fn visit_str<E>(self, _: &str) -> Result<Discard, E> {
        Ok(Discard)
    }
}
