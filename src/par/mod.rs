//! Reading and writing on every core (feature `rayon`): [`par_from_slice`]
//! and [`par_from_path`] here, [`par_to_vec`], [`par_to_writer`] and
//! [`par_to_path`] in `par/write.rs`.
//!
//! The first axis of an array splits into runs of whole rows (records, or
//! rows of a 2-d file) that decode independently, on the threads of
//! rayon's pool (so `RAYON_NUM_THREADS` and a caller's own pool entered
//! with `install` are honoured). Each row is decoded straight into its
//! place in the output (rayon's indexed `par_extend` writes the output's
//! reserved memory in place): no row is moved after it is decoded, and the
//! threads share the page faults of the fresh output. Memory is the output
//! (plus, from a file, two waves of file bytes: the next wave is read while
//! the current one decodes), never a second copy of the data; a
//! Fortran-order file keeps its one reordering copy, as `from_slice` does.
//!
//! The values are those of [`from_slice::<Vec<T>>`](crate::from_slice), and
//! so are the errors: when any row fails, the whole input is read again by
//! the sequential path, whose error (the first failing record in file
//! order, with its message) is returned. Failing is the rare case, and this
//! way there is one implementation of every message. A failure is plain
//! data flow, local to the call: the first row is decoded before the
//! others (a type that does not fit the file fails there, and nothing is
//! read in parallel); a row that fails later is marked in a flag of the
//! call and stands in as the first row decoded again (rayon's in-place
//! collection takes a value for every row), and the decoding from a file
//! stops at the end of that wave. The rows after a failure are at most
//! one parallel read of wasted work, less than the sequential read that
//! follows. A panic of the caller's own `Deserialize` is not caught here:
//! rayon carries it to the caller (its `join` resumes a panic of either
//! side once both have finished).
//!
//! ```
//! #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
//! struct Particle {
//!     id: u64,
//!     pos: [f64; 3],
//! }
//! let particles: Vec<Particle> = (0..10_000)
//!     .map(|i| Particle { id: i, pos: [i as f64; 3] })
//!     .collect();
//! let bytes = npy_serde::to_vec(&particles)?;
//! let back: Vec<Particle> = npy_serde::par_from_slice(&bytes)?;
//! assert_eq!(back, particles);
//! # Ok::<(), npy_serde::Error>(())
//! ```

// Sizes and counts here come from untrusted headers: every operation is
// checked or proven bounded.
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::fs::File;
use std::io::{BufReader, Read};
use std::num::NonZeroUsize;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use serde::de::DeserializeOwned;

use crate::de::array::{ArrayDe, fortran_to_c};
use crate::de::element::{ElementDe, RowDe};
use crate::de::plan::Plan;
use crate::de::stream::row_size;
use crate::de::{Bytes, Cfg, check_readable};
use crate::error::Result;
use crate::format::header::Header;
use crate::format::header_read::{parse_header, read_header};
use crate::options::ReadOptions;

mod write;
pub use write::{par_to_path, par_to_vec, par_to_writer};

pub(crate) use crate::array::bulk::CHUNK_BYTES;

/// Chunks per thread in a wave (read from a file, or encoded while the
/// last one is written), so that a slow chunk does not idle the other
/// threads.
const CHUNKS_PER_THREAD: usize = 4;

/// Items in a wave of chunks of `per_chunk` items: [`CHUNKS_PER_THREAD`]
/// chunks per thread of the current pool. The one wave rule of decoding
/// from a file and of `par_to_writer`.
fn per_wave(per_chunk: usize) -> usize {
    per_chunk
        .saturating_mul(CHUNKS_PER_THREAD)
        .saturating_mul(rayon::current_num_threads())
}

/// Reads an `.npy` array's elements of the first axis into a `Vec`, on
/// all cores: the same values and errors as
/// [`from_slice::<Vec<T>>`](crate::from_slice).
///
/// `T` is what one element of the first axis reads as: a record, a row
/// type (`[f32; 3]` for an `(n, 3)` file), a number. A 0-d file has one
/// element, as for `from_slice`.
///
/// ```
/// let rows: Vec<[f32; 3]> = (0..100_000).map(|i| [i as f32, 0.5, -1.0]).collect();
/// let bytes = npy_serde::to_vec(&rows)?; // '<f4', shape (100000, 3)
/// assert_eq!(npy_serde::par_from_slice::<[f32; 3]>(&bytes)?, rows);
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn par_from_slice<T: DeserializeOwned + Send>(bytes: &[u8]) -> Result<Vec<T>> {
    ReadOptions::new().par_from_slice(bytes)
}

/// Reads an `.npy` file's elements of the first axis into a `Vec`, on all
/// cores: the same values and errors as
/// [`from_path::<Vec<T>>`](crate::from_path). The file is read in large
/// calls, a wave ahead of the decoding, never more than it holds.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("npy_serde_doc_par_from_path_{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("t.npy");
/// let t: Vec<f64> = (0..100_000).map(|i| i as f64 * 0.25).collect();
/// npy_serde::to_path(&path, &t)?;
/// assert_eq!(npy_serde::par_from_path::<f64>(&path)?, t);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn par_from_path<T: DeserializeOwned + Send>(path: impl AsRef<Path>) -> Result<Vec<T>> {
    ReadOptions::new().par_from_path(path)
}

impl ReadOptions {
    /// [`par_from_slice`] with these options.
    ///
    /// ```
    /// let bytes = npy_serde::to_vec(&vec![1i64 << 60 | 1; 3])?;
    /// let x = npy_serde::ReadOptions::new().lossy(true).par_from_slice::<f64>(&bytes)?;
    /// assert_eq!(x, [(1u64 << 60) as f64; 3]);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn par_from_slice<T: DeserializeOwned + Send>(&self, bytes: &[u8]) -> Result<Vec<T>> {
        let parsed = parse_header(bytes, self)?;
        let data = bytes.get(parsed.data_offset..).unwrap_or_default();
        let rows = Rows::of(&parsed.header, data.len()).ok_or(());
        rows.and_then(|rows| rows.decode_all(data, self.cfg()))
            .or_else(|()| self.from_slice(bytes))
    }

    /// [`par_from_path`] with these options.
    ///
    /// ```
    /// let dir = std::env::temp_dir().join(format!("npy_serde_doc_opts_par_from_path_{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("x.npy");
    /// npy_serde::to_path(&path, &vec![0.1f64; 5])?;
    /// let x = npy_serde::ReadOptions::new().lossy(true).par_from_path::<f32>(&path)?;
    /// assert_eq!(x, [0.1f32; 5]);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn par_from_path<T: DeserializeOwned + Send>(
        &self,
        path: impl AsRef<Path>,
    ) -> Result<Vec<T>> {
        let path = path.as_ref();
        let sequential = || self.from_path(path);
        let Ok(file) = File::open(path) else {
            return sequential();
        };
        let present = file.metadata().map_or(0, |m| m.len());
        let mut reader = BufReader::with_capacity(64 << 10, file);
        let Ok(parsed) = read_header(&mut reader, self) else {
            return sequential();
        };
        let present = usize::try_from(present.saturating_sub(parsed.data_offset as u64))
            .unwrap_or(usize::MAX);
        // The file's own size, not the header's claim, decides what is read.
        let rows = Rows::of(&parsed.header, present).ok_or(());
        rows.and_then(|rows| rows.decode_stream(&mut reader, self.cfg()))
            .or_else(|()| sequential())
    }
}

/// How the first axis of an array splits into chunks of whole rows.
struct Rows<'h> {
    header: &'h Header,
    /// Bytes of one row.
    row: NonZeroUsize,
    /// Rows per chunk (never 0).
    chunk_rows: usize,
    /// Bytes of data in all: exactly what the header promises.
    total: usize,
}

impl<'h> Rows<'h> {
    /// The split of an array whose data has `present` bytes, or `None` when
    /// the sequential path should read it: a 0-d array, zero-sized rows,
    /// fewer than two chunks, or data that is not exactly what the header
    /// promises (the sequential path says what is wrong).
    fn of(header: &'h Header, present: usize) -> Option<Rows<'h>> {
        check_readable(&header.descr).ok()?;
        let row = NonZeroUsize::new(row_size(header).ok()?)?;
        let total = usize::try_from(header.data_len().ok()?).ok()?;
        let split = !header.shape.is_empty() && total >= 2 * CHUNK_BYTES;
        (split && total == present).then(|| Rows {
            header,
            row,
            chunk_rows: (CHUNK_BYTES / row).max(1),
            total,
        })
    }

    /// Decodes all of `data` (exactly [`total`](Self::total) bytes).
    fn decode_all<T: DeserializeOwned + Send>(&self, data: &[u8], cfg: Cfg) -> Fallible<Vec<T>> {
        let reordered;
        // rows scattered over the whole data (Fortran order of two or more
        // dimensions): reordered into C order first
        let data = if self.header.column_major() {
            let h = self.header;
            reordered = fortran_to_c(data, &h.shape, h.descr.itemsize()).map_err(drop)?;
            &reordered[..]
        } else {
            data
        };
        let plan = Plan::new(&self.header.descr);
        let mut out = self.output::<T>()?;
        self.decode_into(&plan, cfg, data, &mut out)?;
        Ok(out)
    }

    /// Decodes the data from `reader` (positioned at its first byte), a
    /// wave at a time: the next wave is read while this one decodes.
    fn decode_stream<T: DeserializeOwned + Send>(
        &self,
        reader: &mut (impl Read + Send),
        cfg: Cfg,
    ) -> Fallible<Vec<T>> {
        if self.header.column_major() {
            let mut data = Vec::new();
            fill(reader, &mut data, self.total)?;
            return self.decode_all(&data, cfg);
        }
        let plan = Plan::new(&self.header.descr);
        let mut out = self.output::<T>()?;
        let wave_bytes = per_wave(self.chunk_rows).saturating_mul(self.row.get());
        let (mut current, mut next) = (Vec::new(), Vec::new());
        fill(reader, &mut current, wave_bytes.min(self.total))?;
        let mut left = self.total.saturating_sub(current.len());
        while !current.is_empty() {
            let want = wave_bytes.min(left);
            let (read, decoded) = rayon::join(
                || fill(reader, &mut next, want),
                || self.decode_into(&plan, cfg, &current, &mut out),
            );
            read.and(decoded)?;
            left = left.saturating_sub(next.len());
            std::mem::swap(&mut current, &mut next);
        }
        Ok(out)
    }

    /// The output vector, with room for every row (the rows are bytes
    /// present: the header's claim was checked against them); `Err` when
    /// that much memory is not there (the sequential path grows as rows
    /// arrive and says what is wrong).
    fn output<T>(&self) -> Fallible<Vec<T>> {
        let mut out = Vec::new();
        out.try_reserve_exact(self.total / self.row).map_err(drop)?;
        crate::huge_pages::advise(out.spare_capacity_mut());
        Ok(out)
    }

    /// Decodes the whole rows of `data` on the pool's threads, each
    /// straight into its place after the rows already in `out`; `Err` when
    /// any row fails (which one does not matter: the caller reads
    /// everything again sequentially).
    ///
    /// A piece of work (at least a chunk of rows) decodes its rows in one
    /// loop with one element deserializer, set up once per piece
    /// (`map_init`), as the sequential run hands its rows out.
    fn decode_into<T: DeserializeOwned + Send>(
        &self,
        plan: &Plan,
        cfg: Cfg,
        data: &[u8],
        out: &mut Vec<T>,
    ) -> Fallible<()> {
        let (first, rest) = data.split_at_checked(self.row.get()).ok_or(())?;
        let failed = AtomicBool::new(false);
        let row = RowDecoder {
            plan,
            cfg,
            inner: self.header.shape.get(1..).unwrap_or_default(),
            first,
            failed: &failed,
        };
        // the first row alone: a type that does not fit fails here
        out.push(row.try_decode(&mut row.element(), first)?);
        let rows = rest.par_chunks_exact(self.row.get());
        out.par_extend(
            rows.with_min_len(self.chunk_rows)
                .map_init(|| row.element(), |at, bytes| row.decode(at, bytes)),
        );
        match failed.into_inner() {
            false => Ok(()),
            true => Err(()),
        }
    }
}

/// How one row of the first axis decodes as `T`.
struct RowDecoder<'a> {
    plan: &'a Plan,
    cfg: Cfg,
    /// The axes inside a row (none for a record or scalar).
    inner: &'a [u64],
    /// The first row, known to decode: what a failing row stands in as.
    first: &'a [u8],
    /// Whether a row failed.
    failed: &'a AtomicBool,
}

impl<'a> RowDecoder<'a> {
    /// The element deserializer a piece of work reuses for its rows.
    fn element(&self) -> ElementDe<'a, 'a> {
        ElementDe::new(self.plan, Bytes::Borrowed(&[]), self.cfg)
    }

    /// One row (`bytes`, exactly a row) as `T`, as the sequential path
    /// hands it over: a record or scalar is one element (`at`, given the
    /// row's bytes), a row of a file of more dimensions an array of the
    /// inner axes.
    #[inline]
    fn try_decode<T: DeserializeOwned>(
        &self,
        at: &mut ElementDe<'a, 'a>,
        bytes: &'a [u8],
    ) -> Fallible<T> {
        let decoded = if self.inner.is_empty() {
            at.set_bytes(Bytes::Borrowed(bytes));
            T::deserialize(RowDe(at))
        } else {
            let bytes = Bytes::Borrowed(bytes);
            T::deserialize(ArrayDe::new(self.plan, self.inner, bytes, self.cfg, false))
        };
        decoded.map_err(drop)
    }

    /// [`try_decode`](Self::try_decode); a failing row is marked in the
    /// call's flag and stands in as the first row, decoded again (rayon's
    /// in-place collection takes a value for every row; the output is
    /// dropped).
    #[inline]
    fn decode<T: DeserializeOwned>(&self, at: &mut ElementDe<'a, 'a>, bytes: &'a [u8]) -> T {
        self.try_decode(at, bytes)
            .unwrap_or_else(|()| self.stand_in(at))
    }

    #[cold]
    #[inline(never)]
    fn stand_in<T: DeserializeOwned>(&self, at: &mut ElementDe<'a, 'a>) -> T {
        self.failed.store(true, Ordering::Relaxed);
        match self.try_decode(at, self.first) {
            Ok(v) => v,
            // the first row decoded a moment ago: only a `Deserialize`
            // that fails on bytes it took before gets here, a broken type
            #[allow(clippy::panic)]
            Err(()) => panic!("a Deserialize failed on bytes it read before (par_from_slice)"),
        }
    }
}

/// Replaces `buf` with the next `want` bytes of `reader`; `Err` when the
/// stream fails or ends before them.
fn fill(reader: &mut impl Read, buf: &mut Vec<u8>, want: usize) -> Fallible<()> {
    buf.clear();
    buf.try_reserve_exact(want).map_err(drop)?;
    match reader.by_ref().take(want as u64).read_to_end(buf) {
        Ok(got) if got == want => Ok(()),
        _ => Err(()),
    }
}

/// A step of the parallel path: `Err(())` sends the caller to the
/// sequential path, which then says what is wrong (one implementation of
/// every message).
type Fallible<T> = std::result::Result<T, ()>;
