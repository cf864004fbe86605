//! Columnar writing: a sequence of records -> one member per record field.
//!
//! Zip members are written one after another, so the records are walked
//! once per column. The record dtype comes from one walk first (the write
//! path's speculative pass, or its exact planning walk when the records are
//! not uniform); for each column only that field of every record is encoded
//! ([`Pick`] passes the other fields over by key), straight into a small
//! chunk buffer that goes to the zip entry when full. Memory: one chunk,
//! whatever the number of records; time: about one record encoding per
//! record plus a key compare per field and column.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::io::{Seek, Write};

use serde::Serialize;

use crate::dtype::{Dtype, Field, ShapeRepr};
use crate::error::{Error, Result};
use crate::header::Header;
use crate::options::WriteOptions;
use crate::ser::plan;
use crate::ser::replay::DtypeTree;
use crate::ser::spec::{Output, Speculation, speculate};
use crate::ser::walk::{Sink, walk};

use super::pick::Pick;
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
    for (position, field) in record.fields().iter().enumerate() {
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
        npz.add_raw(field.name(), |zip| {
            zip.write_all(&head)?;
            let mut sink = ColumnSink {
                field,
                position,
                tape: DtypeTree::new(field.dtype(), false),
                chunk: Vec::with_capacity(CHUNK.max(field.size())),
                out: zip,
            };
            walk(records, &outer, &mut sink)?;
            sink.flush()
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
    let spec = speculate(records, false, &mut out, &mut Discard, None);
    // the chunks are discarded: the flavour never fails
    if let Ok(Speculation::Uniform(spec)) = spec {
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
    let plan = plan(records, &WriteOptions::new())?;
    Ok((plan.dtype, plan.shape))
}

/// Encodes one field of each record (see [`Pick`]) into the chunk.
struct ColumnSink<'a, W: Write> {
    field: &'a Field,
    position: usize,
    tape: DtypeTree,
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
    #[inline]
    fn element<T: ?Sized + Serialize>(&mut self, index: u64, value: &T) -> Result<()> {
        let size = self.field.size();
        if self.chunk.len().saturating_add(size) > CHUNK && !self.chunk.is_empty() {
            self.flush()?;
        }
        // zeroed: the gaps of a nested record stay zero, as numpy writes them
        let start = self.chunk.len();
        let end = start.checked_add(size).ok_or_else(crate::de::internal)?;
        self.chunk.resize(end, 0);
        let out = self
            .chunk
            .get_mut(start..end)
            .ok_or_else(crate::de::internal)?;
        value
            .serialize(Pick {
                field: self.field,
                position: self.position,
                tape: &mut self.tape,
                out,
            })
            .map_err(|e| e.at_record(index))
    }
}
