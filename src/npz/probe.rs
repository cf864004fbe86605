//! What a value is at its top, without walking it: the writer needs to know
//! whether `npz::to_writer` got a struct or map (one member per field), a
//! sequence (columnar) or something else, and whether a field is `None`.
//!
//! The probe stops at the first serializer call by returning its answer as
//! the "error", so no element is visited.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::fmt;

use serde::Serialize;
use serde::ser::{self, Impossible};

use crate::special;

/// The top-level shape of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    None,
    Seq,
    Struct,
    Map,
    /// Anything else, with serde's word for it.
    Other(&'static str),
}

/// The probe's answer (or a message from a custom `Serialize`).
#[derive(Debug)]
pub(crate) enum Stop {
    Kind(Kind),
    Custom,
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}
impl std::error::Error for Stop {}
impl ser::Error for Stop {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Stop::Custom
    }
}

/// The top-level kind of `value` (`Some` and plain newtypes are looked through).
pub(crate) fn kind_of<T: ?Sized + Serialize>(value: &T) -> Kind {
    match value.serialize(Probe) {
        Err(Stop::Kind(k)) => k,
        Err(Stop::Custom) | Ok(()) => Kind::Other("value"),
    }
}

struct Probe;

type R<O = Impossible<(), Stop>> = Result<O, Stop>;

fn stop<O>(k: Kind) -> R<O> {
    Err(Stop::Kind(k))
}

macro_rules! other {
    ($($m:ident($($t:ty),*) $word:literal;)*) => {$(
        fn $m(self, $(_: $t),*) -> R<()> {
            stop(Kind::Other($word))
        }
    )*};
}

impl ser::Serializer for Probe {
    type Ok = ();
    type Error = Stop;
    type SerializeSeq = Impossible<(), Stop>;
    type SerializeTuple = Impossible<(), Stop>;
    type SerializeTupleStruct = Impossible<(), Stop>;
    type SerializeTupleVariant = Impossible<(), Stop>;
    type SerializeMap = Impossible<(), Stop>;
    type SerializeStruct = Impossible<(), Stop>;
    type SerializeStructVariant = Impossible<(), Stop>;

    other! {
        serialize_bool(bool) "bool";
        serialize_i8(i8) "integer";
        serialize_i16(i16) "integer";
        serialize_i32(i32) "integer";
        serialize_i64(i64) "integer";
        serialize_i128(i128) "integer";
        serialize_u8(u8) "integer";
        serialize_u16(u16) "integer";
        serialize_u32(u32) "integer";
        serialize_u64(u64) "integer";
        serialize_u128(u128) "integer";
        serialize_f32(f32) "float";
        serialize_f64(f64) "float";
        serialize_char(char) "char";
        serialize_str(&str) "string";
        serialize_bytes(&[u8]) "bytes";
        serialize_unit() "unit";
        serialize_unit_struct(&'static str) "unit struct";
        serialize_unit_variant(&'static str, u32, &'static str) "enum variant";
    }

    fn serialize_none(self) -> R<()> {
        stop(Kind::None)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> R<()> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> R<()> {
        if special::is_own(name) {
            return stop(Kind::Other("scalar"));
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> R<()> {
        stop(Kind::Other("enum variant"))
    }
    fn serialize_seq(self, _: Option<usize>) -> R<Self::SerializeSeq> {
        stop(Kind::Seq)
    }
    fn serialize_tuple(self, _: usize) -> R<Self::SerializeTuple> {
        stop(Kind::Seq)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> R<Self::SerializeTupleStruct> {
        stop(Kind::Other("tuple struct"))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> R<Self::SerializeTupleVariant> {
        stop(Kind::Other("enum variant"))
    }
    fn serialize_map(self, _: Option<usize>) -> R<Self::SerializeMap> {
        stop(Kind::Map)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> R<Self::SerializeStruct> {
        stop(Kind::Struct)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> R<Self::SerializeStructVariant> {
        stop(Kind::Other("enum variant"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds() {
        assert_eq!(kind_of(&None::<u8>), Kind::None);
        assert_eq!(kind_of(&Some(vec![1u8])), Kind::Seq);
        assert_eq!(kind_of(&[1u8, 2]), Kind::Seq);
        assert_eq!(
            kind_of(&std::collections::BTreeMap::<String, u8>::new()),
            Kind::Map
        );
        assert_eq!(kind_of(&1.5f64), Kind::Other("float"));
    }
}
