//! A struct or string-keyed map -> one member per field or entry.
//!
//! `Split` is a serializer that accepts only a struct or a map at its top
//! (the caller has already probed that), and hands each field's value to
//! [`NpzWriter::add`], so each member is streamed into the archive while the
//! value is being serialized.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::io::{Seek, Write};

use serde::Serialize;
use serde::ser::{self, Impossible};

use crate::error::{Error, Result};
use crate::ser::key::key_text;

use super::probe::{Kind, kind_of};
use super::write::NpzWriter;

pub(crate) struct Split<'a, W: Write + Seek> {
    pub(crate) npz: &'a mut NpzWriter<W>,
}

pub(crate) struct SplitMap<'a, W: Write + Seek> {
    npz: &'a mut NpzWriter<W>,
    key: Option<String>,
}

fn not_here<O>() -> Result<O> {
    Err(Error::schema(
        "npz::to_writer needs a struct, a string-keyed map or a sequence of records",
    ))
}

/// Writes one field as a member unless it is `None`.
fn member<W: Write + Seek, T: ?Sized + Serialize>(
    npz: &mut NpzWriter<W>,
    key: &str,
    value: &T,
) -> Result<()> {
    if kind_of(value) == Kind::None {
        return Ok(());
    }
    npz.add(key, value)
}

macro_rules! refuse {
    ($($m:ident($($t:ty),*);)*) => {$(
        fn $m(self, $(_: $t),*) -> Result<()> {
            not_here()
        }
    )*};
}

impl<'a, W: Write + Seek> ser::Serializer for Split<'a, W> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = SplitMap<'a, W>;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), Error>;

    refuse! {
        serialize_bool(bool); serialize_i8(i8); serialize_i16(i16); serialize_i32(i32);
        serialize_i64(i64); serialize_u8(u8); serialize_u16(u16); serialize_u32(u32);
        serialize_u64(u64); serialize_f32(f32); serialize_f64(f64); serialize_char(char);
        serialize_str(&str); serialize_bytes(&[u8]); serialize_none(); serialize_unit();
        serialize_unit_struct(&'static str);
        serialize_unit_variant(&'static str, u32, &'static str);
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<()> {
        not_here()
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
        not_here()
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        not_here()
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        not_here()
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        not_here()
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        Ok(SplitMap {
            npz: self.npz,
            key: None,
        })
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        not_here()
    }
}

impl<W: Write + Seek> ser::SerializeStruct for Split<'_, W> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        member(self.npz, key, value)
    }
    fn end(self) -> Result<()> {
        Ok(())
    }
}

impl<W: Write + Seek> ser::SerializeMap for SplitMap<'_, W> {
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
        member(self.npz, &key, value)
    }
    fn end(self) -> Result<()> {
        Ok(())
    }
}

/// Map keys must be strings (or chars): they become member names.
fn bad_key() -> Error {
    Error::schema("npz member keys must be strings (map keys become member names)")
}
