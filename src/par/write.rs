//! Writing on every core: [`par_to_vec`], [`par_to_writer`],
//! [`par_to_path`] and the same on [`WriteOptions`].
//!
//! The slice splits into chunks of records, each encoded by the sequential
//! writer ([`WriteOptions::to_vec`] of the chunk) on a thread of rayon's
//! pool; the chunks' data sections, joined in order under one header for
//! the whole slice, are the bytes `to_vec` writes for it. Each chunk's own
//! header says what its records became (dtype and the axes inside a
//! record), so chunks that agree are joined as they are. When they do not
//! (strings of other widths in other chunks), the widest dtype of all the
//! chunks is what `to_vec` infers for the whole slice: every chunk is
//! encoded again with it as a given dtype. Anything else (a value that
//! does not encode, chunks whose layouts cannot be joined, records aligned
//! with `align(true)` whose strings differ in width between chunks, Fortran
//! order) is left to the sequential writer, so the errors (the first
//! failing record in file order, with its index in the whole slice) are
//! its own: there is one implementation of every message.
//!
//! `par_to_vec` allocates its output once, zeroed by the system (its pages
//! are first touched by the thread that fills them, in parallel). The first
//! chunk's header gives the layout; each chunk's records are then encoded
//! straight into their places by the writer's element encoder, and only a
//! chunk that does not fit the layout that way (wider strings, say) is
//! encoded by the sequential writer as above and copied. `par_to_writer` writes nothing before
//! every chunk is known to encode: a first parallel pass checks the values,
//! a second encodes them again a wave of chunks at a time, writing one wave
//! while the next is encoded (memory: two waves). `par_to_path` writes into
//! `to_path`'s temporary file as it goes, without the checking pass.

// Counts and sizes here grow with the values written: every operation is
// checked or proven bounded.
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::io::{Seek, SeekFrom, Write};
use std::path::Path;

use rayon::prelude::*;
use serde::Serialize;

use super::{CHUNK_BYTES, CHUNKS_PER_THREAD, Fallible};
use crate::error::{Error, Result};
use crate::format::dtype::at_least_one;
use crate::format::dtype::{Dtype, Field, Record, Scalar, ScalarType};
use crate::format::header::Header;
use crate::format::header_read::parse_header;
use crate::npy::atomic::write_atomically;
use crate::npy::writer::{with_axes, write_data_at};
use crate::options::{ReadOptions, WriteOptions};
use crate::ser::encode::DtypeTree;

/// Writes `records` as `.npy` into a new `Vec<u8>`, encoding chunks of
/// them on all cores: the same bytes and errors as
/// [`to_vec`](crate::to_vec) of the slice.
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Particle {
///     id: u64,
///     pos: [f64; 3],
///     name: String,
/// }
/// let particles: Vec<Particle> = (0..20_000)
///     .map(|i| Particle { id: i, pos: [i as f64; 3], name: format!("p{i}") })
///     .collect();
/// // string widths are taken over all the records, as by to_vec
/// assert_eq!(npy_serde::par_to_vec(&particles)?, npy_serde::to_vec(&particles)?);
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn par_to_vec<T: Serialize + Sync>(records: &[T]) -> Result<Vec<u8>> {
    WriteOptions::new().par_to_vec(records)
}

/// Writes `records` as `.npy` to `writer`, encoding chunks of them on all
/// cores: the same bytes and errors as [`to_writer`](crate::to_writer) of
/// the slice, and likewise nothing is written when a value fails to
/// encode.
///
/// ```
/// let rows: Vec<[f32; 3]> = (0..100_000).map(|i| [i as f32, 0.5, -1.0]).collect();
/// let mut out = Vec::new();
/// npy_serde::par_to_writer(&mut out, &rows)?;
/// assert_eq!(out, npy_serde::to_vec(&rows)?);
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn par_to_writer<W: Write, T: Serialize + Sync>(writer: W, records: &[T]) -> Result<()> {
    WriteOptions::new().par_to_writer(writer, records)
}

/// Writes `records` as an `.npy` file at `path`, atomically as
/// [`to_path`](crate::to_path) does, encoding chunks of them on all cores:
/// the same bytes and errors.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("npy_serde_doc_par_to_path_{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("t.npy");
/// let t: Vec<f64> = (0..100_000).map(|i| i as f64 * 0.25).collect();
/// npy_serde::par_to_path(&path, &t)?;
/// assert_eq!(std::fs::read(&path)?, npy_serde::to_vec(&t)?);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn par_to_path<T: Serialize + Sync>(path: impl AsRef<Path>, records: &[T]) -> Result<()> {
    WriteOptions::new().par_to_path(path, records)
}

impl WriteOptions {
    /// [`par_to_vec`] with these options: the same bytes and errors as
    /// [`to_vec`](WriteOptions::to_vec).
    ///
    /// ```
    /// use npy_serde::WriteOptions;
    /// let xs: Vec<i64> = (0..100_000).collect();
    /// let i4 = WriteOptions::new().dtype("'>i4'".parse()?);
    /// assert_eq!(i4.par_to_vec(&xs)?, i4.to_vec(&xs)?);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn par_to_vec<T: Serialize + Sync>(&self, records: &[T]) -> Result<Vec<u8>> {
        let chunks = Chunks::of(self, records).ok_or(());
        chunks
            .and_then(|c| c.to_vec())
            .or_else(|()| self.to_vec(records))
    }

    /// [`par_to_writer`] with these options: the same bytes and errors as
    /// [`to_writer`](WriteOptions::to_writer).
    ///
    /// ```
    /// use npy_serde::WriteOptions;
    /// #[derive(serde::Serialize)]
    /// struct R { a: u8, b: f64 }
    /// let rs: Vec<R> = (0..50_000).map(|i| R { a: i as u8, b: 0.5 }).collect();
    /// let aligned = WriteOptions::new().align(true);
    /// let mut out = Vec::new();
    /// aligned.par_to_writer(&mut out, &rs)?;
    /// assert_eq!(out, aligned.to_vec(&rs)?);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn par_to_writer<W: Write, T: Serialize + Sync>(
        &self,
        mut writer: W,
        records: &[T],
    ) -> Result<()> {
        let checked = Chunks::of(self, records).map(|c| (c.check(self), c));
        let Some((Ok((opts, layout)), chunks)) = checked else {
            return self.to_writer(writer, records);
        };
        chunks
            .write_waves(&opts, &layout, &mut writer)?
            .map_err(|()| changed())
    }

    /// [`par_to_path`] with these options: the same bytes and errors as
    /// [`to_path`](WriteOptions::to_path).
    ///
    /// ```
    /// let dir = std::env::temp_dir().join(format!("npy_serde_doc_opts_par_to_path_{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("x.npy");
    /// let opts = npy_serde::WriteOptions::new().version(3, 0);
    /// opts.par_to_path(&path, &vec![0.5f32; 200_000])?;
    /// assert_eq!(std::fs::read(&path)?, opts.to_vec(&vec![0.5f32; 200_000])?);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn par_to_path<T: Serialize + Sync>(
        &self,
        path: impl AsRef<Path>,
        records: &[T],
    ) -> Result<()> {
        let Some(chunks) = Chunks::of(self, records) else {
            return self.to_path(path, records);
        };
        write_atomically(path.as_ref(), self.durable, |file| {
            if chunks.write_unchecked(file)?.is_ok() {
                return Ok(());
            }
            // what was written is of no use: the sequential writer starts again
            file.set_len(0)?;
            file.seek(SeekFrom::Start(0))?;
            self.to_temp_file(file, &crate::ser::spec::Val(records))
        })
    }
}

/// The error of a `Serialize` impl that gave other values to the writing
/// pass than to the checking pass (as `to_writer` reports it).
fn changed() -> Error {
    Error::schema("the values changed between the checking pass and the writing pass")
}

/// A slice of records split into chunks, to write with some options.
struct Chunks<'a, T> {
    opts: &'a WriteOptions,
    records: &'a [T],
    /// Records per chunk (never 0).
    per: usize,
}

/// What a chunk's records became: the dtype and shape of its header.
#[derive(PartialEq)]
struct Kind {
    descr: Dtype,
    /// The axes inside a record (`[3]` for `[f32; 3]` records).
    inner: Vec<u64>,
}

/// One chunk as the sequential writer encoded it.
struct Piece {
    kind: Kind,
    bytes: Vec<u8>,
    /// Where the data starts in `bytes`.
    data_offset: usize,
}

impl Piece {
    fn data(&self) -> &[u8] {
        self.bytes.get(self.data_offset..).unwrap_or_default()
    }
}

/// The whole file's header and the bytes of one record.
struct Layout {
    kind: Kind,
    head: Vec<u8>,
    /// Bytes of one record (never 0).
    row: usize,
}

impl Layout {
    /// The layout of `records` records like the `count` of `piece`, the
    /// header encoded as `to_vec` encodes it.
    fn of(piece: &Piece, count: usize, records: usize, opts: &WriteOptions) -> Fallible<Layout> {
        let len = piece.data().len();
        let row = len.checked_div(count).filter(|&r| r > 0);
        let row = row
            .filter(|r| r.checked_mul(count) == Some(len))
            .ok_or(())?;
        let mut shape = Vec::with_capacity(piece.kind.inner.len().saturating_add(1));
        shape.push(records as u64);
        shape.extend_from_slice(&piece.kind.inner);
        let header = Header::new(piece.kind.descr.clone(), false, shape);
        let (head, _) = header.encode(opts.version).map_err(drop)?;
        let kind = Kind {
            descr: header.descr,
            inner: piece.kind.inner.clone(),
        };
        Ok(Layout { kind, head, row })
    }

    /// Bytes of the data of `records` records.
    fn data_len(&self, records: usize) -> Fallible<usize> {
        self.row.checked_mul(records).ok_or(())
    }

    /// Whether `piece` holds `records` records of this layout.
    fn holds(&self, piece: &Piece, records: usize) -> bool {
        piece.kind == self.kind && self.data_len(records) == Ok(piece.data().len())
    }
}

/// The chunks whose records did not come out in the layout tried.
type Differ = Vec<Kind>;

/// The kinds of the chunks that came out otherwise than the layout tried
/// (`Some` from a chunk), or `Ok(())` when none did.
fn differing(
    chunks: impl ParallelIterator<Item = Fallible<Option<Kind>>>,
) -> Fallible<std::result::Result<(), Differ>> {
    let differ: Differ = chunks
        .filter_map(Fallible::transpose)
        .collect::<Fallible<_>>()?;
    Ok(if differ.is_empty() {
        Ok(())
    } else {
        Err(differ)
    })
}

impl<'a, T: Serialize + Sync> Chunks<'a, T> {
    /// The split of `records`, or `None` when the sequential writer should
    /// write them: fewer than two chunks, or Fortran order.
    fn of(opts: &'a WriteOptions, records: &'a [T]) -> Option<Self> {
        // the records' size in memory stands for their size encoded
        let per = (CHUNK_BYTES / at_least_one(size_of::<T>())).max(1);
        let split = opts.fortran_order != Some(true)
            && records.len().checked_div(per).is_some_and(|c| c >= 2);
        split.then_some(Chunks { opts, records, per })
    }

    /// `chunk` encoded with `opts` by the sequential writer.
    fn encode(&self, opts: &WriteOptions, chunk: &[T]) -> Fallible<Piece> {
        let bytes = opts.to_vec(chunk).map_err(drop)?;
        let trusted = ReadOptions::new()
            .max_elements(u64::MAX)
            .max_header_size(usize::MAX);
        let parsed = parse_header(&bytes, &trusted).map_err(drop)?;
        let header = parsed.header;
        let inner = match header.shape.split_first() {
            Some((&n, inner)) if n == chunk.len() as u64 && !header.fortran_order => inner,
            _ => return Err(()),
        };
        let kind = Kind {
            inner: inner.to_vec(),
            descr: header.descr,
        };
        Ok(Piece {
            kind,
            bytes,
            data_offset: parsed.data_offset,
        })
    }

    /// The layout of the first chunk's records with `opts`, encoded on
    /// this thread.
    fn first(&self, opts: &WriteOptions) -> Fallible<Layout> {
        let first = self.records.get(..self.per).ok_or(())?;
        let piece = self.encode(opts, first)?;
        Layout::of(&piece, first.len(), self.records.len(), opts)
    }

    /// Runs `pass` in the layout of the first chunk; when some chunks
    /// differ, once more with the widest dtype of them all given, which is
    /// what `to_vec` infers for the whole slice. The options and layout
    /// used, and what the pass made.
    fn agreeing<R>(
        &self,
        opts: &WriteOptions,
        pass: impl Fn(&WriteOptions, &Layout) -> Fallible<std::result::Result<R, Differ>>,
    ) -> Fallible<(WriteOptions, Layout, R)> {
        let layout = self.first(opts)?;
        let differ = match pass(opts, &layout)? {
            Ok(made) => return Ok((opts.clone(), layout, made)),
            Err(differ) => differ,
        };
        let wider = widest(opts, &layout, &differ)?;
        let layout = self.first(&wider)?;
        let made = pass(&wider, &layout)?.map_err(drop)?;
        Ok((wider, layout, made))
    }

    /// [`WriteOptions::par_to_vec`]; `Err` sends the caller to `to_vec`.
    fn to_vec(&self) -> Fallible<Vec<u8>> {
        let (_, _, out) = self.agreeing(self.opts, |opts, layout| self.fill(opts, layout))?;
        Ok(out)
    }

    /// The file of `layout` with every chunk encoded with `opts` in its
    /// place, or the kinds of the chunks that came out otherwise.
    ///
    /// A chunk's records are encoded straight into their place by the
    /// writer's element encoder with the record's dtype: in strict mode
    /// for an inferred dtype (only what inference would make this very
    /// dtype of, so `to_vec` infers the same for them), a given one as
    /// `to_vec` encodes it. A chunk where that fails (wider strings, other
    /// types) is encoded by the sequential writer and copied into place
    /// when it holds the layout.
    fn fill(
        &self,
        opts: &WriteOptions,
        layout: &Layout,
    ) -> Fallible<std::result::Result<Vec<u8>, Differ>> {
        let kind = &layout.kind;
        let record = with_axes(kind.descr.clone(), &kind.inner).map_err(drop)?;
        let direct = (record.itemsize() == layout.row).then_some(record);
        let strict = opts.dtype.is_none();
        let data_len = layout.data_len(self.records.len())?;
        let total = layout.head.len().checked_add(data_len).ok_or(())?;
        // zeroed by the system: each page is first touched by the thread
        // that fills it
        let mut out = vec![0u8; total];
        crate::huge_pages::advise(&mut out[..]);
        let (head, data) = out.split_at_mut(layout.head.len());
        head.copy_from_slice(&layout.head);
        let chunks = data
            .par_chunks_mut(layout.data_len(self.per)?)
            .zip(self.records.par_chunks(self.per));
        let filled = differing(chunks.map(|(slot, chunk)| {
            if let Some(record) = &direct {
                let mut tree = DtypeTree::new(record, strict);
                if tree.encode_rows(chunk, slot, layout.row).is_ok() {
                    return Ok(None);
                }
                slot.fill(0);
            }
            let piece = self.encode(opts, chunk)?;
            if !layout.holds(&piece, chunk.len()) {
                return Ok(Some(piece.kind));
            }
            slot.copy_from_slice(piece.data());
            Ok(None)
        }))?;
        Ok(filled.map(|()| out))
    }

    /// Encodes every chunk with `opts` and keeps only what its records
    /// became: the options and layout that write the whole slice as
    /// `to_vec` does, or `Err` when a value does not encode.
    fn check(&self, opts: &WriteOptions) -> Fallible<(WriteOptions, Layout)> {
        let (opts, layout, ()) = self.agreeing(opts, |opts, layout| {
            differing(self.records.par_chunks(self.per).map(|chunk| {
                let piece = self.encode(opts, chunk)?;
                Ok((!layout.holds(&piece, chunk.len())).then_some(piece.kind))
            }))
        })?;
        Ok((opts, layout))
    }

    /// Writes the file of `layout`, every chunk encoded with `opts`, a
    /// wave of chunks at a time: one wave is written while the next is
    /// encoded. The outer error is the writer's; `Ok(Err(()))` when a chunk
    /// did not encode to `layout` (what was written is of no use).
    fn write_waves<W: Write>(
        &self,
        opts: &WriteOptions,
        layout: &Layout,
        writer: &mut W,
    ) -> Result<Fallible<()>> {
        writer.write_all(&layout.head)?;
        let wave = self
            .per
            .saturating_mul(CHUNKS_PER_THREAD)
            .saturating_mul(rayon::current_num_threads());
        let mut ready: Vec<Piece> = Vec::new();
        let mut offset = 0usize;
        for records in self.records.chunks(wave) {
            let mut next: Fallible<Vec<Piece>> = Err(());
            let written = rayon::in_place_scope(|s| {
                s.spawn(|_| {
                    next = records
                        .par_chunks(self.per)
                        .map(|chunk| {
                            let piece = self.encode(opts, chunk)?;
                            layout.holds(&piece, chunk.len()).then_some(piece).ok_or(())
                        })
                        .collect();
                });
                put(writer, &ready, layout, &mut offset)
            });
            written?;
            let Ok(pieces) = next else {
                return Ok(Err(()));
            };
            ready = pieces;
        }
        put(writer, &ready, layout, &mut offset)?;
        Ok(Ok(()))
    }

    /// [`WriteOptions::par_to_path`]'s pass into the temporary file, whose
    /// contents are thrown away on failure: written as encoded in the
    /// layout of the first chunk, or when a later chunk's differs, in that
    /// of the checking pass. `Ok(Err(()))`: the sequential writer must
    /// write the file.
    fn write_unchecked(&self, file: &mut std::fs::File) -> Result<Fallible<()>> {
        let Ok(layout) = self.first(self.opts) else {
            return Ok(Err(()));
        };
        if self.write_waves(self.opts, &layout, file)?.is_ok() {
            return Ok(Ok(()));
        }
        let Ok((opts, layout)) = self.check(self.opts) else {
            return Ok(Err(()));
        };
        file.set_len(0)?;
        file.seek(SeekFrom::Start(0))?;
        self.write_waves(&opts, &layout, file)
    }
}

/// `opts` with the widest dtype of `layout` and the `differ` chunks
/// given; `Err` when their layouts cannot be joined, or when joining them
/// is not what `to_vec` would do (a given dtype is never widened; aligned
/// records are left to it).
fn widest(opts: &WriteOptions, layout: &Layout, differ: &[Kind]) -> Fallible<WriteOptions> {
    if opts.align || opts.dtype.is_some() {
        return Err(());
    }
    let mut descr = layout.kind.descr.clone();
    for kind in differ {
        if kind.inner != layout.kind.inner {
            return Err(());
        }
        descr = widen(&descr, &kind.descr).ok_or(())?;
    }
    let given = with_axes(descr, &layout.kind.inner).map_err(drop)?;
    Ok(opts.clone().dtype(given))
}

/// Writes the data of `pieces` after `offset` bytes of data written.
fn put<W: Write>(
    writer: &mut W,
    pieces: &[Piece],
    layout: &Layout,
    offset: &mut usize,
) -> Result<()> {
    for piece in pieces {
        write_data_at(writer, [piece.data(), &[]], &layout.head, *offset)?;
        *offset = offset.saturating_add(piece.data().len());
    }
    Ok(())
}

/// The dtype `to_vec` infers for values of the packed dtypes `a` and `b`
/// together: the same layout with every string as wide as the wider of
/// the two, fields moved by the widths gained before them; `None` when the
/// layouts differ otherwise.
fn widen(a: &Dtype, b: &Dtype) -> Option<Dtype> {
    match (a, b) {
        _ if a == b => Some(a.clone()),
        (Dtype::Scalar(x), Dtype::Scalar(y)) if x.order() == y.order() => {
            let ty = match (x.ty(), y.ty()) {
                (ScalarType::Unicode(m), ScalarType::Unicode(n)) => ScalarType::Unicode(m.max(n)),
                (ScalarType::Bytes(m), ScalarType::Bytes(n)) => ScalarType::Bytes(m.max(n)),
                _ => return None,
            };
            Some(Dtype::Scalar(Scalar::new(ty, x.order())))
        }
        (Dtype::Subarray(x, dx), Dtype::Subarray(y, dy)) if dx == dy => {
            Dtype::subarray(widen(x, y)?, dx.clone()).ok()
        }
        (Dtype::Record(x), Dtype::Record(y)) if x.fields().len() == y.fields().len() => {
            let (mut end_x, mut end_y, mut end) = (0usize, 0usize, 0usize);
            let mut fields = Vec::with_capacity(x.fields().len());
            for (fx, fy) in x.fields().iter().zip(y.fields()) {
                // the same gap (a `Padding` field) before each
                let gap = fx.offset().checked_sub(end_x)?;
                if fx.name() != fy.name() || fx.title() != fy.title() {
                    return None;
                }
                if fy.offset().checked_sub(end_y)? != gap {
                    return None;
                }
                let dtype = widen(fx.dtype(), fy.dtype())?;
                let offset = end.checked_add(gap)?;
                end_x = fx.offset().checked_add(fx.dtype().itemsize())?;
                end_y = fy.offset().checked_add(fy.dtype().itemsize())?;
                end = offset.checked_add(dtype.itemsize())?;
                let field = Field::new(fx.name(), dtype, offset);
                fields.push(match fx.title() {
                    Some(t) => field.with_title(t),
                    None => field,
                });
            }
            let tail = x.itemsize().checked_sub(end_x)?;
            if y.itemsize().checked_sub(end_y)? != tail {
                return None;
            }
            Record::new(fields, end.checked_add(tail)?)
                .ok()
                .map(Dtype::Record)
        }
        _ => None,
    }
}
