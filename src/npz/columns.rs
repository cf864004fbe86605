//! Columnar writing: a sequence of records -> one member per record field.
//!
//! Zip members are written one after another, so the records are walked
//! once per column. The record dtype comes from one walk first (the write
//! path's speculative pass, or its exact planning walk when the records are
//! not uniform); for each column only that field of every record is encoded
//! (`ser/pick.rs` passes the other fields over by key), straight into a small
//! chunk buffer that goes to the zip entry when full. Memory: one chunk,
//! whatever the number of records; time: about one record encoding per
//! record plus a key compare per field and column.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::io::{Seek, Write};

use serde::Serialize;

use crate::error::{Error, Result};
use crate::format::dtype::{Dtype, ShapeRepr};
use crate::npy::writer::npy_header;
use crate::options::WriteOptions;
use crate::ser::encode::DtypeTree;
use crate::ser::plan;
use crate::ser::spec::{Output, Val, encode_planned, speculate};

use super::write::NpzWriter;

/// Bytes of column data gathered before a write into the zip entry.
const CHUNK: usize = 64 * 1024;

/// Writes `records` (a sequence of records) as one member per field.
pub(crate) fn write_columns<W: Write + Seek, T: ?Sized + Serialize>(
    npz: &mut NpzWriter<W>,
    records: &T,
) -> Result<()> {
    let (dtype, outer) = layout(records)?;
    let &[n] = outer.as_slice() else {
        return Err(Error::schema(format!(
            "a columnar npz needs a sequence of records, found an array of shape {} of {} \
             (to store it as one member, use NpzWriter::add or a struct field)",
            ShapeRepr(&outer),
            dtype
        )));
    };
    let Some(record) = dtype.as_record() else {
        return Err(Error::schema(format!(
            "a columnar npz needs a sequence of records (structs), found elements of dtype {}",
            dtype
        )));
    };
    let value = &Val(records);
    for (position, field) in record.fields().iter().enumerate() {
        let (_, head) = npy_header(field.dtype(), &[n]).map_err(|e| e.in_member(field.name()))?;
        npz.add_raw(field.name(), |zip| {
            zip.write_all(&head)?;
            let tape = DtypeTree::new(field.dtype(), false);
            let mut out = Vec::new();
            let mut column = Column {
                zip: &mut *zip,
                size: field.dtype().itemsize(),
                done: 0,
            };
            let column_of = Some((field, position));
            encode_planned(value, tape, &outer, column_of, &mut out, &mut column)?;
            zip.write_all(&out)?;
            Ok(())
        })?;
    }
    Ok(())
}

/// The element dtype and the shape of `records`. Uniform records (each
/// encodes with the first one's dtype) take the write path's speculative
/// pass: one walk encoding into a discarded chunk, several times cheaper
/// than inferring every record. Anything else takes the exact planning walk,
/// which gives the widest strings or the error.
fn layout<T: ?Sized + Serialize>(records: &T) -> Result<(Dtype, Vec<u64>)> {
    /// The flavour that discards its chunks.
    struct Discard;
    impl Output for Discard {
        fn window(&self) -> Option<usize> {
            Some(CHUNK)
        }
    }
    let mut out = Vec::new();
    let spec = speculate(&Val(records), false, &mut out, &mut Discard, None);
    // the chunks are discarded: the flavour never fails
    if let Ok(Some(spec)) = spec {
        let shape = spec.shape.clone();
        let bytes = shape
            .iter()
            .try_fold(spec.descr().itemsize() as u64, |a, &d| a.checked_mul(d));
        let uniform = shape.len() == 1
            && spec.descr().as_record().is_some()
            && bytes == Some(spec.len as u64);
        if uniform {
            return Ok((spec.into_descr(), shape));
        }
    }
    let plan = plan(&records, &WriteOptions::new())?;
    Ok((plan.dtype, plan.shape))
}

/// The flavour of a column's pass: chunks of [`CHUNK`] bytes written to
/// the zip entry as they fill; a failed write names the record that did
/// not fit in the chunk.
struct Column<W> {
    zip: W,
    /// Bytes of a record's field.
    size: usize,
    /// Bytes written so far.
    done: usize,
}

impl<W: Write> Output for Column<W> {
    fn window(&self) -> Option<usize> {
        Some(CHUNK)
    }
    fn chunk(&mut self, data: &[u8]) -> Result<()> {
        self.done = self.done.saturating_add(data.len());
        self.zip.write_all(data).map_err(|e| {
            let record = self.done.checked_div(self.size).unwrap_or(0);
            Error::from(e).at_record(record as u64)
        })
    }
}
