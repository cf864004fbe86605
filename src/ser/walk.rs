//! The outer axes of the array: sequences whose lengths form the shape.
//!
//! [`Count`] is pass 1 when the dtype is given: it measures the shape
//! without inferring a dtype (pass 2 is the walker of `spec.rs` with that
//! shape, [`encode_planned`](super::spec::encode_planned)). A value that
//! is not a sequence is a leaf; one that is no number nor special newtype
//! (a record, a string, `None`, ...) reaches the serializer's `refuse`,
//! which counts it and stops its walk there (its parts are not looked at),
//! so the serializer needs no record state of its own.

use serde::ser::{self, Serialize};

use crate::error::{Error, Result};
use crate::format::dtype::Plain;
use crate::ser::probe::{self, Captured, probe};
use crate::ser::{DynValue, Found};

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
    /// Set by a leaf that is no number, a special newtype nor bytes (a
    /// record, a string, ...): its walk stops there with an error that
    /// the level above takes for the leaf counted.
    stopped: bool,
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
    fn new(shape: &'a mut Shape, depth: usize) -> Self {
        Count {
            shape,
            depth,
            i: 0,
            ints: 0,
        }
    }

    /// Enum variants with data are refused (the only values no pass
    /// writes); anything else that is not a sequence is a leaf, its parts
    /// not looked at: the walk stops there ([`Shape::stopped`]).
    fn refuse(mut self, found: Found) -> Error {
        if let Found::TupleVariant(..) | Found::StructVariant(..) = found {
            return found.refused();
        }
        if let Err(e) = self.leaf(false) {
            return e;
        }
        self.shape.stopped = true;
        Error::schema("internal: a leaf")
    }

    /// A special newtype: a leaf, not a number.
    fn special(mut self) -> Result<()> {
        self.leaf(false)
    }

    /// A number leaf (a `bool` is counted as no number: it is no complex
    /// part).
    fn number<const N: usize>(mut self, num: Plain, _: [u8; N]) -> Result<()> {
        self.leaf(num != Plain::Bool)
    }

    fn leaf(&mut self, numeric: bool) -> Result<()> {
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
        let below = Count::new(&mut *self.shape, super::deeper(self.depth)?);
        let counted = value.serialize(below);
        if !std::mem::take(&mut self.shape.stopped) {
            counted.map_err(|e| super::at_element(e, top, i))?;
        }
        // a count of elements serialized: refused rather than wrapped
        self.i = i.checked_add(1).ok_or_else(super::too_many)?;
        Ok(())
    }

    fn finish(mut self) -> Result<()> {
        if self.shape.bytes && self.ints == self.i && (self.i > 0 || self.depth > 0) {
            return self.leaf(false);
        }
        super::axis_length(&mut self.shape.dims, self.depth, self.i)
    }
}

elements!(impl['a] Count<'a> => (), Error: SerializeSeq SerializeTuple);

/// The shape of `value` (behind `dyn`, see
/// [`DynValue`](crate::ser::DynValue)), with sequences of integers as
/// bytes when `bytes` says so ([`Shape::bytes`]); with `nd`, that of the
/// flat data of the n-d array it is.
#[inline(never)]
pub(crate) fn count(value: &DynValue<'_>, bytes: bool, nd: bool) -> Result<Shape> {
    let mut shape = Shape {
        bytes,
        ..Shape::default()
    };
    let counted = if nd {
        probe::parts(value, "", |_| Ok(Count::new(&mut shape, 0))).map(drop)
    } else {
        erased_serde::serialize(value, Count::new(&mut shape, 0))
    };
    // a leaf at the top stops the walk there: counted
    if !shape.stopped {
        counted?;
    }
    Ok(shape)
}

impl<'a> ser::Serializer for Count<'a> {
    serializer_types!((), Error; [Self] [Self] _ _ _ _ _);
    crate::ser::collect_seq!();

    plain_number_methods!(#[inline] number -> Result<()>);
    refuse!(serialize_char serialize_str serialize_bytes serialize_none serialize_unit
        serialize_unit_struct serialize_unit_variant serialize_newtype_variant);
    through!(some newtype(special));
}
