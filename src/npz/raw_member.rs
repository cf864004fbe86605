//! A member that is not an array (`readme.txt`): its bytes, handed only to
//! targets that ask for bytes (`serde_bytes::ByteBuf`, `Vec<u8>` through
//! `serde_bytes`); anything else, `deserialize_any` included, is an error
//! pointing to [`NpzReader::raw`](super::NpzReader::raw).

use serde::de::{self, Visitor};

use crate::de::de_methods;
use crate::error::{Error, Result};

/// The bytes of a member without an npy header.
pub(crate) struct RawMember<'a>(pub &'a [u8]);

/// Whatever is asked but bytes.
fn not_an_array(_: &str) -> Error {
    Error::schema(
        "not an array (no npy header); read its bytes with NpzReader::raw or into a \
         byte buffer (serde_bytes::ByteBuf)",
    )
}

impl<'de> de::Deserializer<'de> for RawMember<'_> {
    type Error = Error;

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_bytes(self.0)
    }
    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_bytes(self.0)
    }
    de_methods!(ignored);
    de_methods!(some);
    de_methods!(newtype);
    de_methods!(refuse(not_an_array)
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_f32 deserialize_f64 deserialize_char deserialize_str deserialize_string
        deserialize_unit deserialize_seq deserialize_map deserialize_identifier
        deserialize_unit_struct deserialize_tuple deserialize_tuple_struct deserialize_struct
        deserialize_enum);
}
