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
use crate::format::header::Header;
use crate::npy::writer::{checked_header, npy_header, single_pass};
use crate::options::WriteOptions;
use crate::ser::encode::DtypeTree;
use crate::ser::plan;
use crate::ser::spec::{Output, Val, Writable, encode_planned};

use super::write::NpzWriter;

/// Bytes of column data gathered before a write into the zip entry.
const CHUNK: usize = 64 * 1024;

/// Writes `records` (a sequence of records) as one member per field.
pub(crate) fn write_columns<W: Write + Seek, T: ?Sized + Serialize>(
    npz: &mut NpzWriter<W>,
    records: &T,
) -> Result<()> {
    let value = &Val(records);
    let (dtype, outer) = layout(value)?;
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

/// The element dtype and the shape of `value`. Uniform records (each
/// encodes with the first one's dtype) take the write path's speculative
/// pass: one walk encoding into a discarded chunk, several times cheaper
/// than inferring every record. Anything else takes the exact planning walk,
/// which gives the widest strings or the error.
fn layout(value: &dyn Writable) -> Result<(Dtype, Vec<u64>)> {
    struct Discard;
    impl Output for Discard {
        fn window(&self) -> Option<usize> {
            Some(CHUNK)
        }
    }
    let opts = WriteOptions::new();
    // the chunks are discarded: the flavour never fails
    let spec = single_pass(value, &opts, &mut Vec::new(), &mut Discard);
    let header = spec.ok().flatten().as_ref().and_then(checked_header);
    let uniform = |(h, _): &(Header, usize)| h.shape.len() == 1 && h.descr.as_record().is_some();
    if let Some((header, _)) = header.filter(uniform) {
        return Ok((header.descr, header.shape));
    }
    let plan = plan(value.value(), &opts)?;
    Ok((plan.dtype, plan.shape))
}

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
