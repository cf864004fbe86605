//! A struct or string-keyed map -> one member per field or entry; a tuple
//! or tuple struct -> members `arr_0`, `arr_1`, ... as `np.savez(f, a, b)`
//! writes them.
//!
//! `Split` is a serializer that accepts only a struct, a map or a tuple at
//! its top (the caller has already probed that), and hands each value to
//! [`NpzWriter::add`], so each member is streamed into the archive while the
//! value is being serialized.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::io::{Seek, Write};

use serde::Serialize;
use serde::ser;

use crate::error::{Error, Result};
use crate::ser::probe::key_text;
use crate::ser::{Found, elements, refuse, serializer_types, through};

use super::is_none;
use super::write::NpzWriter;

/// The serializer at the top of an npz value, and its state in the
/// struct, map or tuple it finds there.
pub(crate) struct Split<'a, W: Write + Seek> {
    npz: &'a mut NpzWriter<W>,
    /// A tuple's next element becomes member `arr_{next}`.
    next: usize,
    /// A map entry's key, until its value comes.
    key: Option<String>,
    /// A struct named like ndarray's own serde form of an array (refused
    /// at its first field, `v`, before any member is written).
    ndarray_form: bool,
}

impl<'a, W: Write + Seek> Split<'a, W> {
    pub(crate) fn new(npz: &'a mut NpzWriter<W>) -> Self {
        Split {
            npz,
            next: 0,
            key: None,
            ndarray_form: false,
        }
    }

    /// Anything but a struct or a map at the top of an npz value.
    fn refuse(self, _: Found) -> Error {
        Error::schema("npz::to_writer needs a struct, a string-keyed map or a sequence of records")
    }

    /// Writes one field or map entry as a member unless it is `None`.
    fn field<T: ?Sized + Serialize>(&mut self, key: &str, value: &T) -> Result<()> {
        if self.ndarray_form && key == crate::kinds::special::NDARRAY_FORM_FIELDS[0] {
            return Err(crate::kinds::special::ndarray_form(true));
        }
        if is_none(value) {
            return Ok(());
        }
        self.npz
            .add(key, value)
            .map_err(Error::with_field_type_hint)
    }

    /// The next tuple element as member `arr_{i}`; a `None` would leave a
    /// gap in the positions, so it is refused.
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let i = self.next;
        if is_none(value) {
            return Err(Error::schema(format!(
                "npz::to_writer: tuple element {i} is None; positional members arr_0, arr_1, ... \
                 cannot leave one out"
            )));
        }
        self.next = i.saturating_add(1);
        self.npz
            .add(&format!("arr_{i}"), value)
            .map_err(Error::with_field_type_hint)
    }

    fn finish(self) -> Result<()> {
        Ok(())
    }
}

impl<'a, W: Write + Seek> ser::Serializer for Split<'a, W> {
    serializer_types!((), Error; _ [Self] [Self] _ [Self] (Self) _ human_readable);
    crate::ser::collect_seq!();

    refuse!(numbers serialize_char serialize_str serialize_bytes serialize_none serialize_unit
        serialize_unit_struct serialize_unit_variant serialize_newtype_variant);

    through!(some newtype);
    fn serialize_struct(mut self, name: &'static str, len: usize) -> Result<Self> {
        self.ndarray_form = name == crate::kinds::special::NDARRAY_FORM && len == 3;
        Ok(self)
    }
}

elements!(impl['a, W: Write + Seek] Split<'a, W> => (), Error: SerializeStruct SerializeTuple SerializeTupleStruct);

impl<W: Write + Seek> ser::SerializeMap for Split<'_, W> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        // `Some(name)` is no member name: refused like any other non-string
        let name = key_text(key, false, str::to_owned).map_err(|e| e.into_error(|_| bad_key()))?;
        self.key = Some(name);
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let key = self
            .key
            .take()
            .ok_or_else(|| Error::schema("internal: map value without a key"))?;
        self.field(&key, value)
    }
    fn end(self) -> Result<()> {
        Ok(())
    }
}

/// Map keys must be strings (or chars): they become member names.
fn bad_key() -> Error {
    Error::schema("npz member keys must be strings (map keys become member names)")
}
