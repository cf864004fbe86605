//! The archive as a serde value: a map of members (struct of arrays), or a
//! sequence of records zipped together from the columns.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::io::{Read, Seek};

use serde::de::{self, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor};

use crate::de::element::ElementDe;
use crate::de::{Bytes, Cfg, de_methods};
use crate::error::{Error, Result};
use crate::format::pyrepr::PyStr;
use crate::ser::nd::subarray_of;

#[cfg(feature = "rayon")]
use super::inflate::{Inflated, Packed, inflate_all};
use super::read::NpzReader;

/// The archive being read as a serde value.
pub(crate) struct ArchiveDe<'a, R: Read + Seek>(pub(crate) &'a mut NpzReader<R>);

fn refuse(what: &str) -> Error {
    Error::schema(format!(
        "an npz archive reads as a struct, a map or a sequence of records, not as {what}"
    ))
}

impl<'de, R: Read + Seek> de::Deserializer<'de> for ArchiveDe<'_, R> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_map(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let order = (0..self.0.len()).collect();
        visit_members(self.0, order, visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        crate::kinds::special::refuse_ndarray_form(name, fields)?;
        // Only the members the struct names are read; a key found twice
        // (`a` and `a.npy.npy`) is taken once, by numpy's lookup order.
        let names = self.0.names();
        let order = fields
            .iter()
            .filter_map(|field| names.iter().position(|k| k == field))
            .collect();
        visit_members(self.0, order, visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (columns, len) = load_columns(self.0)?;
        visitor.visit_seq(Records {
            columns: &columns,
            len,
            cfg: self.0.options.cfg(),
            index: 0,
            next: 0,
        })
    }

    /// Members `arr_0`..`arr_{n-1}` (what `np.savez(f, a, b)` writes) read
    /// positionally into a tuple of n; any other archive as a sequence.
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        match positional(self.0.names(), len) {
            Some(order) => visitor.visit_seq(Members {
                npz: self.0,
                order: order.into_iter(),
                #[cfg(feature = "rayon")]
                ahead: Ahead::new(),
            }),
            None => self.deserialize_seq(visitor),
        }
    }

    de_methods!(some);
    de_methods!(newtype);
    de_methods!(ignored);
    de_methods!(refuse(refuse)
        deserialize_bool "bool" deserialize_i8 "an integer" deserialize_i16 "an integer"
        deserialize_i32 "an integer" deserialize_i64 "an integer" deserialize_u8 "an integer"
        deserialize_u16 "an integer" deserialize_u32 "an integer" deserialize_u64 "an integer"
        deserialize_f32 "a float" deserialize_f64 "a float" deserialize_char "a char"
        deserialize_str "a string" deserialize_string "a string" deserialize_bytes "bytes"
        deserialize_byte_buf "bytes" deserialize_unit "unit" deserialize_identifier "an identifier"
        deserialize_unit_struct "a unit struct" deserialize_enum "an enum");
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        if positional(self.0.names(), len).is_none() {
            return Err(refuse(&format!(
                "a tuple struct of {len} (that takes members arr_0..arr_{}, as np.savez \
                 writes them; {})",
                len.saturating_sub(1),
                self.0.has()
            )));
        }
        self.deserialize_tuple(len, visitor)
    }
}

/// The members in `order` as a map; a missing field lists the archive's keys.
fn visit_members<'de, R: Read + Seek, V: Visitor<'de>>(
    npz: &mut NpzReader<R>,
    order: Vec<usize>,
    visitor: V,
) -> Result<V::Value> {
    visitor
        .visit_map(Members {
            #[cfg(feature = "rayon")]
            ahead: inflate_ahead(npz, &order),
            npz: &mut *npz,
            order: order.into_iter(),
        })
        .map_err(|e| {
            e.listing_what_is_there("the archive", &mut npz.names().iter().map(String::as_str))
        })
}

/// The member indices of `arr_0`..`arr_{len-1}` when those are exactly the
/// archive's keys (in any order).
fn positional(names: &[String], len: usize) -> Option<Vec<usize>> {
    if names.len() != len || len == 0 {
        return None;
    }
    (0..len)
        .map(|i| names.iter().position(|k| *k == format!("arr_{i}")))
        .collect()
}

/// Members as map entries (key, then the member decoded from its stream),
/// or as the elements of a tuple (`arr_0`, `arr_1`, ...).
struct Members<'a, R: Read + Seek> {
    npz: &'a mut NpzReader<R>,
    /// The member indices not yet read (a map's next key stays there
    /// until its value is read).
    order: std::vec::IntoIter<usize>,
    /// The deflated members inflated ahead, on every core (none for a
    /// tuple's).
    #[cfg(feature = "rayon")]
    ahead: Ahead,
}

impl<'de, R: Read + Seek> MapAccess<'de> for Members<'_, R> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some(&i) = self.order.as_slice().first() else {
            return Ok(None);
        };
        let key = self.npz.key(i).to_owned();
        seed.deserialize(key.into_deserializer()).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let i = self
            .order
            .next()
            .ok_or_else(|| Error::schema("internal: member value without key"))?;
        #[cfg(feature = "rayon")]
        if let Some(member) = self.ahead.remove(&i) {
            return self.npz.read_inflated(i, member, seed);
        }
        self.npz.read_index(i, seed)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.order.len())
    }
}

impl<'de, R: Read + Seek> SeqAccess<'de> for Members<'_, R> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let Some(i) = self.order.next() else {
            return Ok(None);
        };
        // (a tuple's members are never inflated ahead)
        self.npz.read_index(i, seed).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.order.len())
    }
}

/// One `.npy` member loaded as a column: element `i` is row `i`.
struct Column {
    key: String,
    /// The dtype of one row (the descr with the header's inner axes),
    /// compiled once for the whole column.
    plan: crate::de::plan::Plan,
    row: usize,
    /// C-order data.
    data: Vec<u8>,
}

/// Loads every `.npy` member as a column, checking they share the first axis.
fn load_columns<R: Read + Seek>(npz: &mut NpzReader<R>) -> Result<(Vec<Column>, u64)> {
    let mut columns: Vec<Column> = Vec::new();
    let mut len: Option<u64> = None;
    for i in 0..npz.len() {
        let key = npz.key(i).to_owned();
        let Some((header, data)) = npz.load_index(i)? else {
            continue;
        };
        let Some((&n, rest)) = header.shape.split_first() else {
            return Err(Error::schema(
                "a 0-d array (shape ()) is not a column; reading a sequence of records needs members of shape (N, ...)",
            )
            .in_member(&key));
        };
        // (the first column, when there is one, set `len`)
        match (len, columns.first()) {
            (Some(m), Some(first)) if m != n => {
                return Err(Error::schema(format!(
                    "column lengths differ: this member has {n} records but member {} has {m}",
                    PyStr(&first.key)
                ))
                .in_member(&key));
            }
            _ => len = Some(n),
        }
        let data = if header.column_major() {
            crate::de::array::fortran_to_c(&data, &header.shape, header.descr.itemsize())
                .map_err(|e| e.in_member(&key))?
        } else {
            data
        };
        let dtype = subarray_of(header.descr.clone(), rest).map_err(|e| e.in_member(&key))?;
        columns.push(Column {
            key,
            plan: crate::de::plan::Plan::new(&dtype),
            row: dtype.itemsize(),
            data,
        });
    }
    Ok((columns, len.unwrap_or(0)))
}

/// The columns as a sequence of records, and each record as a map from
/// column key to its element: one type for both, a record being the
/// sequence copied at its `index` (`next`: the column whose entry comes
/// next).
#[derive(Clone, Copy)]
struct Records<'a> {
    columns: &'a [Column],
    /// The number of records (the columns' first axis).
    len: u64,
    cfg: Cfg,
    /// The record read (as the sequence: the next one).
    index: u64,
    next: usize,
}

impl<'de> SeqAccess<'de> for Records<'_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.index >= self.len {
            return Ok(None);
        }
        let record = *self;
        self.index = self.index.saturating_add(1);
        seed.deserialize(record)
            .map(Some)
            .map_err(|e| e.at_record(record.index))
    }

    fn size_hint(&self) -> Option<usize> {
        usize::try_from(self.len.saturating_sub(self.index)).ok()
    }
}

impl<'de> de::Deserializer<'de> for Records<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let columns = self.columns;
        visitor.visit_map(self).map_err(|e| {
            e.listing_what_is_there("the archive", &mut columns.iter().map(|c| c.key.as_str()))
        })
    }

    de_methods!(some);
    de_methods!(newtype);

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de> MapAccess<'de> for Records<'_> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some(col) = self.columns.get(self.next) else {
            return Ok(None);
        };
        seed.deserialize(col.key.as_str().into_deserializer())
            .map(Some)
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let col = self
            .columns
            .get(self.next)
            .ok_or_else(crate::de::internal)?;
        self.next = self.next.saturating_add(1);
        let bytes = usize::try_from(self.index)
            .ok()
            .and_then(|i| i.checked_mul(col.row))
            .and_then(|start| col.data.get(start..start.checked_add(col.row)?))
            .ok_or_else(crate::de::internal)?;
        seed.deserialize(ElementDe::new(&col.plan, Bytes::Copied(bytes), self.cfg))
            .map_err(|e| e.in_field(&col.key))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.columns.len().saturating_sub(self.next))
    }
}

/// The deflated members of `order` (the members a struct or map will read),
/// inflated on rayon's pool (`inflate.rs`) when there are at least two and
/// the pool has at least two threads (only then are their compressed bytes
/// read, see [`NpzReader::packed`]); none otherwise (then nothing changes).
#[cfg(feature = "rayon")]
fn inflate_ahead<R: Read + Seek>(npz: &mut NpzReader<R>, order: &[usize]) -> Ahead {
    let deflated = order.iter().filter(|&&i| npz.is_deflated(i)).count();
    // (asked only now: the first call starts rayon's global pool)
    if deflated < 2 || rayon::current_num_threads() < 2 {
        return Ahead::new();
    }
    let packed: Vec<Packed> = order.iter().filter_map(|&i| npz.packed(i)).collect();
    inflate_all(packed, &npz.options)
}

/// Members inflated ahead and not yet read, by index.
#[cfg(feature = "rayon")]
type Ahead = std::collections::HashMap<usize, Inflated>;
