//! The zip container of an archive being written, as Python's `zipfile`
//! writes it for `np.savez`.
//!
//! Each entry: a local header like numpy's (version 45, the 1980-01-01
//! timestamp, 32-bit sizes `0xFFFFFFFF` and the zip64 extra of
//! `force_zip64`; the UTF-8 flag for a name that is not ASCII), its data
//! (stored as written, or deflated in pieces by `deflate.rs`), then its
//! CRC-32 and sizes patched in by seeking back. A stored entry's data
//! starts at a multiple of 64 in the file (an extra field `0xa11e` pads
//! the header), so a memory map views its array in place. At the end the
//! central directory and end records, zip64 only where zipfile needs it
//! (sizes or offsets past 2 GiB, more than 65,535 entries). Every number
//! comes from the bytes written, never from a claim.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::io::{self, Seek, SeekFrom, Write};

use super::deflate::Deflater;
use crate::error::{Error, Result};
use crate::format::header::ARRAY_ALIGN;

/// zipfile's `ZIP64_LIMIT`: sizes and offsets above it go into zip64 fields.
const ZIP64_LIMIT: u64 = (1 << 31) - 1;
/// zipfile's `ZIP_FILECOUNT_LIMIT`.
const COUNT_LIMIT: usize = (1 << 16) - 1;
/// Version needed (and made by, with the Unix system byte): 4.5, zip64.
const VERSION: u16 = 45;
const MADE_BY: u16 = (3 << 8) | VERSION;
/// 1980-01-01 00:00 in DOS date form (the time is 0).
const DOS_DATE: u16 = (1 << 5) | 1;
/// `0o600 << 16`: a regular file readable and writable by its owner.
const EXTERNAL_ATTR: u32 = 0o600 << 16;
/// Bit 11: the name is UTF-8.
const UTF8_NAME: u16 = 1 << 11;
/// The extra field id of alignment padding (the zip crate's).
const ALIGN_EXTRA: u16 = 0xa11e;

/// A finished entry, as its central directory record needs it.
struct Entry {
    name: String,
    deflated: bool,
    crc: u32,
    /// Bytes of data in the archive.
    packed: u64,
    /// Bytes of the member uncompressed.
    size: u64,
    /// Where its local header starts.
    offset: u64,
}

/// The entry being written.
struct Open {
    entry: Entry,
    /// Where the zip64 extra's two sizes are in the local header.
    sizes_at: u64,
    hasher: crc32fast::Hasher,
    /// `Some` for a deflated entry.
    deflater: Option<Deflater>,
}

/// A zip archive being written entry by entry; [`Write`] goes into the
/// entry being written.
pub(crate) struct ZipOut<W: Write + Seek> {
    inner: W,
    done: Vec<Entry>,
    open: Option<Open>,
    /// The furthest position written: a dropped entry may have reached
    /// past where the archive goes on, and the central directory goes
    /// there, so that no stale bytes follow the end record (where readers
    /// look for it).
    high: u64,
}

/// Appends a field's little-endian bytes (`x.to_le_bytes()`).
fn put<const N: usize>(v: &mut Vec<u8>, bytes: [u8; N]) {
    v.extend_from_slice(&bytes);
}

/// The fields local and central headers share, from the version needed to
/// the extra field's length. The general purpose flags are only UTF-8:
/// bits 1 and 2 (the deflate level's class) stay 0 at every level, as
/// Python's zipfile leaves them. The name is checked to fit when the entry
/// is started.
fn shared_fields(v: &mut Vec<u8>, e: &Entry, sizes: [u32; 2], extra: u16) {
    put(v, VERSION.to_le_bytes());
    let flags = if e.name.is_ascii() { 0 } else { UTF8_NAME };
    put(v, flags.to_le_bytes());
    put(v, (if e.deflated { 8u16 } else { 0 }).to_le_bytes());
    put(v, 0u16.to_le_bytes());
    put(v, DOS_DATE.to_le_bytes());
    put(v, e.crc.to_le_bytes());
    put(v, sizes[0].to_le_bytes());
    put(v, sizes[1].to_le_bytes());
    put(v, (e.name.len() as u16).to_le_bytes());
    put(v, extra.to_le_bytes());
}

/// A 32-bit field, or `0xFFFFFFFF` when the value goes into zip64.
fn field32(v: u64) -> u32 {
    if v > ZIP64_LIMIT { u32::MAX } else { v as u32 }
}

/// The zip64 extra field holding `fields` (none: no field at all).
fn zip64_extra(fields: &[u64]) -> Vec<u8> {
    let mut v = Vec::new();
    if !fields.is_empty() {
        let len = (fields.len() as u16).saturating_mul(8);
        v.extend([1, len].iter().flat_map(|x: &u16| x.to_le_bytes()));
        v.extend(fields.iter().flat_map(|f| f.to_le_bytes()));
    }
    v
}

impl<W: Write + Seek> ZipOut<W> {
    pub(crate) fn new(inner: W) -> ZipOut<W> {
        ZipOut {
            inner,
            done: Vec::new(),
            open: None,
            high: 0,
        }
    }

    /// Finishes the entry being written, if any, and starts entry `name`
    /// at the current position: deflated at `level` (0 to 9, checked by
    /// the caller), or stored when `None`.
    pub(crate) fn start(&mut self, name: &str, level: Option<u32>) -> Result<()> {
        self.finish_entry()?;
        if name.len() > usize::from(u16::MAX) {
            return Err(Error::limit(format!(
                "a member name of {} bytes (a zip name holds at most 65535)",
                name.len()
            )));
        }
        let offset = self.inner.stream_position()?;
        let entry = Entry {
            name: name.to_owned(),
            deflated: level.is_some(),
            crc: 0,
            packed: 0,
            size: 0,
            offset,
        };
        // after the fixed part, the name and the zip64 extra's id and length
        let sizes_at = offset.saturating_add(34).saturating_add(name.len() as u64);
        let align = ARRAY_ALIGN as u64;
        // a stored entry's data starts at a multiple of `align`: the padding
        // field is at least 6 bytes (id, length, the alignment)
        let past = sizes_at.saturating_add(16).checked_rem(align).unwrap_or(0);
        let pad = match align.saturating_sub(past) {
            _ if entry.deflated || past == 0 => 0,
            pad if pad < 6 => pad.saturating_add(align),
            pad => pad,
        };
        let mut head = Vec::with_capacity(128usize.saturating_add(name.len()));
        head.extend_from_slice(b"PK\x03\x04");
        // the CRC-32 and the zip64 extra's sizes are patched
        let extra = pad.saturating_add(20) as u16;
        shared_fields(&mut head, &entry, [u32::MAX; 2], extra);
        head.extend_from_slice(name.as_bytes());
        head.extend(zip64_extra(&[0, 0])); // uncompressed and compressed size, patched
        if pad != 0 {
            put(&mut head, ALIGN_EXTRA.to_le_bytes());
            put(&mut head, (pad.saturating_sub(4) as u16).to_le_bytes());
            put(&mut head, (ARRAY_ALIGN as u16).to_le_bytes());
            head.resize(head.len().saturating_add(pad as usize).saturating_sub(6), 0);
        }
        self.inner.write_all(&head)?;
        self.open = Some(Open {
            entry,
            sizes_at,
            hasher: crc32fast::Hasher::new(),
            deflater: level.map(Deflater::new),
        });
        Ok(())
    }

    /// Completes the entry being written: the rest of its data, then its
    /// CRC-32 and sizes in its local header.
    fn finish_entry(&mut self) -> io::Result<()> {
        let Some(mut open) = self.open.take() else {
            return Ok(());
        };
        if let Some(d) = open.deflater.take() {
            let n = d.finish(&mut self.inner)?;
            open.entry.packed = open.entry.packed.saturating_add(n);
        }
        let mut e = open.entry;
        e.crc = open.hasher.finalize();
        let end = self.inner.stream_position()?;
        self.inner
            .seek(SeekFrom::Start(e.offset.saturating_add(14)))?;
        self.inner.write_all(&e.crc.to_le_bytes())?;
        self.inner.seek(SeekFrom::Start(open.sizes_at))?;
        self.inner.write_all(&e.size.to_le_bytes())?;
        self.inner.write_all(&e.packed.to_le_bytes())?;
        self.inner.seek(SeekFrom::Start(end))?;
        self.done.push(e);
        Ok(())
    }

    /// Bytes written into the entry being written (uncompressed).
    pub(crate) fn written(&self) -> u64 {
        self.open.as_ref().map_or(0, |open| open.entry.size)
    }

    /// Drops the entry being written: the next one starts where it did.
    pub(crate) fn abort(&mut self) -> Result<()> {
        if let Some(open) = self.open.take() {
            self.high = self.high.max(self.inner.stream_position()?);
            self.inner.seek(SeekFrom::Start(open.entry.offset))?;
        }
        Ok(())
    }

    /// Completes the archive (the last entry, the central directory, the
    /// end records) and returns the writer.
    pub(crate) fn finish(mut self) -> Result<W> {
        self.finish_entry()?;
        let mut cd_offset = self.inner.stream_position()?;
        if self.high > cd_offset {
            // after the bytes of a dropped entry: unreferenced, harmless
            cd_offset = self.inner.seek(SeekFrom::Start(self.high))?;
        }
        let mut cd = Vec::new();
        for e in &self.done {
            // both sizes in zip64 when either needs it, as zipfile does
            let big = e.size.max(e.packed) > ZIP64_LIMIT;
            let mut fields = if big { vec![e.size, e.packed] } else { vec![] };
            fields.extend((e.offset > ZIP64_LIMIT).then_some(e.offset));
            let sizes = [e.packed, e.size].map(|x| if big { u32::MAX } else { field32(x) });
            let zip64 = zip64_extra(&fields);
            cd.extend_from_slice(b"PK\x01\x02");
            put(&mut cd, MADE_BY.to_le_bytes());
            shared_fields(&mut cd, e, sizes, zip64.len() as u16);
            put(&mut cd, [0; 6]); // comment length, disk, internal attributes
            put(&mut cd, EXTERNAL_ATTR.to_le_bytes());
            put(&mut cd, field32(e.offset).to_le_bytes());
            cd.extend_from_slice(e.name.as_bytes());
            cd.extend_from_slice(&zip64);
        }
        let count = self.done.len();
        let cd_size = cd.len() as u64;
        if count > COUNT_LIMIT || cd_offset > ZIP64_LIMIT || cd_size > ZIP64_LIMIT {
            let end64 = cd_offset.saturating_add(cd_size);
            cd.extend_from_slice(b"PK\x06\x06");
            put(&mut cd, 44u64.to_le_bytes());
            put(&mut cd, VERSION.to_le_bytes());
            put(&mut cd, VERSION.to_le_bytes());
            put(&mut cd, [0; 8]); // this disk, the directory's disk
            put(&mut cd, (count as u64).to_le_bytes());
            put(&mut cd, (count as u64).to_le_bytes());
            put(&mut cd, cd_size.to_le_bytes());
            put(&mut cd, cd_offset.to_le_bytes());
            cd.extend_from_slice(b"PK\x06\x07");
            put(&mut cd, 0u32.to_le_bytes());
            put(&mut cd, end64.to_le_bytes());
            put(&mut cd, 1u32.to_le_bytes());
        }
        let count16 = u16::try_from(count).unwrap_or(u16::MAX);
        cd.extend_from_slice(b"PK\x05\x06");
        put(&mut cd, [0; 4]); // this disk, the directory's disk
        put(&mut cd, count16.to_le_bytes());
        put(&mut cd, count16.to_le_bytes());
        let [size32, offset32] = [cd_size, cd_offset].map(|x| u32::try_from(x).unwrap_or(u32::MAX));
        put(&mut cd, size32.to_le_bytes());
        put(&mut cd, offset32.to_le_bytes());
        put(&mut cd, 0u16.to_le_bytes());
        self.inner.write_all(&cd)?;
        Ok(self.inner)
    }
}

/// Into the entry being written: stored as it comes, or to its deflater.
impl<W: Write + Seek> Write for ZipOut<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let Some(open) = self.open.as_mut() else {
            return Err(io::Error::other("no zip entry is being written"));
        };
        let (n, packed) = match open.deflater.as_mut() {
            None => self.inner.write(buf).map(|n| (n, n as u64))?,
            Some(d) => (buf.len(), d.push(buf, &mut self.inner)?),
        };
        open.hasher.update(buf.get(..n).unwrap_or_default());
        open.entry.size = open.entry.size.saturating_add(n as u64);
        open.entry.packed = open.entry.packed.saturating_add(packed);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
