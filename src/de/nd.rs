//! The read side of [`crate::NdArray`]: when a type asks for the newtype
//! `"$npy_serde::ndarray"`, the deserializer offers a one-entry map: key =
//! the array's order and shape (`"F,480,640"`, `"C"` for 0-d), value = its
//! flat data in the order it is stored, nothing transposed.
//!
//! The type answers with the number of trailing axes its element absorbs
//! (`[f32; 3]` absorbs the last axis of `(N, 3)`), asking the value for the
//! tuple struct `"$npy_serde::ndarray::data"` of that length. The value then
//! presents the data as the array `(n, trailing axes...)` to an ordinary
//! newtype visitor: `Bulk<T>` takes plain numbers in one block from it,
//! every other element type reads it as `Vec<T>`, with the usual values and
//! messages. An element that absorbs axes needs them contiguous: a Fortran
//! array is then reordered into C order first (and reported as C).

use serde::de::{self, Visitor};

use super::{OneEntry, internal};
use crate::array::nd::Order;
use crate::error::{Error, Result};
use crate::kinds::special::NDDATA;

/// An array whose data can be presented flat (see the module docs).
pub(crate) trait Source<'de> {
    /// The data as the array `(product of the leading axes, the last
    /// `absorbed` axes...)`, to `visitor.visit_newtype_struct`.
    fn present<V: Visitor<'de>>(self, absorbed: usize, visitor: V) -> Result<V::Value>;
}

/// The offer's key: `"C"` or `"F"`, then `",n"` per axis.
pub(crate) fn offer_key(order: Order, dims: &[u64]) -> String {
    let order = if order.is_fortran() { "F" } else { "C" };
    dims.iter()
        .fold(order.to_owned(), |key, d| format!("{key},{d}"))
}

/// The order and shape of an [`offer_key`]; `None` for anything else.
pub(crate) fn parse_offer_key(key: &str) -> Option<(Order, Vec<u64>)> {
    let mut parts = key.split(',');
    let order = match parts.next()? {
        "C" => Order::C,
        "F" => Order::Fortran,
        _ => return None,
    };
    let dims = parts.map(|d| d.parse().ok()).collect::<Option<_>>()?;
    Some((order, dims))
}

/// Offers `source`, an array of `order` and `dims` (of records when
/// `records`), to the visitor of an `NdArray<T>`.
pub(crate) fn offer<'de, S: Source<'de>, V: Visitor<'de>>(
    order: Order,
    dims: &[u64],
    records: bool,
    source: S,
    visitor: V,
) -> Result<V::Value> {
    let data = Data {
        source,
        order,
        dims,
        records,
    };
    visitor.visit_map(OneEntry::new(offer_key(order, dims), data))
}

/// `(product of the leading axes, the last `absorbed` axes...)`.
pub(crate) fn flat_dims(dims: &[u64], absorbed: usize) -> Result<Vec<u64>> {
    let split = dims.len().checked_sub(absorbed).ok_or_else(internal)?;
    let (lead, rest) = dims.split_at_checked(split).ok_or_else(internal)?;
    let n = lead
        .iter()
        .try_fold(1u64, |a, &d| a.checked_mul(d))
        .ok_or_else(internal)?;
    let mut flat = Vec::with_capacity(rest.len().saturating_add(1));
    flat.push(n);
    flat.extend_from_slice(rest);
    Ok(flat)
}

/// The offered data: answers only the [`NDDATA`] request. An element's
/// error is placed by its n-d position (`element [i, j]`, see
/// [`flat_to_nd`](crate::array::nd::flat_to_nd)), not its index in the flat data.
struct Data<'a, S> {
    source: S,
    order: Order,
    dims: &'a [u64],
    records: bool,
}

impl<'de, S: Source<'de>> de::Deserializer<'de> for Data<'_, S> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(internal())
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        if name != NDDATA {
            return Err(internal());
        }
        let (order, dims, records) = (self.order, self.dims, self.records);
        self.source.present(len, visitor).map_err(|e| {
            // the flat data's elements: the leading axes (absorbed ones are
            // the element's own, indices after its position); a Fortran
            // array whose element absorbs axes was reordered into C order
            let lead = dims.get(..dims.len().saturating_sub(len)).unwrap_or(dims);
            crate::array::nd::flat_to_nd(e, lead, order.is_fortran() && len == 0, records)
        })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        map struct enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip() {
        for (order, dims) in [
            (Order::C, vec![]),
            (Order::Fortran, vec![480, 640]),
            (Order::C, vec![12345678, 0]),
        ] {
            let key = offer_key(order, &dims);
            assert_eq!(parse_offer_key(&key), Some((order, dims)));
        }
        assert_eq!(offer_key(Order::Fortran, &[2, 3]), "F,2,3");
        assert_eq!(parse_offer_key("shape"), None);
        assert_eq!(parse_offer_key("C,x"), None);
    }

    #[test]
    fn flat_dims_keep_the_absorbed_axes() {
        assert_eq!(flat_dims(&[4, 5, 3], 1).unwrap(), [20, 3]);
        assert_eq!(flat_dims(&[4, 5, 3], 0).unwrap(), [60]);
        assert_eq!(flat_dims(&[], 0).unwrap(), [1]);
        assert_eq!(flat_dims(&[12345678, 0], 0).unwrap(), [0]);
        assert!(flat_dims(&[3], 2).is_err());
    }
}
