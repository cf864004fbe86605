//! The outer axes of the array: sequences whose lengths form the shape.
//!
//! [`Count`] is pass 1 when the dtype is given: it measures the shape
//! without inferring a dtype (pass 2 is the walker of `spec.rs` with that
//! shape, [`encode_planned`](super::spec::encode_planned)).

use serde::ser::{self, Serialize};

use crate::error::{Error, Result};
use crate::format::dtype::Plain;
use crate::ser::Found;
use crate::ser::probe::{Captured, probe};

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

/// The shape counter at one depth, and its state in a sequence there.
pub(crate) struct Count<'a> {
    shape: &'a mut Shape,
    depth: usize,
    /// Elements of the sequence so far.
    i: u64,
    /// How many elements were integers taken as bytes (`Shape::bytes`).
    ints: u64,
}

impl<'a> Count<'a> {
    pub(crate) fn new(shape: &'a mut Shape) -> Self {
        Count {
            shape,
            depth: 0,
            i: 0,
            ints: 0,
        }
    }

    /// Enum variants with data (the only values no pass writes).
    fn refuse(self, found: Found) -> Error {
        found.refused()
    }

    /// A special newtype: a leaf, not a number.
    fn special(self) -> Result<()> {
        self.leaf(false)
    }

    /// A record: a leaf, its fields not looked at.
    fn record(self) -> Result<Skip> {
        self.leaf(false).map(|()| Skip)
    }

    /// A number leaf (a `bool` is counted as no number: it is no complex
    /// part).
    fn number<const N: usize>(self, num: Plain, _: [u8; N]) -> Result<()> {
        self.leaf(num != Plain::Bool)
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

    /// An element of the sequence at this depth.
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
        let (top, i) = (self.depth == 0, self.i);
        let below = Count {
            depth: super::deeper(self.depth)?,
            ..Count::new(&mut *self.shape)
        };
        value
            .serialize(below)
            .map_err(|e| super::at_element(e, top, i))?;
        // a count of elements serialized: refused rather than wrapped
        self.i = i.checked_add(1).ok_or_else(super::too_many)?;
        Ok(())
    }

    fn finish(self) -> Result<()> {
        if self.shape.bytes && self.ints == self.i && (self.i > 0 || self.depth > 0) {
            return self.leaf(false);
        }
        if self.shape.dims.len() <= self.depth {
            // depth <= MAX_WRITE_DEPTH (element checks it one level up)
            self.shape.dims.resize(self.depth.wrapping_add(1), None);
        }
        match self.shape.dims.get_mut(self.depth) {
            Some(slot) => super::axis_length(slot, self.i),
            None => Err(Error::schema("internal: shape depth")),
        }
    }
}

elements!(impl['a] Count<'a> => (), Error: SerializeSeq SerializeTuple);

impl Count<'_> {
    /// Counts `value`'s shape (behind `dyn`, see
    /// [`DynValue`](crate::ser::DynValue)).
    #[inline(never)]
    pub(crate) fn walk(self, value: &crate::ser::DynValue<'_>) -> Result<()> {
        erased_serde::serialize(value, self)
    }
}

impl<'a> ser::Serializer for Count<'a> {
    serializer_types!((), Error; (Self) (Self) (Skip) _ (Skip) (Skip) _);
    crate::ser::collect_seq!();

    plain_number_methods!(#[inline] number -> Result<()>);
    leaves! {
        serialize_char(char) => false;
        serialize_str(&str) => false;
        serialize_bytes(&[u8]) => false;
        serialize_none() => false;
        serialize_unit() => false;
        serialize_unit_struct(&'static str) => false;
        serialize_unit_variant(&'static str, u32, &'static str) => false;
    }
    through!(some newtype(special));
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<()> {
        self.leaf(false)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self> {
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Skip> {
        self.record()
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Skip> {
        self.record()
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Skip> {
        self.record()
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
