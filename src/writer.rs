//! Writing `.npy`: [`to_writer`], [`to_vec`], the same through
//! [`WriteOptions`], and the streaming [`NpyWriter`].
//!
//! The drivers here choose the passes of `ser/` (drawn in `ser/mod.rs`) and
//! the flavour each writes into; each tries, in order, an n-d array's own
//! bytes, the speculative single pass, the exact two passes:
//!
//! ```text
//! to_vec      raw n-d bytes | one pass (InMemory)             | exact passes into a Vec
//! to_writer   raw n-d bytes | check (Keep) ─► write (Direct)  | plan ─► [check (Keep)] ─► Direct
//! to_path,    raw n-d bytes | one pass written as it goes     | plan ─► Direct
//!  npz members                (one_pass_unchecked)
//! ```
//!
//! `to_writer` writes nothing before every value is known to encode: its
//! checking pass keeps its chunks up to 4 MiB ([`Keep`]) and writes from
//! them when that is all the data, otherwise the values are encoded again
//! and written a chunk at a time ([`Direct`], writes ending on page
//! boundaries). On the exact path only a given dtype needs that check (an
//! inferred one was checked by the plan); an n-d array of plain numbers in
//! its own type and layout cannot fail and skips it. `to_path` and npz
//! members write where a failure is thrown away (a temporary file, an
//! abandoned entry), so they need no checking walk. Fortran order is built
//! in memory and reordered.

// Counts and sizes here grow with the values written: every operation is
// checked or proven bounded.
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::io::{Read, Seek, SeekFrom, Write};

use serde::Serialize;

use crate::dtype::Dtype;
use crate::error::{Error, Result};
use crate::header::Header;
use crate::options::{ReadOptions, WriteOptions};
use crate::ser::encode::DtypeTree;
use crate::ser::nd::{fortran_header, reorder};
use crate::ser::probe::{self, top};
use crate::ser::spec::{Output, Speculated, Speculation, Whole, encode_planned, speculate};
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
/// the dtype is known), or `None` when the values are not uniform (then
/// the caller runs the exact two passes).
fn one_pass<T: ?Sized + Serialize>(value: &T, opts: &WriteOptions) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut output = InMemory {
        opts,
        prefix: 0,
        guessed: None,
    };
    // the flavour never fails: an error is impossible here
    let mut spec = single_pass(value, opts, &mut out, &mut output).ok()??;
    let InMemory {
        prefix, guessed, ..
    } = output;
    // the descr and shape moved, not copied, into the header
    let shape = std::mem::take(&mut spec.shape);
    let fortran = spec.fortran;
    let header = Header::new(spec.into_descr(), fortran, shape);
    let data_len = usize::try_from(header.data_len().ok()?).ok()?;
    if out.len().checked_sub(prefix)? != data_len {
        return None;
    }
    if guessed.is_some_and(|(f, s)| f == header.fortran_order && s == header.shape) {
        return Some(out);
    }
    let (head, _) = header.encode(opts.version).ok()?;
    if head.len() == prefix {
        out.get_mut(..prefix)?.copy_from_slice(&head);
        Some(out)
    } else {
        let mut whole = head;
        whole.extend_from_slice(out.get(prefix..)?);
        Some(whole)
    }
}

/// The speculative single pass into `flavour`, the prologue of every write
/// that tries it first: `None` when the options ask for Fortran order (or
/// a given dtype that cannot be aligned), the values are not uniform, or
/// an n-d array's order is not the one asked for (then the exact path
/// writes the array). The flavour's errors are the pass's. A given dtype
/// is compiled to convert the values (not strict), exactly as the exact
/// path's second pass does.
fn single_pass<T: ?Sized + Serialize>(
    value: &T,
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
    let Speculation::Uniform(spec) = speculate(value, opts.align, out, flavour, given)? else {
        return Ok(None);
    };
    // an n-d array is written in its own order unless the options say
    // otherwise (then the exact path reorders it)
    Ok((!(spec.fortran && opts.fortran_order == Some(false))).then_some(spec))
}

/// The header of a finished single pass and its data length; `None` when
/// the bytes it encoded do not add up to that (then the exact path writes
/// the array).
fn checked_header(spec: &Speculated) -> Option<(Header, usize)> {
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

/// The checking pass's flavour ([`one_pass_streamed`]): chunks of
/// [`CHUNK`], kept while they total at most [`KEEP`] bytes.
struct Keep(Option<Vec<u8>>);

impl Output for Keep {
    fn window(&self) -> Option<usize> {
        Some(CHUNK)
    }
    fn check_above(&self) -> Option<usize> {
        Some(KEEP)
    }
    fn chunk(&mut self, data: &[u8]) -> Result<()> {
        if let Some(k) = self.0.as_mut() {
            if k.len().saturating_add(data.len()) <= KEEP {
                k.extend_from_slice(data);
            } else {
                self.0 = None;
            }
        }
        Ok(())
    }
}

/// The speculative single pass for `to_writer`, in bounded memory: a first
/// pass encodes every element into a reused [`CHUNK`] (checking that the
/// values are uniform, writing nothing); when all the data fit in
/// [`KEEP`] bytes it was kept and is written at once, otherwise a second
/// pass encodes the elements again into the chunk and writes each full chunk. `Ok(false)`:
/// not uniform, nothing written (the caller runs the exact passes).
fn one_pass_streamed<W: Write, T: ?Sized + Serialize>(
    writer: &mut W,
    value: &T,
    opts: &WriteOptions,
) -> Result<bool> {
    if let Some(nd) = top(value) {
        if raw_nd(writer, value, opts)? {
            return Ok(true);
        }
        let plain_nd = nd.plain() && nd.count().is_some_and(|n| n > 0);
        if plain_nd && opts.dtype.is_none() && opts.fortran_order.is_none() {
            // an n-d array of plain numbers in its own type and layout:
            // nothing can fail once the header is out, so there is nothing
            // to check first and the data is written in one walk
            return match one_pass_unchecked(writer, value, opts, WRITE_CHUNK)? {
                Unchecked::Written => Ok(true),
                Unchecked::WrongHeader { .. } | Unchecked::Redo => Err(Error::schema(
                    "internal: an n-d array of plain numbers was not written in one pass",
                )),
            };
        }
    }
    let mut out = Vec::new();
    // the checking pass keeps its chunks while they total at most KEEP
    // bytes: a small array is then written from them, in one walk; past
    // KEEP (or when the length hints claim more: then the pass hands over
    // no chunk and only checks plain numbers) the second walk writes
    let mut keep = Keep(Some(Vec::new()));
    let Some(spec) = single_pass(value, opts, &mut out, &mut keep)? else {
        return Ok(false);
    };
    let Keep(kept) = keep;
    let Some((header, data_len)) = checked_header(&spec) else {
        return Ok(false);
    };
    let (head, _) = header.encode(opts.version)?;
    if write_kept(writer, &head, kept, &out, data_len)? {
        return Ok(true);
    }
    writer.write_all(&head)?;
    out.clear();
    let mut direct = Direct::new(&mut *writer, opts, Some(head), WRITE_CHUNK);
    // the dtype and tape of the checking pass: nothing inferred again
    let again = speculate(value, opts.align, &mut out, &mut direct, Some(spec.tape))?;
    match again {
        Speculation::Uniform(s)
            if s.len == data_len
                && *s.descr() == header.descr
                && s.shape == header.shape
                && s.fortran == header.fortran_order =>
        {
            direct.end(&out)?;
            Ok(true)
        }
        _ => Err(Error::schema(
            "the values changed between the checking pass and the writing pass",
        )),
    }
}

/// Writes the header and the data a checking pass kept (its chunks, then
/// what was left in its buffer), when that is all of it (`data_len`
/// bytes); `false`: nothing written.
fn write_kept<W: Write>(
    writer: &mut W,
    head: &[u8],
    kept: Option<Vec<u8>>,
    rest: &[u8],
    data_len: usize,
) -> Result<bool> {
    let Some(kept) = kept.filter(|k| k.len().saturating_add(rest.len()) == data_len) else {
        return Ok(false);
    };
    writer.write_all(head)?;
    write_data(writer, &kept, head)?;
    write_data_at(writer, [rest, &[]], head, kept.len())?;
    Ok(true)
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
pub(crate) fn one_pass_unchecked<W: Write, T: ?Sized + Serialize>(
    writer: &mut W,
    value: &T,
    opts: &WriteOptions,
    window: usize,
) -> Result<Unchecked> {
    if raw_nd(writer, value, opts)? {
        return Ok(Unchecked::Written);
    }
    let mut direct = Direct::new(&mut *writer, opts, None, window);
    let mut out = Vec::new();
    let spec = single_pass(value, opts, &mut out, &mut direct)?;
    let (Some(spec), Some(guessed)) = (spec, direct.head.take()) else {
        return Ok(Unchecked::Redo);
    };
    let Some((header, _)) = checked_header(&spec) else {
        return Ok(Unchecked::Redo);
    };
    let (head, _) = header.encode(opts.version)?;
    direct.finish(&out, &head)?;
    if head == guessed {
        Ok(Unchecked::Written)
    } else {
        Ok(Unchecked::WrongHeader {
            guessed: guessed.len(),
            head,
        })
    }
}

/// Writes an n-d array that offers its data as bytes (an `NdArray` of
/// plain or complex numbers, see [`probe::raw`]) in its own type and
/// layout: the header, then those bytes as they are; no element is walked
/// and nothing is copied. `false`: `value` is anything else, or the
/// options ask for another dtype or layout; nothing was written.
fn raw_nd<W: Write, T: ?Sized + Serialize>(
    writer: &mut W,
    value: &T,
    opts: &WriteOptions,
) -> Result<bool> {
    if opts.dtype.is_some() || opts.fortran_order.is_some() {
        return Ok(false);
    }
    let written = probe::raw(value, |nd, bytes| {
        let malformed = || Error::schema("internal: an n-d array's bytes and shape differ");
        let descr: Dtype = format!("<{}", nd.code).parse().map_err(|_| malformed())?;
        let fortran = fortran_header(nd.fortran, &nd.dims);
        let header = Header::new(descr, fortran, nd.dims.clone());
        if header.data_len()? != bytes.len() as u64 {
            return Err(malformed());
        }
        let (head, _) = header.encode(opts.version)?;
        writer.write_all(&head)?;
        write_data(writer, bytes, &head)
    })?;
    Ok(written.is_some())
}

/// The flavour that writes as it goes ([`one_pass_unchecked`], the
/// writing pass of [`one_pass_streamed`]): chunks of `window` bytes
/// written after `head`; without one, the header for the shape the length
/// hints claim is written first, when the dtype is known.
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
    /// The header written.
    head: Option<Vec<u8>>,
    /// Data bytes written after the header.
    offset: usize,
    /// Bytes of a chunk.
    window: usize,
    /// Data bytes held back after `offset`: they do not reach the next
    /// page boundary.
    carry: Vec<u8>,
}

/// The page size [`Direct`] aligns its writes to (the common one; a larger
/// page is a multiple of it).
const PAGE: usize = 4096;

impl<'w, 'o, W: Write> Direct<'w, 'o, W> {
    fn new(
        writer: &'w mut W,
        opts: &'o WriteOptions,
        head: Option<Vec<u8>>,
        window: usize,
    ) -> Self {
        Direct {
            writer,
            opts,
            head,
            offset: 0,
            window,
            carry: Vec::new(),
        }
    }

    /// Writes the data held back and then `rest` (what the pass left in its
    /// buffer) after the header written.
    fn end(mut self, rest: &[u8]) -> Result<()> {
        let head = self.head.take().unwrap_or_default();
        self.finish(rest, &head)
    }

    /// Writes the data held back and then `rest` (what the pass left in its
    /// buffer); `head` names the records in an error.
    fn finish(&mut self, rest: &[u8], head: &[u8]) -> Result<()> {
        write_data_at(&mut *self.writer, [&self.carry, rest], head, self.offset)?;
        self.offset = self
            .offset
            .saturating_add(self.carry.len())
            .saturating_add(rest.len());
        self.carry.clear();
        Ok(())
    }
}

impl<W: Write> crate::ser::spec::Output for Direct<'_, '_, W> {
    fn window(&self) -> Option<usize> {
        Some(self.window)
    }
    fn dtype(
        &mut self,
        dt: Dtype,
        hinted: &[u64],
        fortran: bool,
        _: &mut Vec<u8>,
    ) -> Result<Dtype> {
        if self.head.is_some() {
            return Ok(dt);
        }
        let (header, whole) = hinted_header(dt, hinted, fortran);
        let (h, _) = header.encode(self.opts.version)?;
        self.writer.write_all(&h)?;
        self.head = Some(h);
        Ok(whole.unwrap_or(header.descr))
    }
    fn chunk(&mut self, data: &[u8]) -> Result<()> {
        // `dtype` wrote the header before the first chunk
        let head = self
            .head
            .take()
            .ok_or_else(|| Error::schema("internal: no header"))?;
        // positions in the destination: written up to `done`, held up to
        // `start`, this chunk up to `end`
        let done = head.len().saturating_add(self.offset);
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

/// Writes the data section after `head`; an I/O error names the record
/// whose bytes were being written.
fn write_data<W: Write>(writer: &mut W, data: &[u8], head: &[u8]) -> Result<()> {
    write_data_at(writer, [data, &[]], head, 0)
}

/// Writes part of the data section, `parts` one after the other (in one
/// vectored write where the writer takes it), starting `offset` bytes into
/// the data section.
pub(crate) fn write_data_at<W: Write>(
    writer: &mut W,
    parts: [&[u8]; 2],
    head: &[u8],
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
        // only on failure: the record size, from the header just written
        let opts = ReadOptions::new()
            .max_elements(u64::MAX)
            .max_header_size(usize::MAX);
        let row = crate::header_read::parse_header(head, &opts)
            .ok()
            .filter(|p| !p.header.shape.is_empty())
            .and_then(|p| crate::de::stream::row_size(&p.header).ok());
        // no record for a row of 0 bytes (checked_div gives None)
        let record = row.and_then(|row| offset.saturating_add(done).checked_div(row));
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
fn c_order_header(dt: &Dtype, outer: &[u64]) -> Header {
    let mut shape = outer.to_vec();
    let mut cur = dt;
    while let Dtype::Subarray(base, dims) = cur {
        shape.extend_from_slice(dims);
        cur = base;
    }
    Header::new(cur.clone(), false, shape)
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
/// the crate docs for the type mapping). Nothing is written if the value
/// cannot be laid out as an array.
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
    /// Writes `value` as `.npy` with these options. On an error in the
    /// values nothing is written: errors are found before the header goes
    /// out (for more than 64 KiB of data by a checking pass over the
    /// values; the data is then encoded again and written a chunk of about
    /// 1 MiB at a time, so memory stays bounded; an n-d array of real
    /// numbers or booleans cannot fail and is written in one walk). A
    /// `Serialize` impl that
    /// gives different values on the second pass is reported as an error
    /// after part of the array was written.
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
        if one_pass_streamed(&mut writer, value, self)? {
            return Ok(());
        }
        self.write_exact(&mut writer, value, true)
    }

    /// Like [`to_writer`](WriteOptions::to_writer), but never holds the
    /// data in memory (except for Fortran order, which needs the whole
    /// array): the values are walked once to plan the layout and once more to
    /// encode them through a chunk of whole records. An error in the second
    /// walk leaves a partly written array behind, so the caller must be able
    /// to drop what was written (an npz member is abandoned).
    pub(crate) fn to_writer_streamed<W: Write, T: ?Sized + Serialize>(
        &self,
        mut writer: W,
        value: &T,
    ) -> Result<()> {
        self.write_exact(&mut writer, value, false)
    }

    /// The exact path: pass 1 ([`plan`]), then the header and the data the
    /// planned walk encodes, written a chunk at a time (Fortran order: the
    /// whole array built in memory and reordered first). With `checked_first`,
    /// nothing is written unless every value encodes: the values of a given
    /// dtype are encoded in memory when small, else checked by a first walk
    /// whose chunks are kept up to [`KEEP`] bytes (as the inferred dtypes'
    /// are), written from them when that is all the data.
    fn write_exact<W: Write, T: ?Sized + Serialize>(
        &self,
        writer: &mut W,
        value: &T,
        checked_first: bool,
    ) -> Result<()> {
        let plan = plan(value, self)?;
        let header = header_for(&plan, self);
        let check = checked_first && !plan.checked;
        let data_len = header.data_len()?;
        if header.fortran_order || (check && data_len <= CHUNK as u64) {
            // built in memory: errors surface before anything is written
            let bytes = self.encode_vec(value, &plan, &header)?;
            writer.write_all(&bytes)?;
            return Ok(());
        }
        let (head, _) = header.encode(self.version)?;
        if check {
            let mut out = Vec::new();
            let mut keep = Keep(Some(Vec::new()));
            encode_planned(value, plan.tape(), &plan.shape, None, &mut out, &mut keep)?;
            if write_kept(writer, &head, keep.0, &out, usize_len(data_len)?)? {
                return Ok(());
            }
        }
        // `to_writer` in the larger chunks of the writing passes; the
        // others in chunks that bound memory
        let window = if checked_first { WRITE_CHUNK } else { CHUNK };
        writer.write_all(&head)?;
        let mut out = Vec::new();
        let mut direct = Direct::new(&mut *writer, self, Some(head), window);
        encode_planned(value, plan.tape(), &plan.shape, None, &mut out, &mut direct)?;
        direct.end(&out)
    }

    /// [`to_writer`](WriteOptions::to_writer) into a file that is deleted
    /// if this fails (`to_path`'s temporary file): nothing needs checking
    /// before the first byte, so uniform values are encoded and written in
    /// one walk. Otherwise the file is emptied and the exact path writes it.
    pub(crate) fn to_temp_file<T: ?Sized + Serialize>(
        &self,
        file: &mut std::fs::File,
        value: &T,
    ) -> Result<()> {
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
        self.to_writer_streamed(file, value)
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
        let mut out = Vec::new();
        if raw_nd(&mut out, value, self)? {
            return Ok(out);
        }
        if let Some(bytes) = one_pass(value, self) {
            return Ok(bytes);
        }
        let plan = plan(value, self)?;
        let header = header_for(&plan, self);
        self.encode_vec(value, &plan, &header)
    }

    fn encode_vec<T: ?Sized + Serialize>(
        &self,
        value: &T,
        plan: &WritePlan,
        header: &Header,
    ) -> Result<Vec<u8>> {
        let data_len = usize_len(header.data_len()?)?;
        let (head, _) = header.encode(self.version)?;
        let head_len = head.len();
        head_len
            .checked_add(data_len)
            .ok_or_else(|| Error::limit("array is too large for this machine"))?;
        let mut out = head;
        if encode_planned(value, plan.tape(), &plan.shape, None, &mut out, &mut Whole)? != data_len
        {
            return Err(Error::schema("internal: the data and its header differ"));
        }
        if header.fortran_order {
            // the elements arrive in C order (an n-d array's too)
            let data = out.get_mut(head_len..).unwrap_or_default();
            let c_order = data.to_vec();
            reorder(
                &c_order,
                data,
                &header.shape,
                header.descr.itemsize(),
                false,
            );
        }
        Ok(out)
    }
}

/// Writes a record (or any element) at a time, holding only one encoded
/// record in memory.
///
/// The dtype is given up front or taken from the first record (string
/// widths included: give the dtype when strings vary in length). The first
/// axis is the number of records; a record that is itself an array adds
/// axes (`[f64; 3]` records give shape `(N, 3)`).
///
/// * On a `Write + Seek` writer ([`NpyWriter::new`], [`NpyWriter::with_dtype`])
///   the header is written with length 0 and patched in place by
///   [`finish`](NpyWriter::finish); numpy's growth spaces keep the header
///   size fixed.
/// * On a plain `Write` ([`NpyWriter::with_len`]) the length is promised up
///   front; a record beyond it is refused and `finish` fails if fewer came.
/// * [`NpyWriter::append`] adds records to an existing C-order file.
///
/// Until [`finish`](NpyWriter::finish) a new file on a seekable writer has a
/// placeholder header whose first axis is `None` (`'shape': (None,)`), which
/// every reader refuses, numpy (`shape is not valid`) and this crate alike:
/// a writer dropped without `finish` leaves a file nobody mistakes for a
/// complete one. On a plain `Write` with a promised length an unfinished
/// file is shorter than its header says and readers refuse it as
/// truncated. [`append`](NpyWriter::append) keeps the file's header until
/// `finish` patches it, so an interrupted append leaves the old array.
/// [`finish_durable`](NpyWriter::finish_durable) also syncs the file, for
/// appends that survive a crash or a power loss.
///
/// A record that fails to encode is not written and not counted; the writer
/// stays usable. When the writer itself fails (an I/O error) while a record
/// is written, a seekable writer moves back over its partly written bytes
/// and stays usable (the next record overwrites them); any other writer
/// then refuses further records and `finish`, since they would land at the
/// wrong offsets. Records are encoded with the writer's dtype, converting
/// values exactly like [`WriteOptions::dtype`]. `fortran_order` does not
/// apply (records are always C order).
///
/// ```
/// use std::io::Cursor;
/// #[derive(serde::Serialize)]
/// struct P { id: u32, x: f64 }
/// let mut w = npy_serde::NpyWriter::new(Cursor::new(Vec::new())).unwrap();
/// for i in 0..3 {
///     w.serialize(&P { id: i, x: 0.5 }).unwrap();
/// }
/// assert_eq!(w.len(), 3);
/// let bytes = w.finish().unwrap().into_inner();
/// assert!(String::from_utf8_lossy(&bytes).contains("'shape': (3,), }"));
/// assert_eq!(bytes.len(), 128 + 3 * 12);
/// ```
#[must_use = "a writer must be finished: until finish() the file's header is a placeholder every reader refuses"]
pub struct NpyWriter<W: Write> {
    out: W,
    /// Dtype of one record (may be a subarray, folded into the shape).
    dtype: Option<Dtype>,
    align: bool,
    version: Option<(u8, u8)>,
    /// The promised number of records (plain `Write`).
    promised: Option<u64>,
    /// `promised`, or `u64::MAX` without one: the per-record path runs
    /// while `count < limit`, so its `count + 1` cannot wrap.
    limit: u64,
    /// Rewrites the header in place (seekable writers only).
    patch: Option<PatchFn<W>>,
    /// Stream position of the header.
    start: u64,
    /// Size of the written header, once written.
    header_len: Option<usize>,
    count: u64,
    scratch: Vec<u8>,
    /// The dtype compiled for encoding (set with the dtype).
    tape: Option<DtypeTree>,
    zero: bool,
    /// For `append`: the first record's inferred layout must match this.
    check_layout: bool,
    /// What only partly reached a writer that cannot take it back ("record
    /// 3", "the header"): the stream is broken, nothing more may be written.
    broken: Option<String>,
}

impl<W: Write> std::fmt::Debug for NpyWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NpyWriter")
            .field("dtype", &self.dtype)
            .field("count", &self.count)
            .field("promised", &self.promised)
            .finish_non_exhaustive()
    }
}

/// Rewrites `bytes` at `pos`, then seeks to `end`.
type PatchFn<W> = fn(&mut W, u64, &[u8], u64) -> std::io::Result<()>;

fn patch_at<W: Write + Seek>(w: &mut W, pos: u64, bytes: &[u8], end: u64) -> std::io::Result<()> {
    w.seek(SeekFrom::Start(pos))?;
    w.write_all(bytes)?;
    w.seek(SeekFrom::Start(end))?;
    Ok(())
}

impl<W: Write + Seek> NpyWriter<W> {
    /// A writer whose dtype comes from the first record; the length is
    /// patched into the header by [`finish`](NpyWriter::finish).
    ///
    /// ```
    /// let mut w = npy_serde::NpyWriter::new(std::io::Cursor::new(Vec::new())).unwrap();
    /// w.serialize(&(1u8, 2.0f32)).unwrap();
    /// assert_eq!(w.dtype().unwrap().to_string(), "[('f0', '|u1'), ('f1', '<f4')]");
    /// ```
    pub fn new(writer: W) -> Result<Self> {
        WriteOptions::new().npy_writer(writer)
    }

    /// A writer with a given record dtype.
    ///
    /// ```
    /// use npy_serde::{Dtype, NpyWriter, ScalarType};
    /// let dt = Dtype::scalar(ScalarType::Float(4));
    /// let mut w = NpyWriter::with_dtype(std::io::Cursor::new(Vec::new()), dt).unwrap();
    /// w.serialize(&1.5f64).unwrap();
    /// assert!(w.serialize(&0.1f64).is_err()); // not exact in f4; not counted
    /// assert_eq!(w.finish().unwrap().into_inner().len(), 128 + 4);
    /// ```
    pub fn with_dtype(writer: W, dtype: Dtype) -> Result<Self> {
        WriteOptions::new().dtype(dtype).npy_writer(writer)
    }
}

impl<W: Read + Write + Seek> NpyWriter<W> {
    /// Opens an existing C-order `.npy` file (at least one dimension) to
    /// add records at its end; [`finish`](NpyWriter::finish) patches the
    /// first-axis length in place. Records are written with the file's
    /// dtype; the first record's own layout must match it (same fields and
    /// types; strings no wider than the file's).
    ///
    /// ```
    /// use std::fs::OpenOptions;
    /// let path = std::env::temp_dir().join(format!("npy_serde_doc_append_{}.npy", std::process::id()));
    /// std::fs::write(&path, npy_serde::to_vec(&[1u32, 2]).unwrap()).unwrap();
    /// let file = OpenOptions::new().read(true).write(true).open(&path).unwrap();
    /// let mut w = npy_serde::NpyWriter::append(file).unwrap();
    /// w.serialize(&3u32).unwrap();
    /// w.finish().unwrap();
    /// assert_eq!(std::fs::read(&path).unwrap(), npy_serde::to_vec(&[1u32, 2, 3]).unwrap());
    /// # std::fs::remove_file(&path).unwrap();
    /// ```
    pub fn append(mut file: W) -> Result<Self> {
        file.seek(SeekFrom::Start(0))?;
        let opts = ReadOptions::new().max_header_size(usize::MAX);
        let parsed = crate::header_read::read_header(&mut file, &opts)?;
        let header = parsed.header;
        let Some((&count, rest)) = header.shape.split_first() else {
            return Err(Error::schema("cannot append to a 0-d array (shape ())"));
        };
        if header.fortran_order && rest.iter().any(|&d| d != 1) && header.shape.len() >= 2 {
            return Err(Error::schema(
                "cannot append to a Fortran-order array (records are appended along the first axis of C order)",
            ));
        }
        let end = u64::try_from(parsed.data_offset)
            .ok()
            .and_then(|o| o.checked_add(header.data_len().ok()?))
            .ok_or_else(|| Error::data("array size overflows"))?;
        let file_len = file.seek(SeekFrom::End(0))?;
        if file_len < end {
            return Err(Error::data(format!(
                "cannot append: the file has {file_len} bytes but its header describes {end}"
            )));
        }
        // bytes past the end are what an interrupted append wrote but never
        // counted (its header was not patched): the new records overwrite them
        file.seek(SeekFrom::Start(end))?;
        // The header must be rewritable in place for any length.
        for n in [count, u64::MAX] {
            let mut shape = header.shape.clone();
            if let Some(first) = shape.first_mut() {
                *first = n;
            }
            let h = Header::new(header.descr.clone(), false, shape);
            let (bytes, _) = h.encode(Some(parsed.version))?;
            if bytes.len() != parsed.data_offset {
                return Err(Error::header(format!(
                    "cannot append: the header ({} bytes) would be rewritten as {} bytes (it was not written with numpy's growth spaces or in numpy's exact text)",
                    parsed.data_offset,
                    bytes.len()
                )));
            }
        }
        let dtype = if rest.is_empty() {
            header.descr.clone()
        } else {
            Dtype::subarray(header.descr.clone(), rest.to_vec())?
        };
        let mut w = NpyWriter::build(file, Some(dtype), &WriteOptions::new(), None);
        w.patch = Some(patch_at::<W>);
        w.start = 0;
        w.header_len = Some(parsed.data_offset);
        w.version = Some(parsed.version);
        w.count = count;
        w.check_layout = true;
        Ok(w)
    }
}

impl WriteOptions {
    /// A streaming [`NpyWriter`] on a seekable writer with these options
    /// (`dtype`, `align`, `version`; `fortran_order` does not apply).
    ///
    /// ```
    /// let opts = npy_serde::WriteOptions::new().version(3, 0);
    /// let mut w = opts.npy_writer(std::io::Cursor::new(Vec::new())).unwrap();
    /// w.serialize(&1.0f64).unwrap();
    /// let bytes = w.finish().unwrap().into_inner();
    /// assert_eq!(&bytes[6..8], &[3, 0]);
    /// ```
    pub fn npy_writer<W: Write + Seek>(&self, mut writer: W) -> Result<NpyWriter<W>> {
        let start = writer.stream_position()?;
        let mut w = NpyWriter::build(writer, self.dtype.clone(), self, None);
        w.patch = Some(patch_at::<W>);
        w.start = start;
        Ok(w)
    }

    /// A streaming [`NpyWriter`] on any writer, for exactly `len` records.
    ///
    /// ```
    /// use npy_serde::{Dtype, ScalarType, WriteOptions};
    /// let opts = WriteOptions::new().dtype(Dtype::scalar(ScalarType::UInt(1)));
    /// let mut w = opts.npy_writer_with_len(Vec::new(), 2);
    /// w.serialize(&7u8).unwrap();
    /// assert!(w.finish().is_err()); // one record short
    /// ```
    pub fn npy_writer_with_len<W: Write>(&self, writer: W, len: u64) -> NpyWriter<W> {
        NpyWriter::build(writer, self.dtype.clone(), self, Some(len))
    }
}

impl<W: Write> NpyWriter<W> {
    fn build(out: W, dtype: Option<Dtype>, opts: &WriteOptions, promised: Option<u64>) -> Self {
        let dtype = match (dtype, opts.align) {
            (Some(d), true) => d.aligned().ok().or(Some(d)),
            (d, _) => d,
        };
        let mut w = NpyWriter {
            out,
            dtype: None,
            align: opts.align,
            version: opts.version,
            promised,
            limit: promised.unwrap_or(u64::MAX),
            patch: None,
            start: 0,
            header_len: None,
            count: 0,
            scratch: Vec::new(),
            tape: None,
            zero: false,
            check_layout: false,
            broken: None,
        };
        if let Some(d) = dtype {
            w.set_dtype(d);
        }
        w
    }

    fn set_dtype(&mut self, dtype: Dtype) {
        self.scratch = vec![0; dtype.itemsize()];
        self.zero = dtype.has_gaps();
        self.tape = Some(DtypeTree::new(&dtype, false));
        self.dtype = Some(dtype);
    }

    /// A writer for exactly `len` records on a writer that cannot seek (a
    /// pipe, a compressed stream, an `.npz` member). With `dtype: None` the
    /// dtype comes from the first record.
    ///
    /// ```
    /// let mut w = npy_serde::NpyWriter::with_len(Vec::new(), None, 2);
    /// w.serialize(&[1u16, 2]).unwrap();
    /// w.serialize(&[3u16, 4]).unwrap();
    /// let bytes = w.finish().unwrap();
    /// assert!(String::from_utf8_lossy(&bytes).contains("{'descr': '<u2', 'fortran_order': False, 'shape': (2, 2), }"));
    /// ```
    pub fn with_len(writer: W, dtype: Option<Dtype>, len: u64) -> Self {
        let mut opts = WriteOptions::new();
        opts.dtype = dtype;
        opts.npy_writer_with_len(writer, len)
    }

    /// The number of records written so far (for `append`, including those
    /// already in the file).
    ///
    /// ```
    /// let mut w = npy_serde::NpyWriter::with_len(Vec::new(), None, 1);
    /// assert!(w.is_empty());
    /// w.serialize(&1i64).unwrap();
    /// assert_eq!(w.len(), 1);
    /// ```
    pub fn len(&self) -> u64 {
        self.count
    }

    /// Whether no record has been written (see [`len`](NpyWriter::len)).
    ///
    /// ```
    /// let mut w = npy_serde::NpyWriter::new(std::io::Cursor::new(Vec::new()))?;
    /// assert!(w.is_empty());
    /// assert!(w.serialize(&None::<u8>).is_err()); // refused: not counted
    /// assert!(w.is_empty());
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The record dtype, once known (given, or taken from the first record;
    /// see [`new`](NpyWriter::new)).
    ///
    /// ```
    /// #[derive(serde::Serialize)]
    /// struct P { id: u8, name: String }
    /// let mut w = npy_serde::NpyWriter::new(std::io::Cursor::new(Vec::new()))?;
    /// assert!(w.dtype().is_none()); // not known before the first record
    /// w.serialize(&P { id: 1, name: "abc".into() })?;
    /// assert_eq!(w.dtype().unwrap().to_string(), "[('id', '|u1'), ('name', '<U3')]");
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn dtype(&self) -> Option<&Dtype> {
        self.dtype.as_ref()
    }

    fn write_header(&mut self) -> Result<()> {
        let dtype = self.dtype.as_ref().ok_or_else(|| {
            Error::schema(
                "no records and no dtype; give the dtype with NpyWriter::with_dtype(w, Dtype::of::<T>()?)",
            )
        })?;
        let header = c_order_header(dtype, &[self.promised.unwrap_or(0)]);
        header.data_len()?;
        let (mut bytes, version) = header.encode(self.version)?;
        if self.patch.is_some() {
            // a seekable new file: `finish` patches the real length in
            bytes = unfinished(bytes);
        }
        if let Err(e) = self.out.write_all(&bytes) {
            // a partial header cannot be completed by writing it again
            let taken_back = self
                .patch
                .is_some_and(|patch| patch(&mut self.out, self.start, &[], self.start).is_ok());
            if !taken_back {
                self.broken = Some("the header".to_owned());
            }
            return Err(e.into());
        }
        self.header_len = Some(bytes.len());
        self.version = Some(version);
        Ok(())
    }

    /// Encodes one record and writes it. On an encoding error nothing is
    /// written and the record is not counted; the error names the record.
    ///
    /// ```
    /// let mut w = npy_serde::NpyWriter::with_len(Vec::new(), None, 2);
    /// w.serialize("ab").unwrap();
    /// let err = w.serialize("abc").unwrap_err(); // wider than the first record's '<U2'
    /// assert!(err.to_string().starts_with("record 1: value of 3 characters does not fit '<U2'; "));
    /// w.serialize("c").unwrap();
    /// assert_eq!(w.finish().unwrap(), npy_serde::to_vec(&["ab", "c"]).unwrap());
    /// ```
    pub fn serialize<T: ?Sized + Serialize>(&mut self, record: &T) -> Result<()> {
        let steady = self.broken.is_none()
            && !self.check_layout
            && self.header_len.is_some()
            && self.count < self.limit;
        match (steady, self.tape.as_mut()) {
            (true, Some(tape)) => {
                // the per-record path: no dtype to infer, no header to
                // write, no limit reached
                if self.zero {
                    self.scratch.fill(0);
                }
                let index = self.count;
                tape.encode(record, &mut self.scratch)
                    .map_err(|e| e.with_width_hint().at_record(index))?;
                self.write_record(index)
            }
            _ => self.serialize_first(record),
        }
    }

    /// Writes the encoded record in `scratch`.
    #[inline]
    fn write_record(&mut self, index: u64) -> Result<()> {
        if let Err(e) = self.out.write_all(&self.scratch) {
            self.take_back();
            return Err(Error::from(e).at_record(index));
        }
        // count < u64::MAX: both callers checked it (steady, serialize_first)
        self.count = self.count.wrapping_add(1);
        Ok(())
    }

    /// [`serialize`](NpyWriter::serialize) for the first record (the dtype
    /// to infer or check, the header to write) and the refusals.
    #[cold]
    #[inline(never)]
    fn serialize_first<T: ?Sized + Serialize>(&mut self, record: &T) -> Result<()> {
        let index = self.count;
        self.check_broken()?;
        if self.dtype.is_none() || self.check_layout {
            let mut slot = None;
            record
                .serialize(crate::ser::infer::Infer::new(&mut slot, false))
                .map_err(|e| e.at_record(index))?;
            let node = slot.ok_or_else(|| Error::schema("internal: nothing inferred"))?;
            let inferred = crate::ser::infer::node_to_dtype(&node, self.align)
                .map_err(|e| e.at_record(index))?;
            match &self.dtype {
                None => self.set_dtype(inferred),
                Some(d) => {
                    if !same_layout(&inferred, d) {
                        return Err(Error::schema(format!(
                            "appended records have dtype {inferred} but the file has {d}"
                        ))
                        .at_record(index));
                    }
                    self.check_layout = false;
                }
            }
        }
        if let Some(len) = self.promised {
            if self.count >= len {
                return Err(Error::schema(format!(
                    "more records than the {len} promised in the header"
                ))
                .at_record(index));
            }
        }
        if self.count == u64::MAX {
            return Err(Error::data("array size overflows").at_record(index));
        }
        if self.header_len.is_none() {
            self.write_header()?;
        }
        let tape = self
            .tape
            .as_mut()
            .ok_or_else(|| Error::schema("internal: no dtype"))?;
        if self.zero {
            self.scratch.fill(0);
        }
        tape.encode(record, &mut self.scratch)
            .map_err(|e| e.with_width_hint().at_record(index))?;
        self.write_record(index)
    }

    /// After a record was partly written: on a seekable writer, moves back
    /// to where the record started, so the next record overwrites its
    /// bytes (best effort: if even the seek fails, the next write fails too).
    /// On any other writer the stream is marked broken: later records
    /// would land at the wrong offsets.
    fn take_back(&mut self) {
        let taken_back = match (self.patch, self.header_len, &self.dtype) {
            (Some(patch), Some(head), Some(dtype)) => {
                let pos = u64::try_from(head).ok().and_then(|h| {
                    let data = self.count.checked_mul(dtype.itemsize() as u64)?;
                    self.start.checked_add(h)?.checked_add(data)
                });
                pos.is_some_and(|pos| patch(&mut self.out, pos, &[], pos).is_ok())
            }
            _ => false,
        };
        if !taken_back {
            self.broken = Some(format!("record {}", self.count));
        }
    }

    /// The error once a record was partly written and could not be taken back.
    fn check_broken(&self) -> Result<()> {
        match &self.broken {
            None => Ok(()),
            Some(what) => Err(Error::data(format!(
                "{what} was partly written when the writer failed and the writer cannot \
                 seek back over it; nothing more can be written to this stream"
            ))),
        }
    }

    /// Completes the file: writes the header if no record came, patches
    /// the length (seekable writers) or checks it (promised length), flushes,
    /// and returns the writer (positioned at the end of the array). Nothing
    /// is synced to the device: see [`finish_durable`](NpyWriter::finish_durable).
    ///
    /// ```
    /// let mut w = npy_serde::NpyWriter::with_len(Vec::new(), None, 2);
    /// w.serialize(&1u8).unwrap();
    /// let err = w.finish().unwrap_err();
    /// assert_eq!(err.to_string(), "the header promised 2 records, 1 were written");
    /// ```
    pub fn finish(self) -> Result<W> {
        let mut out = self.complete(|_, _| Ok(()))?;
        out.flush()?;
        Ok(out)
    }

    /// `finish` without the final flush: `before_patch` runs with the
    /// array's end once the data is written and before the header is
    /// patched (the durable variant syncs there).
    fn complete(
        mut self,
        before_patch: impl FnOnce(&mut W, u64) -> std::io::Result<()>,
    ) -> Result<W> {
        self.check_broken()?;
        if self.header_len.is_none() {
            self.write_header()?;
        }
        if let Some(len) = self.promised {
            if len != self.count {
                return Err(Error::data(format!(
                    "the header promised {len} records, {} were written",
                    self.count
                )));
            }
        }
        if let (Some(patch), Some(dtype), Some(old_len)) =
            (self.patch, self.dtype.as_ref(), self.header_len)
        {
            let header = c_order_header(dtype, &[self.count]);
            let (bytes, _) = header.encode(self.version)?;
            if bytes.len() != old_len {
                return Err(Error::header(format!(
                    "the header for {} records needs {} bytes but {old_len} were reserved; it cannot be patched in place",
                    self.count,
                    bytes.len()
                )));
            }
            let data = header.data_len()?;
            let end = u64::try_from(old_len)
                .ok()
                .and_then(|h| self.start.checked_add(h)?.checked_add(data))
                .ok_or_else(|| Error::data("array size overflows"))?;
            before_patch(&mut self.out, end)?;
            patch(&mut self.out, self.start, &bytes, end)?;
        }
        Ok(self.out)
    }
}

/// A count-0 header as the placeholder of a file `finish` has not patched:
/// the first axis is `None` (numpy: "shape is not valid"), three of the
/// growth spaces making room for it, so the size is the final header's.
fn unfinished(mut bytes: Vec<u8>) -> Vec<u8> {
    const AXIS: &[u8] = b"'shape': (";
    const ZERO: &[u8] = b"'shape': (0";
    let at = bytes.windows(ZERO.len()).rposition(|w| w == ZERO);
    let newline = bytes.len().checked_sub(1);
    if let (Some(at), Some(newline)) = (at, newline) {
        // the padding before the final newline is spaces (at least the 20
        // growth spaces of a count of 0)
        let digit = at.saturating_add(AXIS.len());
        bytes.drain(newline.saturating_sub(3)..newline);
        bytes.splice(digit..=digit, *b"None");
    }
    bytes
}

/// Storage whose data can be synced to the device and whose length can be
/// set: what [`NpyWriter::finish_durable`] needs. Implemented for
/// [`File`](std::fs::File), `&File`, `&mut` of any implementation and
/// [`BufWriter`](std::io::BufWriter) of one.
pub trait Durable: Write + Seek {
    /// Writes buffered data and syncs it to the device (`File::sync_data`).
    fn sync_data(&mut self) -> std::io::Result<()>;
    /// Sets the length, cutting off what follows (`File::set_len`).
    fn set_len(&mut self, len: u64) -> std::io::Result<()>;
}

impl Durable for std::fs::File {
    fn sync_data(&mut self) -> std::io::Result<()> {
        std::fs::File::sync_data(self)
    }
    fn set_len(&mut self, len: u64) -> std::io::Result<()> {
        std::fs::File::set_len(self, len)
    }
}

impl Durable for &std::fs::File {
    fn sync_data(&mut self) -> std::io::Result<()> {
        std::fs::File::sync_data(self)
    }
    fn set_len(&mut self, len: u64) -> std::io::Result<()> {
        std::fs::File::set_len(self, len)
    }
}

impl<D: Durable + ?Sized> Durable for &mut D {
    fn sync_data(&mut self) -> std::io::Result<()> {
        (**self).sync_data()
    }
    fn set_len(&mut self, len: u64) -> std::io::Result<()> {
        (**self).set_len(len)
    }
}

impl<D: Durable> Durable for std::io::BufWriter<D> {
    fn sync_data(&mut self) -> std::io::Result<()> {
        self.flush()?;
        self.get_mut().sync_data()
    }
    fn set_len(&mut self, len: u64) -> std::io::Result<()> {
        self.flush()?;
        self.get_mut().set_len(len)
    }
}

impl<W: Durable> NpyWriter<W> {
    /// [`finish`](NpyWriter::finish) for a file that must survive a crash
    /// or a power loss: syncs the records to the device, cuts off anything
    /// after them (the remains of an interrupted append), patches the
    /// header and syncs it. Killed at any moment, the file holds the old
    /// array or the new one (never a header claiming records the disk lacks);
    /// bytes past the array's end, if any, are records an interrupted append
    /// wrote but never counted, which readers ignore and the next append
    /// overwrites. The two syncs cost a device flush each: appending 100
    /// records of 49 bytes to a file took 0.24 ms with `finish_durable`
    /// against 0.055 ms with `finish` (medians of 50, ext4 on a virtual
    /// disk; a disk that really flushes costs more). The bench group
    /// `append` in `tests/benches/npy.rs` compares the two.
    ///
    /// ```
    /// let path = std::env::temp_dir().join(format!("npy_serde_doc_durable_{}.npy", std::process::id()));
    /// std::fs::write(&path, npy_serde::to_vec(&[1u32, 2])?)?;
    /// let file = std::fs::OpenOptions::new().read(true).write(true).open(&path)?;
    /// let mut w = npy_serde::NpyWriter::append(file)?;
    /// w.serialize(&3u32)?;
    /// w.finish_durable()?;
    /// assert_eq!(npy_serde::from_path::<Vec<u32>>(&path)?, [1, 2, 3]);
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn finish_durable(self) -> Result<W> {
        let mut out = self.complete(|out, end| {
            out.sync_data()?;
            out.set_len(end)
        })?;
        out.sync_data()?;
        Ok(out)
    }
}

/// Whether an appended record's inferred dtype fits the file's: the same
/// fields, types and sizes, strings no wider, byte order ignored.
fn same_layout(inferred: &Dtype, file: &Dtype) -> bool {
    use crate::dtype::ScalarType as T;
    match (inferred, file) {
        (Dtype::Scalar(a), Dtype::Scalar(b)) => match (a.ty(), b.ty()) {
            (T::Unicode(x), T::Unicode(y)) | (T::Bytes(x), T::Bytes(y)) => x <= y,
            (x, y) => x == y,
        },
        (Dtype::Subarray(a, da), Dtype::Subarray(b, db)) => da == db && same_layout(a, b),
        (Dtype::Record(a), Dtype::Record(b)) => {
            a.fields().len() == b.fields().len()
                && a.fields()
                    .iter()
                    .zip(b.fields())
                    .all(|(x, y)| x.name() == y.name() && same_layout(x.dtype(), y.dtype()))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod one_pass_tests;
