//! Columnar writing: a sequence of records -> one member per record field.
//!
//! Zip members are written one after another, so the records are walked
//! once per column. The record dtype is inferred once (the write path's
//! pass 1); for each column every record is encoded into a one-record
//! scratch buffer and the column's bytes are copied into a small chunk
//! buffer that goes to the zip entry when full. Memory: one record plus
//! one chunk, whatever the number of records.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::io::{Seek, Write};

use serde::Serialize;

use crate::dtype::{Dtype, ShapeRepr};
use crate::error::{Error, Result};
use crate::header::Header;
use crate::options::WriteOptions;
use crate::ser::encode::Enc;
use crate::ser::plan;
use crate::ser::walk::{Sink, walk};
use crate::writer::has_gaps;

use super::write::NpzWriter;

/// Bytes of column data gathered before a write into the zip entry.
const CHUNK: usize = 64 * 1024;

/// Writes `records` (a sequence of records) as one member per field.
pub(crate) fn write_columns<W: Write + Seek, T: ?Sized + Serialize>(
    npz: &mut NpzWriter<W>,
    records: &T,
) -> Result<()> {
    let plan = plan(records, &WriteOptions::new())?;
    let &[n] = plan.shape.as_slice() else {
        return Err(Error::schema(format!(
            "a columnar npz needs a sequence of records, found an array of shape {} of '{}'",
            ShapeRepr(&plan.shape),
            plan.dtype
        )));
    };
    let Some(record) = plan.dtype.as_record() else {
        return Err(Error::schema(format!(
            "a columnar npz needs a sequence of records (structs), found elements of dtype {}",
            plan.dtype
        )));
    };
    for field in record.fields() {
        let (descr, sub) = match field.dtype() {
            Dtype::Subarray(base, dims) => ((**base).clone(), dims.as_slice()),
            other => (other.clone(), &[][..]),
        };
        let mut shape = Vec::with_capacity(sub.len().saturating_add(1));
        shape.push(n);
        shape.extend_from_slice(sub);
        let header = Header::new(descr, false, shape);
        header.data_len().map_err(|e| e.in_member(field.name()))?;
        let (head, _) = header.encode(None).map_err(|e| e.in_member(field.name()))?;
        let offset = field.offset();
        let size = field.dtype().itemsize();
        npz.add_raw(field.name(), |zip| {
            zip.write_all(&head)?;
            let mut sink = ColumnSink {
                dtype: &plan.dtype,
                scratch: vec![0; plan.dtype.itemsize()],
                zero: has_gaps(&plan.dtype),
                offset,
                size,
                chunk: Vec::with_capacity(CHUNK.max(size)),
                out: zip,
            };
            walk(records, &plan.shape, &mut sink)?;
            sink.flush()
        })?;
    }
    Ok(())
}

/// Encodes each record and keeps one field's bytes.
struct ColumnSink<'a, W: Write> {
    dtype: &'a Dtype,
    scratch: Vec<u8>,
    zero: bool,
    offset: usize,
    size: usize,
    chunk: Vec<u8>,
    out: W,
}

impl<W: Write> ColumnSink<'_, W> {
    fn flush(&mut self) -> Result<()> {
        self.out.write_all(&self.chunk)?;
        self.chunk.clear();
        Ok(())
    }
}

impl<W: Write> Sink for ColumnSink<'_, W> {
    fn element<T: ?Sized + Serialize>(&mut self, index: u64, value: &T) -> Result<()> {
        if self.zero {
            self.scratch.fill(0);
        }
        value
            .serialize(Enc::new(self.dtype, &mut self.scratch))
            .map_err(|e| e.at_record(index))?;
        let end = self
            .offset
            .checked_add(self.size)
            .ok_or_else(crate::de::internal)?;
        let bytes = self
            .scratch
            .get(self.offset..end)
            .ok_or_else(crate::de::internal)?;
        if self.chunk.len().saturating_add(bytes.len()) > CHUNK && !self.chunk.is_empty() {
            self.out.write_all(&self.chunk)?;
            self.chunk.clear();
        }
        self.chunk.extend_from_slice(bytes);
        Ok(())
    }
}
