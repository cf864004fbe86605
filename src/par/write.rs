//! Writing on every core: [`par_to_vec`], [`par_to_writer`],
//! [`par_to_path`] and the same on [`WriteOptions`].
//!
//! The slice splits into chunks of records, encoded on the threads of
//! rayon's pool under one header for the whole slice: the bytes `to_vec`
//! writes for it. The layout (the dtype of one record, the axes inside it
//! included) is the one the sequential writer finds for the first chunk
//! (its single pass, else its pass 1); every chunk's records are then
//! encoded straight into their places by the writer's element encoder
//! with that dtype: in strict mode for an inferred dtype (only what
//! inference would make this very dtype of, so `to_vec` infers the same
//! for them), a given one as `to_vec` encodes it. When some chunks do not
//! encode so (strings of other widths in other chunks), the dtype `to_vec`
//! infers for the whole slice is inferred from them and the first chunk,
//! merged by the one rule of inference (the same layout, strings widened:
//! `ser/infer.rs`), and every chunk is encoded again with it. Anything
//! else (a value that does not encode, a given dtype that does not fit,
//! Fortran order) is left to the sequential writer, so the errors (the
//! first failing record in file order, with its index in the whole slice)
//! are its own: there is one implementation of every message.
//!
//! `par_to_vec` allocates its output once, zeroed by the system (its pages
//! are first touched by the thread that fills them, in parallel).
//! `par_to_writer` writes nothing before every chunk is known to encode: a
//! first parallel pass checks the values, a second encodes them again a
//! wave of chunks at a time, writing one wave while the next is encoded
//! (memory: two waves). `par_to_path` writes into `to_path`'s temporary
//! file as it goes, without the checking pass.

// Counts and sizes here grow with the values written: every operation is
// checked or proven bounded.
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::io::{Seek, SeekFrom, Write};
use std::path::Path;

use rayon::prelude::*;
use serde::Serialize;

use super::{CHUNK_BYTES, Fallible, per_wave};
use crate::error::Result;
use crate::format::dtype::{Dtype, at_least_one};
use crate::npy::atomic::write_atomically;
use crate::npy::writer::{c_order_header, changed, write_data_at};
use crate::options::WriteOptions;
use crate::ser::encode::DtypeTree;
use crate::ser::infer::{Infer, Node, node_to_dtype};
use crate::ser::nd::subarray_of;
use crate::ser::spec::Val;

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
        let made = chunks.and_then(|c| c.agreeing(|layout| c.fill(layout)));
        made.map(|(_, out)| out).or_else(|()| self.to_vec(records))
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
        let checked = Chunks::of(self, records).map(|c| (c.check(), c));
        let Some((Ok(layout), chunks)) = checked else {
            return self.to_writer(writer, records);
        };
        chunks
            .write_waves(&layout, &mut writer)?
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
        // into the temporary file, whose contents are thrown away on
        // failure: written as encoded in the layout of the first chunk, or
        // when a later chunk does not encode in it, in that of the checking
        // pass, else by the sequential writer; what a failed try wrote is of
        // no use, the next starts again
        write_atomically(path.as_ref(), self.durable, |file| {
            for layout in [Chunks::first, Chunks::check] {
                if let Ok(layout) = layout(&chunks) {
                    if chunks.write_waves(&layout, file)?.is_ok() {
                        return Ok(());
                    }
                }
                file.set_len(0)?;
                file.seek(SeekFrom::Start(0))?;
            }
            self.to_temp_file(file, &Val(records))
        })
    }
}

/// A slice of records split into chunks, to write with some options.
struct Chunks<'a, T> {
    opts: &'a WriteOptions,
    records: &'a [T],
    /// Records per chunk (never 0).
    per: usize,
}

/// How every chunk's records are encoded, and the whole file's header.
struct Layout {
    /// The dtype of one record, the axes inside it included (`('<f4',
    /// (3,))` for `[f32; 3]` records); never of 0 bytes.
    record: Dtype,
    /// Whether the records are encoded in strict mode (an inferred dtype).
    strict: bool,
    head: Vec<u8>,
}

impl Layout {
    /// The layout of `records` records of `record`, the header encoded as
    /// `to_vec` encodes it.
    fn new(record: Dtype, strict: bool, records: usize, opts: &WriteOptions) -> Fallible<Layout> {
        if record.itemsize() == 0 {
            return Err(());
        }
        let header = c_order_header(&record, &[records as u64]);
        let (head, _) = header.encode(opts.version).map_err(drop)?;
        Ok(Layout {
            record,
            strict,
            head,
        })
    }

    /// Bytes of the data of `records` records.
    fn data_len(&self, records: usize) -> Fallible<usize> {
        self.record.itemsize().checked_mul(records).ok_or(())
    }

    /// Encodes `chunk` into `out` (zeroed, exactly its bytes); `Err` when a
    /// record does not encode in this layout.
    fn encode<T: Serialize>(&self, chunk: &[T], out: &mut [u8]) -> Fallible<()> {
        let mut tree = DtypeTree::new(&self.record, self.strict);
        let row = self.record.itemsize();
        tree.encode_rows(chunk, out, row).map_err(drop)
    }

    /// `chunk` encoded into a buffer of its own.
    fn encoded<T: Serialize>(&self, chunk: &[T]) -> Fallible<Vec<u8>> {
        let mut out = vec![0u8; self.data_len(chunk.len())?];
        self.encode(chunk, &mut out)?;
        Ok(out)
    }
}

/// What a pass over every chunk made, and the chunks whose records did
/// not encode in its layout.
type Pass<'a, R, T> = Fallible<(R, Vec<&'a [T]>)>;

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

    /// The layout of the first chunk's records as the sequential writer
    /// lays them out, found on this thread.
    fn first(&self) -> Fallible<Layout> {
        let first = self.records.get(..self.per).ok_or(())?;
        let header = self.opts.header_of(&Val(first)).map_err(drop)?;
        let inner = match header.shape.split_first() {
            Some((&n, inner)) if n == first.len() as u64 && !header.fortran_order => inner,
            _ => return Err(()),
        };
        let record = subarray_of(header.descr, inner).map_err(drop)?;
        let strict = self.opts.dtype.is_none();
        Layout::new(record, strict, self.records.len(), self.opts)
    }

    /// The layout `to_vec` infers for the whole slice when the chunks
    /// `differ` did not encode in the first chunk's: inferred from them
    /// and the first chunk (the others encoded in its dtype, which they
    /// do not widen), merged as inference merges records, encoded as the
    /// exact pass encodes (not strict). `Err` for a given dtype (never
    /// widened) or values that do not infer.
    fn inferred(&self, differ: &[&[T]]) -> Fallible<Layout> {
        if self.opts.dtype.is_some() {
            return Err(());
        }
        let first = self.records.get(..self.per).ok_or(())?;
        let chunks = rayon::iter::once(first).chain(differ.par_iter().copied());
        let elems: Vec<Node> = chunks
            .map(|chunk| {
                let mut root = None;
                Infer::new(&mut root, true).walk(&chunk).map_err(drop)?;
                match root {
                    Some(Node::Array { elem, .. }) => elem.ok_or(()),
                    _ => Err(()),
                }
            })
            .collect::<Fallible<_>>()?;
        let mut merged = None;
        for elem in elems {
            crate::ser::infer::put(&mut merged, elem).map_err(drop)?;
        }
        let record = node_to_dtype(&merged.ok_or(())?, self.opts.align).map_err(drop)?;
        Layout::new(record, false, self.records.len(), self.opts)
    }

    /// Runs `pass` in the layout of the first chunk; when some chunks do
    /// not encode in it, once more in the [`inferred`](Self::inferred)
    /// one. The layout used and what the pass made.
    fn agreeing<R>(&self, pass: impl Fn(&Layout) -> Pass<'a, R, T>) -> Fallible<(Layout, R)> {
        let layout = self.first()?;
        let (made, differ) = pass(&layout)?;
        if differ.is_empty() {
            return Ok((layout, made));
        }
        let layout = self.inferred(&differ)?;
        match pass(&layout)? {
            (made, differ) if differ.is_empty() => Ok((layout, made)),
            _ => Err(()),
        }
    }

    /// The file of `layout`, every chunk encoded in its place, and the
    /// chunks that did not encode in it.
    fn fill(&self, layout: &Layout) -> Pass<'a, Vec<u8>, T> {
        let data_len = layout.data_len(self.records.len())?;
        let total = layout.head.len().checked_add(data_len).ok_or(())?;
        // zeroed by the system: each page is first touched by the thread
        // that fills it
        let mut out = vec![0u8; total];
        crate::huge_pages::advise(&mut out[..]);
        let (head, data) = out.split_at_mut(layout.head.len());
        head.copy_from_slice(&layout.head);
        let differ = data
            .par_chunks_mut(layout.data_len(self.per)?)
            .zip(self.records.par_chunks(self.per))
            .filter_map(|(slot, chunk)| layout.encode(chunk, slot).err().map(|()| chunk))
            .collect();
        Ok((out, differ))
    }

    /// Encodes every chunk and keeps only the layout that writes the
    /// whole slice as `to_vec` does, or `Err` when a value does not
    /// encode.
    fn check(&self) -> Fallible<Layout> {
        let (layout, ()) = self.agreeing(|layout| {
            let chunks = self.records.par_chunks(self.per);
            let differ = chunks.filter(|chunk| layout.encoded(chunk).is_err());
            Ok(((), differ.collect()))
        })?;
        Ok(layout)
    }

    /// Writes the file of `layout` a wave of chunks at a time: one wave is
    /// written while the next is encoded. The outer error is the writer's;
    /// `Ok(Err(()))` when a chunk did not encode in `layout` (what was
    /// written is of no use).
    fn write_waves<W: Write>(&self, layout: &Layout, writer: &mut W) -> Result<Fallible<()>> {
        writer.write_all(&layout.head)?;
        let wave = per_wave(self.per);
        let mut ready: Vec<Vec<u8>> = Vec::new();
        let mut offset = 0usize;
        for records in self.records.chunks(wave) {
            let mut next: Fallible<Vec<Vec<u8>>> = Err(());
            let written = rayon::in_place_scope(|s| {
                s.spawn(|_| {
                    let chunks = records.par_chunks(self.per);
                    next = chunks.map(|chunk| layout.encoded(chunk)).collect();
                });
                put(writer, &ready, layout.record.itemsize(), &mut offset)
            });
            written?;
            let Ok(pieces) = next else {
                return Ok(Err(()));
            };
            ready = pieces;
        }
        put(writer, &ready, layout.record.itemsize(), &mut offset)?;
        Ok(Ok(()))
    }
}

/// Writes `pieces` of data after `offset` bytes of data written (records
/// of `row` bytes).
fn put<W: Write>(writer: &mut W, pieces: &[Vec<u8>], row: usize, offset: &mut usize) -> Result<()> {
    for piece in pieces {
        write_data_at(writer, [piece, &[]], row, *offset)?;
        *offset = offset.saturating_add(piece.len());
    }
    Ok(())
}
