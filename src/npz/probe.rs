//! What a value is at its top, without walking it: the writer needs to know
//! whether `npz::to_writer` got a struct or map (one member per field), a
//! sequence (columnar) or something else, and whether a field is `None`.
//!
//! The answer comes from the write side's look at a value's top
//! (`ser/key.rs`), which stops at the first serializer call, so no element
//! is visited.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use serde::Serialize;

use crate::ser::Found;
use crate::ser::key::{Stop, top_of};

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

/// The top-level kind of `value` (`Some` and plain newtypes are looked through).
pub(crate) fn kind_of<T: ?Sized + Serialize>(value: &T) -> Kind {
    match top_of(value) {
        Ok(Found::Char) => Kind::Other("char"),
        Ok(Found::Str) => Kind::Other("string"),
        Ok(_) => Kind::Other("enum variant"),
        Err(Stop::Is(found)) => match found {
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
        },
        Err(Stop::Special) => Kind::Other("scalar"),
        Err(Stop::Some | Stop::Custom(_)) => Kind::Other("value"),
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
