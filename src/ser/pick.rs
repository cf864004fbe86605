//! One field of a record, encoded without encoding the others.
//!
//! The columnar writer (`npz/columns.rs`) walks the records once per
//! column (zip members are written one after another), through the exact
//! pass of `spec.rs`, which hands each record to [`Pick`]. Encoding the whole record on every walk
//! costs a full record per column; [`Pick`] instead looks at each field's
//! key (a string compare) and serializes only the value of the one field the
//! column holds, so all walks together encode each record about once.
//!
//! The values were already checked against the record dtype by the
//! planning pass, so a record whose shape differs here (a field missing or
//! given twice, not a record at all) means its `Serialize` gave something
//! else the second time: an error, never a guess.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use serde::Serialize;
use serde::ser;

use crate::error::{Error, Result};
use crate::format::dtype::Field;
use crate::ser::Found;
use crate::ser::encode::DtypeTree;
use crate::ser::probe::key_text;

/// Serializes one record, writing only `field`'s value into `out` (exactly
/// `field`'s size); its state while the record's fields go by.
pub(crate) struct Pick<'a> {
    /// The field kept, with its position among the record's fields (tuple
    /// records give their fields by position, `f0`, `f1`, ...).
    field: &'a Field,
    position: usize,
    /// The field's dtype compiled once per column (`DtypeTree::new(dtype,
    /// false)`): the value is encoded as into a given dtype (same bytes and
    /// errors), without interpreting the dtype per record.
    tape: &'a mut DtypeTree,
    out: &'a mut [u8],
    /// Fields (or tuple elements) seen so far.
    index: usize,
    found: bool,
    /// For maps: whether the pending key is the field's name.
    pending: bool,
}

fn changed(what: &str) -> Error {
    Error::mismatch(format!(
        "the record serialized differently on a second pass ({what})"
    ))
}

impl<'a> Pick<'a> {
    pub(crate) fn new(
        (field, position): (&'a Field, usize),
        tape: &'a mut DtypeTree,
        out: &'a mut [u8],
    ) -> Self {
        Pick {
            field,
            position,
            tape,
            out,
            index: 0,
            found: false,
            pending: false,
        }
    }

    /// The planning pass saw a record here.
    fn refuse(self, _: Found) -> Error {
        changed("not a record")
    }

    fn keep<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        if self.found {
            return Err(changed("a field given twice").in_field(self.field.name()));
        }
        self.found = true;
        self.tape
            .encode(value, self.out)
            .map_err(|e| e.in_field(self.field.name()))
    }

    /// Tuple records: fields `f0`, `f1`, ... by position (as the encoder
    /// takes them: element `i` is field `i`).
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        if self.index == self.position {
            self.keep(value)?;
        }
        self.index = self.index.saturating_add(1);
        Ok(())
    }

    #[inline]
    fn field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        // other fields (and padding, which is no field) are passed over
        if key == self.field.name() {
            self.keep(value)?;
        }
        Ok(())
    }

    fn finish(self) -> Result<()> {
        if self.found {
            Ok(())
        } else {
            Err(changed("a field missing").in_field(self.field.name()))
        }
    }
}

impl<'a> ser::Serializer for Pick<'a> {
    // every record form is taken by itself: the encoder takes a sequence
    // or tuple for a record by position too, and a map by name
    serializer_types!((), Error; [Self] [Self] [Self] _ [Self] [Self] _);
    crate::ser::collect_seq!();

    refuse!(numbers serialize_char serialize_str serialize_bytes serialize_none serialize_unit
        serialize_unit_struct serialize_unit_variant serialize_newtype_variant);

    // a record is never one of the crate's special newtypes (those are
    // scalars or gaps), so every newtype here is a transparent wrapper
    through!(some newtype);
}

elements!(impl['a] Pick<'a> => (), Error: SerializeSeq SerializeTuple SerializeTupleStruct SerializeStruct);

impl ser::SerializeMap for Pick<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        // the planning pass took only string keys: any other means the
        // record serialized differently this time
        let name = self.field.name();
        self.pending = key_text(key, true, |k| k == name)
            .map_err(|e| e.into_error(|_| changed("a map key that is not a string")))?;
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        if std::mem::take(&mut self.pending) {
            self.keep(value)?;
        }
        Ok(())
    }
    fn end(self) -> Result<()> {
        self.finish()
    }
}
