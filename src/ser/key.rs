//! Map keys read as names, for every serializer that takes maps: record
//! fields by name (`encode`, `infer`), npz member names (`npz/split`),
//! the column a pass keeps (`npz/pick`).
//!
//! One place decides which serialized keys are text: strings, chars and
//! unit enum variants, through `Some` and newtype wrappers. Anything else
//! is refused with its kind (`"integer"`, `"sequence"`, ...), and each
//! caller words the refusal for its own context. The text is handed to a
//! closure while it is borrowed, so finding a known name allocates nothing.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::fmt;
use std::marker::PhantomData;

use serde::Serialize;
use serde::ser;

use crate::error::Error;
use crate::ser::Found;

/// Why a key is not a name.
#[derive(Debug)]
pub(crate) enum KeyError {
    /// The key is not text; its kind, for the caller's message.
    NotText(&'static str),
    /// The key's own `Serialize` failed (or used a type serde refuses by
    /// default, such as `i128`).
    Custom(String),
}

impl KeyError {
    /// The crate error: `not_text` words a key that is not text; a custom
    /// error keeps its message.
    pub(crate) fn into_error(self, not_text: impl FnOnce(&'static str) -> Error) -> Error {
        match self {
            KeyError::NotText(kind) => not_text(kind),
            KeyError::Custom(msg) => <Error as ser::Error>::custom(msg),
        }
    }
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyError::NotText(kind) => write!(f, "map key of type {kind}"),
            KeyError::Custom(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for KeyError {}

impl ser::Error for KeyError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        KeyError::Custom(msg.to_string())
    }
}

/// Calls `on_text` with the key's text. `through_some`: whether `Some(k)`
/// is the key `k` (else it is refused as `"Some"`).
pub(crate) fn key_text<T, R, F>(key: &T, through_some: bool, on_text: F) -> Result<R, KeyError>
where
    T: ?Sized + Serialize,
    F: FnOnce(&str) -> R,
{
    key.serialize(KeyText {
        on_text,
        through_some,
        out: PhantomData,
    })
}

struct KeyText<F, R> {
    on_text: F,
    through_some: bool,
    out: PhantomData<fn() -> R>,
}

impl<F, R> KeyText<F, R> {
    /// Any key that is not text, by its kind.
    fn refuse(self, found: Found) -> KeyError {
        KeyError::NotText(match found {
            Found::Bool => "bool",
            Found::Int => "integer",
            Found::Float => "float",
            Found::Char | Found::Str => "string",
            Found::Bytes => "bytes",
            Found::None => "None",
            Found::Unit | Found::UnitStruct => "unit",
            Found::Seq => "sequence",
            Found::Tuple => "tuple",
            Found::TupleStruct => "tuple struct",
            Found::Map => "map",
            Found::Struct => "struct",
            Found::UnitVariant(..)
            | Found::NewtypeVariant(..)
            | Found::TupleVariant(..)
            | Found::StructVariant(..) => "enum variant",
        })
    }
}

impl<F: FnOnce(&str) -> R, R> ser::Serializer for KeyText<F, R> {
    serializer_types!(R, KeyError; _ _ _ _ _ _ _);

    refuse!(numbers serialize_bytes serialize_none serialize_unit serialize_unit_struct
        serialize_newtype_variant compounds);

    fn serialize_char(self, v: char) -> Result<R, KeyError> {
        Ok((self.on_text)(v.encode_utf8(&mut [0; 4])))
    }
    fn serialize_str(self, v: &str) -> Result<R, KeyError> {
        Ok((self.on_text)(v))
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<R, KeyError> {
        Ok((self.on_text)(variant))
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<R, KeyError> {
        if self.through_some {
            value.serialize(self)
        } else {
            Err(KeyError::NotText("Some"))
        }
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<R, KeyError> {
        value.serialize(self)
    }
}

#[cfg(test)]
mod tests {
    use super::{KeyError, key_text};

    #[derive(serde::Serialize)]
    enum E {
        Unit,
        New(u8),
    }

    fn text<T: serde::Serialize + ?Sized>(k: &T, some: bool) -> Result<String, String> {
        key_text(k, some, str::to_owned).map_err(|e| match e {
            KeyError::NotText(kind) => kind.to_owned(),
            KeyError::Custom(m) => format!("custom: {m}"),
        })
    }

    #[test]
    fn text_keys_and_kinds() {
        assert_eq!(text("a", true), Ok("a".into()));
        assert_eq!(text(&'é', true), Ok("é".into()));
        assert_eq!(text(&E::Unit, true), Ok("Unit".into()));
        assert_eq!(text(&Some("a"), true), Ok("a".into()));
        assert_eq!(text(&Some("a"), false), Err("Some".into()));
        assert_eq!(text(&3u8, true), Err("integer".into()));
        assert_eq!(text(&E::New(1), true), Err("enum variant".into()));
        assert_eq!(text(&(1, 2), true), Err("tuple".into()));
        assert!(text(&1i128, true).unwrap_err().starts_with("custom: "));
    }
}
