//! The speculative single pass for inferred dtypes.
//!
//! Inferring the dtype costs a full walk over the values before the data
//! can be encoded. Most arrays are uniform, so instead the dtype is inferred
//! from the FIRST element only and every element is encoded right away in
//! strict mode (no conversions, fields in order, strings no wider than the
//! first element's), through the dtype's compiled [`DtypeTree`] (`encode.rs`).
//! If anything does not fit, the result is thrown away and
//! the caller runs the two exact passes, which give the widest strings or
//! the proper error. The output for a successful speculation is identical
//! to the two-pass output (the test `write_props` checks this).
//!
//! Outer axes are `serialize_seq` levels only; a tuple or fixed-size array
//! is taken as the element (its inferred subarray dims are folded into the
//! shape afterwards, as numpy does).
//!
//! When the element is plain numbers (`Vec<f64>`, `Vec<[f32; 3]>`), the
//! elements after the first are stored by the fast mode of `flat.rs`
//! instead of the tape; an element it does not take goes through the tape
//! as before. The sequence loop is this serializer's own `collect_seq`,
//! one inner loop per mode, so that within a run of elements the fast
//! mode's checks are loop-invariant (the compiler turns a run of `f64`s
//! into a vectorized copy).

use std::cell::Cell;

use serde::ser::{self, Serialize};

use crate::error::{Error, Result};
use crate::format::dtype::{Dtype, Field};
use crate::kinds::special::{self, Special};
use crate::ser::Found;
use crate::ser::encode::DtypeTree;
use crate::ser::flat::{BLOCK, Block, Flat, Layout, WINDOW};
use crate::ser::infer::{Infer, node_to_dtype};
use crate::ser::nd::{NdShape, fortran_header};
use crate::ser::pick::Pick;
use crate::ser::probe::key_word;

/// Most bytes reserved up front from serde's length hints.
const RESERVE_MAX: usize = 1 << 30;

/// Bytes of output zero-filled at a time: small enough to stay in the L1
/// cache until the elements are written over them (and for `memset` to use
/// vector stores rather than `rep stosb`, which costs one counted
/// instruction per byte under `bench/instr`), large enough that the call
/// is rare next to the elements.
const ZERO_BLOCK: usize = 2 * 1024;

/// What a uniform speculation produced: every element encoded with the
/// first one's dtype. A pass that is not uniform (an element that does not
/// fit, a ragged shape, a limit hit) gives `None` instead, and the caller
/// runs the exact passes, which give the error if any.
pub(crate) struct Speculated {
    /// The element dtype (its subarray dims are folded into `shape`: see
    /// [`Speculated::descr`]) and its compiled tape, to encode the same
    /// values again without inferring anything.
    pub tape: DtypeTree,
    pub shape: Vec<u64>,
    /// Whether the data is laid out column-major (an n-d array in Fortran
    /// order: its flat data as stored), as the header says.
    pub fortran: bool,
    /// Bytes of data encoded, including those handed to the flush callback.
    pub len: usize,
}

impl Speculated {
    /// The header's descr: the element dtype without its subarray dims.
    pub(crate) fn descr(&self) -> &Dtype {
        crate::ser::split_subarray(self.tape.dtype()).0
    }

    /// The header's descr, taken out.
    pub(crate) fn into_descr(self) -> Dtype {
        let mut dt = self.tape.into_dtype();
        while let Dtype::Subarray(base, _) = dt {
            dt = *base;
        }
        dt
    }
}

/// Where a speculative pass's data goes: the flavour of the walk (as
/// postcard's `Flavor`; buffering and I/O stay here, the serializers never
/// see them). The data is encoded into the pass's buffer; a flavour with a
/// [`window`](Output::window) is handed it in chunks of whole elements and
/// the buffer is reused. Its errors end the pass, which returns them.
/// The window is asked for once the flavour was told the dtype.
pub(crate) trait Output {
    /// Bytes held before a chunk is handed over (always one whole element
    /// at least); `None`: all the data stays in the buffer.
    fn window(&self) -> Option<usize> {
        None
    }
    /// A windowed flavour that uses the chunks only up to this many bytes
    /// (a checking pass): when the length hints claim more, no chunk is
    /// handed over (the elements are encoded into the window and dropped),
    /// their bytes counted in the length.
    fn check_above(&self) -> Option<usize> {
        None
    }
    /// The dtype is known, with the shape the length hints claim (and
    /// whether the data is column-major), before the first element is
    /// encoded into `out` (`to_vec` puts the header there); gives the dtype
    /// back (lent, so that a header can be built without a copy). `fixed`:
    /// the dtype was inferred from a first element that fixes the layout
    /// (numbers, tuples, structs; see [`Infer::first`]) and the element
    /// count is known up front, so the hinted shape is the array's and a
    /// later element that does not fit is unlikely (a `Serialize` impl that
    /// varies).
    fn dtype(
        &mut self,
        dtype: Dtype,
        hinted: &[u64],
        fortran: bool,
        fixed: bool,
        out: &mut Vec<u8>,
    ) -> Result<Dtype> {
        let _ = (hinted, fortran, fixed, out);
        Ok(dtype)
    }
    /// A full chunk of whole encoded elements (windowed flavours only).
    fn chunk(&mut self, data: &[u8]) -> Result<()> {
        let _ = data;
        Ok(())
    }
}

/// The flavour that keeps all the data in the buffer.
pub(crate) struct Whole;

impl Output for Whole {}

/// The state shared by the levels of the walk.
pub(crate) struct SpecState<'o> {
    /// Lengths of the sequences at each depth.
    dims: Vec<Option<u64>>,
    /// serde's length hints of the first sequence at each depth.
    hints: Vec<Option<usize>>,
    leaf_depth: Option<usize>,
    /// Set by a level that found it is not a sequence.
    leaf_found: bool,
    /// The value is an n-d array: its shape and order; its flat data is
    /// walked as the outer axes (see `ser::nd`).
    nd: Option<NdShape>,
    /// Whether the dtype is known (the first element was seen).
    have: bool,
    /// The dtype compiled for the per-element encoding (a placeholder
    /// until the first element is seen; `put` is never called before).
    tape: DtypeTree,
    /// A tape to take instead of inferring the first element.
    known: Option<DtypeTree>,
    /// The element as plain numbers, when it is (`flat.rs`): sequences of
    /// such elements run in the fast mode.
    layout: Option<Layout>,
    itemsize: usize,
    align: bool,
    /// The encoded data is appended here, from `out.len()` on.
    out: &'o mut Vec<u8>,
    /// End of the encoded data in `out`. `out` is zero-filled a block
    /// ([`ZERO_BLOCK`]) at a time ahead of `pos` (trimmed at the end), so
    /// encoding an element is a bounds check and the element's stores, not
    /// a `resize` per element.
    pos: usize,
    /// Where the data starts in `out` (a chunk restarts here).
    base: usize,
    /// Bytes handed to the flush callback so far.
    flushed: usize,
    /// [`Output::window`] (`usize::MAX` without one: no chunk is ever
    /// full).
    window: usize,
    /// Whether a windowed pass only checks (decided in `start` from the
    /// hints).
    check_only: bool,
    /// The flavour: where the data goes.
    output: &'o mut (dyn Output + 'o),
    /// Set when elements of the fast mode could not be appended where no
    /// error could be returned (a sequence dropped without `end`).
    lost: bool,
    /// The error of the destination (the dtype or flush callback): it
    /// ends the pass, and the pass returns it.
    failed: Option<Error>,
    /// The exact path's writing pass ([`encode_planned`]): the shape is
    /// `dims`, tuples are axes, and the values' errors are the pass's,
    /// naming where; elements go through the tape (no fast mode).
    exact: bool,
    /// An npz column's pass: each element is a record of which only this
    /// field (and its position) is encoded, the tape being the field's.
    column: Option<(&'o Field, usize)>,
}

/// A value to write, as the drivers (`crate::npy::writer`: `to_vec`,
/// `to_writer`, `to_path`, npz members) see it: the walk over its elements,
/// generic over its type for speed, and the value behind `dyn` for the
/// passes that run once per write ([`DynValue`](crate::ser::DynValue)).
/// The passes ([`speculate`], [`encode_planned`]) and the drivers take
/// `&dyn Writable`, so their logic (headers, flavours, which pass runs) is
/// compiled once, not once per user type: generic outer ([`Val`]),
/// non-generic inner.
pub(crate) trait Writable {
    /// Walks the value from the top with `st` (the generic walk, [`walk`]).
    fn walk(&self, st: &mut SpecState<'_>) -> Result<()>;

    /// The value behind `dyn`.
    fn value(&self) -> &crate::ser::DynValue<'_>;
}

/// The [`Writable`] of a value of any type.
pub(crate) struct Val<'a, T: ?Sized>(pub(crate) &'a T);

impl<T: ?Sized + Serialize> Writable for Val<'_, T> {
    fn walk(&self, st: &mut SpecState<'_>) -> Result<()> {
        walk(st, self.0)
    }

    fn value(&self) -> &crate::ser::DynValue<'_> {
        &self.0
    }
}

/// Runs the speculative pass: `None` means "use the two passes" (the
/// values' errors are never reported from here; only the destination's,
/// from the callbacks, are).
///
/// With `known` (what a previous pass over the same values found), the
/// first element is not inferred: that dtype and tape are used (every
/// element is still checked against them). `output` is the flavour: where
/// the data goes, in chunks or not ([`Output`]).
pub(crate) fn speculate(
    value: &dyn Writable,
    align: bool,
    out: &mut Vec<u8>,
    output: &mut dyn Output,
    known: Option<DtypeTree>,
) -> Result<Option<Speculated>> {
    let mut st = SpecState::new(align, out, output, known);
    let walked = match value.walk(&mut st) {
        // the value is not a sequence: one element (a 0-d array)
        Err(_) if st.leaf_found => st.leaf(0, value.value()),
        walked => walked,
    };
    let found = walked.ok().and_then(|()| st.speculated());
    // the destination's error is the pass's; any other means not uniform
    if let Some(e) = st.failed.take() {
        return Err(e);
    }
    Ok(found)
}

/// The exact path's writing pass: the walk of [`speculate`] with the
/// dtype (`tape`) and `shape` that pass 1 found, every element encoded
/// through the tape into `output`'s flavour. The values' errors are the
/// pass's, naming where (`record 3, field x`). Returns the bytes of data
/// encoded, including those handed over in chunks. With `column` (an npz
/// column: a record field and its position; `shape` has one axis) each
/// element is a record of which only that field is encoded, `tape` being
/// the field's dtype.
pub(crate) fn encode_planned<'o>(
    value: &dyn Writable,
    tape: DtypeTree,
    shape: &[u64],
    column: Option<(&'o Field, usize)>,
    out: &'o mut Vec<u8>,
    output: &'o mut dyn Output,
) -> Result<usize> {
    let mut st = SpecState::new(false, out, output, Some(tape));
    st.exact = true;
    st.column = column;
    st.dims = shape.iter().map(|&d| Some(d)).collect();
    st.hints = shape.iter().map(|&d| usize::try_from(d).ok()).collect();
    st.leaf_depth = Some(shape.len());
    let walked = if shape.is_empty() {
        st.leaf(0, value.value())
    } else {
        value.walk(&mut st)
    };
    if let Some(e) = st.failed.take() {
        return Err(e);
    }
    walked?;
    st.finish()
        .ok_or_else(|| Error::schema("internal: data length"))
}

impl<'o> SpecState<'o> {
    fn new(
        align: bool,
        out: &'o mut Vec<u8>,
        output: &'o mut (dyn Output + 'o),
        known: Option<DtypeTree>,
    ) -> Self {
        let pos = out.len();
        SpecState {
            pos,
            base: pos,
            flushed: 0,
            window: usize::MAX,
            check_only: false,
            dims: Vec::new(),
            hints: Vec::new(),
            leaf_depth: None,
            leaf_found: false,
            nd: None,
            have: false,
            tape: DtypeTree::placeholder(),
            known,
            layout: None,
            itemsize: 0,
            align,
            out,
            output,
            lost: false,
            failed: None,
            exact: false,
            column: None,
        }
    }
}

/// Walks `value` from the top (depth 0), with a block for the fast mode.
fn walk<T: ?Sized + Serialize>(st: &mut SpecState<'_>, value: &T) -> Result<()> {
    let mut block = [0u8; BLOCK];
    value.serialize(Spec {
        st,
        block: &mut block,
        depth: 0,
    })
}

impl SpecState<'_> {
    /// What a walk that went through found: `None` when the values are
    /// not uniform after all (a lost element, a ragged or empty array, an
    /// n-d array whose data is not its elements).
    fn speculated(&mut self) -> Option<Speculated> {
        if self.lost {
            return None;
        }
        let len = self.finish()?;
        // an element seen, at the depth below every axis
        if !self.have || self.leaf_depth != Some(self.dims.len()) {
            return None;
        }
        let mut shape: Vec<u64> = self.dims.iter().map(|d| d.unwrap_or(0)).collect();
        let absorbed = shape.len() > 1 || matches!(self.tape.dtype(), Dtype::Subarray(..));
        shape.extend(crate::ser::split_subarray(self.tape.dtype()).1);
        let mut fortran = false;
        if let Some(nd) = self.nd.take() {
            // the flat data is all of the array's elements; an element with
            // axes of its own is C order inside, so a Fortran array of them
            // is reordered by the exact path
            if shape.first() != nd.count().as_ref() || (absorbed && nd.reordered()) {
                return None;
            }
            shape.splice(..1, nd.dims.iter().copied());
            fortran = fortran_header(nd.fortran, &shape);
        }
        Some(Speculated {
            tape: std::mem::replace(&mut self.tape, DtypeTree::placeholder()),
            shape,
            fortran,
            len,
        })
    }

    /// Ends the data at `pos` (the zeroed room past it trimmed): the bytes
    /// of data encoded, including those handed over in chunks.
    fn finish(&mut self) -> Option<usize> {
        let end = self.pos;
        self.out.truncate(end);
        self.flushed.checked_add(end.checked_sub(self.base)?)
    }

    /// Keeps the destination's error (the pass's result) and ends the pass.
    #[cold]
    fn fail(&mut self, e: Error) -> Error {
        self.failed = Some(e);
        Error::schema("speculation: the destination failed")
    }

    /// Infers the dtype from the first element (unless it is known),
    /// compiled strict, and starts the data ([`start`](Self::start)). The
    /// element is behind `dyn` ([`DynValue`](crate::ser::DynValue)), as
    /// inference takes it: nothing here is generic.
    #[cold]
    #[inline(never)]
    fn first(&mut self, value: &crate::ser::DynValue<'_>) -> Result<()> {
        if let Some(known) = self.known.take() {
            return self.start(known, false);
        }
        let (mut slot, varies) = (None, Cell::new(false));
        Infer::first(&mut slot, &varies).walk(value)?;
        let node = slot.ok_or_else(|| Error::schema("speculation: nothing inferred"))?;
        let tape = DtypeTree::from_dtype(node_to_dtype(&node, self.align)?, true);
        self.start(tape, !varies.get())
    }

    /// The dtype is known (`tape`): tells the flavour, which may write a
    /// header, and reserves the output. `fixed`: the first element fixed
    /// the layout ([`Infer::first`]), so with the element count known up
    /// front (one axis, an exact length hint) the flavour is told that a
    /// later element is unlikely to differ.
    #[cold]
    #[inline(never)]
    fn start(&mut self, mut tape: DtypeTree, fixed: bool) -> Result<()> {
        let dtype = tape.take_dtype();
        self.itemsize = dtype.itemsize();
        let mut hinted: Vec<u64> = self.hints.iter().map(|h| h.unwrap_or(0) as u64).collect();
        let mut fortran = false;
        if let Some(nd) = &self.nd {
            // the data's length is the array's element count
            hinted.splice(..1.min(hinted.len()), nd.dims.iter().copied());
            fortran = hinted.len() == nd.dims.len() && fortran_header(nd.fortran, &hinted);
        }
        let fixed = fixed && matches!(self.hints.as_slice(), [Some(_)]);
        let dtype = match self.output.dtype(dtype, &hinted, fortran, fixed, self.out) {
            Ok(dtype) => dtype,
            Err(e) => return Err(self.fail(e)),
        };
        // the bytes the hints claim (no hint counts as 0)
        let claimed = self.hints.iter().try_fold(self.itemsize as u64, |acc, h| {
            acc.checked_mul(h.unwrap_or(0) as u64)
        });
        // asked once the flavour knows the dtype
        if let Some(window) = self.output.window() {
            self.window = window;
            self.check_only = (self.output.check_above())
                .is_some_and(|limit| claimed.is_none_or(|n| n > limit as u64));
        }
        // serde's hints come from the value's own Serialize impl and may
        // be wrong: reserve at most RESERVE_MAX and never fail on it
        let want = claimed
            .map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX))
            .min(RESERVE_MAX)
            .min(self.window.saturating_add(self.itemsize));
        self.pos = self.out.len();
        self.base = self.pos;
        let _ = self.out.try_reserve(want);
        crate::huge_pages::advise(self.out.spare_capacity_mut());
        tape.put_dtype(dtype);
        self.tape = tape;
        self.have = true;

        Ok(())
    }

    /// Room for `n` more bytes at `pos`: in windowed flavours, when they
    /// would grow the chunk held (`base..pos`) past the window, the chunk is
    /// handed to the flavour first (unless the pass only checks), counted,
    /// and restarts at `base`. Returns where the bytes go, their total
    /// (those handed on and those held) checked to stay a `usize`.
    #[inline]
    fn claim(&mut self, n: usize) -> Result<(usize, usize)> {
        let mut start = self.pos;
        let held = start.saturating_sub(self.base);
        if held != 0 && held.saturating_add(n) > self.window {
            let data = self.out.get(self.base..start);
            let data = data.ok_or_else(|| Error::schema("speculation: buffer"))?;
            if !self.check_only {
                if let Err(e) = self.output.chunk(data) {
                    return Err(self.fail(e));
                }
            }
            // checked: the bytes encoded in all (flushed + pos) stay a usize,
            // which bounds the element counts of `SpecSeq::i` (collect_seq)
            self.flushed = self.flushed.checked_add(held).ok_or_else(too_large)?;
            if self.tape.dtype().has_gaps() {
                // gaps the encoder leaves as they are: the reused chunk is
                // re-zeroed a block at a time (`grow`)
                self.out.truncate(self.base);
            }
            start = self.base;
        }
        let end = start.checked_add(n).ok_or_else(too_large)?;
        end.checked_add(self.flushed).ok_or_else(too_large)?;
        Ok((start, end))
    }

    /// Makes room for the next element (at `pos`, or at `base` after a
    /// chunk was handed over, [`claim`](Self::claim)) and zeroes the next
    /// block. Returns the element's (possibly moved) place.
    #[inline(never)]
    fn grow(&mut self) -> Result<(usize, usize)> {
        let (start, end) = self.claim(self.itemsize)?;
        let window_end = self.base.saturating_add(self.window);
        // zero the next block while it is about to be written (still in
        // cache), not the whole output up front nor per element
        // never past the reserved capacity unless this element needs it:
        // zeroes beyond the data would cost a reallocation and a copy of
        // everything at the end
        let block = self
            .out
            .len()
            .saturating_add(ZERO_BLOCK)
            // flushed + pos stays a usize for the elements `put` encodes
            // into this block without coming back here
            .min(usize::MAX.saturating_sub(self.flushed))
            .min(window_end)
            .min(self.out.capacity().max(end))
            .max(end);
        self.out.resize(block, 0);
        Ok((start, end))
    }

    /// Infers the dtype (first element) and encodes one element.
    #[inline(always)]
    fn leaf<T: ?Sized + Serialize>(&mut self, depth: usize, value: &T) -> Result<()> {
        match self.leaf_depth {
            None => self.leaf_depth = Some(depth),
            Some(d) if d == depth => {}
            Some(_) => return Err(Error::schema("speculation: depth")),
        }
        let first = !self.have;
        if first {
            self.first(&value)?;
        }
        self.put(value)?;
        if first {
            self.flat_layout();
        }
        Ok(())
    }

    /// The fast mode's layout, once the first element showed the tree a
    /// record's keys; elements up to an eighth of the block (`WINDOW`):
    /// the block is appended rarely, and an element always fits an empty
    /// block.
    #[cold]
    #[inline(never)]
    fn flat_layout(&mut self) {
        self.layout = self
            .tape
            .flat()
            .filter(|l| l.itemsize() <= WINDOW && !self.exact);
    }

    /// Encodes one element once the dtype is known (the per-element path).
    #[inline(always)]
    fn put<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let (dst, tape) = self.slot()?;
        tape.encode(value, dst)
    }

    /// [`put`](SpecState::put) for every element of `iter` (`itemsize` >=
    /// 1): the elements that fit in the zeroed part of the output go into
    /// its slots one after another, with no check of the cursor per
    /// element; the next one makes room ([`put`](Self::put)).
    /// Returns how many were put.
    #[inline]
    fn put_all<I: Iterator>(&mut self, iter: &mut I) -> Result<usize>
    where
        I::Item: Serialize,
    {
        let mut done = 0usize;
        loop {
            let start = self.pos;
            let room = (self.out.len().saturating_sub(start))
                .checked_div(self.itemsize)
                .unwrap_or(0);
            let Some(slots) = self.out.get_mut(start..) else {
                return Err(Error::schema("speculation: buffer"));
            };
            let mut n = 0usize;
            for (dst, item) in slots
                .chunks_exact_mut(self.itemsize.max(1))
                .take(room)
                .zip(iter.by_ref())
            {
                self.tape.encode(&item, dst)?;
                n = n.wrapping_add(1);
            }
            // n <= room: the slots lie within `out`
            self.pos = start.wrapping_add(n.wrapping_mul(self.itemsize));
            done = done.wrapping_add(n);
            if n < room {
                return Ok(done);
            }
            match iter.next() {
                Some(item) => self.put(&item)?,
                None => return Ok(done),
            }
            done = done.wrapping_add(1);
        }
    }

    /// Appends elements stored by the fast mode (whole elements) at `pos`,
    /// after handing a chunk that would grow past the window to the flush
    /// callback ([`claim`](Self::claim); a chunk then holds at most the
    /// window).
    #[inline(never)]
    fn append(&mut self, data: &[u8]) -> Result<()> {
        if data.is_empty() {
            return Ok(());
        }
        if self.check_only {
            // a checking pass keeps no chunk: the elements the fast mode
            // stored are only counted, as handed on
            self.flushed = self.flushed.checked_add(data.len()).ok_or_else(too_large)?;
            return self
                .pos
                .checked_add(self.flushed)
                .map(drop)
                .ok_or_else(too_large);
        }
        let (start, end) = self.claim(data.len())?;
        // the zeroed room past `pos` (for `put`) is not needed here
        self.out.truncate(start);
        self.out.extend_from_slice(data);
        self.pos = end;
        Ok(())
    }

    /// [`put`](SpecState::put) for an npz column's pass: of the record
    /// `value`, only the field (and its position) `column` names ([`Pick`]).
    #[inline(never)]
    fn put_field<T: ?Sized + Serialize>(
        &mut self,
        value: &T,
        column: (&Field, usize),
    ) -> Result<()> {
        if !self.have {
            self.first(&value)?;
        }
        let (out, tape) = self.slot()?;
        value.serialize(Pick::new(column, tape, out))
    }

    /// The next element's bytes in `out` (room made by `grow` when the
    /// zeroed part ends before them), `pos` moved past them, and the tape
    /// that encodes it. `out` only grows in `grow`, never past `usize::MAX` nor
    /// (chunked) past the window, so an element inside it needs no other
    /// check.
    #[inline(always)]
    fn slot(&mut self) -> Result<(&mut [u8], &mut DtypeTree)> {
        let end = self.pos.checked_add(self.itemsize).ok_or_else(too_large)?;
        let (start, end) = if end > self.out.len() {
            self.grow()?
        } else {
            (self.pos, end)
        };
        self.pos = end;
        let dst = self.out.get_mut(start..end);
        let dst = dst.ok_or_else(|| Error::schema("speculation: buffer"))?;
        Ok((dst, &mut self.tape))
    }
}

struct Spec<'s, 'o> {
    st: &'s mut SpecState<'o>,
    /// The fast mode's block (`flat.rs`), lent down the levels.
    block: &'s mut Block,
    depth: usize,
}

impl Spec<'_, '_> {
    /// Whatever is not a sequence is an element ([`not_seq`](Self::not_seq)).
    fn refuse(self, found: Found) -> Error {
        self.not_seq(Some(found))
    }

    /// This value is not a sequence (`None`: a special newtype): it is an
    /// element, which the parent, holding the value, encodes (signalled by
    /// `leaf_found`). In the exact pass, where the shape has an axis here,
    /// the error naming what was found.
    #[cold]
    fn not_seq(self, found: Option<Found>) -> Error {
        if !self.st.exact {
            self.st.leaf_found = true;
            return Error::schema("speculation: leaf");
        }
        // the words of the messages about keys, with an article
        let word = found.map_or("scalar", key_word);
        let found = match found {
            Some(Found::Struct) => "a record".to_owned(),
            Some(Found::Bool | Found::Bytes | Found::None | Found::Unit | Found::UnitStruct) => {
                word.to_owned()
            }
            _ if word.starts_with(['a', 'e', 'i', 'o', 'u']) => format!("an {word}"),
            _ => format!("a {word}"),
        };
        let shape: Vec<u64> = self.st.dims.iter().map(|d| d.unwrap_or(0)).collect();
        let n = shape.get(self.depth).copied().unwrap_or(0);
        Error::schema(format!(
            "expected a sequence of length {n} (axis {} of shape {}), found {found}",
            self.depth,
            crate::format::dtype::ShapeRepr(&shape)
        ))
    }
}

/// How a sequence's elements are encoded.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Walked by [`Spec`]: outer axes, or the dtype not known yet.
    Walk,
    /// The array's elements, the dtype known: each goes straight to
    /// [`SpecState::put`].
    Put,
    /// The array's elements are plain numbers: each is stored by the fast
    /// mode ([`Flat`]), falling back to [`SpecState::put`] for an element
    /// it does not take.
    Flat,
}

struct SpecSeq<'s, 'o> {
    st: &'s mut SpecState<'o>,
    depth: usize,
    /// Elements seen, except those still counted by `flat`. The count
    /// grows with the values (zero-size elements do not even grow the
    /// output), so it saturates rather than wraps, branch-free in the
    /// per-element loop: `finish` refuses a count of `u64::MAX`, which no
    /// header can hold anyway (numpy's dims stop at `i64::MAX`).
    i: u64,
    mode: Mode,
    flat: Flat<'s>,
}

impl SpecSeq<'_, '_> {
    /// The elements are the array's and the dtype is known: from now on
    /// each goes straight to its encoding.
    #[inline]
    fn enter(&mut self) {
        match &self.st.layout {
            Some(layout) => {
                self.flat.resume(layout.clone());
                self.mode = Mode::Flat;
            }
            // zero-size elements grow no output, so nothing but the count
            // itself bounds their count: they stay in `Walk`, one at a
            // time through `step` (which saturates the count), and
            // `Put`'s loop counts elements of at least one byte
            None if self.st.itemsize != 0 => self.mode = Mode::Put,
            None => {}
        }
    }

    /// An element of the exact pass: within the axis's length, its error
    /// naming the record or index.
    #[inline(never)]
    fn exact_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let (i, top) = (self.i, self.depth == 0);
        let put = self.room().and_then(|()| match self.st.column {
            None => self.step(value),
            // an npz column's records (its shape has one axis)
            Some(column) => self
                .st
                .put_field(value, column)
                .map(|()| self.i = i.saturating_add(1)),
        });
        put.map_err(|e| super::at_element(e, top, i))
    }

    /// The exact pass's check that the axis has room for one more element
    /// (out of the generic functions, as its message is).
    fn room(&self) -> Result<()> {
        let n = self.st.dims.get(self.depth).copied().flatten().unwrap_or(0);
        if self.i < n {
            return Ok(());
        }
        Err(Error::schema(format!(
            "sequence longer than {n}, the length of the first one"
        )))
    }

    /// An element the fast mode did not take (or any element out of it).
    #[inline(always)]
    fn step<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        if self.mode == Mode::Flat {
            if !self.flat.room() {
                // the block is full: appended, the element tried again
                // into the empty block (which it fits)
                let (data, stored) = self.flat.drain();
                self.i = self.i.saturating_add(stored);
                self.st.append(data)?;
                if self.flat.put(value).is_ok() {
                    return Ok(());
                }
            }
            // not taken for its type: the elements stored before it are
            // appended, then it goes through the tape (the same bytes, or
            // the error); the fast mode is not used again
            self.st.layout = None;
            self.leave()?;
        }
        if self.mode == Mode::Walk {
            if walk_element(self.st, self.flat.block, self.depth, value)? {
                self.enter();
            }
        } else {
            self.st.put(value)?;
        }
        self.i = self.i.saturating_add(1);
        Ok(())
    }

    /// Leaves [`Mode::Flat`]: the stored elements are appended to the
    /// output and counted.
    #[inline(always)]
    fn leave(&mut self) -> Result<()> {
        match self.mode {
            Mode::Flat => {
                self.mode = Mode::Put;
                let (data, stored) = self.flat.suspend();
                self.i = self.i.saturating_add(stored);
                self.st.append(data)
            }
            Mode::Put | Mode::Walk => Ok(()),
        }
    }
}

/// The bytes encoded would pass `usize::MAX`.
#[cold]
#[inline(never)]
fn too_large() -> Error {
    Error::limit("speculation: over the cap")
}

impl Drop for SpecSeq<'_, '_> {
    /// A sequence given up part way (by an error, or by a `Serialize` impl
    /// that never calls `end`) still appends what it stored, or marks the
    /// pass failed.
    #[inline]
    fn drop(&mut self) {
        if self.leave().is_err() {
            self.st.lost = true;
        }
    }
}

/// One element of a sequence in [`Mode::Walk`]: an outer axis is walked
/// on, an element is encoded (the first one infers the dtype). Returns
/// whether the sequence can now switch to encoding its elements directly.
fn walk_element<T: ?Sized + Serialize>(
    st: &mut SpecState<'_>,
    block: &mut Block,
    depth: usize,
    value: &T,
) -> Result<bool> {
    let depth = super::deeper(depth)?;
    if st.leaf_depth != Some(depth) {
        let st = &mut *st;
        match value.serialize(Spec { st, block, depth }) {
            Ok(()) => return Ok(false),
            Err(_) if st.leaf_found => st.leaf_found = false,
            Err(e) => return Err(e),
        }
    }
    st.leaf(depth, value)?;
    Ok(true)
}

impl SpecSeq<'_, '_> {
    /// An element of the sequence (`serialize_element`).
    #[inline]
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        if self.st.exact {
            return self.exact_element(value);
        }
        // the fast mode first: out of it every element misses, and for a
        // type that is never flat (a struct) the miss is known at compile
        // time, so this costs nothing there
        if self.flat.put(value).is_ok() {
            return Ok(());
        }
        self.step(value)
    }
    /// Inlined: a sequence passed out of line by address would keep the
    /// fast mode's state in memory in the loop.
    #[inline(always)]
    fn finish(mut self) -> Result<()> {
        self.leave()?;
        // a saturated count (see `i`)
        if self.i == u64::MAX {
            return Err(super::too_many());
        }
        super::axis_length(&mut self.st.dims, self.depth, self.i)
    }
}

// the exact pass's axes may be tuples (`[f32; 3]`): the same sequence
elements!(impl['s, 'o] SpecSeq<'s, 'o> => (), Error: SerializeSeq SerializeTuple);

impl<'s, 'o> ser::Serializer for Spec<'s, 'o> {
    serializer_types!((), Error; (SpecSeq<'s, 'o>) (SpecSeq<'s, 'o>) _ _ _ _ _);

    refuse!(numbers serialize_char serialize_str serialize_bytes serialize_none serialize_unit
        serialize_unit_struct serialize_unit_variant serialize_newtype_variant);
    through!(some);
    /// A special newtype is an element; an n-d array at the top is its
    /// flat data, walked as the outer axes (the shape is put back at the
    /// end of the pass).
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        if !special::is_element(name) {
            return value.serialize(self);
        }
        if self.depth == 0 && self.st.nd.is_none() && !self.st.exact {
            if let Some(Special::NdArray(code)) = Special::of(name) {
                if special::nd_pairs(code) {
                    return Err(Error::schema("speculation: complex n-d array"));
                }
                let Spec { st, block, depth } = self;
                return crate::ser::probe::parts(value, code, move |nd| {
                    st.nd = Some(nd.clone());
                    Ok(Spec { st, block, depth })
                })
                .map(|_| ());
            }
        }
        Err(self.not_seq(None))
    }
    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<SpecSeq<'s, 'o>> {
        // depth is 0 or a depth walk_element checked against MAX_WRITE_DEPTH
        let below = self.depth.wrapping_add(1);
        if self.st.dims.len() <= self.depth {
            self.st.dims.resize(below, None);
            // the hint at this depth, the first sequence's
            self.st.hints.resize(self.depth, None);
            self.st.hints.push(len);
        }
        let known = self.st.have && self.st.leaf_depth == Some(below);
        let mut seq = SpecSeq {
            st: self.st,
            depth: self.depth,
            i: 0,
            mode: Mode::Walk,
            flat: Flat::new(self.block),
        };
        if known {
            seq.enter();
        }
        Ok(seq)
    }
    /// A tuple is an element, except in the exact pass where the shape
    /// has an axis for it.
    fn serialize_tuple(self, len: usize) -> Result<SpecSeq<'s, 'o>> {
        if !self.st.exact {
            return Err(self.refuse(Found::Tuple));
        }
        self.serialize_seq(Some(len))
    }
    /// serde's default, with the loop here rather than in a closure of
    /// `try_for_each`: the fast mode's state stays in registers and an
    /// element it does not take leaves the loop body at once.
    #[inline]
    fn collect_seq<I>(self, iter: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Serialize,
    {
        let mut iter = iter.into_iter();
        // serde's length hint for an iterator
        let hint = match iter.size_hint() {
            (lo, Some(hi)) if lo == hi => Some(lo),
            _ => None,
        };
        let mut seq = self.serialize_seq(hint)?;
        if seq.st.exact {
            for item in iter {
                seq.exact_element(&item)?;
            }
            return seq.finish();
        }
        // a loop per mode: the state a mode depends on changes only
        // between them, so within one its checks are computed once
        loop {
            match seq.mode {
                // the elements while `flat` takes them (a plain loop, not
                // `find`'s closure), then the one it did not take through
                // `step` (which leaves the mode), or the end
                Mode::Flat => {
                    let mut missed = None;
                    for item in iter.by_ref() {
                        if seq.flat.put(&item).is_err() {
                            missed = Some(item);
                            break;
                        }
                    }
                    match missed {
                        Some(item) => seq.step(&item)?,
                        None => break,
                    }
                }
                // for good: every element through the tape
                Mode::Put => {
                    // each element takes itemsize >= 1 bytes of the output,
                    // whose total (flushed + pos) `grow` and `append` keep
                    // a usize: i cannot pass u64::MAX (which `end` refuses)
                    let done = seq.st.put_all(&mut iter)?;
                    seq.i = seq.i.wrapping_add(done as u64);
                    break;
                }
                Mode::Walk => match iter.next() {
                    Some(item) => seq.step(&item)?,
                    None => break,
                },
            }
        }
        seq.finish()
    }
}

#[cfg(test)]
mod tests;
