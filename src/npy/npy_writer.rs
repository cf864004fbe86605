//! [`NpyWriter`]: an `.npy` written a record at a time, each record
//! encoded by the dtype compiled once (`ser/encode.rs`, the encoder of
//! every pass), the header written before the first record and patched by
//! `finish`; and [`Durable`], the storage `finish_durable` syncs.

// Counts and sizes here grow with the records written: every operation is
// checked or proven bounded.
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::io::{Read, Seek, SeekFrom, Write};

use serde::Serialize;

use crate::error::{Error, Result};
use crate::format::dtype::Dtype;
use crate::npy::writer::c_order_header;
use crate::options::{ReadOptions, WriteOptions};
use crate::ser::encode::DtypeTree;
use crate::ser::nd::subarray_of;

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
    align: bool,
    version: Option<(u8, u8)>,
    /// The promised number of records (plain `Write`).
    promised: Option<u64>,
    /// The per-record path runs while `count < limit`: 0 until a record
    /// found the writer ready (the dtype known and checked, the header
    /// written) and once the stream is broken, then `promised`, or
    /// `u64::MAX` without one (so its `count + 1` cannot wrap).
    limit: u64,
    /// Rewrites the header in place (seekable writers only).
    patch: Option<PatchFn<W>>,
    /// Stream position of the header.
    start: u64,
    /// The header as the stream holds it, once written (or read, for
    /// `append`): `finish` rewrites only the bytes that differ.
    header: Option<Vec<u8>>,
    count: u64,
    scratch: Vec<u8>,
    /// The record dtype (may be a subarray, folded into the shape),
    /// compiled for encoding; once known.
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
            .field("dtype", &self.dtype())
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
        let seeking = |e| Error::io_at(e, "seeking in the file to append to");
        file.seek(SeekFrom::Start(0)).map_err(seeking)?;
        let opts = ReadOptions::new().max_header_size(usize::MAX);
        let parsed = crate::format::header_read::read_header(&mut file, &opts).map_err(|e| {
            e.io_context(|| {
                "reading the header of the file to append to (open it with read and write \
                 access: OpenOptions::new().read(true).write(true).open(path))"
                    .to_owned()
            })
        })?;
        let header = parsed.header;
        let Some((&count, rest)) = header.shape.split_first() else {
            return Err(Error::schema("cannot append to a 0-d array (shape ())"));
        };
        if header.column_major() && rest.iter().any(|&d| d != 1) {
            return Err(Error::schema(
                "cannot append to a Fortran-order array (records are appended along the first axis of C order)",
            ));
        }
        let end = u64::try_from(parsed.data_offset)
            .ok()
            .and_then(|o| o.checked_add(header.data_len().ok()?))
            .ok_or_else(|| Error::data("array size overflows"))?;
        let file_len = file.seek(SeekFrom::End(0)).map_err(seeking)?;
        if file_len < end {
            return Err(Error::data(format!(
                "cannot append: the file has {file_len} bytes but its header describes {end}"
            )));
        }
        // the header's bytes as they are, read again (they were just read
        // whole, so they are there): `finish` rewrites only what differs
        let mut on_disk = vec![0; parsed.data_offset];
        file.seek(SeekFrom::Start(0)).map_err(seeking)?;
        file.read_exact(&mut on_disk)
            .map_err(|e| Error::io_at(e, "reading the header of the file to append to"))?;
        // bytes past the end are what an interrupted append wrote but never
        // counted (its header was not patched): the new records overwrite them
        file.seek(SeekFrom::Start(end)).map_err(seeking)?;
        // (the data's size checked above: the subarray of its axes fits)
        let dtype = subarray_of(header.descr.clone(), rest)?;
        // The header must be rewritable in place for any length.
        for n in [count, u64::MAX] {
            let (bytes, _) = c_order_header(&dtype, &[n]).encode(Some(parsed.version))?;
            if bytes.len() != parsed.data_offset {
                return Err(Error::header(format!(
                    "cannot append: the header ({} bytes) would be rewritten as {} bytes (it was not written with numpy's growth spaces or in numpy's exact text)",
                    parsed.data_offset,
                    bytes.len()
                )));
            }
        }
        let mut w = NpyWriter::build(file, Some(dtype), &WriteOptions::new(), None);
        w.patch = Some(patch_at::<W>);
        w.header = Some(on_disk);
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
        let start = writer
            .stream_position()
            .map_err(|e| Error::io_at(e, "finding the position to write the array at"))?;
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
            align: opts.align,
            version: opts.version,
            promised,
            limit: 0,
            patch: None,
            start: 0,
            header: None,
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
        self.tape = Some(DtypeTree::from_dtype(dtype, false));
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
        NpyWriter::build(writer, dtype, &WriteOptions::new(), Some(len))
    }

    /// The writer underneath, for taking what was written so far out of
    /// a buffer (an object store's upload takes each part as it fills).
    #[cfg(feature = "object_store")]
    pub(crate) fn get_mut(&mut self) -> &mut W {
        &mut self.out
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
        self.tape.as_ref().map(DtypeTree::dtype)
    }

    fn write_header(&mut self) -> Result<()> {
        let dtype = self.dtype().ok_or_else(|| {
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
            self.rewind(Some(self.start), || "the header".to_owned());
            return Err(Error::io_at(e, "writing the npy header"));
        }
        self.header = Some(bytes);
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
        // the per-record path: no dtype to infer, no header to write, no
        // limit reached
        if self.count >= self.limit {
            self.prepare(record)?;
        }
        let index = self.count;
        let tape = self
            .tape
            .as_mut()
            .ok_or_else(|| Error::schema("internal: no dtype"))?;
        if self.zero {
            self.scratch.fill(0);
        }
        tape.encode(record, &mut self.scratch)
            .map_err(|e| e.with_width_hint().at_record(index))?;
        if let Err(e) = self.out.write_all(&self.scratch) {
            self.take_back();
            return Err(Error::io_at(e, "writing the data").at_record(index));
        }
        // count < u64::MAX: count < limit, checked above or by `prepare`
        self.count = index.wrapping_add(1);
        Ok(())
    }

    /// What [`serialize`](NpyWriter::serialize) does before the first
    /// record is encoded (the dtype to infer or check, the header to write)
    /// and the refusals.
    #[cold]
    #[inline(never)]
    fn prepare<T: ?Sized + Serialize>(&mut self, record: &T) -> Result<()> {
        let index = self.count;
        self.check_broken()?;
        if self.tape.is_none() || self.check_layout {
            let mut slot = None;
            crate::ser::infer::Infer::new(&mut slot, false)
                .walk(&record)
                .map_err(|e| e.at_record(index))?;
            let node = slot.ok_or_else(|| Error::schema("internal: nothing inferred"))?;
            let inferred = crate::ser::infer::node_to_dtype(&node, self.align)
                .map_err(|e| e.at_record(index))?;
            match self.dtype() {
                None => self.set_dtype(inferred),
                Some(d) if !same_layout(&inferred, d) => {
                    return Err(Error::schema(format!(
                        "appended records have dtype {inferred} but the file has {d}"
                    ))
                    .at_record(index));
                }
                Some(_) => self.check_layout = false,
            }
        }
        if let Some(len) = self.promised.filter(|&len| self.count >= len) {
            return Err(Error::schema(format!(
                "more records than the {len} promised in the header"
            ))
            .at_record(index));
        }
        if self.count == u64::MAX {
            return Err(Error::data("array size overflows").at_record(index));
        }
        if self.header.is_none() {
            self.write_header()?;
        }
        self.limit = self.promised.unwrap_or(u64::MAX);
        Ok(())
    }

    /// After a record was partly written: [`rewind`](Self::rewind) to
    /// where the record started.
    fn take_back(&mut self) {
        // a header is written once the dtype is known: records of
        // `scratch.len()` bytes
        let pos = self.header.as_ref().and_then(|head| {
            let data = self.count.checked_mul(self.scratch.len() as u64)?;
            let h = u64::try_from(head.len()).ok()?;
            self.start.checked_add(h)?.checked_add(data)
        });
        let count = self.count;
        self.rewind(pos, || format!("record {count}"));
    }

    /// After bytes from `pos` on partly reached the writer: on a seekable
    /// writer, moves back to `pos`, so the next write overwrites them (best
    /// effort: if even the seek fails, the next write fails too). On any
    /// other writer the stream is marked broken (`what` was partly
    /// written): later writes would land at the wrong offsets.
    fn rewind(&mut self, pos: Option<u64>, what: impl FnOnce() -> String) {
        let taken_back = match (self.patch, pos) {
            (Some(patch), Some(pos)) => patch(&mut self.out, pos, &[], pos).is_ok(),
            _ => false,
        };
        if !taken_back {
            self.broken = Some(what());
            self.limit = 0;
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
        out.flush()
            .map_err(|e| Error::io_at(e, "flushing the finished file"))?;
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
        if self.header.is_none() {
            self.write_header()?;
        }
        if let Some(len) = self.promised.filter(|&len| len != self.count) {
            return Err(Error::data(format!(
                "the header promised {len} records, {} were written",
                self.count
            )));
        }
        if let (Some(patch), Some(tape), Some(old)) =
            (self.patch, self.tape.as_ref(), self.header.as_deref())
        {
            let header = c_order_header(tape.dtype(), &[self.count]);
            let (bytes, _) = header.encode(self.version)?;
            let old_len = old.len();
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
            before_patch(&mut self.out, end)
                .map_err(|e| Error::io_at(e, "syncing the data before the header is patched"))?;
            // Only the bytes that differ are rewritten, each step in one
            // write where the writer takes it whole. A kill tears a patch
            // only between writes, and a torn patch of many writes could mix
            // new digits with old ones into a count the data does not hold
            // (80,004 over 79,997 torn as 80,997). A count that gains a
            // digit moves the text after it: that moves first, the old
            // count kept in front of it ("(99 ,)"), then the digits change.
            let moved = old_count_in_place(old, &bytes);
            let mut now = old;
            for step in [moved.as_deref(), Some(&bytes[..])].into_iter().flatten() {
                let (at, span) = changed(now, step);
                let pos = u64::try_from(at)
                    .ok()
                    .and_then(|at| self.start.checked_add(at))
                    .ok_or_else(|| Error::data("array size overflows"))?;
                patch(&mut self.out, pos, span, end)
                    .map_err(|e| Error::io_at(e, "patching the header with the record count"))?;
                now = step;
            }
        }
        Ok(self.out)
    }
}

/// Where `new` starts to differ from `old` (of the same length) and the
/// span of `new` from there to its last differing byte (empty when the
/// two are the same).
fn changed<'n>(old: &[u8], new: &'n [u8]) -> (usize, &'n [u8]) {
    let differs = |(a, b): (&u8, &u8)| a != b;
    let first = old.iter().zip(new).position(differs).unwrap_or(0);
    let last = old
        .iter()
        .zip(new)
        .rposition(differs)
        .map_or(first, |i| i.saturating_add(1));
    (first, new.get(first..last).unwrap_or_default())
}

/// The header `new` with its first axis as `old` has it, padded with
/// spaces (`"(99 ,), }"` for `"(100,), }"` over `"(99,), }"`): a header of
/// the old count whose text after the count is already where the new one
/// has it. `None` when the new count is not longer.
fn old_count_in_place(old: &[u8], new: &[u8]) -> Option<Vec<u8>> {
    let count = old.get(first_axis(old)?)?;
    let mut moved = new.to_vec();
    let digits = moved
        .get_mut(first_axis(new)?)
        .filter(|d| d.len() > count.len())?;
    digits.fill(b' ');
    digits.get_mut(..count.len())?.copy_from_slice(count);
    Some(moved)
}

/// Where a header's first axis is written: the text after `'shape': (`
/// up to the next `,` or `)`.
fn first_axis(header: &[u8]) -> Option<std::ops::Range<usize>> {
    const AXIS: &[u8] = b"'shape': (";
    let at = header
        .windows(AXIS.len())
        .rposition(|w| w == AXIS)?
        .checked_add(AXIS.len())?;
    let len = header
        .get(at..)?
        .iter()
        .position(|&b| b == b',' || b == b')')?;
    Some(at..at.checked_add(len)?)
}

/// A count-0 header as the placeholder of a file `finish` has not patched:
/// the first axis is `None` (numpy: "shape is not valid"), three of the
/// growth spaces making room for it, so the size is the final header's.
fn unfinished(mut bytes: Vec<u8>) -> Vec<u8> {
    let newline = bytes.len().checked_sub(1);
    if let (Some(axis), Some(newline)) = (first_axis(&bytes), newline) {
        // the padding before the final newline is spaces (at least the 20
        // growth spaces of a count of 0)
        bytes.drain(newline.saturating_sub(3)..newline);
        bytes.splice(axis, *b"None");
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

/// `File` and `&File` (whose methods take `&self`) call the file's own.
macro_rules! durable_file {
    ($($file:ty),*) => {$(
        impl Durable for $file {
            fn sync_data(&mut self) -> std::io::Result<()> {
                std::fs::File::sync_data(self)
            }
            fn set_len(&mut self, len: u64) -> std::io::Result<()> {
                std::fs::File::set_len(self, len)
            }
        }
    )*};
}
durable_file!(std::fs::File, &std::fs::File);

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
        out.sync_data()
            .map_err(|e| Error::io_at(e, "syncing the patched header"))?;
        Ok(out)
    }
}

/// Whether an appended record's inferred dtype fits the file's: the same
/// fields, types and sizes, strings no wider, byte order ignored.
fn same_layout(inferred: &Dtype, file: &Dtype) -> bool {
    use crate::format::dtype::ScalarType as T;
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
