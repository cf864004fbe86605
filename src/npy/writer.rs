//! Writing `.npy`: [`to_writer`], [`to_vec`] and the same through
//! [`WriteOptions`] (the streaming [`NpyWriter`](crate::NpyWriter) is
//! `npy_writer.rs`).
//!
//! The drivers here choose the passes of `ser/` (drawn in `ser/mod.rs`) and
//! the flavour each writes into; each tries, in order, an n-d array's own
//! bytes, the speculative single pass, the exact two passes:
//!
//! ```text
//! to_vec      raw n-d bytes | one pass (InMemory)             | exact passes into a Vec
//! to_writer   raw n-d bytes | fixed layout: one pass written  | plan ─► [check (Direct::checking)] ─► Direct
//!                             as it goes (Direct::checking)
//!                             others: check (Direct::checking) ─► write (Direct)
//! to_path,    raw n-d bytes | one pass written as it goes     | plan ─► Direct
//!  npz members                (one_pass_unchecked)
//! ```
//!
//! `to_writer` writes in one pass when the first element fixes the layout
//! (numbers, tuples and `[T; N]`, structs, the special number newtypes:
//! no string, `Option`, enum or variable-length sequence) and the number
//! of elements is known up front (the header needs the shape): the header,
//! then the data a chunk at a time ([`Direct`], writes ending on page
//! boundaries; the header goes out with the first chunk). A later element
//! that still does not fit (a `Serialize` impl that varies) ends the call
//! with the error naming the record; past the first chunk the writer holds
//! a partial array (as `serde_json::to_writer` leaves it), within it the
//! exact path runs as for the other layouts.
//! Any other layout writes nothing before every value is known to encode:
//! its checking pass keeps its chunks up to 4 MiB ([`Direct::checking`]) and writes
//! from them when that is all the data, otherwise the values are encoded
//! again and written a chunk at a time ([`Direct`]). On the exact path
//! only a given dtype needs that check (an inferred one was checked by the
//! plan). `to_path` and npz members write where a failure is
//! thrown away (a temporary file, an abandoned entry), so they need no
//! checking walk and stay all-or-nothing. Fortran order is built in memory
//! and reordered.

// Counts and sizes here grow with the values written: every operation is
// checked or proven bounded.
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::io::{Seek, SeekFrom, Write};

use serde::Serialize;

use crate::error::{Error, Result};
use crate::format::dtype::Dtype;
use crate::format::header::Header;
use crate::options::WriteOptions;
use crate::ser::encode::DtypeTree;
use crate::ser::nd::{fortran_header, reorder};
use crate::ser::probe::{self, top};
use crate::ser::spec::{Output, Speculated, Val, Whole, Writable, encode_planned, speculate};
use crate::ser::{WritePlan, plan};

/// Size of the chunk of whole records `to_writer` fills before writing
/// (its checking pass, the exact path; npz members, whose memory this
/// bounds).
pub(crate) const CHUNK: usize = 64 * 1024;

/// Most bytes of data `to_writer`'s checking pass keeps, so that an array
/// this small is written from them instead of being encoded a second time
/// (about 1.6x faster for such arrays; memory stays bounded by this).
const KEEP: usize = 4 * 1024 * 1024;

/// The chunk the writing passes ([`Direct`]) hand to the writer: fewer,
/// larger calls cost the page cache less (a 64 MB array written into a
/// file in 1 MiB calls took about 10% less than in 64 KiB ones here), and
/// it still fits a core's L2 cache, from which the kernel copies it.
const WRITE_CHUNK: usize = 1024 * 1024;

/// The speculative single pass (inferred dtype, C order): the whole file as
/// bytes, the header in front of the data (room for it is reserved once
/// the dtype is known, and made right for the shape found), or `None` when
/// the values are not uniform (then the caller runs the exact two passes).
fn one_pass(value: &dyn Writable, opts: &WriteOptions) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut output = InMemory {
        opts,
        prefix: 0,
        guessed: None,
    };
    // the flavour never fails: an error is impossible here
    let mut spec = single_pass(value, opts, &mut out, &mut output).ok()??;
    // the descr and shape moved, not copied, into the header (a copy here
    // changes the heap's layout for what the caller allocates next)
    let shape = std::mem::take(&mut spec.shape);
    let fortran = spec.fortran;
    let header = Header::new(spec.into_descr(), fortran, shape);
    let data_len = usize::try_from(header.data_len().ok()?).ok()?;
    if out.len().checked_sub(output.prefix)? != data_len {
        return None;
    }
    let guessed = output.guessed;
    if guessed.is_some_and(|(f, s)| f == header.fortran_order && s == header.shape) {
        return Some(out);
    }
    let (head, _) = header.encode(opts.version).ok()?;
    // prefix <= out.len(): checked above
    out.splice(..output.prefix, head);
    Some(out)
}

/// The speculative single pass into `flavour`, the prologue of every write
/// that tries it first: `None` when the options ask for Fortran order (or
/// a given dtype that cannot be aligned), the values are not uniform, or
/// an n-d array's order is not the one asked for (then the exact path
/// writes the array: an n-d array is written in its own order unless the
/// options say otherwise). The flavour's errors are the pass's. A given
/// dtype is compiled to convert the values (not strict), exactly as the
/// exact path's second pass does.
pub(crate) fn single_pass(
    value: &dyn Writable,
    opts: &WriteOptions,
    out: &mut Vec<u8>,
    flavour: &mut dyn Output,
) -> Result<Option<Speculated>> {
    if opts.fortran_order == Some(true) {
        return Ok(None);
    }
    let Ok(given) = crate::ser::given_dtype(opts) else {
        return Ok(None);
    };
    let given = given.map(|dt| DtypeTree::from_dtype(dt, false));
    let spec = speculate(value, opts.align, out, flavour, given)?;
    Ok(spec.filter(|spec| !(spec.fortran && opts.fortran_order == Some(false))))
}

/// The header of a finished single pass and its data length; `None` when
/// the bytes it encoded do not add up to that (then the exact path writes
/// the array).
pub(crate) fn checked_header(spec: &Speculated) -> Option<(Header, usize)> {
    let header = Header::new(spec.descr().clone(), spec.fortran, spec.shape.clone());
    let data_len = usize::try_from(header.data_len().ok()?).ok()?;
    (spec.len == data_len).then_some((header, data_len))
}

/// [`one_pass`]'s flavour: all the data in memory, the header for the
/// hinted shape in front of it (when the hint was right it is already the
/// file's header: encoding a long record descr costs as much as thousands
/// of records).
struct InMemory<'o> {
    opts: &'o WriteOptions,
    /// Bytes of the header written in front of the data.
    prefix: usize,
    /// The order and shape that header is for.
    guessed: Option<(bool, Vec<u64>)>,
}

impl Output for InMemory<'_> {
    fn dtype(
        &mut self,
        dt: Dtype,
        hinted: &[u64],
        fortran: bool,
        _: bool,
        out: &mut Vec<u8>,
    ) -> Result<Dtype> {
        let (header, whole) = hinted_header(dt, hinted, fortran);
        if let Ok((h, _)) = header.encode(self.opts.version) {
            self.prefix = h.len();
            out.extend_from_slice(&h);
            self.guessed = Some((header.fortran_order, header.shape));
        }
        Ok(whole.unwrap_or(header.descr))
    }
}

/// The speculative single pass for `to_writer`, in bounded memory. When
/// the first element fixes the layout and the element count is known
/// ([`Direct::checking`]), it writes the header and then the data as it is
/// encoded, a chunk at a time: one walk; a later element that does not
/// fit ends the call with the error of the exact planning walk, which
/// names the record, after part of the array was written (within the
/// first chunk nothing was: the exact path runs, as for any layout that
/// is not uniform). Otherwise a first pass encodes every element into a
/// reused [`CHUNK`] (checking that the values are uniform, writing
/// nothing); when all the data fit in [`KEEP`] bytes it was kept and is
/// written at once, otherwise a second pass encodes the elements again
/// into the chunk and writes each full chunk. `Ok(false)`: not uniform,
/// nothing written (the caller runs the exact passes).
fn one_pass_streamed<W: Write>(
    writer: &mut W,
    value: &dyn Writable,
    opts: &WriteOptions,
) -> Result<bool> {
    if top(value.value()).is_some() && raw_nd(writer, value, opts)? {
        return Ok(true);
    }
    let mut out = Vec::new();
    // a layout fixed by the first element: written as it goes. Otherwise
    // the checking pass keeps its chunks while they total at most KEEP
    // bytes: a small array is then written from them, in one walk; past
    // KEEP (or when the length hints claim more: then the pass hands over
    // no chunk and only checks plain numbers) the second walk writes
    let mut direct = Direct::checking(&mut *writer, opts);
    let spec = single_pass(value, opts, &mut out, &mut direct)?;
    if !direct.checks {
        let guessed = direct.head.take().unwrap_or_default();
        let written = spec.as_ref().and_then(checked_header);
        let written = written.map(|(h, _)| Head::of(&h, opts)).transpose()?;
        return match written {
            // the header was right: the array is written in full
            Some(head) if head.bytes == guessed.bytes => direct.finish(&out, &head).map(|()| true),
            // nothing written yet (the header is held until the first
            // chunk is full): the exact path, as for any other layout
            _ if direct.held => Ok(false),
            Some(_) => Err(Error::schema(
                "the values are not as many as their length hint said, which the header \
                 written gave",
            )),
            None => Err(late_miss(value, opts)),
        };
    }
    let Some(spec) = spec else {
        return Ok(false);
    };
    let Some((header, data_len)) = checked_header(&spec) else {
        return Ok(false);
    };
    let head = Head::of(&header, opts)?;
    let kept = (direct.kept, data_len);
    write_checked(
        writer,
        opts,
        head,
        kept,
        &mut out,
        WRITE_CHUNK,
        |out, direct| {
            // the dtype and tape of the checking pass: nothing inferred again
            let again = speculate(value, opts.align, out, direct, Some(spec.tape))?;
            match again.as_ref().and_then(checked_header) {
                Some((h, _)) if h == header => Ok(()),
                _ => Err(changed()),
            }
        },
    )?;
    Ok(true)
}

/// The error of a `Serialize` impl that gave other values to the writing
/// pass than to the checking pass.
pub(crate) fn changed() -> Error {
    Error::schema("the values changed between the checking pass and the writing pass")
}

/// The error of a write whose later element did not fit the layout the
/// first one fixed, after part of the array was written: the exact
/// planning walk's, which names the record (as when nothing was written).
#[cold]
#[inline(never)]
fn late_miss(value: &dyn Writable, opts: &WriteOptions) -> Error {
    match plan(value.value(), opts) {
        Err(e) => e,
        Ok(_) => Error::schema(
            "the values changed while they were written (a Serialize impl that gives other \
             values each time)",
        ),
    }
}

/// A header's bytes as written, and the bytes of one record of its array
/// (0 for a 0-d array, whose I/O errors name no record).
#[derive(Default)]
struct Head {
    bytes: Vec<u8>,
    row: usize,
}

impl Head {
    fn of(header: &Header, opts: &WriteOptions) -> Result<Head> {
        let (bytes, _) = header.encode(opts.version)?;
        let row = if header.shape.is_empty() {
            0
        } else {
            crate::de::stream::row_size(header).unwrap_or(0)
        };
        Ok(Head { bytes, row })
    }

    /// Writes the header, then `data` after it.
    fn write_with<W: Write>(&self, writer: &mut W, data: &[u8]) -> Result<()> {
        writer.write_all(&self.bytes)?;
        write_data_at(writer, [data, &[]], self.row, 0)
    }
}

/// Writes `head` and the data after a checking walk: the chunks it kept
/// and what was left in its buffer `out`, when that is all of it (`kept`:
/// the chunks, if kept, and the data's length), else what `walk` encodes
/// again into the writing flavour ([`Direct`], chunks of `window` bytes).
fn write_checked<W: Write>(
    writer: &mut W,
    opts: &WriteOptions,
    head: Head,
    (kept, data_len): (Option<Vec<u8>>, usize),
    out: &mut Vec<u8>,
    window: usize,
    walk: impl FnOnce(&mut Vec<u8>, &mut Direct<'_, '_, W>) -> Result<()>,
) -> Result<()> {
    if let Some(kept) = kept.filter(|k| k.len().saturating_add(out.len()) == data_len) {
        head.write_with(writer, &kept)?;
        return write_data_at(writer, [out, &[]], head.row, kept.len());
    }
    writer.write_all(&head.bytes)?;
    out.clear();
    let mut direct = Direct::new(&mut *writer, opts, Some(head), window);
    walk(out, &mut direct)?;
    let head = direct.head.take().unwrap_or_default();
    direct.finish(out, &head)
}

/// How [`one_pass_unchecked`] ended.
pub(crate) enum Unchecked {
    /// The array is written in full.
    Written,
    /// The data is written in full, but the header in front of it was made
    /// for the shape serde's length hints claimed (an iterator without a
    /// length): `guessed` bytes must become `head`. A seekable destination
    /// overwrites them when both have the same length (numpy pads headers
    /// to 64 bytes, so they usually do); others start again.
    WrongHeader { guessed: usize, head: Vec<u8> },
    /// The values are not uniform (or the dtype or order is given): what
    /// was written is of no use; the exact path must write the array.
    Redo,
}

/// The speculative pass written as it goes, for a destination whose partial
/// contents are thrown away on failure ([`to_path`](crate::to_path)'s
/// temporary file, an npz member): no checking pass first, so the values
/// are walked once. The header is written when the dtype is known, for the
/// shape serde's length hints claim; the data in chunks of `window` bytes
/// (memory stays bounded by it).
pub(crate) fn one_pass_unchecked<W: Write>(
    writer: &mut W,
    value: &dyn Writable,
    opts: &WriteOptions,
    window: usize,
) -> Result<Unchecked> {
    if raw_nd(writer, value, opts)? {
        return Ok(Unchecked::Written);
    }
    let mut direct = Direct::new(&mut *writer, opts, None, window);
    let mut out = Vec::new();
    let spec = single_pass(value, opts, &mut out, &mut direct)?;
    let header = spec.as_ref().and_then(checked_header);
    let (Some((header, _)), Some(guessed)) = (header, direct.head.take()) else {
        return Ok(Unchecked::Redo);
    };
    let head = Head::of(&header, opts)?;
    // a header still held goes out as the one for the shape found
    let held = direct.held;
    direct.finish(&out, &head)?;
    if held || head.bytes == guessed.bytes {
        Ok(Unchecked::Written)
    } else {
        Ok(Unchecked::WrongHeader {
            guessed: guessed.bytes.len(),
            head: head.bytes,
        })
    }
}

/// Writes an n-d array that offers its data as bytes (an `NdArray` of
/// plain or complex numbers, see [`probe::raw`]) in its own type and
/// layout: the header, then those bytes as they are; no element is walked
/// and nothing is copied. `false`: `value` is anything else, or the
/// options ask for another dtype or layout; nothing was written.
fn raw_nd<W: Write>(writer: &mut W, value: &dyn Writable, opts: &WriteOptions) -> Result<bool> {
    raw_nd_parts(value.value(), opts, &mut |head, bytes| {
        head.write_with(writer, bytes)
    })
}

/// [`raw_nd`]'s header and data bytes, handed to `write`; the value
/// behind `dyn` ([`DynValue`](crate::ser::DynValue)): a look at the top
/// of every write, instantiated once.
#[inline(never)]
fn raw_nd_parts(
    value: &crate::ser::DynValue<'_>,
    opts: &WriteOptions,
    write: &mut dyn FnMut(&Head, &[u8]) -> Result<()>,
) -> Result<bool> {
    if opts.dtype.is_some() || opts.fortran_order.is_some() {
        return Ok(false);
    }
    probe::raw(value, &mut |nd, bytes| {
        let malformed = || Error::schema("internal: an n-d array's bytes and shape differ");
        let descr: Dtype = format!("<{}", nd.code).parse().map_err(|_| malformed())?;
        let fortran = fortran_header(nd.fortran, &nd.dims);
        let header = Header::new(descr, fortran, nd.dims.clone());
        if header.data_len()? != bytes.len() as u64 {
            return Err(malformed());
        }
        write(&Head::of(&header, opts)?, bytes)
    })
}

/// The flavour that writes as it goes ([`one_pass_unchecked`], the
/// writing passes of `to_writer`): chunks of `window` bytes written after
/// `head`; without one, the header for the shape the length hints claim is
/// made when the dtype is known and written in front of the first data (so
/// that a pass that fails before its first chunk was full wrote nothing).
///
/// `to_writer`'s first walk ([`one_pass_streamed`], and the checking walk
/// of [`write_exact`](WriteOptions::write_exact)) starts it
/// [`checking`](Direct::checking), decided with the dtype: when the first
/// element fixed the layout and the element count is known (`fixed`) the
/// pass writes (chunks of [`WRITE_CHUNK`]); otherwise it only checks, its
/// chunks of [`CHUNK`] kept while they total at most [`KEEP`] bytes.
///
/// Every write but the last ends on a page boundary of the destination
/// (counted from the start of the header): the bytes of a chunk after its
/// last page boundary are held back and written in front of the next
/// chunk, in one vectored write. Chunks of whole elements after a header
/// of 128 bytes otherwise end mid-page, and each such page is written by
/// two calls: a 64 MB array took about 25% longer into ext4's page cache
/// here that way.
struct Direct<'w, 'o, W> {
    writer: &'w mut W,
    opts: &'o WriteOptions,
    /// The header, written or `held`.
    head: Option<Head>,
    /// Whether the header is not written yet: it goes out with the first
    /// data.
    held: bool,
    /// Data bytes written after the header.
    offset: usize,
    /// Bytes of a chunk.
    window: usize,
    /// Data bytes held back after `offset`: they do not reach the next
    /// page boundary.
    carry: Vec<u8>,
    /// Whether the pass only checks, writing nothing.
    checks: bool,
    /// A checking pass's chunks, while they total at most [`KEEP`] bytes.
    kept: Option<Vec<u8>>,
}

/// The page size [`Direct`] aligns its writes to (the common one; a larger
/// page is a multiple of it).
const PAGE: usize = 4096;

impl<'w, 'o, W: Write> Direct<'w, 'o, W> {
    fn new(writer: &'w mut W, opts: &'o WriteOptions, head: Option<Head>, window: usize) -> Self {
        Direct {
            writer,
            opts,
            head,
            held: false,
            offset: 0,
            window,
            carry: Vec::new(),
            checks: false,
            kept: None,
        }
    }

    /// `to_writer`'s first walk: checking unless the dtype fixes the layout.
    fn checking(writer: &'w mut W, opts: &'o WriteOptions) -> Self {
        Direct {
            checks: true,
            kept: Some(Vec::new()),
            ..Direct::new(writer, opts, None, WRITE_CHUNK)
        }
    }

    /// Writes the data held back and then `rest` (what the pass left in its
    /// buffer), after `head` when the header is held; `head` names the
    /// records in an error.
    fn finish(&mut self, rest: &[u8], head: &Head) -> Result<()> {
        if std::mem::take(&mut self.held) {
            self.writer.write_all(&head.bytes)?;
        }
        write_data_at(
            &mut *self.writer,
            [&self.carry, rest],
            head.row,
            self.offset,
        )?;
        self.offset = self
            .offset
            .saturating_add(self.carry.len())
            .saturating_add(rest.len());
        self.carry.clear();
        Ok(())
    }
}

impl<W: Write> Output for Direct<'_, '_, W> {
    fn window(&self) -> Option<usize> {
        Some(if self.checks { CHUNK } else { self.window })
    }
    fn check_above(&self) -> Option<usize> {
        self.checks.then_some(KEEP)
    }
    fn dtype(
        &mut self,
        dt: Dtype,
        hinted: &[u64],
        fortran: bool,
        fixed: bool,
        _: &mut Vec<u8>,
    ) -> Result<Dtype> {
        // an n-d array in Fortran order asked for in C order is reordered
        // by the exact path
        let reordered = fortran && self.opts.fortran_order == Some(false);
        self.checks = self.checks && (!fixed || reordered);
        if self.checks || self.head.is_some() {
            return Ok(dt);
        }
        let (header, whole) = hinted_header(dt, hinted, fortran);
        self.head = Some(Head::of(&header, self.opts)?);
        self.held = true;
        Ok(whole.unwrap_or(header.descr))
    }
    fn chunk(&mut self, data: &[u8]) -> Result<()> {
        if self.checks {
            let kept = self.kept.take();
            self.kept = kept.filter(|k| k.len().saturating_add(data.len()) <= KEEP);
            self.kept.iter_mut().for_each(|k| k.extend_from_slice(data));
            return Ok(());
        }
        // `dtype` made the header before the first chunk (written with its
        // data when held)
        let head = self
            .head
            .take()
            .ok_or_else(|| Error::schema("internal: no header"))?;
        // positions in the destination: written up to `done`, held up to
        // `start`, this chunk up to `end`
        let done = head.bytes.len().saturating_add(self.offset);
        let start = done.saturating_add(self.carry.len());
        let end = start.saturating_add(data.len());
        let page_end = end.saturating_sub(end.rem_euclid(PAGE));
        // `done` is on a page boundary after the first write and the carry
        // shorter than a page, so a `page_end` past `done` is past `start`
        let (now, later) = data.split_at(page_end.saturating_sub(start).min(data.len()));
        let written = if page_end > done {
            self.finish(now, &head)
        } else {
            // no page boundary reached past what is written: all held
            Ok(())
        };
        self.head = Some(head);
        written?;
        self.carry.extend_from_slice(later);
        Ok(())
    }
}

/// Writes part of the data section, `parts` one after the other (in one
/// vectored write where the writer takes it), starting `offset` bytes into
/// the data section; an I/O error names the record (of `row` bytes; 0: no
/// record) whose bytes were being written.
pub(crate) fn write_data_at<W: Write>(
    writer: &mut W,
    parts: [&[u8]; 2],
    row: usize,
    offset: usize,
) -> Result<()> {
    let mut slices = parts.map(std::io::IoSlice::new);
    let mut bufs = &mut slices[..];
    // the empty parts out of the way
    std::io::IoSlice::advance_slices(&mut bufs, 0);
    let mut done = 0usize;
    while !bufs.is_empty() {
        let e = match writer.write_vectored(bufs) {
            Ok(0) => std::io::Error::from(std::io::ErrorKind::WriteZero),
            Ok(k) => {
                // k <= what is left (Write's contract); the clamp keeps a
                // writer that breaks it from advancing past the end
                let left = bufs.iter().fold(0usize, |n, b| n.saturating_add(b.len()));
                let k = k.min(left);
                done = done.saturating_add(k);
                std::io::IoSlice::advance_slices(&mut bufs, k);
                continue;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => e,
        };
        // no record for a row of 0 bytes (checked_div gives None)
        let record = offset.saturating_add(done).checked_div(row);
        return Err(match record {
            Some(record) => Error::from(e).at_record(record as u64),
            None => Error::from(e),
        });
    }
    Ok(())
}

/// The header for the element dtype the speculative pass found and the
/// shape serde's length hints claim; with the dtype to hand back to the
/// pass when the header did not take it whole. The dtype is lent to the
/// header (a record's copy costs an allocation per field name); only a
/// subarray's base is copied.
fn hinted_header(dt: Dtype, hinted: &[u64], fortran: bool) -> (Header, Option<Dtype>) {
    match dt {
        Dtype::Subarray(..) => (c_order_header(&dt, hinted), Some(dt)),
        dt => (Header::new(dt, fortran, hinted.to_vec()), None),
    }
}

/// The header of a C-order array of `dt` and `outer` dims, a subarray
/// dtype as numpy stores it: the base descr, every level's dims appended
/// to the shape.
pub(crate) fn c_order_header(dt: &Dtype, outer: &[u64]) -> Header {
    let (base, inner) = crate::ser::split_subarray(dt);
    Header::new(base.clone(), false, [outer, &inner].concat())
}

/// [`c_order_header`] and its bytes as `np.save` writes them, the version
/// chosen as numpy chooses it; an error when the data size overflows.
pub(crate) fn npy_header(dtype: &Dtype, shape: &[u64]) -> Result<(Header, Vec<u8>)> {
    let header = c_order_header(dtype, shape);
    header.data_len()?;
    let (bytes, _) = header.encode(None)?;
    Ok((header, bytes))
}

/// Writes `value` as an `.npy` file: a sequence of records gives a record
/// array of shape `(N,)`, nested equal-length sequences give more axes, a
/// single value gives shape `()`. The dtype is derived from the values (see
/// the crate docs for the type mapping).
///
/// When the first element fixes the layout (it has only numbers, tuples,
/// fixed arrays `[T; N]`, structs and the crate's number newtypes such as
/// complex, datetime or `f16`: no string, `Option`, enum or
/// variable-length sequence) and the number of elements is known up front,
/// the array is written in one pass, straight into the writer: a later
/// element that does not fit after all (a `Serialize` impl that varies)
/// ends the call with an error naming the record, and the writer holds a
/// partial array when more than the first chunk (about 1 MiB) was written,
/// as with `serde_json::to_writer`. Otherwise nothing is written if the
/// value cannot be laid out as an array. [`to_path`](crate::to_path) is
/// all-or-nothing either way.
///
/// To fill a `Vec<u8>`, prefer [`to_vec`]: it sizes its buffer once and,
/// on Linux, asks for huge pages for a buffer of 4 MiB or more, as numpy
/// does. A `Vec` you reserve yourself and hand to `to_writer` gets the same
/// bytes in the same one pass, but its fresh pages are the kernel's to
/// back, 4 KiB at a time: for a 50 MB array that can take two to three
/// times as long as `to_vec`. A `Vec` reused from an earlier write costs
/// nothing extra.
///
/// ```
/// #[derive(serde::Serialize)]
/// struct P { id: u32, x: f64 }
/// let mut out = Vec::new();
/// npy_serde::to_writer(&mut out, &vec![P { id: 1, x: 0.5 }, P { id: 2, x: 1.5 }]).unwrap();
/// assert!(String::from_utf8_lossy(&out[..128])
///     .starts_with("\u{FFFD}NUMPY\u{1}\u{0}v\u{0}{'descr': [('id', '<u4'), ('x', '<f8')], 'fortran_order': False, 'shape': (2,), }"));
/// assert_eq!(out.len(), 128 + 2 * 12);
/// ```
pub fn to_writer<W: Write, T: ?Sized + Serialize>(writer: W, value: &T) -> Result<()> {
    WriteOptions::new().to_writer(writer, value)
}

/// Like [`to_writer`], into a new `Vec<u8>`.
///
/// ```
/// let bytes = npy_serde::to_vec(&vec![[1.0f64, 2.0, 3.0], [4.0, 5.0, 6.0]]).unwrap();
/// assert!(String::from_utf8_lossy(&bytes).contains("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }"));
/// assert_eq!(bytes.len(), 128 + 48);
/// ```
pub fn to_vec<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>> {
    WriteOptions::new().to_vec(value)
}

fn header_for(plan: &WritePlan, opts: &WriteOptions) -> Header {
    let mut header = c_order_header(&plan.dtype, &plan.shape);
    // the plan keeps a given subarray dtype when no element showed its
    // axes (an empty array), and an n-d array is one element of its
    // shape; numpy cannot read a subarray descr at the top level, so its
    // axes join the shape. An n-d array is written in its own order unless
    // the options say otherwise (an element with axes of its own: C
    // order); any other subarray has no elements (C order).
    let fortran = match &plan.nd {
        _ if !matches!(plan.dtype, Dtype::Subarray(..)) => opts.fortran_order == Some(true),
        Some(nd) if header.shape.len() == nd.dims.len() => opts.fortran_order.unwrap_or(nd.fortran),
        _ => false,
    };
    header.fortran_order = fortran_header(fortran, &header.shape);
    header
}

fn usize_len(n: u64) -> Result<usize> {
    usize::try_from(n).map_err(|_| Error::limit("array is too large for this machine"))
}

impl WriteOptions {
    /// Writes `value` as `.npy` with these options. Without a given dtype,
    /// when the first element fixes the layout (numbers, tuples, fixed
    /// arrays `[T; N]`, structs, the crate's number newtypes: no string,
    /// `Option`, enum or variable-length sequence) and the number of
    /// elements is known up front, the array is written in one pass a chunk
    /// of about 1 MiB at a time; a later element that does not fit (a
    /// `Serialize` impl that varies) ends the call with an error naming the
    /// record, after part of the array was written when it comes past the
    /// first chunk. Otherwise, on an error
    /// in the values nothing is written: errors are found before the header
    /// goes out (for more than 64 KiB of data by a checking pass over the
    /// values; above 4 MiB the data is then encoded again and written a
    /// chunk of about 1 MiB at a time, so memory stays bounded; an n-d
    /// array of real numbers or booleans cannot fail and is written in one
    /// walk). A `Serialize` impl that gives different values on the second
    /// pass is reported as an error after part of the array was written.
    ///
    /// # Conversion into a given dtype
    ///
    /// With [`dtype`](WriteOptions::dtype), record fields are matched by
    /// name (any order; a value field the dtype lacks, or a dtype field the
    /// value lacks, is an error; gaps are zero) and every value is converted
    /// exactly into the dtype's type, or the write fails naming record and
    /// field:
    ///
    /// | value | into |
    /// |---|---|
    /// | bool | `b1` only |
    /// | integer | `i1`..`i8`, `u1`..`u8` when it fits; `f2`/`f4`/`f8` when exact; `M8`/`m8` as a count of the dtype's unit |
    /// | `f32`, `f64` | `f8`, `f4`, `f2` when exactly representable (infinities pass; a NaN keeps its sign, signalling bit and payload, refused when the payload does not fit) |
    /// | complex (`npy_serde::complex`), or `[re, im]` of numbers | `c8`, `c16`, each part exactly |
    /// | `half::f16` | `f2` bit-exact; `f4`/`f8` widened |
    /// | string, char, unit enum variant | `Un` (at most n characters), `Sn` (UTF-8, at most n bytes) |
    /// | bytes, or a sequence of integers 0..=255 (how `deserialize_any` reads `S`/`V`) | `Sn`, `Vn` (at most n bytes, zero padded) |
    /// | `Datetime64<U>` / `Timedelta64<U>` | `M8[unit]` / `m8[unit]`, unit converted exactly (NaT stays NaT; datetimes in years or months convert to days and shorter units through the calendar, timedeltas do not) |
    /// | sequence | a subarray of the same length, or positionally a record |
    /// | struct, map | a record, fields by name |
    ///
    /// Byte order is the dtype's. Strings or bytes ending in NUL are refused
    /// (numpy strips trailing NULs); `Padding<N>` values are skipped.
    ///
    /// ```
    /// use npy_serde::{Dtype, WriteOptions};
    /// let dt: Dtype = Dtype::scalar(npy_serde::ScalarType::Int(2));
    /// let mut out = Vec::new();
    /// WriteOptions::new().dtype(dt).to_writer(&mut out, &vec![1i64, -2]).unwrap();
    /// assert_eq!(&out[128..], &[1, 0, 0xfe, 0xff]);
    /// ```
    pub fn to_writer<W: Write, T: ?Sized + Serialize>(
        &self,
        mut writer: W,
        value: &T,
    ) -> Result<()> {
        let value = &Val(value);
        if one_pass_streamed(&mut writer, value, self)? {
            return Ok(());
        }
        self.write_exact(&mut writer, value, true)
    }

    /// The exact path: pass 1 ([`plan`]), then the header and the data the
    /// planned walk encodes, written a chunk at a time (Fortran order: the
    /// whole array built in memory and reordered first). With `checked_first`,
    /// nothing is written unless every value encodes: the values of a given
    /// dtype are encoded in memory when small, else checked by a first walk
    /// whose chunks are kept up to [`KEEP`] bytes (as the inferred dtypes'
    /// are), written from them when that is all the data. Without it (a
    /// destination whose partial contents are thrown away on failure: an
    /// npz member, a temporary file) nothing is checked first, so an error
    /// leaves a partly written array behind; memory stays bounded by a chunk
    /// except for Fortran order.
    pub(crate) fn write_exact<W: Write>(
        &self,
        writer: &mut W,
        value: &dyn Writable,
        checked_first: bool,
    ) -> Result<()> {
        let plan = plan(value.value(), self)?;
        let header = header_for(&plan, self);
        // pass 1 checked that every element of an inferred dtype encodes;
        // values of a given dtype are checked only by encoding them
        let check = checked_first && self.dtype.is_some();
        let data_len = header.data_len()?;
        if header.fortran_order || (check && data_len <= CHUNK as u64) {
            // built in memory: errors surface before anything is written
            let bytes = self.encode_vec(value, &plan, &header)?;
            writer.write_all(&bytes)?;
            return Ok(());
        }
        let head = Head::of(&header, self)?;
        let (mut out, mut kept) = (Vec::new(), (None, 0));
        if check {
            let mut check = Direct::checking(&mut *writer, self);
            encode_planned(value, plan.tape(), &plan.shape, None, &mut out, &mut check)?;
            kept = (check.kept, usize_len(data_len)?);
        }
        // `to_writer` in the larger chunks of the writing passes; the
        // others in chunks that bound memory
        let window = if checked_first { WRITE_CHUNK } else { CHUNK };
        write_checked(writer, self, head, kept, &mut out, window, |out, direct| {
            encode_planned(value, plan.tape(), &plan.shape, None, out, direct).map(drop)
        })
    }

    /// [`to_writer`](WriteOptions::to_writer) into a file that is deleted
    /// if this fails (`to_path`'s temporary file): nothing needs checking
    /// before the first byte, so uniform values are encoded and written in
    /// one walk. Otherwise the file is emptied and the exact path writes it.
    pub(crate) fn to_temp_file(
        &self,
        file: &mut std::fs::File,
        value: &dyn Writable,
    ) -> Result<()> {
        // an n-d array of plain numbers: its size is known, so the file's
        // blocks are reserved first, as numpy does
        let whole = raw_nd_parts(value.value(), self, &mut |head, bytes| {
            let len = (head.bytes.len() as u64).saturating_add(bytes.len() as u64);
            crate::npy::atomic::preallocate(file, len);
            head.write_with(file, bytes)
        })?;
        if whole {
            return Ok(());
        }
        // a fresh file: the header starts at 0
        match one_pass_unchecked(file, value, self, WRITE_CHUNK)? {
            Unchecked::Written => return Ok(()),
            Unchecked::WrongHeader { guessed, head } if guessed == head.len() => {
                file.seek(SeekFrom::Start(0))?;
                file.write_all(&head)?;
                return Ok(());
            }
            Unchecked::WrongHeader { .. } | Unchecked::Redo => {}
        }
        file.set_len(0)?;
        file.seek(SeekFrom::Start(0))?;
        self.write_exact(file, value, false)
    }

    /// Writes `value` as `.npy` into a new `Vec<u8>`.
    ///
    /// ```
    /// let bytes = npy_serde::WriteOptions::new()
    ///     .fortran_order(true)
    ///     .to_vec(&vec![vec![1u8, 2, 3], vec![4, 5, 6]])
    ///     .unwrap();
    /// assert!(String::from_utf8_lossy(&bytes).contains("'fortran_order': True, 'shape': (2, 3)"));
    /// assert_eq!(&bytes[128..], &[1, 4, 2, 5, 3, 6]);
    /// ```
    pub fn to_vec<T: ?Sized + Serialize>(&self, value: &T) -> Result<Vec<u8>> {
        self.to_vec_of(&Val(value))
    }

    /// The header [`to_vec`](Self::to_vec) writes for `value` (not an
    /// n-d array), found as it finds it: the single pass, else pass 1.
    /// What `par_to_vec` lays its chunks out by, without a header written
    /// or read for each.
    #[cfg(feature = "rayon")]
    pub(crate) fn header_of(&self, value: &dyn Writable) -> Result<Header> {
        let spec = single_pass(value, self, &mut Vec::new(), &mut Whole)?;
        match spec.as_ref().and_then(checked_header) {
            Some((header, _)) => Ok(header),
            None => Ok(header_for(&plan(value.value(), self)?, self)),
        }
    }

    /// [`to_vec`](Self::to_vec), not generic.
    fn to_vec_of(&self, value: &dyn Writable) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        let raw = raw_nd_parts(value.value(), self, &mut |head, bytes| {
            out.reserve_exact(head.bytes.len().saturating_add(bytes.len()));
            crate::huge_pages::advise(out.spare_capacity_mut());
            out.extend_from_slice(&head.bytes);
            out.extend_from_slice(bytes);
            Ok(())
        })?;
        if raw {
            return Ok(out);
        }
        if let Some(bytes) = one_pass(value, self) {
            return Ok(bytes);
        }
        let plan = plan(value.value(), self)?;
        let header = header_for(&plan, self);
        self.encode_vec(value, &plan, &header)
    }

    /// The file of `plan` under `header`, built in memory: the data
    /// encoded after the header, reordered when the header says Fortran
    /// order (the elements arrive in C order, an n-d array's too).
    fn encode_vec(
        &self,
        value: &dyn Writable,
        plan: &WritePlan,
        header: &Header,
    ) -> Result<Vec<u8>> {
        let data_len = usize_len(header.data_len()?)?;
        let (mut out, _) = header.encode(self.version)?;
        let head_len = out.len();
        head_len
            .checked_add(data_len)
            .ok_or_else(|| Error::limit("array is too large for this machine"))?;
        let encoded = encode_planned(value, plan.tape(), &plan.shape, None, &mut out, &mut Whole)?;
        if encoded != data_len {
            return Err(Error::schema("internal: the data and its header differ"));
        }
        if header.fortran_order {
            let data = out.get_mut(head_len..).unwrap_or_default();
            let c_order = data.to_vec();
            let itemsize = header.descr.itemsize();
            reorder(&c_order, data, &header.shape, itemsize, false);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod one_pass_tests;
