//! [`NpzReader`]: members by key, read straight from the zip stream with
//! the checks an untrusted archive needs.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::io::{Read, Seek, SeekFrom};
use std::ops::Range;

use serde::de::{DeserializeOwned, DeserializeSeed};
use zip::read::ZipFile;
use zip::result::ZipError;
use zip::{CompressionMethod, ZipArchive};

use crate::budget::Budget;
use crate::de::stream::StreamDe;
use crate::error::{Error, ErrorKind, Result};
use crate::format::header::{Header, MAGIC};
use crate::format::header_read::read_up_to;
use crate::format::header_read::{ParsedHeader, read_header};
use crate::format::pyrepr::PyStr;
use crate::npy::reader::NpyReader;
use crate::npy::rows::{checked_window, whole_array};
use crate::options::ReadOptions;

use super::extent::Extent;
use super::key_of;
use super::range::DataRange;

/// How far a deflated member's buffer is sized ahead of its compressed
/// bytes. Deflate can expand 1032-fold (a 258-byte match in about two
/// bits), so the compressed size bounds nothing useful: sizing to that
/// bound let a 256-KiB archive whose header and directory both claim 1 GiB
/// allocate 270 MB before failing (tests/memory/reading.rs). Numeric arrays
/// typically deflate 2 to 8 times; data that inflates further grows its
/// buffer as the inflated bytes arrive.
const DEFLATE_PRESIZE_RATIO: u64 = 8;

/// Reads an `.npz` archive member by member.
///
/// Keys are member names with one `.npy` suffix removed, in archive order;
/// a member is found by its key or by its full name (`"a"` and `"a.npy"`
/// both find `a.npy`), like numpy's `NpzFile`. The [`ReadOptions`] given to
/// [`with_options`](NpzReader::with_options) apply to every member.
///
/// The archive is untrusted: members are decoded from the zip stream
/// without allocating from any size the zip claims; each member is read up
/// to the size its npy header describes and must end there, which is also
/// when the CRC-32 is checked. Errors name the member.
///
/// ```
/// use std::io::Cursor;
/// let mut file = Cursor::new(Vec::new());
/// let mut w = npy_serde::npz::NpzWriter::new(&mut file);
/// w.add("x", &[1.0f64, 2.0])?;
/// w.add("n", &7u8)?;
/// w.finish()?;
/// let mut z = npy_serde::npz::NpzReader::new(file)?;
/// assert_eq!(z.len(), 2);
/// assert_eq!(z.by_name::<Vec<f64>>("x.npy")?, [1.0, 2.0]);
/// assert_eq!(z.by_name::<u8>("n")?, 7);
/// let err = z.by_name::<u8>("m").unwrap_err();
/// assert_eq!(err.to_string(), "member 'm': not in the archive; it has 'x', 'n'");
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub struct NpzReader<R: Read + Seek> {
    zip: ZipArchive<R>,
    pub(crate) options: ReadOptions,
    keys: Vec<String>,
    /// The stream position the archive starts at (what data ranges count
    /// from).
    start: u64,
    /// Where the zip structures lie, checked against the bytes present.
    extent: Extent,
    /// `ReadOptions::max_bytes` spent by the current call.
    pub(crate) budget: std::sync::Arc<Budget>,
}

impl<R: Read + Seek> std::fmt::Debug for NpzReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NpzReader")
            .field("keys", &self.keys)
            .finish_non_exhaustive()
    }
}

/// One member's decompressed bytes, as streamed by [`NpzReader::reader`].
///
/// A member that inflates past the uncompressed size the zip directory
/// declares for it is refused (as numpy's `zipfile` does), so the zip's
/// size claim bounds what is read as well as the npy header does.
///
/// ```
/// use std::io::{Cursor, Read};
/// let mut w = npy_serde::npz::NpzWriter::new(Cursor::new(Vec::new())).compressed(true);
/// w.add("x", &[1u8, 2, 3])?;
/// let mut z = npy_serde::npz::NpzReader::new(w.finish()?)?;
/// let mut r = z.reader("x")?; // an NpyReader<MemberReader<..>>
/// assert_eq!(r.deserialize::<u8>().collect::<Result<Vec<_>, _>>()?, [1, 2, 3]);
/// let mut member = r.into_inner();
/// let mut rest = Vec::new();
/// member.read_to_end(&mut rest)?; // the member ends with its data
/// assert!(rest.is_empty());
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub struct MemberReader<'a, R: Read> {
    file: ZipFile<'a, R>,
    key: String,
    /// Bytes read so far.
    read: u64,
}

impl<R: Read> MemberReader<'_, R> {
    /// How many bytes a buffer for the member's data may start at, from
    /// facts rather than claims: its compressed size (checked to lie in the
    /// archive) for a stored member, a small multiple of it
    /// ([`DEFLATE_PRESIZE_RATIO`]) for a deflated one, and never more than
    /// the directory declares.
    fn room(&self) -> u64 {
        let packed = self.file.compressed_size();
        match self.file.compression() {
            CompressionMethod::Stored => packed,
            _ => packed.saturating_mul(DEFLATE_PRESIZE_RATIO),
        }
        .min(self.file.size())
    }
}

impl<R: Read> std::fmt::Debug for MemberReader<'_, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemberReader")
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl<R: Read> Read for MemberReader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.file.read(buf).map_err(|e| {
            if is_bad_crc(&e) {
                std::io::Error::new(e.kind(), format!("member {}: {BAD_CRC}", PyStr(&self.key)))
            } else {
                e
            }
        })?;
        self.read = self.read.saturating_add(n as u64);
        // the uncompressed size the central directory declares
        let declared = self.file.size();
        if self.read > declared {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "member {}: {OVER_SIZE} ({declared} bytes)",
                    PyStr(&self.key)
                ),
            ));
        }
        Ok(n)
    }
}

const BAD_CRC: &str = "bad CRC-32: the member's data is damaged";
const OVER_SIZE: &str = "the member inflates past the uncompressed size the zip directory declares";

/// The zip crate's CRC error, or the same already rewritten by [`MemberReader`].
fn is_bad_crc(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::InvalidData && {
        let msg = e.to_string();
        msg == "Invalid checksum" || msg.ends_with(BAD_CRC)
    }
}

/// Rewrites errors met while reading a member: a CRC failure says so, and
/// the member is named.
pub(crate) fn member_error(err: Error, key: &str) -> Error {
    let err = match err.kind() {
        ErrorKind::Io(e) if is_bad_crc(e) => Error::data(BAD_CRC),
        ErrorKind::Io(e) if e.to_string().contains(OVER_SIZE) => {
            let msg = e.to_string();
            let at = msg.find(OVER_SIZE).unwrap_or(0);
            Error::data(msg.get(at..).unwrap_or(OVER_SIZE))
        }
        ErrorKind::Io(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
            // flate2 reports a corrupt deflate stream as InvalidInput
            Error::data(format!("the compressed data is damaged ({e})"))
        }
        _ => err.io_context(|| "reading the member".to_owned()),
    };
    err.in_member(key)
}

fn zip_error(err: ZipError) -> Error {
    match err {
        ZipError::UnsupportedArchive(msg) => Error::unsupported(lower_first(msg)),
        other => Error::from(other),
    }
}

/// The zip crate's messages start with a capital; ours do not.
fn lower_first(msg: &str) -> String {
    let mut chars = msg.chars();
    let first = chars.next().map(char::to_lowercase);
    first.into_iter().flatten().chain(chars).collect()
}

/// numpy's name for a zip compression method.
#[allow(deprecated)]
fn method_name(m: CompressionMethod) -> String {
    match m {
        CompressionMethod::Unsupported(12) => "bzip2".into(),
        CompressionMethod::Unsupported(14) => "lzma".into(),
        CompressionMethod::Unsupported(93) => "zstd".into(),
        CompressionMethod::Unsupported(95) => "xz".into(),
        CompressionMethod::Unsupported(99) => "aes".into(),
        CompressionMethod::Unsupported(n) => format!("method {n}"),
        other => format!("{other:?}").to_lowercase(),
    }
}

impl<R: Read + Seek> NpzReader<R> {
    /// Opens an archive (reads its central directory).
    ///
    /// ```
    /// let file = std::io::Cursor::new(npy_serde::to_vec(&[1u8])?);
    /// // an .npy file is not an archive
    /// let err = npy_serde::npz::NpzReader::new(file).unwrap_err();
    /// assert!(err.to_string().contains("not an .npz archive"));
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn new(reader: R) -> Result<Self> {
        Self::with_options(reader, ReadOptions::new())
    }

    /// Opens an archive whose members are read with these options (limits,
    /// `lossy`).
    ///
    /// ```
    /// # use std::io::Cursor;
    /// # let mut file = Cursor::new(Vec::new());
    /// # let mut w = npy_serde::npz::NpzWriter::new(&mut file);
    /// # w.add("x", &[0.1f64])?;
    /// # w.finish()?;
    /// let opts = npy_serde::ReadOptions::new().lossy(true);
    /// let mut z = npy_serde::npz::NpzReader::with_options(file, opts)?;
    /// assert_eq!(z.by_name::<Vec<f32>>("x")?, [0.1f32]);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn with_options(mut reader: R, options: ReadOptions) -> Result<Self> {
        let io = |e| Error::io_at(e, "opening the archive (seeking or reading its start)");
        let start = reader.stream_position().map_err(io)?;
        let end = reader.seek(std::io::SeekFrom::End(0)).map_err(io)?;
        // the zip crate reads the whole stream, wherever it is positioned
        // (a Cursor just written is at its end): so does the check. Only
        // the archive's end is read (an object store's reader has fetched
        // no more); the start is looked at to explain a refusal.
        let extent = match Extent::scan(&mut reader, end) {
            Ok(extent) => extent,
            Err(e) => {
                reader.seek(std::io::SeekFrom::Start(start)).map_err(io)?;
                if peek_magic(&mut reader)?.as_slice() == MAGIC.as_slice() {
                    return Err(Error::header(
                        "this is an .npy file, not an .npz archive; read it with \
                         npy_serde::from_reader",
                    ));
                }
                return Err(e);
            }
        };
        reader.seek(std::io::SeekFrom::Start(start)).map_err(io)?;
        let zip = ZipArchive::new(reader).map_err(|e| match e {
            ZipError::InvalidArchive(msg) if msg.contains("EOCD") => Error::data(
                "not a readable .npz (zip) archive: no end of central directory record \
                 (the file is truncated or not a zip)",
            ),
            ZipError::InvalidArchive(msg) => Error::data(format!(
                "not a readable .npz (zip) archive: {}",
                lower_first(&msg)
            )),
            ZipError::UnsupportedArchive(msg) => {
                Error::unsupported(format!("this .npz (zip) archive: {}", lower_first(msg)))
            }
            other => Error::from(other),
        })?;
        let keys = zip.file_names().map(|n| key_of(n).to_owned()).collect();
        Ok(NpzReader {
            zip,
            budget: std::sync::Arc::new(Budget::new(options.max_bytes)),
            options,
            keys,
            start,
            extent,
        })
    }

    /// The keys (member names without one `.npy` suffix), in archive order,
    /// like numpy's `NpzFile.files`.
    ///
    /// ```
    /// let mut w = npy_serde::npz::NpzWriter::new(std::io::Cursor::new(Vec::new()));
    /// w.add("b", &1u8)?;
    /// w.add("a", &2u8)?;
    /// let z = npy_serde::npz::NpzReader::new(w.finish()?)?;
    /// assert_eq!(z.names(), ["b", "a"]); // archive order
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn names(&self) -> &[String] {
        &self.keys
    }

    /// The number of members.
    ///
    /// ```
    /// let mut w = npy_serde::npz::NpzWriter::new(std::io::Cursor::new(Vec::new()));
    /// w.add("a", &[1u8])?;
    /// let z = npy_serde::npz::NpzReader::new(w.finish()?)?;
    /// assert_eq!(z.len(), 1);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the archive has no members.
    ///
    /// ```
    /// let w = npy_serde::npz::NpzWriter::new(std::io::Cursor::new(Vec::new()));
    /// let z = npy_serde::npz::NpzReader::new(w.finish()?)?;
    /// assert!(z.is_empty());
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The member index for a key or a full member name (numpy's order:
    /// the exact member name first, then `key + ".npy"`).
    fn index(&self, name: &str) -> Result<usize> {
        self.zip
            .index_for_name(name)
            .or_else(|| self.zip.index_for_name(&super::member_name(name)))
            .ok_or_else(|| {
                Error::schema(format!("not in the archive; {}", self.has())).in_member(name)
            })
    }

    /// What the archive holds, for messages: `it has 'a', 'b'`, or `the
    /// archive is empty`.
    pub(crate) fn has(&self) -> String {
        match crate::error::name_list(&mut self.keys.iter().map(String::as_str)) {
            Some(list) => format!("it has {list}"),
            None => "the archive is empty".to_owned(),
        }
    }

    /// Member `name`'s index, the bytes it spans in the archive (local
    /// header, data, any data descriptor) and whether it is stored: what an
    /// object store's reader fetches before reading the member.
    #[cfg(feature = "object_store")]
    pub(crate) fn span(&self, name: &str) -> Result<(usize, Range<u64>, bool)> {
        let i = self.index(name)?;
        let full = self.zip.name_for_index(i).unwrap_or_default();
        let (span, stored) = self.extent.span(i, full).ok_or_else(|| {
            Error::data(
                "not a readable .npz (zip) archive: the member's entry in the central \
                 directory is damaged",
            )
            .in_member(self.key(i))
        })?;
        Ok((i, span, stored))
    }

    /// The key of member `i`.
    pub(crate) fn key(&self, i: usize) -> &str {
        self.keys.get(i).map(String::as_str).unwrap_or("")
    }

    /// Opens member `i` for reading, once [`checked`](Self::checked).
    fn open(&mut self, i: usize) -> Result<MemberReader<'_, R>> {
        let key = self.key(i).to_owned();
        let checked = self.checked(i).map(drop);
        let file = checked
            .and_then(|()| self.zip.by_index(i).map_err(zip_error))
            .map_err(|e| member_error(e, &key))?;
        Ok(MemberReader { file, key, read: 0 })
    }

    /// Member `i`'s compressed zip stream, once its local header and data
    /// are checked to lie in the archive, refusing encryption and
    /// compression methods other than stored and deflate with a clear
    /// message.
    fn checked(&mut self, i: usize) -> Result<ZipFile<'_, R>> {
        if let Some(name) = self.zip.name_for_index(i) {
            self.extent.check_local_header(i, name)?;
        }
        let raw = self.zip.by_index_raw(i).map_err(zip_error)?;
        self.extent
            .check_data(raw.data_start(), raw.compressed_size())?;
        if raw.encrypted() {
            return Err(Error::unsupported(
                "the member is encrypted (encrypted archives are not supported)",
            ));
        }
        let m = raw.compression();
        if m != CompressionMethod::Stored && m != CompressionMethod::Deflated {
            return Err(Error::unsupported(format!(
                "compression {} (only stored and deflated members are supported, as np.savez writes them)",
                method_name(m)
            )));
        }
        Ok(raw)
    }

    /// Opens member `i` and hands it to `f` with this reader's options and
    /// budget; `f`'s errors name the member (see [`member_error`]).
    fn with_member<T>(
        &mut self,
        i: usize,
        f: impl FnOnce(&mut MemberReader<'_, R>, &ReadOptions, &Budget) -> Result<T>,
    ) -> Result<T> {
        let (options, budget) = (self.options.clone(), self.budget.clone());
        let mut member = self.open(i)?;
        f(&mut member, &options, &budget).map_err(|e| member_error(e, &member.key))
    }

    /// Reads member `name` (key or full name) into `T`. A member that is
    /// not `.npy` is presented as its bytes to byte targets only (read it
    /// into `serde_bytes::ByteBuf`, or use [`raw`](NpzReader::raw)); any
    /// other target, `deserialize_any` included, is an error naming it. A
    /// member named `.npy` without the npy magic is damaged: an error.
    ///
    /// ```
    /// #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    /// struct P { id: u8, x: f32 }
    /// let mut w = npy_serde::npz::NpzWriter::new(std::io::Cursor::new(Vec::new()));
    /// w.add("points", &[P { id: 1, x: 0.5 }])?;
    /// let mut z = npy_serde::npz::NpzReader::new(w.finish()?)?;
    /// assert_eq!(z.by_name::<Vec<P>>("points")?, [P { id: 1, x: 0.5 }]);
    /// assert_eq!(z.by_name::<Vec<P>>("points.npy")?.len(), 1);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn by_name<T: DeserializeOwned>(&mut self, name: &str) -> Result<T> {
        let i = self.index(name)?;
        self.budget.reset();
        self.read_index(i, std::marker::PhantomData::<T>)
    }

    /// Deserializes member `i` with `seed`.
    pub(crate) fn read_index<'de, S: DeserializeSeed<'de>>(
        &mut self,
        i: usize,
        seed: S,
    ) -> Result<S::Value> {
        self.with_member(i, |member, options, budget| {
            let npy_name = member.file.name().ends_with(".npy");
            // a stored member's bytes lie in the archive (checked against its
            // length); a deflated member's are known only as they inflate
            let present = match member.file.compression() {
                CompressionMethod::Stored => member.room(),
                _ => 0,
            };
            read_member(member, options, budget, npy_name, present, seed)
        })
    }

    /// Whether member `i` is deflated (and not encrypted): one worth
    /// inflating on another thread. Reads the member's local header.
    #[cfg(feature = "rayon")]
    pub(crate) fn is_deflated(&mut self, i: usize) -> bool {
        self.zip
            .by_index_raw(i)
            .is_ok_and(|f| !f.encrypted() && f.compression() == CompressionMethod::Deflated)
    }

    /// Member `i`'s compressed bytes (checked to lie in the archive), with
    /// what the directory claims of its inflated bytes, if the sequential
    /// path would open it (an `.npy`, deflated, unencrypted member). `None`
    /// leaves the member to the sequential path, which reports why it
    /// cannot be read.
    #[cfg(feature = "rayon")]
    pub(crate) fn packed(&mut self, i: usize) -> Option<super::inflate::Packed> {
        let max_bytes = self.options.max_bytes;
        let mut raw = self.checked(i).ok()?;
        if raw.compression() != CompressionMethod::Deflated || !raw.name().ends_with(".npy") {
            return None;
        }
        // checked to lie in the archive
        let claim = raw.compressed_size();
        // compressed bytes over the byte budget: the sequential path reads
        // the member and refuses it by what it holds
        if claim > max_bytes {
            return None;
        }
        let mut bytes = Vec::with_capacity(usize::try_from(claim).ok()?);
        raw.by_ref().take(claim).read_to_end(&mut bytes).ok()?;
        Some(super::inflate::Packed {
            index: i,
            bytes,
            declared: raw.size(),
            crc: raw.crc32(),
        })
    }

    /// Deserializes member `i` with `seed` from its inflated bytes, exactly
    /// those the zip stream yields (see `inflate.rs`):
    /// [`read_index`](Self::read_index) over those bytes.
    #[cfg(feature = "rayon")]
    pub(crate) fn read_inflated<'de, S: DeserializeSeed<'de>>(
        &self,
        i: usize,
        mut member: super::inflate::Inflated,
        seed: S,
    ) -> Result<S::Value> {
        // only members named .npy are inflated ahead (see `packed`)
        let (options, budget, present) = (&self.options, &self.budget, member.len());
        read_member(&mut member, options, budget, true, present, seed)
            .map_err(|e| member_error(e, self.key(i)))
    }

    /// Reads member `i`'s npy header, then its data whole (the columnar
    /// reader holds every column), checking that the member ends there.
    /// `None` for a member that is not `.npy`. The buffer starts at the
    /// data size the header describes, capped by the member's `room` (the
    /// stored bytes, or a small multiple of the deflated ones), so stored
    /// members read without regrowing and a crafted size claim costs at
    /// most a small multiple of the bytes present until inflated bytes
    /// arrive.
    pub(crate) fn load_index(&mut self, i: usize) -> Result<Option<(Header, Vec<u8>)>> {
        self.with_member(i, |member, options, budget| {
            let Ok(parsed) = member_header(member, options, budget)? else {
                return Ok(None);
            };
            let total = parsed.header.data_len()?;
            let room = total.min(member.room());
            let mut data = Vec::with_capacity(usize::try_from(room).unwrap_or(0));
            member.by_ref().take(total).read_to_end(&mut data)?;
            if (data.len() as u64) < total {
                return Err(short_member(data.len() as u64, total));
            }
            check_end(member, total)?;
            Ok(Some((parsed.header, data)))
        })
    }

    /// Streams member `name` record by record (see [`NpyReader`]). The
    /// reader stops at the data's end; the CRC-32 is checked only if the
    /// member is read to its end.
    ///
    /// ```
    /// # use std::io::Cursor;
    /// # let mut file = Cursor::new(Vec::new());
    /// # let mut w = npy_serde::npz::NpzWriter::new(&mut file).compressed(true);
    /// # w.add("x", &[1u8, 2, 3])?;
    /// # w.finish()?;
    /// let mut z = npy_serde::npz::NpzReader::new(file)?;
    /// let mut r = z.reader("x")?;
    /// let sum: u8 = r.deserialize::<u8>().map(|v| v.unwrap()).sum();
    /// assert_eq!(sum, 6);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn reader(&mut self, name: &str) -> Result<NpyReader<MemberReader<'_, R>>> {
        let i = self.index(name)?;
        let options = self.options.clone();
        let mut member = self.open(i)?;
        let key = member.key.clone();
        read_header(&mut member, &options)
            .and_then(|parsed| NpyReader::from_parsed(member, parsed, &options))
            .map_err(|e| member_error(e, &key))
    }

    /// The decompressed bytes of member `name`, for members that are not
    /// `.npy` (a `readme.txt`), as numpy returns them. At most
    /// `ReadOptions::max_elements` bytes are read, and at most half of
    /// `ReadOptions::max_bytes` (each byte is charged twice: the buffer
    /// doubles as they arrive).
    ///
    /// ```
    /// # use std::io::Cursor;
    /// # let mut file = Cursor::new(Vec::new());
    /// # let mut w = npy_serde::npz::NpzWriter::new(&mut file);
    /// # w.add("x", &[1u8])?;
    /// # w.finish()?;
    /// let mut z = npy_serde::npz::NpzReader::new(file)?;
    /// assert!(z.raw("x")?.starts_with(b"\x93NUMPY"));
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn raw(&mut self, name: &str) -> Result<Vec<u8>> {
        let i = self.index(name)?;
        self.budget.reset();
        self.with_member(i, |member, options, budget| {
            read_raw(member, Vec::new(), options.max_elements, budget)
        })
    }

    /// Where member `name`'s array data lies in the archive, with its
    /// dtype, shape and order, for a zero-copy view of the archive's bytes
    /// (see [`DataRange`]). Only stored members (`np.savez`, an
    /// [`NpzWriter`](super::NpzWriter) that does not compress) have their
    /// data in the archive's bytes: a deflated member is an error. The
    /// member's npy header is read and checked as [`by_name`](Self::by_name)
    /// does (except `max_elements`: nothing is allocated), and the member
    /// must hold exactly the data the header promises.
    ///
    /// ```
    /// use std::io::Cursor;
    /// use npy_serde::npz::{NpzReader, NpzWriter};
    /// let mut w = NpzWriter::new(Cursor::new(Vec::new())).compressed(true);
    /// w.add("x", &[1.0f64, 2.0])?;
    /// let mut z = NpzReader::new(w.finish()?)?;
    /// let err = z.data_range("x").unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "member 'x': unsupported: the member is compressed (deflated): only stored members \
    ///      (np.savez, NpzWriter without compressed) hold their data as it is in the archive's \
    ///      bytes; read it with by_name"
    /// );
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn data_range(&mut self, name: &str) -> Result<DataRange> {
        let i = self.index(name)?;
        // bytes from the archive's start to the end of the stream
        let (archive_start, archive_len) = (self.start, self.extent.len.saturating_sub(self.start));
        self.with_member(i, |member, options, _| {
            let method = member.file.compression();
            if method != CompressionMethod::Stored {
                return Err(Error::unsupported(format!(
                    "the member is compressed ({}): only stored members (np.savez, NpzWriter \
                     without compressed) hold their data as it is in the archive's bytes; read \
                     it with by_name",
                    method_name(method)
                )));
            }
            let (data_start, size) = (member.file.data_start(), member.file.size());
            // a range allocates nothing for the elements: no element limit
            let parsed = read_header(member, &whole_array(options))?;
            let data_at = parsed.data_offset as u64;
            let data_len = parsed.header.data_len()?;
            let range = data_start
                .saturating_sub(archive_start)
                .checked_add(data_at)
                .ok_or_else(|| Error::limit("the member's data is past 2^64 bytes"))
                .and_then(|at| DataRange::new(parsed.header, at))?;
            check_size(size, data_at.saturating_add(data_len))?;
            if range.range().end > archive_len {
                return Err(Error::data(format!(
                    "the member's data ends at byte {}, past the archive's end at {archive_len}",
                    range.range().end
                )));
            }
            Ok(range)
        })
    }

    /// Reads rows `range` of the first axis of member `name` into `T`: what
    /// [`by_name`](Self::by_name) reads from a member holding numpy's
    /// `arr[a:b]` (see [`crate::from_slice_rows`], which refuses the same
    /// arrays and ranges). A stored member is read by seeking to the rows; a
    /// deflated one is inflated up to the rows' end, the bytes before them
    /// dropped as they come (the CRC-32, which covers the whole member, is
    /// not checked). `max_elements` and `max_bytes` apply to the rows read.
    ///
    /// ```
    /// use std::io::Cursor;
    /// let mut w = npy_serde::npz::NpzWriter::new(Cursor::new(Vec::new())).compressed(true);
    /// w.add("t", &(0..100u32).collect::<Vec<_>>())?;
    /// let mut z = npy_serde::npz::NpzReader::new(w.finish()?)?;
    /// assert_eq!(z.rows::<Vec<u32>>("t", 97..100)?, [97, 98, 99]);
    /// let err = z.rows::<Vec<u32>>("t", 90..120).unwrap_err();
    /// assert_eq!(err.to_string(), "member 't': rows 90..120 of 100: the range ends past the first axis");
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn rows<T: DeserializeOwned>(&mut self, name: &str, range: Range<u64>) -> Result<T> {
        let i = self.index(name)?;
        self.budget.reset();
        let (header, bytes) = self.read_rows(i, &range)?;
        crate::de::data::deserialize_data_in(
            &header,
            &bytes,
            self.options.cfg(),
            self.options.max_elements,
            &self.budget,
        )
        .map_err(|e| member_error(e, self.key(i)))
    }

    /// The header and bytes of rows `range` of member `i`, charged to the
    /// budget.
    fn read_rows(&mut self, i: usize, range: &Range<u64>) -> Result<(Header, Vec<u8>)> {
        // deflated: inflated up to the rows' end, the bytes before them
        // dropped as they come; stored: `Err` with its size, read below
        let deflated = self.with_member(i, |member, options, budget| {
            if member.file.compression() == CompressionMethod::Stored {
                return Ok(Err(member.file.size()));
            }
            let rows = rows_of(member, range, options, budget, |member, _, start, total| {
                let skipped = std::io::copy(&mut member.take(start), &mut std::io::sink())?;
                if skipped < start {
                    return Err(short_member(skipped, total));
                }
                Ok(())
            });
            rows.map(Ok)
        })?;
        let size = match deflated {
            Ok(rows) => return Ok(rows),
            Err(size) => size,
        };
        // stored: by seeking to the rows
        let (options, budget) = (self.options.clone(), self.budget.clone());
        let key = self.key(i).to_owned();
        let rows = self.zip.by_index_seek(i).map_err(Error::from);
        rows.and_then(|mut m| {
            rows_of(&mut m, range, &options, &budget, |m, at, start, total| {
                check_size(size, at.saturating_add(total))?;
                m.seek(SeekFrom::Start(at.saturating_add(start)))?;
                Ok(())
            })
        })
        .map_err(|e| member_error(e, &key))
    }
}

/// Reads rows `range` of a member: its npy header, then the rows, found
/// in its data and checked against the limits and charged to `budget`
/// before anything is read; `to_rows` brings the member from its data's
/// offset in the member, to the rows' start in the data (of `total`
/// bytes).
fn rows_of<M: Read>(
    member: &mut M,
    range: &Range<u64>,
    options: &ReadOptions,
    budget: &Budget,
    to_rows: impl FnOnce(&mut M, u64, u64, u64) -> Result<()>,
) -> Result<(Header, Vec<u8>)> {
    let parsed = read_header(member, &whole_array(options))?;
    let w = checked_window(&parsed.header, range, options.max_elements, budget)?;
    let total = parsed.header.data_len()?;
    to_rows(member, parsed.data_offset as u64, w.start, total)?;
    let bytes = read_up_to(member, w.len)?;
    if (bytes.len() as u64) < w.len {
        let got = w.start.saturating_add(bytes.len() as u64);
        return Err(short_member(got, total));
    }
    Ok((w.header, bytes))
}

/// A stored member must hold exactly its npy header and data (`promised`
/// bytes).
fn check_size(size: u64, promised: u64) -> Result<()> {
    if size == promised {
        return Ok(());
    }
    Err(Error::data(format!(
        "the member holds {size} bytes, but its npy header and data promise {promised}"
    )))
}

/// The error for a member whose data ends after `got` of its `total` bytes.
fn short_member(got: u64, total: u64) -> Error {
    Error::data(format!(
        "the member ends after {got} of the {total} bytes of data its npy header describes"
    ))
}

/// Reads up to 6 bytes: the magic of an npy member, or the start of
/// something else.
fn peek_magic<R: Read>(r: &mut R) -> Result<Vec<u8>> {
    let mut head = Vec::with_capacity(MAGIC.len());
    r.take(MAGIC.len() as u64).read_to_end(&mut head)?;
    Ok(head)
}

/// All remaining bytes after `start`, refusing more than `max_elements`
/// or what is left of `budget` in all (and charging them to it).
fn read_raw<R: Read>(
    r: &mut R,
    mut start: Vec<u8>,
    max_elements: u64,
    budget: &Budget,
) -> Result<Vec<u8>> {
    // the buffer doubles as bytes arrive: each byte is charged twice
    let left = budget.left() / 2;
    let limit = max_elements.min(left);
    let room = limit.saturating_sub(start.len() as u64);
    r.take(room.saturating_add(1)).read_to_end(&mut start)?;
    if start.len() as u64 > limit {
        if max_elements <= left {
            return Err(Error::limit(format!(
                "the member holds more than {limit} bytes (ReadOptions::max_elements)"
            )));
        }
        return Err(budget.more_than_left(
            "the member's bytes (charged twice: their buffer doubles as they arrive)",
        ));
    }
    budget.charge((start.len() as u64).saturating_mul(2), &|| {
        "the member's bytes (charged twice: their buffer doubles as they arrive)".to_owned()
    })?;
    Ok(start)
}

/// After the data: the member must end here. Reading to its end also has
/// the zip crate check the CRC-32 (one byte is read at most, too few to let
/// a deflate bomb inflate).
fn check_end<R: Read>(r: &mut R, data_len: u64) -> Result<()> {
    let mut more = Vec::new();
    r.take(1).read_to_end(&mut more)?;
    if more.is_empty() {
        return Ok(());
    }
    Err(Error::data(format!(
        "the data goes on after the {data_len} bytes its npy header describes (a damaged or crafted member)"
    )))
}

/// A member's npy header, its dtype checked readable and its data charged
/// to `budget`; `Err` with the member's first bytes when it has no npy
/// magic. The member is then positioned at its data.
fn member_header<R: Read>(
    member: &mut R,
    options: &ReadOptions,
    budget: &Budget,
) -> Result<std::result::Result<ParsedHeader, Vec<u8>>> {
    let head = peek_magic(member)?;
    if head.as_slice() != MAGIC.as_slice() {
        return Ok(Err(head));
    }
    // the header is longer than the magic: it takes all of `head`
    let parsed = read_header(&mut head.as_slice().chain(member), options)?;
    crate::de::check_readable(&parsed.header.descr)?;
    budget.charge_data(&parsed.header)?;
    Ok(Ok(parsed))
}

/// Reads one member with `seed`. A member without the npy magic is
/// corrupt when its name ends in `.npy`; any other is handed over as its
/// bytes, to byte targets only (see [`super::raw_member`]). `present`:
/// bytes of the member known to be there (a stored member's, inflated
/// ones held in memory; 0 when unknown), which lets plain-number outputs
/// be sized once (see `de::stream::Chunked::present`).
fn read_member<'de, R: Read, S: DeserializeSeed<'de>>(
    member: &mut R,
    options: &ReadOptions,
    budget: &Budget,
    npy_name: bool,
    present: u64,
    seed: S,
) -> Result<S::Value> {
    let parsed = match member_header(member, options, budget)? {
        Ok(parsed) => parsed,
        Err(_) if npy_name => {
            return Err(Error::data(
                "named .npy but not an npy file (no \\x93NUMPY magic): the member is damaged; \
                 NpzReader::raw reads its bytes",
            ));
        }
        Err(head) => {
            let bytes = read_raw(member, head, options.max_elements, budget)?;
            return seed.deserialize(super::raw_member::RawMember(&bytes));
        }
    };
    let data_len = parsed.header.data_len()?;
    let data_end = (parsed.data_offset as u64).checked_add(data_len);
    let mut de = StreamDe::new(&parsed.header, member, options.cfg(), options.max_elements)?
        .present(data_end.is_some_and(|end| end <= present))
        .charged(budget);
    let value = seed.deserialize(&mut de)?;
    check_end(&mut de.finish()?, data_len)?;
    Ok(value)
}
