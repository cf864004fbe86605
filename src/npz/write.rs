//! [`NpzWriter`]: members written one after another straight into the zip
//! entry, with numpy's member options.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::collections::HashSet;
use std::io::{Seek, Write};

use serde::Serialize;

use crate::error::{Error, Result};
use crate::format::dtype::Dtype;
use crate::format::pyrepr::PyStr;
use crate::npy::npy_writer::NpyWriter;
use crate::npy::writer::{CHUNK, Unchecked, npy_header, one_pass_unchecked};
use crate::options::WriteOptions;
use crate::ser::spec::Val;

use super::deflate::DEFAULT_LEVEL;
use super::zip_out::ZipOut;
use super::{check_level, member_name};

/// Writes an `.npz` archive member by member.
///
/// Every member goes straight into its zip entry as it is encoded; neither
/// a whole member nor the archive is held in memory (except a Fortran-order
/// member written with [`add_with_options`](NpzWriter::add_with_options),
/// which [`crate::to_writer`] builds in memory too). Members are written
/// like numpy's: zip64 local extra on every member (numpy's `force_zip64`),
/// timestamp 1980-01-01 00:00, permissions `0o600`, stored or deflated at
/// level 6 ([`compressed`](NpzWriter::compressed): in 256 KiB pieces, on
/// rayon's pool with the `rayon` feature; another level for the archive
/// with [`compression_level`](NpzWriter::compression_level), for one
/// member with [`level_for_next`](NpzWriter::level_for_next)). A key may
/// be given only once; the member name is `key + ".npy"`.
///
/// ```
/// use std::io::Cursor;
/// use npy_serde::{Dtype, ScalarType};
/// use npy_serde::npz::{NpzReader, NpzWriter};
/// let mut w = NpzWriter::new(Cursor::new(Vec::new())).compressed(true);
/// w.add("ids", &[1u32, 2, 3])?;
/// let mut col = w.start("mass", Dtype::scalar(ScalarType::Float(8)), 2)?;
/// col.serialize(&0.5f64)?;
/// col.serialize(&1.5f64)?;
/// col.finish()?;
/// assert!(w.add("ids", &[4u8]).is_err()); // duplicate key
/// let file = w.finish()?;
/// let mut z = NpzReader::new(file)?;
/// assert_eq!(z.names(), ["ids", "mass"]);
/// assert_eq!(z.by_name::<Vec<f64>>("mass")?, [0.5, 1.5]);
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub struct NpzWriter<W: Write + Seek> {
    zip: ZipOut<W>,
    compressed: bool,
    /// The deflate level of compressed members (0 to 9, checked).
    level: u32,
    /// The level of the next member only ([`NpzWriter::level_for_next`]).
    next_level: Option<u32>,
    keys: HashSet<String>,
    /// A member handed out by [`NpzWriter::start`]: its key and the bytes
    /// it must have (its zip entry counts those written).
    pending: Option<(String, u64)>,
}

impl<W: Write + Seek> std::fmt::Debug for NpzWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NpzWriter")
            .field("compressed", &self.compressed)
            .field("level", &self.level)
            .field("next_level", &self.next_level)
            .field("members", &self.keys.len())
            .finish_non_exhaustive()
    }
}

/// The zip entry of a member being streamed by [`NpzWriter::start`]: an
/// [`std::io::Write`] into the archive that counts what passes.
///
/// ```
/// use npy_serde::npz::{MemberWriter, NpzReader, NpzWriter};
/// use npy_serde::{Dtype, NpyWriter};
/// use std::io::Cursor;
/// let mut w = NpzWriter::new(Cursor::new(Vec::new()));
/// let mut col: NpyWriter<MemberWriter<'_, _>> = w.start("t", "<f8".parse::<Dtype>()?, 2)?;
/// col.serialize(&0.0f64)?;
/// col.serialize(&0.5f64)?;
/// col.finish()?;
/// let mut z = NpzReader::new(w.finish()?)?;
/// assert_eq!(z.by_name::<Vec<f64>>("t")?, [0.0, 0.5]);
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub struct MemberWriter<'a, W: Write + Seek>(&'a mut ZipOut<W>);

impl<W: Write + Seek> std::fmt::Debug for MemberWriter<'_, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemberWriter")
            .field("written", &self.0.written())
            .finish_non_exhaustive()
    }
}

impl<W: Write + Seek> Write for MemberWriter<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

impl<W: Write + Seek> NpzWriter<W> {
    /// A new archive on `writer` (stored members, like `np.savez`).
    ///
    /// ```
    /// let mut w = npy_serde::npz::NpzWriter::new(std::io::Cursor::new(Vec::new()));
    /// w.add("x", &[1.0f64])?;
    /// let bytes = w.finish()?.into_inner();
    /// assert_eq!(&bytes[..4], b"PK\x03\x04"); // a zip file
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn new(writer: W) -> Self {
        NpzWriter {
            zip: ZipOut::new(writer),
            compressed: false,
            level: DEFAULT_LEVEL,
            next_level: None,
            keys: HashSet::new(),
            pending: None,
        }
    }

    /// Deflate the members that follow (level 6, like
    /// `np.savez_compressed`, or the one set by
    /// [`compression_level`](Self::compression_level)), or store them
    /// (`false`, like `np.savez`).
    ///
    /// A member is deflated in independent pieces of 256 KiB of its bytes,
    /// each primed with the 32 KiB before it, which together are one
    /// standard deflate stream (any zip reader and `np.load` inflate it).
    /// With the `rayon` feature two pieces per thread of rayon's pool are
    /// compressed at a time, in parallel; the archive's bytes do not depend
    /// on the thread count, and memory stays about 1 MiB per thread.
    ///
    /// ```
    /// let zeros = vec![0.0f64; 1000];
    /// let size = |compressed: bool| -> npy_serde::Result<usize> {
    ///     let mut w = npy_serde::npz::NpzWriter::new(std::io::Cursor::new(Vec::new()))
    ///         .compressed(compressed);
    ///     w.add("zeros", &zeros)?;
    ///     Ok(w.finish()?.into_inner().len())
    /// };
    /// assert!(size(true)? * 10 < size(false)?); // 8000 bytes of zeros deflate well
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    #[must_use]
    pub fn compressed(mut self, compressed: bool) -> Self {
        self.compressed = compressed;
        self
    }

    /// Deflate the members that follow at `level`: 0 (stored blocks inside
    /// deflate, the fastest) to 9 (the smallest, the slowest); 6, numpy's
    /// (zlib's default), unless set. Implies [`compressed(true)`](Self::compressed);
    /// a later `compressed(false)` stores members again, and `compressed(true)`
    /// keeps this level. Any other level is an error. Every level is one
    /// standard deflate stream that `np.load` inflates; the local and
    /// central headers are the same at every level (as Python's zipfile
    /// writes them). One member can have its own level:
    /// [`level_for_next`](Self::level_for_next).
    ///
    /// ```
    /// use npy_serde::npz::{NpzReader, NpzWriter};
    /// let ramp: Vec<u32> = (0..100_000).map(|i| i / 7).collect();
    /// let size = |level: u32| -> npy_serde::Result<usize> {
    ///     let mut w = NpzWriter::new(std::io::Cursor::new(Vec::new())).compression_level(level)?;
    ///     w.add("ramp", &ramp)?;
    ///     let file = w.finish()?;
    ///     assert_eq!(NpzReader::new(&mut file.clone())?.by_name::<Vec<u32>>("ramp")?, ramp);
    ///     Ok(file.into_inner().len())
    /// };
    /// assert!(size(9)? < size(1)? && size(1)? < size(0)?);
    /// let err = NpzWriter::new(std::io::Cursor::new(Vec::new())).compression_level(10).unwrap_err();
    /// assert!(err.to_string().contains("compression level 10"), "{err}");
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn compression_level(mut self, level: u32) -> Result<Self> {
        self.level = check_level(level)?;
        self.compressed = true;
        Ok(self)
    }

    /// Deflate the next member only at `level` (0 to 9, as in
    /// [`compression_level`](Self::compression_level)), whether the archive
    /// stores or deflates its members; the members after it go back to the
    /// archive's setting. The next member is the next call to
    /// [`add`](Self::add), [`add_with_options`](Self::add_with_options) or
    /// [`start`](Self::start), even when that call fails. Any other level
    /// is an error (and the next member keeps the archive's setting).
    ///
    /// ```
    /// use npy_serde::npz::{NpzReader, NpzWriter};
    /// let zeros = vec![0u8; 100_000];
    /// let mut w = NpzWriter::new(std::io::Cursor::new(Vec::new())); // stored members
    /// w.add("a", &zeros)?;
    /// w.level_for_next(9)?.add("b", &zeros)?; // deflated at level 9
    /// w.add("c", &zeros)?; // stored again
    /// assert!(w.level_for_next(10).is_err());
    /// let mut file = w.finish()?;
    /// assert!(file.get_ref().len() < 2 * 100_000 + 1000); // "b" deflated to a few bytes
    /// file.set_position(0);
    /// let mut z = NpzReader::new(file)?;
    /// assert_eq!(z.by_name::<Vec<u8>>("b")?, zeros);
    /// // a stored member's data lies in the archive; a deflated one's does not
    /// assert_eq!(["a", "b", "c"].map(|k| z.data_range(k).is_ok()), [true, false, true]);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn level_for_next(&mut self, level: u32) -> Result<&mut Self> {
        self.next_level = Some(check_level(level)?);
        Ok(self)
    }

    /// The level of the member being started (`None`: stored); takes the
    /// one-member override.
    fn member_level(&mut self) -> Option<u32> {
        self.next_level
            .take()
            .or(self.compressed.then_some(self.level))
    }

    /// Checks that a member handed out by `start` got all its bytes; if
    /// not, drops it from the archive and reports it.
    fn settle(&mut self) -> Result<()> {
        let Some((key, expected)) = self.pending.take() else {
            return Ok(());
        };
        let written = self.zip.written();
        if written == expected {
            return Ok(());
        }
        self.zip.abort()?;
        self.keys.remove(&key);
        Err(Error::data(format!(
            "the streamed member was not finished: {written} of its {expected} bytes were written, so it was left out of the archive"
        ))
        .in_member(&key))
    }

    /// Refuses a key that was already given; opens its zip entry, deflated
    /// at `level` or stored.
    fn begin(&mut self, key: &str, level: Option<u32>) -> Result<()> {
        self.settle()?;
        if self.keys.contains(key) {
            return Err(Error::schema(format!(
                "duplicate key {}: the archive already has a member {}",
                PyStr(key),
                PyStr(&member_name(key))
            ))
            .in_member(key));
        }
        self.zip
            .start(&member_name(key), level)
            .map_err(|e| e.in_member(key))?;
        self.keys.insert(key.to_owned());
        Ok(())
    }

    /// Drops the entry being written after an error.
    fn abandon(&mut self, key: &str, err: Error) -> Error {
        self.keys.remove(key);
        match self.zip.abort() {
            Ok(()) => err.in_member(key),
            Err(e) => e.in_member(key),
        }
    }

    /// Adds member `key.npy` holding what [`crate::to_writer`] writes for
    /// `value`. On an error the member is left out and the writer stays usable.
    ///
    /// ```
    /// let mut w = npy_serde::npz::NpzWriter::new(std::io::Cursor::new(Vec::new()));
    /// w.add("x", &[1.0f64, 2.0])?;
    /// assert!(w.add("bad", &vec![vec![1u8], vec![2, 3]]).is_err()); // ragged: left out
    /// w.add("n", &3u16)?; // the writer stays usable
    /// let mut z = npy_serde::npz::NpzReader::new(w.finish()?)?;
    /// assert_eq!(z.names(), ["x", "n"]);
    /// assert_eq!(z.raw("x")?, npy_serde::to_vec(&[1.0f64, 2.0])?); // exactly the .npy bytes
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn add<T: ?Sized + Serialize>(&mut self, key: &str, value: &T) -> Result<()> {
        self.add_with_options(key, &WriteOptions::new(), value)
    }

    /// Adds member `key.npy` holding what [`WriteOptions::to_writer`] writes
    /// for `value` with these options.
    ///
    /// ```
    /// use npy_serde::{Dtype, ScalarType, WriteOptions};
    /// let mut w = npy_serde::npz::NpzWriter::new(std::io::Cursor::new(Vec::new()));
    /// let f4 = WriteOptions::new().dtype(Dtype::scalar(ScalarType::Float(4)));
    /// w.add_with_options("x", &f4, &[0.5f64, 1.0])?;
    /// let mut z = npy_serde::npz::NpzReader::new(w.finish()?)?;
    /// assert_eq!(z.reader("x")?.dtype().to_string(), "'<f4'");
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn add_with_options<T: ?Sized + Serialize>(
        &mut self,
        key: &str,
        options: &WriteOptions,
        value: &T,
    ) -> Result<()> {
        let level = self.member_level();
        self.begin(key, level)?;
        // A failed member is dropped from the archive (`abandon`), so nothing
        // needs checking before its first byte. An inferred dtype: the
        // speculative pass writes the member as it encodes it (one walk,
        // memory bounded); if the values are not uniform, or serde's length
        // hints were wrong (a zip entry cannot be patched), the entry is
        // started again. Then, or with a given dtype, `write_exact`
        // plans and writes (two walks).
        if options.dtype.is_none() {
            match one_pass_unchecked(&mut self.zip, &Val(value), options, CHUNK) {
                Ok(Unchecked::Written) => return Ok(()),
                Ok(Unchecked::WrongHeader { .. } | Unchecked::Redo) => {
                    // what was written is dropped; the entry opens again
                    self.keys.remove(key);
                    self.zip.abort().map_err(|e| e.in_member(key))?;
                    self.begin(key, level)?;
                }
                Err(e) => return Err(self.abandon(key, e)),
            }
        }
        options
            .write_exact(&mut self.zip, &Val(value), false)
            .map_err(|e| self.abandon(key, e))
    }

    /// Starts member `key.npy` of `len` records of `dtype` (a subarray
    /// dtype adds axes: `[f64; 3]` records give shape `(len, 3)`), to be
    /// written record by record through the returned [`NpyWriter`].
    ///
    /// The length is in the member's header and cannot be patched inside a
    /// zip entry, so [`NpyWriter::finish`] with another count is an error;
    /// a member left short is dropped from the archive by the next call on
    /// this writer, which reports it.
    ///
    /// ```
    /// use npy_serde::{Dtype, ScalarType};
    /// let mut w = npy_serde::npz::NpzWriter::new(std::io::Cursor::new(Vec::new()));
    /// let mut col = w.start("x", Dtype::scalar(ScalarType::UInt(2)), 3)?;
    /// col.serialize(&1u16)?;
    /// assert!(col.finish().is_err()); // 1 record, 3 promised
    /// assert!(w.finish().is_err()); // the short member is reported
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn start(
        &mut self,
        key: &str,
        dtype: Dtype,
        len: u64,
    ) -> Result<NpyWriter<MemberWriter<'_, W>>> {
        let level = self.member_level();
        // the header NpyWriter writes
        let (header, head) = npy_header(&dtype, &[len]).map_err(|e| e.in_member(key))?;
        let expected = (head.len() as u64)
            .checked_add(header.data_len()?)
            .ok_or_else(|| Error::limit("array size overflows").in_member(key))?;
        self.begin(key, level)?;
        self.pending = Some((key.to_owned(), expected));
        let out = MemberWriter(&mut self.zip);
        Ok(NpyWriter::with_len(out, Some(dtype), len))
    }

    /// Starts member `key.npy` for raw bytes written by `f` (the columnar
    /// writer's entry point); the header and data come from `f`.
    pub(crate) fn add_raw(
        &mut self,
        key: &str,
        f: impl FnOnce(&mut ZipOut<W>) -> Result<()>,
    ) -> Result<()> {
        let level = self.member_level();
        self.begin(key, level)?;
        f(&mut self.zip).map_err(|e| self.abandon(key, e))
    }

    /// Completes the archive (central directory) and returns the writer.
    ///
    /// ```
    /// let mut w = npy_serde::npz::NpzWriter::new(std::io::Cursor::new(Vec::new()));
    /// w.add("x", &[1u8])?;
    /// let file = w.finish()?; // the central directory is written; the Cursor is returned
    /// assert_eq!(npy_serde::npz::NpzReader::new(file)?.names(), ["x"]);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn finish(mut self) -> Result<W> {
        self.settle()?;
        self.zip.finish()
    }
}
