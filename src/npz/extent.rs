//! Where an archive's zip structures lie, checked against the bytes
//! present before the zip crate reads them, so that a truncated or lying
//! archive is reported as such: the member where there is one, the offset,
//! and what the directory promises against what the file holds (the zip
//! crate itself says only "failed to fill whole buffer").
//!
//! Offsets are counted from the stream's start, as the zip crate counts them.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::io::{Read, Seek, SeekFrom};
use std::ops::Range;

use crate::error::{Error, Result};
use crate::format::pyrepr::PyStr;

const EOCD: &[u8; 4] = b"PK\x05\x06";
const EOCD_LEN: u64 = 22;
const ZIP64_LOCATOR: &[u8; 4] = b"PK\x06\x07";
const ZIP64_LOCATOR_LEN: u64 = 20;
const ZIP64_EOCD: &[u8; 4] = b"PK\x06\x06";
const ZIP64_EOCD_LEN: u64 = 56;
const CENTRAL: &[u8; 4] = b"PK\x01\x02";
const CENTRAL_LEN: usize = 46;
/// The fixed part of a local file header.
const LOCAL_LEN: u64 = 30;
/// The longest archive comment, plus the record: how far from the end the
/// end of central directory record can start.
pub(crate) const TAIL: u64 = 0xFFFF + EOCD_LEN;

/// What the central directory says of one member.
struct Entry {
    name: String,
    /// Where its local header starts.
    header: u64,
    /// The length of its name (the local header repeats it).
    name_len: u64,
    /// Whether it is stored (compression method 0), not deflated.
    #[cfg_attr(not(feature = "object_store"), allow(dead_code))]
    stored: bool,
}

/// The archive's directory, as far as the checks need it.
pub(crate) struct Extent {
    /// The stream's length.
    pub(super) len: u64,
    /// Where the central directory starts: no member's bytes go past it.
    cd_start: u64,
    entries: Vec<Entry>,
}

fn data(msg: String) -> Error {
    Error::data(format!("not a readable .npz (zip) archive: {msg}"))
}

/// The little-endian integer of `N` bytes at `at`, 0 where `b` is shorter.
fn le<const N: usize>(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    if let (Some(src), Some(dst)) = (b.get(at..at.saturating_add(N)), a.get_mut(..N)) {
        dst.copy_from_slice(src);
    }
    u64::from_le_bytes(a)
}

/// Reads `n` bytes at `at`, fewer where the stream ends.
fn read_at<R: Read + Seek>(r: &mut R, at: u64, n: u64) -> Result<Vec<u8>> {
    let what = || format!("reading the zip directory at byte {at}");
    r.seek(SeekFrom::Start(at))
        .map_err(|e| Error::io_at(e, what()))?;
    let mut buf = Vec::new();
    r.take(n)
        .read_to_end(&mut buf)
        .map_err(|e| Error::io_at(e, what()))?;
    Ok(buf)
}

impl Extent {
    /// Finds the end of central directory record and reads the directory's
    /// entries, refusing an archive whose structures run past its end.
    pub(crate) fn scan<R: Read + Seek>(r: &mut R, len: u64) -> Result<Self> {
        let (dir, count, shift) = Self::directory(r, len)?;
        let cd = read_at(r, dir.start, dir.end.saturating_sub(dir.start))?;
        Ok(Extent {
            len,
            cd_start: dir.start,
            entries: parse_entries(&cd, count, shift),
        })
    }

    /// The bytes of the archive's central directory (checked to lie before
    /// its end records), found from the end of central directory record in
    /// the archive's last [`TAIL`] bytes: what a reader fetching ranges of
    /// an object reads before [`Extent::scan`].
    #[cfg(feature = "object_store")]
    pub(crate) fn directory_range<R: Read + Seek>(r: &mut R, len: u64) -> Result<Range<u64>> {
        Ok(Self::directory(r, len)?.0)
    }

    /// Finds the end of central directory record (and the zip64 one) and
    /// where the directory lies (it ends where its end record starts),
    /// refusing one that runs past them; with the entries it promises and
    /// how far the archive sits behind other bytes.
    fn directory<R: Read + Seek>(r: &mut R, len: u64) -> Result<(Range<u64>, u64, u64)> {
        let tail_start = len.saturating_sub(TAIL);
        let tail = read_at(r, tail_start, len.saturating_sub(tail_start))?;
        let Some(i) = tail.windows(4).rposition(|w| w == EOCD) else {
            return Err(Self::no_end_record(&tail, tail_start, len));
        };
        let eocd_at = tail_start.saturating_add(i as u64);
        let Some(eocd) = tail.get(i..).filter(|e| e.len() as u64 >= EOCD_LEN) else {
            return Err(data(format!(
                "the archive ends after {len} bytes, inside its end of central directory \
                 record at byte {eocd_at}, which needs {EOCD_LEN} bytes: the file is truncated"
            )));
        };
        let mut count = le::<2>(eocd, 10);
        let mut cd_size = le::<4>(eocd, 12);
        let mut cd_offset = le::<4>(eocd, 16);
        let mut cd_end = eocd_at;
        // a zip64 end record, where there is one, takes precedence: Python's
        // zipfile writes it (before the end record) also when the end
        // record's own fields are not saturated, and the directory then
        // ends where it starts
        if let Some(loc_at) = eocd_at.checked_sub(ZIP64_LOCATOR_LEN) {
            let loc = read_at(r, loc_at, ZIP64_LOCATOR_LEN)?;
            if loc.get(..4) == Some(ZIP64_LOCATOR.as_slice()) {
                // the locator's offset is from the archive's first byte; an
                // archive behind other bytes is left to the zip crate
                let rec_at = le::<8>(&loc, 8);
                let rec = read_at(r, rec_at, ZIP64_EOCD_LEN)?;
                if rec.get(..4) == Some(ZIP64_EOCD.as_slice()) {
                    if (rec.len() as u64) < ZIP64_EOCD_LEN {
                        return Err(data(format!(
                            "the archive ends after {len} bytes, inside its zip64 end of \
                             central directory record at byte {rec_at}, which needs \
                             {ZIP64_EOCD_LEN} bytes"
                        )));
                    }
                    count = le::<8>(&rec, 32);
                    cd_size = le::<8>(&rec, 40);
                    cd_offset = le::<8>(&rec, 48);
                    cd_end = rec_at;
                }
            }
        }
        let promised = cd_offset.saturating_add(cd_size);
        if promised > cd_end {
            return Err(data(format!(
                "the archive holds {cd_end} bytes before its end of central directory record; \
                 its directory promises {promised} (a central directory of {cd_size} bytes at \
                 byte {cd_offset}): the file is truncated or damaged"
            )));
        }
        // an archive behind other bytes: the directory ends at its record
        let cd_start = cd_end.saturating_sub(cd_size);
        Ok((cd_start..cd_end, count, cd_start.saturating_sub(cd_offset)))
    }

    /// Why there is no end record: the file is cut inside its central
    /// directory (the last entry is named), or it is no zip.
    #[cold]
    fn no_end_record(tail: &[u8], tail_start: u64, len: u64) -> Error {
        let no_record = "no end of central directory record (the file is truncated or not a zip)";
        let Some(q) = tail.windows(4).rposition(|w| w == CENTRAL) else {
            return data(no_record.to_owned());
        };
        let entry = tail.get(q..).unwrap_or_default();
        let at = tail_start.saturating_add(q as u64);
        let which = if entry.len() >= CENTRAL_LEN {
            let n = le::<2>(entry, 28);
            let needs = (CENTRAL_LEN as u64)
                .saturating_add(n)
                .saturating_add(le::<2>(entry, 30))
                .saturating_add(le::<2>(entry, 32));
            let end = usize::try_from(n).map_or(usize::MAX, |n| n.saturating_add(CENTRAL_LEN));
            let name = entry
                .get(CENTRAL_LEN..end.min(entry.len()))
                .unwrap_or_default();
            let name = String::from_utf8_lossy(name);
            let entry_at = format!("the entry at byte {at}, which needs {needs} bytes");
            match (end <= entry.len(), name.is_empty()) {
                (true, _) => format!(
                    "the entry of member {} at byte {at}, which needs {needs} bytes",
                    PyStr(&name)
                ),
                (false, true) => format!("{entry_at}; its member's name is cut"),
                (false, false) => format!(
                    "{entry_at}; its member's name is cut after {}",
                    PyStr(&name)
                ),
            }
        } else {
            format!("an entry at byte {at}, which needs {CENTRAL_LEN} bytes and more")
        };
        data(format!(
            "the archive ends after {len} bytes, inside its central directory ({which}), and \
             has no end of central directory record: the file is truncated"
        ))
    }

    /// The directory's entry for member `i` named `name`.
    fn entry(&self, i: usize, name: &str) -> Option<&Entry> {
        match self.entries.get(i) {
            Some(e) if e.name == name => Some(e),
            _ => self.entries.iter().find(|e| e.name == name),
        }
    }

    /// The bytes of member `i` named `name`: from its local header to the
    /// next member's (or the central directory), which hold its local
    /// header, its data and any data descriptor; and whether it is stored.
    /// Clamped to the archive: a member whose offset is damaged is then
    /// refused by the checks that read it.
    #[cfg(feature = "object_store")]
    pub(crate) fn span(&self, i: usize, name: &str) -> Option<(Range<u64>, bool)> {
        let e = self.entry(i, name)?;
        let end = self
            .entries
            .iter()
            .map(|o| o.header)
            .filter(|&h| h > e.header)
            .fold(self.cd_start, u64::min);
        let start = e.header.min(self.len);
        Some((start..end.clamp(start, self.len), e.stored))
    }

    /// Refuses member `i` when its local header is not all in the archive,
    /// before the zip crate reads it.
    pub(crate) fn check_local_header(&self, i: usize, name: &str) -> Result<()> {
        let Some(e) = self.entry(i, name) else {
            return Ok(());
        };
        let needs = LOCAL_LEN.saturating_add(e.name_len);
        let end = e.header.saturating_add(needs);
        if end > self.len {
            return Err(Error::data(format!(
                "the archive ends after {} bytes, inside the member's local header at byte {}, \
                 which needs {needs} bytes (its directory promises {end})",
                self.len, e.header
            )));
        }
        if end > self.cd_start {
            return Err(Error::data(format!(
                "the member's local header at byte {} needs {needs} bytes, but the central \
                 directory starts at byte {}: the member is cut or its offset is damaged",
                e.header, self.cd_start
            )));
        }
        Ok(())
    }

    /// Refuses a member whose compressed bytes (`packed` from `data_start`)
    /// are not all in the archive before the central directory.
    pub(crate) fn check_data(&self, data_start: u64, packed: u64) -> Result<()> {
        let end = data_start.saturating_add(packed);
        if end > self.len {
            return Err(Error::data(format!(
                "the archive ends after {} bytes; its directory promises {end} (the member's \
                 {packed} compressed bytes from byte {data_start})",
                self.len
            )));
        }
        if end > self.cd_start {
            return Err(Error::data(format!(
                "the member's {packed} compressed bytes from byte {data_start} run to byte \
                 {end}, into the central directory at byte {}: the member is cut short",
                self.cd_start
            )));
        }
        Ok(())
    }
}

/// The entries of a central directory (`count` promised; parsing stops at
/// the first that is not all there, which the zip crate then reports).
fn parse_entries(cd: &[u8], count: u64, shift: u64) -> Vec<Entry> {
    let mut entries = Vec::new();
    let mut at = 0usize;
    for _ in 0..count {
        let Some(e) = cd.get(at..) else { break };
        if e.len() < CENTRAL_LEN || e.get(..4) != Some(CENTRAL.as_slice()) {
            break;
        }
        // the name's, extra field's and comment's lengths: 16 bits each
        let [n, x, c] = [28, 30, 32].map(|at| le::<2>(e, at) as usize);
        let name_end = CENTRAL_LEN.saturating_add(n);
        let Some(name) = e.get(CENTRAL_LEN..name_end) else {
            break;
        };
        let extra = e
            .get(name_end..name_end.saturating_add(x))
            .unwrap_or_default();
        let mut header = le::<4>(e, 42);
        if header == 0xFFFF_FFFF {
            header = zip64_offset(e, extra).unwrap_or(header);
        }
        entries.push(Entry {
            name: String::from_utf8_lossy(name).into_owned(),
            header: header.saturating_add(shift),
            name_len: n as u64,
            stored: le::<2>(e, 10) == 0,
        });
        at = at.saturating_add(name_end.saturating_add(x).saturating_add(c));
    }
    entries
}

/// The local header offset from an entry's zip64 extra field (which holds,
/// in this order, those of the uncompressed size, compressed size and
/// offset that are 0xFFFFFFFF in the entry).
fn zip64_offset(entry: &[u8], mut extra: &[u8]) -> Option<u64> {
    while extra.len() >= 4 {
        let id = le::<2>(extra, 0);
        let size = usize::try_from(le::<2>(extra, 2)).ok()?;
        let body = extra.get(4..4usize.saturating_add(size))?;
        if id == 1 {
            let mut at = 0usize;
            for field in [24usize, 20] {
                if le::<4>(entry, field) == 0xFFFF_FFFF {
                    at = at.saturating_add(8);
                }
            }
            return (body.len() >= at.saturating_add(8)).then(|| le::<8>(body, at));
        }
        extra = extra.get(4usize.saturating_add(size)..)?;
    }
    None
}
