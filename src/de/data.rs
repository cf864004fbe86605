//! An array's data section in memory, its header already read: the entry
//! point of `from_slice`, row ranges (`crate::npy::rows`), `NpyReader`'s
//! reordered Fortran data and npz members held in memory ([`FileDe`]).

// Sizes come from untrusted headers: every operation is checked.
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::cell::OnceCell;

use serde::Deserialize;
use serde::de::{self, Visitor};

use super::array::ArrayDe;
use super::plan::Plan;
use super::stream::{Chunked, row_size};
use super::{Bytes, Cfg, with_shape_hint};
use crate::array::nd::Order;
use crate::budget::Budget;
use crate::error::{Error, Result};
use crate::format::header::Header;

/// Deserializes the data section of an array (exactly `header.data_len()`
/// bytes; shorter or longer is an error). Shared with the npz reader.
#[cfg(test)]
pub(crate) fn deserialize_data<'de, T: Deserialize<'de>>(
    header: &Header,
    data: &'de [u8],
    cfg: Cfg,
    max_elements: u64,
) -> Result<T> {
    deserialize_data_in(header, data, cfg, max_elements, &Budget::new(u64::MAX))
}

/// [`deserialize_data`] charging a generic target to `budget`.
pub(crate) fn deserialize_data_in<'de, T: Deserialize<'de>>(
    header: &Header,
    data: &'de [u8],
    cfg: Cfg,
    max_elements: u64,
    budget: &Budget,
) -> Result<T> {
    let file = InMemory::new(header, data)?;
    T::deserialize(file.de(header, data, cfg, max_elements, budget))
}

/// What the top-level deserializer of an array in memory refers to: the
/// plan, and the data reordered into C order once some type asks for it
/// (Fortran order). Built and handed out by non-generic code: a type's
/// `deserialize` only calls them.
pub(crate) struct InMemory {
    plan: Plan,
    reordered: OnceCell<Vec<u8>>,
}

impl InMemory {
    /// Checks the data's length against the header and compiles the plan.
    pub(crate) fn new(header: &Header, data: &[u8]) -> Result<Self> {
        check_data_len(header, data.len() as u64)?;
        Ok(InMemory {
            plan: Plan::new(&header.descr),
            reordered: OnceCell::new(),
        })
    }

    /// The top-level deserializer of `data` (exactly the header's bytes).
    pub(crate) fn de<'a, 'de: 'a>(
        &'a self,
        header: &'a Header,
        data: &'de [u8],
        cfg: Cfg,
        max_elements: u64,
        budget: &'a Budget,
    ) -> FileDe<'a, 'de> {
        FileDe {
            array: ArrayDe::new(&self.plan, &header.shape, Bytes::Borrowed(data), cfg, true),
            header,
            max_elements,
            budget,
            reordered: &self.reordered,
        }
    }
}

/// The whole array of a file in memory (`from_slice`, row ranges, npz
/// members), the top-level deserializer of a read: a generic target
/// (`deserialize_any`) is charged [`Budget::charge_any`] first; a
/// Fortran-order array of two or more axes is offered to an `NdArray` as
/// stored (see `super::nd`) and reordered into C order for every other
/// type. One type for both orders, so a type's visitor meets one
/// top-level deserializer. What the whole file adds is done here once,
/// not per row: the empty axes are checked against `max_elements` before
/// any other type than an `NdArray` is presented the array, and a type
/// that wanted one element per record is told the file's shape.
pub(crate) struct FileDe<'a, 'de> {
    /// The data as stored.
    array: ArrayDe<'a, 'de>,
    header: &'a Header,
    /// `ReadOptions::max_elements`.
    max_elements: u64,
    budget: &'a Budget,
    /// Where the data reordered into C order is kept.
    reordered: &'a OnceCell<Vec<u8>>,
}

impl<'a, 'de> FileDe<'a, 'de> {
    /// `f` on the array in C order ([`ArrayDe::c_order`]), the file's
    /// shape hinted in its errors.
    fn in_c_order<V: Visitor<'de>>(
        self,
        visitor: V,
        f: impl FnOnce(ArrayDe<'a, 'de>, V) -> Result<V::Value>,
    ) -> Result<V::Value> {
        let array = self
            .array
            .c_order(self.header, self.max_elements, self.reordered)?;
        f(array, visitor).map_err(|e| with_shape_hint(e, self.header))
    }
}

impl<'de> de::Deserializer<'de> for FileDe<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.budget.charge_any(self.header)?;
        self.in_c_order(visitor, |de, v| de.deserialize_any(v))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == crate::kinds::special::NDARRAY {
            // an NdArray is presented no empty sequences, and the data as
            // stored
            let order = Order::of_header(self.header.fortran_order, &self.header.shape);
            return self.array.offer_nd(order, visitor);
        }
        self.in_c_order(visitor, |de, v| de.deserialize_newtype_struct(name, v))
    }

    de_methods!(via(in_c_order) deserialize_bool deserialize_i8 deserialize_i16
        deserialize_i32 deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16
        deserialize_u32 deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64
        deserialize_char deserialize_str deserialize_string deserialize_bytes
        deserialize_byte_buf deserialize_option deserialize_unit deserialize_seq
        deserialize_map deserialize_identifier deserialize_ignored_any deserialize_unit_struct
        deserialize_tuple deserialize_tuple_struct deserialize_struct deserialize_enum);
}

/// Checks that the data section in memory, `have` bytes, is exactly the
/// `header.data_len()` bytes the header promises.
pub(crate) fn check_data_len(header: &Header, have: u64) -> Result<()> {
    let total = header.data_len()?;
    if have < total {
        return Err(Chunked::new(std::io::empty(), total, row_size(header)?).truncated(have));
    }
    if have > total {
        return Err(Error::data(format!(
            "{} bytes follow the {total} bytes of data the header promises \
             (from_slice reads exactly one array; use from_reader or NpyReader for a stream \
             of arrays)",
            // have > total (checked above)
            have.wrapping_sub(total)
        )));
    }
    Ok(())
}
