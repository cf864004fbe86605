//! A Fortran-order file read from memory (`from_slice`, npz members): an
//! `NdArray` is offered the data as stored (see `super::nd`); every other
//! type gets the data reordered into C order.

use serde::de::{self, Visitor};

use super::array::{ArrayDe, Flat, OfFile, fortran_to_c};
use super::nd::offer;
use super::plan::Plan;
use super::{Bytes, Cfg};
use crate::array::nd::Order;
use crate::error::{Error, Result};
use crate::format::header::Header;

/// The whole of a Fortran-order file in memory (`from_slice`, npz): an
/// `NdArray` gets the data as stored; every other type the data reordered
/// into C order, as always.
pub(crate) struct FortranFile<'a, 'de> {
    pub(crate) plan: &'a Plan,
    pub(crate) header: &'a Header,
    pub(crate) bytes: Bytes<'de, 'a>,
    pub(crate) cfg: Cfg,
    /// `ReadOptions::max_elements` (see `ArrayDe::of_file`).
    pub(crate) max_elements: u64,
}

impl<'de> FortranFile<'_, 'de> {
    /// The data in C order, to `f`.
    fn reordered<V: Visitor<'de>>(
        self,
        visitor: V,
        f: impl FnOnce(ArrayDe<'_, 'de, OfFile<'_>>, V) -> Result<V::Value>,
    ) -> Result<V::Value> {
        let header = self.header;
        let c = fortran_to_c(self.bytes.slice(), &header.shape, header.descr.itemsize())?;
        let de = ArrayDe::new(self.plan, &header.shape, Bytes::Copied(&c), self.cfg, true);
        f(de.of_file(header, self.max_elements), visitor)
    }
}

impl<'de> de::Deserializer<'de> for FortranFile<'_, 'de> {
    type Error = Error;

    de_methods!(via(reordered)
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier deserialize_ignored_any deserialize_unit_struct
        deserialize_tuple deserialize_tuple_struct deserialize_struct deserialize_enum);

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == crate::kinds::special::NDARRAY {
            let shape = &self.header.shape;
            let order = Order::of_header(true, shape);
            let flat = Flat {
                plan: self.plan,
                dims: shape,
                bytes: self.bytes,
                cfg: self.cfg,
                order,
                records: false,
            };
            let records = matches!(self.plan.kind, super::plan::Kind::Record(_));
            return offer(order, shape, records, flat, visitor);
        }
        self.reordered(visitor, |de, v| {
            de::Deserializer::deserialize_newtype_struct(de, name, v)
        })
    }
}
