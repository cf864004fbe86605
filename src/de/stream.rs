//! Data read from a stream a bounded chunk at a time.
//!
//! [`Chunked`] hands out the data of one outer element (a "row": one record
//! of a `(N,)` array, one `(3,)` row of a `(N, 3)` array) at a time from a
//! reused buffer. It reads ahead at most [`CHUNK`] bytes and never past the
//! end of the data the header promises, so several arrays saved one after
//! another into a stream are read in turn. Memory grows only as bytes
//! actually arrive: a header that lies about the size costs nothing.
//!
//! [`StreamDe`] is the top-level deserializer of `from_reader`: a generic
//! target (`deserialize_any`) is charged [`Budget::charge_any`] first.

use std::cell::OnceCell;
use std::io::Read;

use serde::de::{self, Visitor};

use super::array::{ArrayDe, ArraySeq, Source};
use super::bulk_offer;
use super::nd;
use super::plan::{Plan, bulk_key};
use super::{Bytes, Cfg, internal, with_shape_hint};
use crate::array::nd::Order;
use crate::budget::Budget;
use crate::error::{Error, Result};
use crate::format::dtype::at_least_one;
use crate::format::header::Header;
use crate::format::header_read::check_empty_axes;

/// How far ahead the buffer reads.
pub(crate) const CHUNK: usize = 64 * 1024;

/// Bytes per chunk of a whole array's data handed out as bytes (`Bulk`,
/// `NdArray` of plain numbers) when the data is known present (see
/// [`Chunked::present`]; [`CHUNK`] otherwise): large for few reads, small
/// enough that the copy out of the buffer finds it still in the core's
/// cache (L2).
const RAW_CHUNK: usize = 256 * 1024;

/// The buffer's first size; it doubles up to [`CHUNK`] as bytes arrive.
const FIRST_BUF: usize = 4 * 1024;

/// The data section of one array, read row by row.
pub(crate) struct Chunked<R> {
    pub(crate) reader: R,
    /// Bytes of data the header promises.
    pub(crate) total: u64,
    /// Bytes of data read from the stream so far.
    pub(crate) read: u64,
    /// Bytes of one row.
    pub(crate) row: usize,
    /// Whether the stream is known to hold all `total` bytes (a file whose
    /// length was checked against the header): readers may then size their
    /// output from the header at once instead of as bytes arrive.
    pub(crate) present: bool,
    buf: Vec<u8>,
    pos: usize,
    end: usize,
}

impl<R: Read> Chunked<R> {
    pub(crate) fn new(reader: R, total: u64, row: usize) -> Self {
        Chunked {
            reader,
            total,
            read: 0,
            row,
            present: false,
            buf: Vec::new(),
            pos: 0,
            end: 0,
        }
    }

    /// Forgets what was read ahead; the caller has moved the stream to
    /// `at` bytes into the data.
    pub(crate) fn reset_to(&mut self, at: u64) {
        self.read = at;
        self.pos = 0;
        self.end = 0;
    }

    /// The error for data that ends early.
    pub(crate) fn truncated(&self, got: u64) -> Error {
        let what = if self.row == 0 {
            String::new()
        } else {
            // row != 0 in this branch
            let record = got.checked_div(self.row as u64).unwrap_or(0);
            format!(" (record {record} is incomplete)")
        };
        Error::data(format!(
            "data ends after {got} bytes, the header promises {} bytes{what}",
            self.total
        ))
    }

    /// The next `n` bytes of data (`n` ≤ what is left of `total`).
    #[inline]
    pub(crate) fn take(&mut self, n: usize) -> Result<&[u8]> {
        // pos <= end <= buf.len() always, and after the fill pos + n <= end:
        // no step here can wrap (and `get` would refuse a wrapped range)
        if self.end.wrapping_sub(self.pos) < n {
            self.fill(n)?;
        }
        let start = self.pos;
        let stop = start.wrapping_add(n);
        self.pos = stop;
        self.buf.get(start..stop).ok_or_else(internal)
    }

    /// The whole data, read at once (nothing of it taken before).
    pub(crate) fn take_all(&mut self) -> Result<&[u8]> {
        let total = usize::try_from(self.total).map_err(|_| internal())?;
        self.take(total)
    }

    /// Makes at least `n` bytes available from `pos`.
    #[inline(never)]
    fn fill(&mut self, n: usize) -> Result<()> {
        // move what is left to the front
        self.buf.copy_within(self.pos..self.end, 0);
        // pos <= end (copy_within checked it); read <= total (reads stop at
        // total, seeks stay inside the data): saturation never happens
        self.end = self.end.wrapping_sub(self.pos);
        self.pos = 0;
        let left_in_stream = self.total.saturating_sub(self.read);
        // read ahead up to CHUNK, never past the data
        let target = n.max(
            CHUNK.min(
                usize::try_from(left_in_stream)
                    .unwrap_or(usize::MAX)
                    .saturating_add(self.end),
            ),
        );
        while self.end < n {
            if self.end == self.buf.len() {
                // grow as bytes arrive: double from FIRST_BUF, then a
                // chunk at a time (a 100-byte stream costs 4 KiB, not 64)
                let grow = if self.present {
                    // known present: the whole read-ahead at once
                    target
                } else {
                    self.buf.len().clamp(FIRST_BUF, CHUNK)
                };
                let new_len = target
                    .min(self.buf.len().saturating_add(grow))
                    // end < n: one more cannot overflow
                    .max(self.end.wrapping_add(1));
                // exactly: resize alone would double the capacity
                self.buf
                    .reserve_exact(new_len.saturating_sub(self.buf.len()));
                self.buf.resize(new_len, 0);
            }
            // end <= buf.len() and read <= total: saturation never happens
            let room = (self.buf.len().saturating_sub(self.end))
                .min(usize::try_from(self.total.saturating_sub(self.read)).unwrap_or(usize::MAX));
            if room == 0 {
                return Err(self.truncated(self.read));
            }
            let dst = self
                .buf
                // end + room <= buf.len()
                .get_mut(self.end..self.end.saturating_add(room))
                .ok_or_else(internal)?;
            match self.reader.read(dst) {
                Ok(0) => return Err(self.truncated(self.read)),
                Ok(k) => {
                    // k <= room (Read's contract); saturating keeps a reader
                    // that breaks it from wrapping (`take` then fails)
                    self.end = self.end.saturating_add(k);
                    self.read = self.read.saturating_add(k as u64);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }

    /// Reads (and drops) the rest of the data.
    pub(crate) fn skip_rest(&mut self) -> Result<()> {
        self.pos = 0;
        self.end = 0;
        // read <= total (see fill); copied <= left: no saturation happens
        let left = self.total.saturating_sub(self.read);
        let copied = std::io::copy(&mut (&mut self.reader).take(left), &mut std::io::sink())?;
        self.read = self.read.saturating_add(copied);
        if copied < left {
            return Err(self.truncated(self.read));
        }
        Ok(())
    }
}

/// Bytes of one row (outer element) of an array of this header: the
/// itemsize times the inner dims; the whole element for shape `()`.
pub(crate) fn row_size(header: &Header) -> Result<usize> {
    let inner = header.shape.get(1..).unwrap_or(&[]);
    inner
        .iter()
        .try_fold(header.descr.itemsize(), |acc, &d| {
            usize::try_from(d).ok().and_then(|d| acc.checked_mul(d))
        })
        .ok_or_else(|| Error::header("the array is too big"))
}

/// The top-level deserializer of `from_reader`.
pub(crate) struct StreamDe<'h, R> {
    header: &'h Header,
    /// Charged [`Budget::charge_any`] when the type is a generic target;
    /// `None` when nothing is (what an option or a newtype wraps, the
    /// deserializer an `NdArray` is presented).
    budget: Option<&'h Budget>,
    plan: Plan,
    data: Chunked<R>,
    cfg: Cfg,
    /// `ReadOptions::max_elements`: the empty axes of the file's shape are
    /// checked against it before they are presented.
    max_elements: u64,
    /// Where a Fortran-order array read whole is reordered into C order.
    reordered: OnceCell<Vec<u8>>,
}

impl<'h, R: Read> StreamDe<'h, R> {
    pub(crate) fn new(header: &'h Header, reader: R, cfg: Cfg, max_elements: u64) -> Result<Self> {
        let total = header.data_len()?;
        let row = row_size(header)?;
        Ok(StreamDe {
            header,
            budget: None,
            plan: Plan::new(&header.descr),
            data: Chunked::new(reader, total, row),
            cfg,
            max_elements,
            reordered: OnceCell::new(),
        })
    }

    /// Marks the data as known to be present (see [`Chunked::present`]).
    pub(crate) fn present(mut self, present: bool) -> Self {
        self.data.present = present;
        self
    }

    /// Charges a generic target to `budget` (see [`StreamDe::budget`]).
    pub(crate) fn charged(mut self, budget: &'h Budget) -> Self {
        self.budget = Some(budget);
        self
    }

    /// The reader back, positioned after the data (what the type did not
    /// look at is read and dropped).
    pub(crate) fn finish(mut self) -> Result<R> {
        if self.data.read != self.data.total {
            self.data.skip_rest()?;
        }
        Ok(self.data.reader)
    }

    /// `f` on the whole array, read at once, in C order
    /// ([`ArrayDe::c_order`]), the file's shape hinted in its errors.
    fn whole<'de, V: Visitor<'de>>(
        &mut self,
        visitor: V,
        f: impl FnOnce(ArrayDe<'_, 'de>, V) -> Result<V::Value>,
    ) -> Result<V::Value> {
        let header = self.header;
        let bytes = Bytes::Copied(self.data.take_all()?);
        let array = ArrayDe::new(&self.plan, &header.shape, bytes, self.cfg, true).c_order(
            header,
            self.max_elements,
            &self.reordered,
        )?;
        f(array, visitor).map_err(|e| with_shape_hint(e, header))
    }

    /// The top-level request: `f` on the whole array when it is 0-d or in
    /// Fortran order, the rows one by one otherwise.
    fn top<'de, V: Visitor<'de>>(
        &mut self,
        visitor: V,
        f: impl FnOnce(ArrayDe<'_, 'de>, V) -> Result<V::Value>,
    ) -> Result<V::Value> {
        if self.header.shape.is_empty() || self.header.column_major() {
            return self.whole(visitor, f);
        }
        self.stream_seq(visitor)
    }

    /// The rows one by one, as they arrive.
    fn stream_seq<'de, V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let header = self.header;
        check_empty_axes(header, self.max_elements)?;
        let n = header.shape.first().copied().ok_or_else(internal)?;
        let (plan, shape, row) = (&self.plan, &header.shape, self.data.row);
        let rows = ArraySeq::new(plan, shape, &mut self.data, row, n, self.cfg, true);
        rows.visit(visitor).map_err(|e| with_shape_hint(e, header))
    }
}

impl<'de, R: Read> Source<'de> for &mut Chunked<R> {
    #[inline]
    fn take(&mut self, n: usize) -> Result<Bytes<'de, '_>> {
        Chunked::take(self, n).map(Bytes::Copied)
    }

    /// Only whole rows already read ahead into the buffer count, unless
    /// the data is known present: the header's length may be a lie, and
    /// serde preallocates up to 1 MiB from a hint.
    fn known(&self, left: usize) -> usize {
        if self.present {
            return left;
        }
        // pos <= end
        left.min(self.end.wrapping_sub(self.pos) / at_least_one(self.row))
    }
}

impl<'de, R: Read> bulk_offer::Raw<'de> for &mut StreamDe<'_, R> {
    /// The data in chunks of whole rows, about [`CHUNK`] bytes each
    /// ([`RAW_CHUNK`] when known present), as they arrive (C order with at
    /// least one axis: the caller checked).
    fn raw<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let rows = self.header.shape.first().copied().ok_or_else(internal)?;
        let chunk = if self.data.present { RAW_CHUNK } else { CHUNK };
        let per = (chunk / at_least_one(self.data.row)).max(1);
        visitor.visit_seq(RawChunks {
            data: &mut self.data,
            left: rows,
            per: per as u64,
        })
    }
}

impl<'de, R: Read> nd::Source<'de> for &mut StreamDe<'_, R> {
    /// The data as it arrives, through a stream deserializer of the flat
    /// shape over the same reader; a Fortran array whose element absorbs
    /// axes is read whole and reordered.
    fn present<V: Visitor<'de>>(self, absorbed: usize, visitor: V) -> Result<V::Value> {
        let header = self.header;
        if self.header.column_major() && absorbed > 0 {
            let bytes = Bytes::Copied(self.data.take_all()?);
            let array = ArrayDe::new(&self.plan, &header.shape, bytes, self.cfg, false);
            return super::array::Flat(array, Order::Fortran).present(absorbed, visitor);
        }
        let flat = Header::new(
            header.descr.clone(),
            false,
            nd::flat_dims(&header.shape, absorbed)?,
        );
        let mut inner = StreamDe::new(&flat, &mut self.data.reader, self.cfg, self.max_elements)?
            .present(self.data.present);
        let value = visitor.visit_newtype_struct(&mut inner)?;
        inner.finish()?;
        // the inner deserializer read the whole data
        self.data.reset_to(self.data.total);
        Ok(value)
    }
}

/// The data of a whole array as a sequence of byte chunks (whole rows).
struct RawChunks<'s, R> {
    data: &'s mut Chunked<R>,
    /// Rows not yet handed out.
    left: u64,
    /// Rows per chunk.
    per: u64,
}

impl<'de, R: Read> de::SeqAccess<'de> for RawChunks<'_, R> {
    type Error = Error;

    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        let k = self.left.min(self.per);
        // k <= left
        self.left = self.left.wrapping_sub(k);
        // k rows of at most RAW_CHUNK bytes (or one row): fits in usize
        let n = usize::try_from(k)
            .ok()
            .and_then(|k| k.checked_mul(self.data.row))
            .ok_or_else(internal)?;
        let bytes = self.data.take(n)?;
        seed.deserialize(de::value::BytesDeserializer::<Error>::new(bytes))
            .map(Some)
    }

    /// The chunks left, when the data is known present (a file whose
    /// length was checked): `Bulk` then sizes its output once.
    fn size_hint(&self) -> Option<usize> {
        if !self.data.present {
            return None;
        }
        // per >= 1
        usize::try_from(self.left.div_ceil(self.per)).ok()
    }
}

impl<'de, R: Read> de::Deserializer<'de> for &mut StreamDe<'_, R> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if let Some(budget) = self.budget {
            budget.charge_any(self.header)?;
        }
        self.top(visitor, |de, v| de.deserialize_any(v))
    }

    de_methods!(via(top)
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_unit deserialize_seq deserialize_map deserialize_identifier
        deserialize_unit_struct deserialize_tuple deserialize_tuple_struct
        deserialize_enum);

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.budget = None;
        visitor.visit_some(self)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        crate::kinds::special::refuse_ndarray_form(name, fields)?;
        self.top(visitor, |de, v| {
            de::Deserializer::deserialize_struct(de, name, fields, v)
        })
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.budget = None;
        if name == crate::kinds::special::NDARRAY {
            let header = self.header;
            let order = Order::of_header(header.fortran_order, &header.shape);
            let records = matches!(self.plan.kind, super::plan::Kind::Record(_));
            return nd::offer(order, &header.shape, records, self, visitor);
        }
        if self.header.shape.is_empty() || self.header.column_major() {
            return self.whole(visitor, |de, v| {
                de::Deserializer::deserialize_newtype_struct(de, name, v)
            });
        }
        if crate::kinds::special::is_token(name) {
            return self.stream_seq(visitor);
        }
        if name == crate::kinds::special::BULK {
            if let Some(key) = bulk_key(&self.plan, &self.header.shape) {
                return bulk_offer::offer(&key, self, visitor);
            }
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.data.skip_rest()?;
        visitor.visit_unit()
    }
}
