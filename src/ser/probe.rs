//! A tiny serializer that captures one scalar (or a `[re, im]` pair), used
//! to read the inner value of the special newtypes (complex, datetime,
//! half, padding) without allocating.

use serde::ser::{self, Serialize};

use crate::error::{Error, Result};
use crate::ser::Found;
use crate::special::Special;

/// What a probed value turned out to be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Captured {
    Bool(bool),
    Int(i64),
    UInt(u64),
    F32(f32),
    F64(f64),
    /// A 2-element sequence of numbers; `true` when both parts were `f32`.
    Pair(f64, f64, bool),
    /// The crate's padding newtype with its size.
    Padding(u64),
    /// Anything else (string, record, longer sequence...).
    Other(&'static str),
}

impl Captured {
    /// The number as `f64` and whether it came from an `f32`, for complex
    /// parts; integers are accepted when exact.
    fn part(self) -> Option<(f64, bool)> {
        match self {
            Captured::F32(v) => Some((crate::ser::convert::f32_to_f64(v), true)),
            Captured::F64(v) => Some((v, false)),
            Captured::Int(v) => crate::ser::convert::i64_to_f64_exact(v).map(|f| (f, false)),
            Captured::UInt(v) => crate::ser::convert::u64_to_f64_exact(v).map(|f| (f, false)),
            _ => None,
        }
    }
}

/// Probes `value`.
pub(crate) fn probe<T: ?Sized + Serialize>(value: &T) -> Captured {
    value.serialize(Probe).unwrap_or(Captured::Other("a value"))
}

pub(crate) struct Probe;

impl Probe {
    /// A compound that is no pair: the probe fails.
    fn refuse(self, found: Found) -> Error {
        Error::mismatch(match found {
            Found::Map => "a map",
            Found::Struct | Found::TupleStruct => "a record",
            _ => "an enum variant",
        })
    }
}

/// Collects a pair of numbers.
pub(crate) struct PairProbe {
    parts: [Option<(f64, bool)>; 2],
    n: usize,
    bad: bool,
}

impl PairProbe {
    fn push<T: ?Sized + Serialize>(&mut self, value: &T) {
        match (probe(value).part(), self.parts.get_mut(self.n)) {
            (Some(p), Some(slot)) => *slot = Some(p),
            _ => self.bad = true,
        }
        // past 2 the pair is refused (bad is set): saturation is harmless
        self.n = self.n.saturating_add(1);
    }
    fn finish(self) -> Captured {
        match (self.bad, self.parts) {
            (false, [Some((re, a)), Some((im, b))]) if self.n == 2 => {
                Captured::Pair(re, im, a && b)
            }
            _ => Captured::Other("a sequence"),
        }
    }
}

impl ser::SerializeSeq for PairProbe {
    type Ok = Captured;
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.push(value);
        Ok(())
    }
    fn end(self) -> Result<Captured> {
        Ok(self.finish())
    }
}

impl ser::SerializeTuple for PairProbe {
    type Ok = Captured;
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.push(value);
        Ok(())
    }
    fn end(self) -> Result<Captured> {
        Ok(self.finish())
    }
}

fn other(what: &'static str) -> Result<Captured> {
    Ok(Captured::Other(what))
}

impl ser::Serializer for Probe {
    serializer_types!(Captured, Error; (PairProbe) (PairProbe) _ _ _ _ _);

    refuse!(serialize_tuple_struct serialize_tuple_variant serialize_map serialize_struct
        serialize_struct_variant);

    fn serialize_bool(self, v: bool) -> Result<Captured> {
        Ok(Captured::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Captured> {
        Ok(Captured::Int(v.into()))
    }
    fn serialize_i16(self, v: i16) -> Result<Captured> {
        Ok(Captured::Int(v.into()))
    }
    fn serialize_i32(self, v: i32) -> Result<Captured> {
        Ok(Captured::Int(v.into()))
    }
    fn serialize_i64(self, v: i64) -> Result<Captured> {
        Ok(Captured::Int(v))
    }
    fn serialize_u8(self, v: u8) -> Result<Captured> {
        Ok(Captured::UInt(v.into()))
    }
    fn serialize_u16(self, v: u16) -> Result<Captured> {
        Ok(Captured::UInt(v.into()))
    }
    fn serialize_u32(self, v: u32) -> Result<Captured> {
        Ok(Captured::UInt(v.into()))
    }
    fn serialize_u64(self, v: u64) -> Result<Captured> {
        Ok(Captured::UInt(v))
    }
    fn serialize_f32(self, v: f32) -> Result<Captured> {
        Ok(Captured::F32(v))
    }
    fn serialize_f64(self, v: f64) -> Result<Captured> {
        Ok(Captured::F64(v))
    }
    fn serialize_char(self, _: char) -> Result<Captured> {
        other("a char")
    }
    fn serialize_str(self, _: &str) -> Result<Captured> {
        other("a string")
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<Captured> {
        other("bytes")
    }
    fn serialize_none(self) -> Result<Captured> {
        other("None")
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<Captured> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Captured> {
        other("unit")
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Captured> {
        other("unit")
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<Captured> {
        other("an enum variant")
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Captured> {
        match Special::of(name) {
            Some(Special::Padding) => Ok(match probe(value) {
                Captured::UInt(n) => Captured::Padding(n),
                _ => Captured::Other("a malformed padding value"),
            }),
            // half floats are their bits here
            None | Some(Special::F16 | Special::Bf16 | Special::Foreign) => value.serialize(self),
            Some(_) => other("a special value"),
        }
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Captured> {
        other("an enum variant")
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<PairProbe> {
        Ok(PairProbe {
            parts: [None, None],
            n: 0,
            bad: false,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<PairProbe> {
        self.serialize_seq(Some(len))
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}
