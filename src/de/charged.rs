//! A byte budget's charge for a generic target: the top-level
//! deserializer of a read charges a `deserialize_any` request
//! ([`Budget::charge_any`]) before the array is presented.

use serde::de::{self, Visitor};

use crate::budget::Budget;
use crate::error::{Error, Result};
use crate::format::header::Header;

/// The top-level deserializer of a read under a byte budget: a generic
/// target (`deserialize_any`) is charged [`Budget::charge_any`] before it
/// is given the array; every other request passes through unchanged.
pub(crate) struct AnyCharged<'b, D> {
    pub(crate) de: D,
    pub(crate) header: &'b Header,
    pub(crate) budget: &'b Budget,
}

impl<'de, D: de::Deserializer<'de, Error = Error>> de::Deserializer<'de> for AnyCharged<'_, D> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.budget.charge_any(self.header)?;
        self.de.deserialize_any(visitor)
    }

    de_methods!(forward(de)
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier deserialize_ignored_any deserialize_unit_struct
        deserialize_newtype_struct deserialize_tuple deserialize_tuple_struct
        deserialize_struct deserialize_enum);

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}
