//! An array of elements as nested sequences: the header's shape (first axis
//! = records) or a subarray field's dims. Also the reordering of
//! Fortran-order data into C order.

use std::cell::{Cell, OnceCell};

use serde::de::{self, Visitor};

use super::bulk_offer;
use super::element::{ElementDe, RowDe};
use super::nd;
use super::plan::{Kind, Plan, bulk_key};
use super::seq::Elements;
use super::{Bytes, Cfg, SIZE_HINT_BYTES, fix_error, internal};
use crate::array::nd::{FortranOffsets, Order};
use crate::error::{Error, Result};
use crate::format::dtype::ShapeRepr;
use crate::format::dtype::at_least_one;
use crate::format::header::Header;
use crate::format::header_read::check_empty_axes;

/// Elements of `dtype` laid out in C order with shape `dims` over exactly
/// `product(dims) * itemsize` bytes. With no dims it is the bare element.
///
/// What the whole array of a file adds (the empty axes checked against
/// `ReadOptions::max_elements`, the file's shape in messages) is done once
/// by the top-level deserializers (`super::data::FileDe`,
/// `super::stream::StreamDe`), not per row.
#[derive(Clone, Copy)]
pub(crate) struct ArrayDe<'a, 'de> {
    dtype: &'a Plan,
    dims: &'a [u64],
    bytes: Bytes<'de, 'a>,
    cfg: Cfg,
    /// The first axis of the file's shape: errors get `record i`, not `[i]`.
    top: bool,
}

impl<'de, 'a> ArrayDe<'a, 'de> {
    #[inline]
    pub(crate) fn new(
        dtype: &'a Plan,
        dims: &'a [u64],
        bytes: Bytes<'de, 'a>,
        cfg: Cfg,
        top: bool,
    ) -> Self {
        ArrayDe {
            dtype,
            dims,
            bytes,
            cfg,
            top,
        }
    }

    /// The whole array of a file (`header`) in C order: as stored, or a
    /// Fortran-order array of two or more axes reordered into `reordered`;
    /// its empty axes checked first. What every request but an `NdArray`'s
    /// is presented, from memory (`super::data::FileDe`) or a stream read
    /// whole (`super::stream::StreamDe`); not generic over the visitor.
    pub(crate) fn c_order(
        self,
        header: &Header,
        max_elements: u64,
        reordered: &'a OnceCell<Vec<u8>>,
    ) -> Result<Self> {
        check_empty_axes(header, max_elements)?;
        if !header.column_major() {
            return Ok(self);
        }
        let c = fortran_to_c(self.bytes.slice(), self.dims, self.dtype.size)?;
        let bytes = Bytes::Copied(reordered.get_or_init(|| c));
        Ok(ArrayDe { bytes, ..self })
    }
}

impl<'de, 'a> ArrayDe<'a, 'de> {
    #[inline]
    fn element(&self) -> ElementDe<'a, 'de> {
        ElementDe::new(self.dtype, self.bytes, self.cfg)
    }

    /// `f` on the bare element (no dims), else the first axis as
    /// [`Elements`] ([`elements`](Self::elements)).
    #[inline]
    fn elem_or_seq<V: Visitor<'de>>(
        self,
        visitor: V,
        f: impl FnOnce(ElementDe<'a, 'de>, V) -> Result<V::Value>,
    ) -> Result<V::Value> {
        if self.dims.is_empty() {
            f(self.element(), visitor)
        } else {
            self.elements()?.visit(visitor)
        }
    }

    /// Offers the array, its data stored in `order`, to an `NdArray`
    /// (see `super::nd`).
    #[inline(never)]
    pub(super) fn offer_nd<V: Visitor<'de>>(self, order: Order, visitor: V) -> Result<V::Value> {
        let records = matches!(self.dtype.kind, Kind::Record(_));
        nd::offer(order, self.dims, records, Flat(self, order), visitor)
    }

    /// Checks the array and works out how its first axis is presented
    /// (dims must not be empty): as a [`run_seq`] (`None`) when `run`
    /// allows it, else as `n` elements (arrays of the other axes) one
    /// `stride` apart ([`ArraySeq`]). Not generic over the visitor
    /// (inlined: the rows of a 2-d array each ask it).
    #[inline]
    fn axis(&self, run: bool) -> Result<Option<(u64, usize)>> {
        let Some((&n, rest)) = self.dims.split_first() else {
            return Err(internal());
        };
        let n_usize = usize::try_from(n).map_err(|_| internal())?;
        // (scalars of no bytes, `S0`, are counted: a stride of 0; so are
        // the elements of an empty axis)
        let stride = if rest.is_empty() {
            self.dtype.size
        } else {
            self.bytes.len().checked_div(n_usize).unwrap_or(0)
        };
        if stride.checked_mul(n_usize) != Some(self.bytes.len()) {
            return Err(internal());
        }
        // the hot cases (`Vec<f64>`, rows of `[f32; 3]`, `Vec<Record>`):
        // the elements straight to the visitor, no array layer in between,
        // the sequence's only state the bytes not yet handed out (they
        // hold exactly `n` elements, just checked; a 1-d array's messages
        // need no file facts)
        let is_run = run && rest.is_empty() && self.dtype.size != 0;
        Ok((!is_run).then_some((n, stride)))
    }

    /// Visits the first axis as a sequence (dims must not be empty): what
    /// sequence requests get (`deserialize_seq`, `_tuple`,
    /// `_tuple_struct`), the one-axis runs among them as [`run_seq`].
    #[inline]
    pub(crate) fn visit_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.axis(true)? {
            None => run_seq::<V, ROWS>(self.dtype, self.bytes, self.cfg, self.top, visitor),
            Some((n, stride)) => {
                // the sequence by itself, not as `Elements`: the rows of a
                // 2-d array are a hot path
                self.strided(n, stride).visit(visitor)
            }
        }
    }

    /// The first axis (dims must not be empty) as a sequence of elements
    /// one stride apart: what every request but a sequence's gets (a
    /// struct or `deserialize_any` meeting an array, a subarray presented
    /// self-describing), as [`Elements`], the sequence type of every cold
    /// presentation, however the array is laid out; values and messages
    /// are a run's. Not generic: one copy.
    #[inline(never)]
    pub(crate) fn elements<'r>(self) -> Result<Elements<'r, 'a, 'de>> {
        let Some((n, stride)) = self.axis(false)? else {
            return Err(internal());
        };
        Ok(Elements::Array(self.strided(n, stride)))
    }

    /// The [`ArraySeq`] of the `n` elements of the first axis one `stride`
    /// apart.
    #[inline]
    fn strided(self, n: u64, stride: usize) -> ArraySeq<'a, Bytes<'de, 'a>> {
        ArraySeq::new(
            self.dtype, self.dims, self.bytes, stride, n, self.cfg, self.top,
        )
    }
}

/// Visits the elements of `base` (nonzero size) laid out back to back in
/// exactly `bytes` (one axis, its length `bytes.len() / base.size`): the
/// hot path of `[f64; 3]` fields and of the rows of a 1-d array.
/// The sequence's only state is the bytes not yet handed out, so the
/// visitor's loop keeps it in two registers; positions and messages are
/// worked out from it on errors. `W` tells the callers apart (one of the
/// [`ROWS`] numbers) so each inlines its visitor once: a visitor's
/// `visit_seq` called from one place only is inlined there.
#[inline(always)]
pub(crate) fn run_seq<'de, 'a, V: Visitor<'de>, const W: u8>(
    base: &'a Plan,
    bytes: Bytes<'de, 'a>,
    cfg: Cfg,
    top: bool,
    visitor: V,
) -> Result<V::Value> {
    // what the sequence leaves: set when the visitor drops it (as if it
    // took nothing, should it never be dropped)
    let left = Cell::new(bytes.len());
    let mut at = ElementDe::new(base, bytes, cfg);
    let seq = RunSeq::<W> {
        at: &mut at,
        size: base.size,
        rest: bytes,
        total: bytes.len(),
        top,
        left: &left,
    };
    match visitor.visit_seq(seq) {
        Ok(v) if left.get() == 0 => Ok(v),
        Ok(_) => Err(run_failed(None, base, top, bytes.len(), left.get())),
        Err(e) => Err(run_failed(Some(e), base, top, bytes.len(), 0)),
    }
}

/// Who runs a [`run_seq`] (its `W`): each caller its own number, so each
/// inlines its visitor once. Every run hands its elements the same way:
/// by reference ([`RowDe`], one word in a register for a type's
/// `deserialize` that is not inlined, a record's), the run's element
/// updated in place (its bytes) rather than built anew per element.
///
/// This one: the rows of a one-axis array.
pub(crate) const ROWS: u8 = 0;
/// The scalars of a subarray element ([`ElementDe`]).
pub(crate) const SUBARRAY_RUN: u8 = 1;
/// The scalars of a subarray field of a record
/// ([`FieldDe`](crate::de::element::FieldDe)).
pub(crate) const FIELD_RUN: u8 = 2;

/// How a run of `total` bytes failed: the visitor's error, with serde's
/// wording fixed, or (`None`) the elements the type did not take, `left`
/// bytes of them.
#[cold]
#[inline(never)]
fn run_failed(e: Option<Error>, base: &Plan, top: bool, total: usize, left: usize) -> Error {
    let dims = [(total / at_least_one(base.size)) as u64];
    match e {
        Some(e) => shape_error(e, base, &dims, top),
        None => {
            // `left` is the length of a suffix of the run
            let took = total.saturating_sub(left) / at_least_one(base.size);
            too_few(base, &dims, top, took as u64)
        }
    }
}

/// A visitor's error on an array of `plan` and `dims`, with serde's
/// wording fixed.
#[cold]
#[inline(never)]
pub(super) fn shape_error(e: Error, plan: &Plan, dims: &[u64], top: bool) -> Error {
    fix_error(e, &Shape(plan, dims, top))
}

/// The elements of a run not yet handed out (see [`run_seq`]). Handed to
/// the visitor by value, so a visitor's loop that is not inlined keeps
/// the state in registers rather than storing it back per element; what
/// is left is reported once, when the visitor drops the sequence.
struct RunSeq<'a, 'l, 'de, const W: u8> {
    /// The element handed out: the run's plan, fast tag and options, the
    /// current element's bytes (apart from the sequence, which stays in
    /// registers while a row's deserializer refers to this).
    at: &'l mut ElementDe<'a, 'de>,
    /// `base.size`, read once.
    size: usize,
    rest: Bytes<'de, 'a>,
    /// Bytes of the whole run, for positions in messages.
    total: usize,
    top: bool,
    /// Where the length of `rest` goes when the sequence is dropped.
    left: &'l Cell<usize>,
}

impl<const W: u8> Drop for RunSeq<'_, '_, '_, W> {
    #[inline(always)]
    fn drop(&mut self) {
        self.left.set(self.rest.len());
    }
}

impl<'de, const W: u8> de::SeqAccess<'de> for RunSeq<'_, '_, 'de, W> {
    type Error = Error;

    #[inline(always)]
    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>> {
        // the bytes are a whole number of elements (the plan's sizes): no
        // room for one more means none is left
        let Some((bytes, rest)) = self.rest.split_checked(self.size) else {
            return Ok(None);
        };
        self.rest = rest;
        self.at.next_of_run(bytes);
        match seed.deserialize(RowDe(self.at)) {
            Ok(v) => Ok(Some(v)),
            Err(e) => Err(run_at(e, self.top, self.total, self.size, rest.len())),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        let size = at_least_one(self.size);
        Some((self.rest.len() / size).min(SIZE_HINT_BYTES / size))
    }
}

/// Attaches the position of the element that failed (`left` bytes of the
/// run after it).
#[cold]
#[inline(never)]
fn run_at(e: Error, top: bool, total: usize, size: usize, left: usize) -> Error {
    // `left` is the length of a suffix of the run
    let after = total.saturating_sub(left) / at_least_one(size);
    at_position(e, top, after.saturating_sub(1) as u64)
}

/// The type took only `took` of the elements of an axis.
#[cold]
#[inline(never)]
pub(super) fn too_few(plan: &Plan, dims: &[u64], top: bool, took: u64) -> Error {
    let found = Shape(plan, dims, top);
    Error::mismatch(format!("expected {took} elements, found {found}"))
}

/// "array of shape (3, 2) of '<f8'" for messages.
struct Shape<'a>(&'a Plan, &'a [u64], bool);

impl std::fmt::Display for Shape<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = if self.2 { "array" } else { "subarray" };
        write!(f, "{what} of shape {}", ShapeRepr(self.1))?;
        if let Kind::Scalar(s) = &self.0.kind {
            write!(f, " of '{s}'")?;
        }
        Ok(())
    }
}

/// Attaches element `i` of an axis to an error: a record index on the first
/// axis, an index below it.
#[cold]
#[inline(never)]
pub(super) fn at_position(e: Error, top: bool, i: u64) -> Error {
    if top { e.at_record(i) } else { e.at_index(i) }
}

/// Where the elements of an axis come from, one stride at a time: the
/// array's bytes in memory ([`Bytes`]) or the rows of a stream
/// (`super::stream::Chunked`).
pub(crate) trait Source<'de> {
    /// The next `n` bytes.
    fn take(&mut self, n: usize) -> Result<Bytes<'de, '_>>;

    /// How many of the `left` elements not yet handed out a size hint may
    /// promise (a stream's: only those known to be there).
    fn known(&self, left: usize) -> usize;
}

impl<'de> Source<'de> for Bytes<'de, '_> {
    #[inline(always)]
    fn take(&mut self, n: usize) -> Result<Bytes<'de, '_>> {
        // the run shrinks from the front: one split per element
        let (bytes, rest) = self.split_checked(n).ok_or_else(internal)?;
        *self = rest;
        Ok(bytes)
    }

    fn known(&self, left: usize) -> usize {
        left
    }
}

/// The elements of one axis of an array in memory (handed out as
/// [`Elements::Array`]) or of the rows of a stream, one stride apart.
pub(crate) struct ArraySeq<'a, S> {
    dtype: &'a Plan,
    /// The array's dims (the first axis is this sequence's).
    dims: &'a [u64],
    rest: &'a [u64],
    src: S,
    stride: usize,
    next: u64,
    len: u64,
    cfg: Cfg,
    top: bool,
}

impl<'a, S> ArraySeq<'a, S> {
    /// The `n` elements of the first axis of `dims` (arrays of the other
    /// axes), `stride` bytes each, from `src`.
    #[inline]
    pub(crate) fn new(
        dtype: &'a Plan,
        dims: &'a [u64],
        src: S,
        stride: usize,
        n: u64,
        cfg: Cfg,
        top: bool,
    ) -> Self {
        ArraySeq {
            dtype,
            dims,
            rest: dims.get(1..).unwrap_or(&[]),
            src,
            stride,
            next: 0,
            len: n,
            cfg,
            top,
        }
    }

    /// Whether the visitor took every element.
    #[inline]
    pub(crate) fn end(&self) -> Result<()> {
        if self.next < self.len {
            return Err(too_few(self.dtype, self.dims, self.top, self.next));
        }
        Ok(())
    }

    /// A visitor's error on the array, with serde's wording fixed.
    #[cold]
    #[inline(never)]
    pub(crate) fn failed(&self, e: Error) -> Error {
        shape_error(e, self.dtype, self.dims, self.top)
    }

    /// Hands the sequence to the visitor and checks that it took the
    /// whole.
    #[inline]
    pub(crate) fn visit<'de, V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value>
    where
        S: Source<'de>,
    {
        match visitor.visit_seq(&mut self) {
            Ok(v) => self.end().map(|()| v),
            Err(e) => Err(self.failed(e)),
        }
    }
}

impl<'de, S: Source<'de>> de::SeqAccess<'de> for ArraySeq<'_, S> {
    type Error = Error;

    // inlined into the visitor's loop over the rows of a 2-d array or of a
    // stream (hot paths), not called there, although `Elements` calls it too
    #[inline(always)]
    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>> {
        if self.next >= self.len {
            return Ok(None);
        }
        let i = self.next;
        // next < len (checked above)
        self.next = i.wrapping_add(1);
        let bytes = self.src.take(self.stride)?;
        if self.rest.is_empty() {
            // one element (record or scalar): no array layer in between,
            // by reference: its fast numbers read it in place
            let de = ElementDe::new(self.dtype, bytes, self.cfg);
            return seed
                .deserialize(RowDe(&de))
                .map(Some)
                .map_err(|e| at_position(e, self.top, i));
        }
        let de = ArrayDe::new(self.dtype, self.rest, bytes, self.cfg, false);
        seed.deserialize(de)
            .map(Some)
            .map_err(|e| at_position(e, self.top, i))
    }

    fn size_hint(&self) -> Option<usize> {
        // next <= len (next_element_seed stops at len)
        let left = usize::try_from(self.len.wrapping_sub(self.next)).unwrap_or(usize::MAX);
        let cap = SIZE_HINT_BYTES / at_least_one(self.stride);
        Some(self.src.known(left).min(cap))
    }
}

impl<'de> de::Deserializer<'de> for ArrayDe<'_, 'de> {
    type Error = Error;

    de_methods!(via(#[inline] elem_or_seq) deserialize_any deserialize_bool deserialize_i8
        deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128 deserialize_u8
        deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128 deserialize_f32
        deserialize_f64 deserialize_char deserialize_str deserialize_string deserialize_bytes
        deserialize_byte_buf deserialize_unit deserialize_map deserialize_identifier);
    de_methods!(via(elem_or_seq) deserialize_unit_struct deserialize_enum);

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.dims.is_empty() {
            // not ElementDe's run path: that one inlines its visitor, once
            return self.element().seq_general(visitor);
        }
        self.visit_seq(visitor)
    }

    de_methods!(some);
    de_methods!(ignored);
    de_methods!(to(#[inline] deserialize_seq) deserialize_tuple deserialize_tuple_struct);

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == crate::kinds::special::NDARRAY {
            return self.offer_nd(Order::C, visitor);
        }
        if self.dims.is_empty() {
            return self.element().deserialize_newtype_struct(name, visitor);
        }
        if crate::kinds::special::is_token(name) {
            return self.visit_seq(visitor);
        }
        if name == crate::kinds::special::BULK {
            if let Some(key) = bulk_key(self.dtype, self.dims) {
                return bulk_offer::offer(&key, self, visitor);
            }
        }
        visitor.visit_newtype_struct(self)
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        crate::kinds::special::refuse_ndarray_form(name, fields)?;
        if self.dims.is_empty() {
            return self.element().deserialize_struct(name, fields, visitor);
        }
        self.elements()?.visit(visitor)
    }
}

impl<'de> bulk_offer::Raw<'de> for ArrayDe<'_, 'de> {
    /// The whole data (C order), borrowed when the input is.
    fn raw<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.bytes.visit(visitor)
    }
}

/// Reorders the data of a Fortran-order array (first index fastest) into C
/// order (last index fastest). `data` holds exactly `product(shape) *
/// itemsize` bytes (checked by the caller against the header).
pub(crate) fn fortran_to_c(data: &[u8], shape: &[u64], itemsize: usize) -> Result<Vec<u8>> {
    let dims: Vec<usize> = shape
        .iter()
        .map(|&d| usize::try_from(d).map_err(|_| internal()))
        .collect::<Result<_>>()?;
    let count = dims
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .ok_or_else(internal)?;
    if count.checked_mul(itemsize) != Some(data.len()) {
        return Err(internal());
    }
    let mut out = Vec::with_capacity(data.len());
    if itemsize == 0 {
        return Ok(out);
    }
    for at in FortranOffsets::new(&dims) {
        let item = at
            .checked_mul(itemsize)
            .and_then(|start| data.get(start..start.checked_add(itemsize)?));
        out.extend_from_slice(item.ok_or_else(internal)?);
    }
    Ok(out)
}

/// An array in memory with its data stored in this order. A `top` array
/// whose dims are a file's whole 1-d shape keeps positions in errors as
/// records, as `Vec<T>` reads name them.
pub(crate) struct Flat<'a, 'de>(pub(crate) ArrayDe<'a, 'de>, pub(crate) Order);

impl<'de> nd::Source<'de> for Flat<'_, 'de> {
    fn present<V: Visitor<'de>>(self, absorbed: usize, visitor: V) -> Result<V::Value> {
        let Flat(array, order) = self;
        let flat = nd::flat_dims(array.dims, absorbed)?;
        if order.is_fortran() && absorbed > 0 {
            let c = fortran_to_c(array.bytes.slice(), array.dims, array.dtype.size)?;
            let bytes = Bytes::Copied(&c);
            return visitor.visit_newtype_struct(ArrayDe {
                dims: &flat,
                bytes,
                top: false,
                ..array
            });
        }
        let top = array.top && array.dims.len() == 1 && absorbed == 0;
        visitor.visit_newtype_struct(ArrayDe {
            dims: &flat,
            top,
            ..array
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fortran_2d() {
        // logical [[0,1,2],[3,4,5]] stored column-major: 0 3 1 4 2 5
        let data = [0u8, 3, 1, 4, 2, 5];
        assert_eq!(
            fortran_to_c(&data, &[2, 3], 1).unwrap(),
            vec![0, 1, 2, 3, 4, 5]
        );
    }

    #[test]
    fn fortran_3d_wide_items() {
        // shape (2, 2, 2), items of 2 bytes; F index = i + 2j + 4k
        let logical = |i: usize, j: usize, k: usize| (i * 4 + j * 2 + k) as u8;
        let mut data = vec![0u8; 16];
        for i in 0..2 {
            for j in 0..2 {
                for k in 0..2 {
                    let f = i + 2 * j + 4 * k;
                    data[2 * f] = logical(i, j, k);
                    data[2 * f + 1] = 100 + logical(i, j, k);
                }
            }
        }
        let c = fortran_to_c(&data, &[2, 2, 2], 2).unwrap();
        for n in 0..8u8 {
            assert_eq!(c[2 * n as usize], n);
            assert_eq!(c[2 * n as usize + 1], 100 + n);
        }
    }

    #[test]
    fn fortran_empty() {
        assert!(fortran_to_c(&[], &[0, 3], 8).unwrap().is_empty());
    }
}
