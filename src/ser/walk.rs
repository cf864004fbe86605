//! The outer axes of the array: sequences whose lengths form the shape.
//!
//! [`Walk`] descends those sequences and hands each element (in C order) to
//! a [`Sink`], which encodes it where it belongs. [`Count`] is pass 1 when
//! the dtype is given: it measures the shape without inferring a dtype.

use serde::ser::{self, Serialize};

use crate::error::{Error, Result};
use crate::ser::Found;
use crate::ser::probe::{Captured, probe};

/// Receives the elements of the array, in C order.
pub(crate) trait Sink {
    /// Encodes element number `index` (C order).
    fn element<T: ?Sized + Serialize>(&mut self, index: u64, value: &T) -> Result<()>;
}

/// Walks the outer `shape.len()` sequence levels of a value.
pub(crate) struct Walk<'a, S> {
    pub shape: &'a [u64],
    pub depth: usize,
    pub sink: &'a mut S,
    pub flat: &'a mut u64,
}

/// Walks `value` of the given shape into `sink`.
pub(crate) fn walk<S: Sink, T: ?Sized + Serialize>(
    value: &T,
    shape: &[u64],
    sink: &mut S,
) -> Result<()> {
    if shape.is_empty() {
        return sink.element(0, value);
    }
    let mut flat = 0;
    value.serialize(Walk {
        shape,
        depth: 0,
        sink,
        flat: &mut flat,
    })
}

impl<S> Walk<'_, S> {
    /// What is not a sequence where the shape has an axis.
    fn refuse(self, found: Found) -> Error {
        self.not_seq(match found {
            Found::Bool => "bool",
            Found::Int => "an integer",
            Found::Float => "a float",
            Found::Char | Found::Str => "a string",
            Found::Bytes => "bytes",
            Found::None => "None",
            Found::Unit | Found::UnitStruct => "unit",
            Found::TupleStruct => "a tuple struct",
            Found::Map => "a map",
            Found::Struct => "a record",
            Found::Seq | Found::Tuple => "a sequence",
            Found::UnitVariant(..)
            | Found::NewtypeVariant(..)
            | Found::TupleVariant(..)
            | Found::StructVariant(..) => "an enum variant",
        })
    }

    /// A special newtype where the shape has an axis.
    fn element(self) -> Result<()> {
        Err(self.not_seq("a scalar"))
    }

    fn not_seq(&self, found: &str) -> Error {
        let n = self.shape.get(self.depth).copied().unwrap_or(0);
        Error::schema(format!(
            "expected a sequence of length {n} (axis {} of shape {}), found {found}",
            self.depth,
            crate::dtype::ShapeRepr(self.shape)
        ))
    }
}

pub(crate) struct WalkSeq<'a, S> {
    shape: &'a [u64],
    depth: usize,
    sink: &'a mut S,
    flat: &'a mut u64,
    i: u64,
}

impl<S: Sink> WalkSeq<'_, S> {
    #[inline]
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let n = self.shape.get(self.depth).copied().unwrap_or(0);
        let i = self.i;
        let attach = |e: Error| {
            if self.depth == 0 {
                e.at_record(i)
            } else {
                e.at_index(i)
            }
        };
        if i >= n {
            return Err(attach(Error::schema(format!(
                "sequence longer than {n}, the length of the first one"
            ))));
        }
        // depth < shape.len(): a sequence is only walked at an axis
        let below = self.depth.wrapping_add(1);
        let r = if below == self.shape.len() {
            let idx = *self.flat;
            // every axis index is below its dim, but the dims' product is
            // not checked on every path: refused rather than wrapped
            *self.flat = idx.checked_add(1).ok_or_else(super::too_many)?;
            self.sink.element(idx, value)
        } else {
            value.serialize(Walk {
                shape: self.shape,
                depth: below,
                sink: &mut *self.sink,
                flat: &mut *self.flat,
            })
        };
        r.map_err(attach)?;
        // i < n (checked above)
        self.i = i.wrapping_add(1);
        Ok(())
    }
    fn finish(self) -> Result<()> {
        let n = self.shape.get(self.depth).copied().unwrap_or(0);
        if self.i != n {
            return Err(Error::schema(format!(
                "sequence of length {} where the first one has length {n} (ragged sequences cannot form an array)",
                self.i
            )));
        }
        Ok(())
    }
}

elements!(impl['a, S: Sink] WalkSeq<'a, S> => (), Error: SerializeSeq SerializeTuple);

impl<'a, S: Sink> ser::Serializer for Walk<'a, S> {
    serializer_types!((), Error; (WalkSeq<'a, S>) (WalkSeq<'a, S>) _ _ _ _ _);

    refuse!(numbers serialize_char serialize_str serialize_bytes serialize_none serialize_unit
        serialize_unit_struct serialize_unit_variant serialize_newtype_variant
        serialize_tuple_struct serialize_tuple_variant serialize_map serialize_struct
        serialize_struct_variant);

    through!(some newtype_or_element);
    fn serialize_seq(self, _: Option<usize>) -> Result<WalkSeq<'a, S>> {
        Ok(WalkSeq {
            shape: self.shape,
            depth: self.depth,
            sink: self.sink,
            flat: self.flat,
            i: 0,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<WalkSeq<'a, S>> {
        self.serialize_seq(Some(len))
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}

/// Pass 1 with a given dtype: the lengths of the outer sequences, down to
/// the first value that is not a sequence (a "leaf").
#[derive(Default, Debug)]
pub(crate) struct Shape {
    /// Length of the sequences at each depth (all must agree).
    pub dims: Vec<Option<u64>>,
    /// Depth of the leaves and whether they were plain numbers.
    pub leaf: Option<(usize, bool)>,
    /// Set before counting when the dtype is `Sn`/`Vn`: a sequence of
    /// integers is then one element (the bytes `deserialize_any` reads),
    /// not an axis; so is an empty sequence below the outermost level.
    pub bytes: bool,
}

pub(crate) struct Count<'a> {
    pub shape: &'a mut Shape,
    pub depth: usize,
}

impl Count<'_> {
    /// Enum variants with data (the only values no pass writes).
    fn refuse(self, found: Found) -> Error {
        found.refused()
    }

    /// A special newtype: a leaf, not a number.
    fn element(self) -> Result<()> {
        self.leaf(false)
    }

    fn leaf(self, numeric: bool) -> Result<()> {
        match self.shape.leaf {
            None => {
                self.shape.leaf = Some((self.depth, numeric));
                Ok(())
            }
            Some((d, _)) if d == self.depth => Ok(()),
            Some((d, _)) => Err(Error::schema(format!(
                "values nested {} sequences deep where the first one is nested {d} deep",
                self.depth
            ))),
        }
    }
}

pub(crate) struct CountSeq<'a> {
    shape: &'a mut Shape,
    depth: usize,
    i: u64,
    /// How many elements were integers taken as bytes (`Shape::bytes`).
    ints: u64,
}

impl CountSeq<'_> {
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        if self.shape.bytes && self.ints == self.i {
            if let Captured::Int(_) | Captured::UInt(_) = probe(value) {
                // ints == i, a count of elements serialized
                self.ints = self.ints.wrapping_add(1);
                self.i = self.ints;
                return Ok(());
            }
        }
        if self.ints > 0 {
            return Err(Error::schema(
                "a sequence of bytes (integers) with other values in it",
            ));
        }
        let i = self.i;
        if self.depth >= super::MAX_WRITE_DEPTH {
            return Err(super::too_deep());
        }
        value
            .serialize(Count {
                shape: &mut *self.shape,
                // depth < MAX_WRITE_DEPTH (checked above)
                depth: self.depth.wrapping_add(1),
            })
            .map_err(|e| {
                if self.depth == 0 {
                    e.at_record(i)
                } else {
                    e.at_index(i)
                }
            })?;
        // a count of elements serialized: refused rather than wrapped
        self.i = i.checked_add(1).ok_or_else(super::too_many)?;
        Ok(())
    }
    fn finish(self) -> Result<()> {
        if self.shape.bytes && self.ints == self.i && (self.i > 0 || self.depth > 0) {
            return Count {
                shape: self.shape,
                depth: self.depth,
            }
            .leaf(false);
        }
        if self.shape.dims.len() <= self.depth {
            // depth <= MAX_WRITE_DEPTH (element checks it one level up)
            self.shape.dims.resize(self.depth.wrapping_add(1), None);
        }
        match self.shape.dims.get_mut(self.depth) {
            Some(slot @ None) => {
                *slot = Some(self.i);
                Ok(())
            }
            Some(Some(n)) if *n == self.i => Ok(()),
            Some(Some(n)) => Err(Error::schema(format!(
                "sequence of length {} where the first one has length {n} (ragged sequences cannot form an array)",
                self.i
            ))),
            None => Err(Error::schema("internal: shape depth")),
        }
    }
}

elements!(impl['a] CountSeq<'a> => (), Error: SerializeSeq SerializeTuple);

impl<'a> ser::Serializer for Count<'a> {
    serializer_types!((), Error; (CountSeq<'a>) (CountSeq<'a>) (Skip) _ (Skip) (Skip) _);

    refuse!(serialize_tuple_variant serialize_struct_variant);

    leaves! {
        serialize_bool(bool) => false;
        serialize_i8(i8) => true;
        serialize_i16(i16) => true;
        serialize_i32(i32) => true;
        serialize_i64(i64) => true;
        serialize_u8(u8) => true;
        serialize_u16(u16) => true;
        serialize_u32(u32) => true;
        serialize_u64(u64) => true;
        serialize_f32(f32) => true;
        serialize_f64(f64) => true;
        serialize_char(char) => false;
        serialize_str(&str) => false;
        serialize_bytes(&[u8]) => false;
    }
    fn serialize_none(self) -> Result<()> {
        self.leaf(false)
    }
    through!(some);
    fn serialize_unit(self) -> Result<()> {
        self.leaf(false)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<()> {
        self.leaf(false)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<()> {
        self.leaf(false)
    }
    through!(newtype_or_element);
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<()> {
        self.leaf(false)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<CountSeq<'a>> {
        Ok(CountSeq {
            shape: self.shape,
            depth: self.depth,
            i: 0,
            ints: 0,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<CountSeq<'a>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        self.leaf(false)?;
        Ok(Skip)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        self.leaf(false)?;
        Ok(Skip)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        self.leaf(false)?;
        Ok(Skip)
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}

/// Accepts the fields of a record leaf without looking at them.
pub(crate) struct Skip;

/// Each listed method of `Skip` takes its value and looks at nothing.
macro_rules! skip {
    ($($tr:ident { $(fn $m:ident($($p:ty),*);)* })*) => {$(
        impl ser::$tr for Skip {
            type Ok = ();
            type Error = Error;
            $(fn $m<T: ?Sized + Serialize>(&mut self, $(_: $p,)* _: &T) -> Result<()> {
                Ok(())
            })*
            fn end(self) -> Result<()> {
                Ok(())
            }
        }
    )*};
}

skip! {
    SerializeStruct { fn serialize_field(&'static str); }
    SerializeTupleStruct { fn serialize_field(); }
    SerializeMap { fn serialize_key(); fn serialize_value(); }
}
