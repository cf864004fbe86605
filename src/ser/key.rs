//! Map keys read as names, for every serializer that takes maps: record
//! fields by name (`encode`, `infer`), npz member names (`npz/split`),
//! the column a pass keeps (`npz/pick`); and, by the same look at a value's
//! top, what a value is (`npz/probe`: a struct, a map, a sequence, `None`).
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
use crate::special;

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
    key.serialize(Top {
        on_text: |_, text: &str| on_text(text),
        look: Look::Key { through_some },
        out: PhantomData,
    })
    .map_err(|stop| match stop {
        Stop::Is(found) => KeyError::NotText(key_word(found)),
        Stop::Some => KeyError::NotText("Some"),
        Stop::Special => KeyError::NotText("special value"),
        Stop::Custom(msg) => KeyError::Custom(msg),
    })
}

/// What a value is at its top, without walking it (`Some` and plain
/// newtypes looked through): `Ok` with the kind of text it is (a string, a
/// char, a unit variant's name), or the [`Stop`] that says what else.
/// Only npz member dispatch asks this.
#[cfg(feature = "npz")]
pub(crate) fn top_of<T: ?Sized + Serialize>(value: &T) -> Result<Found, Stop> {
    value.serialize(Top {
        on_text: |found, _: &str| found,
        look: Look::Kind,
        out: PhantomData,
    })
}

/// A key's kind, in the words of the messages about keys.
fn key_word(found: Found) -> &'static str {
    match found {
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
    }
}

/// Where [`Top`] stopped: the value is not text.
#[derive(Debug)]
pub(crate) enum Stop {
    /// What the value is.
    Is(Found),
    /// `Some`, where it is not looked through.
    Some,
    /// One of the crate's special newtypes (only when asking the kind).
    Special,
    /// The value's own `Serialize` failed (or used a type serde refuses by
    /// default, such as `i128`, for a key).
    Custom(String),
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for Stop {}

impl ser::Error for Stop {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Stop::Custom(msg.to_string())
    }
}

/// What [`Top`] is asked.
#[derive(Clone, Copy)]
enum Look {
    /// A map key's text: every newtype is looked through, `Some` only with
    /// `through_some`; serde's defaults for `i128`/`u128` (an error).
    Key { through_some: bool },
    /// What the value is: `Some` looked through, the crate's special
    /// newtypes are scalars, `i128`/`u128` integers.
    #[cfg_attr(not(feature = "npz"), allow(dead_code))]
    Kind,
}

/// The top of a value: text goes to `on_text` (with what it was), anything
/// else stops the serializer with its kind.
struct Top<F, R> {
    on_text: F,
    look: Look,
    out: PhantomData<fn() -> R>,
}

impl<F, R> Top<F, R> {
    fn refuse(self, found: Found) -> Stop {
        Stop::Is(found)
    }

    /// A 128-bit integer: an integer when asking the kind, serde's default
    /// refusal for a key.
    fn wide(self, ty: &str) -> Stop {
        match self.look {
            Look::Kind => Stop::Is(Found::Int),
            Look::Key { .. } => Stop::Custom(format!("{ty} is not supported")),
        }
    }
}

impl<F: FnOnce(Found, &str) -> R, R> ser::Serializer for Top<F, R> {
    serializer_types!(R, Stop; _ _ _ _ _ _ _);

    refuse!(numbers serialize_bytes serialize_none serialize_unit serialize_unit_struct
        serialize_newtype_variant compounds);

    fn serialize_i128(self, _: i128) -> Result<R, Stop> {
        Err(self.wide("i128"))
    }
    fn serialize_u128(self, _: u128) -> Result<R, Stop> {
        Err(self.wide("u128"))
    }
    fn serialize_char(self, v: char) -> Result<R, Stop> {
        Ok((self.on_text)(Found::Char, v.encode_utf8(&mut [0; 4])))
    }
    fn serialize_str(self, v: &str) -> Result<R, Stop> {
        Ok((self.on_text)(Found::Str, v))
    }
    fn serialize_unit_variant(
        self,
        name: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<R, Stop> {
        Ok((self.on_text)(Found::UnitVariant(name, variant), variant))
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<R, Stop> {
        match self.look {
            Look::Key {
                through_some: false,
            } => Err(Stop::Some),
            _ => value.serialize(self),
        }
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<R, Stop> {
        if matches!(self.look, Look::Kind) && special::is_own(name) {
            return Err(Stop::Special);
        }
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
