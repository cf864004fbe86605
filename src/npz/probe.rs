//! What a value is at its top, without walking it: the writer needs to know
//! whether `npz::to_writer` got a struct or map (one member per field), a
//! sequence (columnar) or something else, and whether a field is `None`.
//!
//! The answer comes from the write side's look at a value's top
//! (`ser/key.rs`), which stops at the first serializer call, so no element
//! is visited.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::fmt;

use serde::Serialize;
use serde::ser;

use crate::ser::key::{Stop, top_of};
use crate::ser::{Found, refuse, serializer_types};

/// The top-level shape of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    None,
    Seq,
    /// A tuple or a tuple struct (serde writes `[T; N]` as a tuple too).
    Tuple,
    Struct,
    Map,
    /// Anything else, with serde's word for it.
    Other(&'static str),
}

/// The top-level kind of `value` (`Some` and plain newtypes are looked through).
pub(crate) fn kind_of<T: ?Sized + Serialize>(value: &T) -> Kind {
    match top_of(value) {
        Ok(Found::Char) => Kind::Other("char"),
        Ok(Found::Str) => Kind::Other("string"),
        Ok(_) => Kind::Other("enum variant"),
        Err(Stop::Is(found)) => match found {
            Found::None => Kind::None,
            Found::Seq => Kind::Seq,
            Found::Tuple | Found::TupleStruct => Kind::Tuple,
            Found::Map => Kind::Map,
            Found::Struct => Kind::Struct,
            Found::Bool => Kind::Other("bool"),
            Found::Int => Kind::Other("integer"),
            Found::Float => Kind::Other("float"),
            Found::Char => Kind::Other("char"),
            Found::Str => Kind::Other("string"),
            Found::Bytes => Kind::Other("bytes"),
            Found::Unit => Kind::Other("unit"),
            Found::UnitStruct => Kind::Other("unit struct"),
            Found::UnitVariant(..)
            | Found::NewtypeVariant(..)
            | Found::TupleVariant(..)
            | Found::StructVariant(..) => Kind::Other("enum variant"),
        },
        Err(Stop::Special) => Kind::Other("scalar"),
        Err(Stop::Some | Stop::Custom(_)) => Kind::Other("value"),
    }
}

/// Whether `value` is a tuple (or `[T; N]`) whose first element is a
/// record (a struct or a map), or an empty one: a sequence of records, as
/// a `Vec` would be. Only the first element is looked at.
pub(crate) fn is_tuple_of_records<T: ?Sized + Serialize>(value: &T) -> bool {
    matches!(
        value.serialize(FirstElement),
        Ok(()) | Err(Peek::First(Kind::Struct | Kind::Map))
    )
}

/// Stops at a tuple's first element with its kind.
struct FirstElement;

#[derive(Debug)]
enum Peek {
    First(Kind),
    NotATuple,
}

impl fmt::Display for Peek {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for Peek {}

impl ser::Error for Peek {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Peek::NotATuple
    }
}

impl FirstElement {
    fn refuse(self, _: Found) -> Peek {
        Peek::NotATuple
    }
}

impl ser::Serializer for FirstElement {
    serializer_types!((), Peek; _ (Self) _ _ _ _ _);

    refuse!(numbers serialize_char serialize_str serialize_bytes serialize_none serialize_unit
        serialize_unit_struct serialize_unit_variant serialize_newtype_variant serialize_seq
        serialize_tuple_struct serialize_tuple_variant serialize_map serialize_struct
        serialize_struct_variant);

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Peek> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Peek> {
        value.serialize(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, Peek> {
        Ok(self)
    }
}

impl ser::SerializeTuple for FirstElement {
    type Ok = ();
    type Error = Peek;

    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Peek> {
        Err(Peek::First(kind_of(value)))
    }
    fn end(self) -> Result<(), Peek> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds() {
        assert_eq!(kind_of(&None::<u8>), Kind::None);
        assert_eq!(kind_of(&Some(vec![1u8])), Kind::Seq);
        assert_eq!(kind_of(&vec![1u8, 2]), Kind::Seq);
        assert_eq!(kind_of(&[1u8, 2]), Kind::Tuple);
        assert_eq!(kind_of(&(1u8, 2.0f64)), Kind::Tuple);
        #[derive(serde::Serialize)]
        struct R {
            a: u8,
        }
        assert!(is_tuple_of_records(&[R { a: 1 }, R { a: 2 }]));
        assert!(is_tuple_of_records(&[0u8; 0]));
        assert!(!is_tuple_of_records(&(vec![1u8], R { a: 1 })));
        assert!(!is_tuple_of_records(&[1u8, 2]));
        assert!(!is_tuple_of_records(&vec![R { a: 1 }]));
        assert_eq!(
            kind_of(&std::collections::BTreeMap::<String, u8>::new()),
            Kind::Map
        );
        assert_eq!(kind_of(&1.5f64), Kind::Other("float"));
    }
}
