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

use crate::ser::{Found, refuse, serializer_types};
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

impl Probe {
    /// The probe stops at the first call, with its answer.
    fn refuse(self, found: Found) -> Stop {
        Stop::Kind(match found {
            Found::None => Kind::None,
            Found::Seq | Found::Tuple => Kind::Seq,
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
            Found::TupleStruct => Kind::Other("tuple struct"),
            Found::UnitVariant(..)
            | Found::NewtypeVariant(..)
            | Found::TupleVariant(..)
            | Found::StructVariant(..) => Kind::Other("enum variant"),
        })
    }
}

impl ser::Serializer for Probe {
    serializer_types!((), Stop; _ _ _ _ _ _ _);

    refuse!(numbers serialize_i128 serialize_u128 serialize_char serialize_str serialize_bytes
        serialize_none serialize_unit serialize_unit_struct serialize_unit_variant
        serialize_newtype_variant compounds);

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> R<()> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> R<()> {
        if special::is_own(name) {
            return Err(Stop::Kind(Kind::Other("scalar")));
        }
        value.serialize(self)
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
