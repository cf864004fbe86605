//! The read side of [`crate::Bulk`]: when a type asks for the newtype
//! `"npy_serde::bulk"` on an array of plain numbers (either byte order),
//! the deserializer offers a one-entry map: key = the array's layout
//! (`"f4,1000,3"`: base scalar code, then the dims), value = the array.
//! The type compares the key with its own layout (only it knows `T`) and
//! takes the value either as raw bytes (`deserialize_bytes`: the whole data
//! at once from memory, chunks of whole elements from a stream) or as an
//! ordinary `Vec<T>` through the same deserializer as always, so values
//! and messages of a mismatch are those of `Vec<T>`.

use serde::de::{self, Visitor};

use crate::error::{Error, Result};

/// A deserializer that can also hand out its array's data as bytes.
pub(crate) trait Raw<'de>: de::Deserializer<'de, Error = Error> {
    /// The data: `visit_bytes`/`visit_borrowed_bytes` of all of it, or
    /// `visit_seq` of chunks of whole elements (each a bytes value).
    fn raw<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value>;
}

/// Offers `de`'s array to the visitor of a `Bulk<T>` (see the module docs).
pub(crate) fn offer<'de, D: Raw<'de>, V: Visitor<'de>>(
    key: &str,
    de: D,
    visitor: V,
) -> Result<V::Value> {
    visitor.visit_map(super::OneEntry::new(key, Value(de)))
}

/// The offered array: `deserialize_bytes` is the raw data, everything else
/// is the ordinary deserializer.
struct Value<D>(D);

impl<'de, D: Raw<'de>> de::Deserializer<'de> for Value<D> {
    type Error = Error;

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.0.raw(visitor)
    }

    de_methods!(forward(0)
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_byte_buf deserialize_option
        deserialize_unit deserialize_seq deserialize_map deserialize_identifier
        deserialize_ignored_any deserialize_unit_struct deserialize_newtype_struct
        deserialize_tuple deserialize_tuple_struct deserialize_struct deserialize_enum);
}
