//! [`Fetched`]: the bytes of an object fetched so far, as a `Read + Seek`
//! stream of the object's length, so that the file API's readers (the npz
//! reader, its zip directory checks) read an object exactly as they read a
//! file. Each caller fetches first what the reader is about to read.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::io::{Read, Seek, SeekFrom};
use std::ops::Range;

use bytes::Bytes;

/// Pieces of one object, each at its offset; the stream's length is the
/// object's.
#[derive(Clone, Debug, Default)]
pub(crate) struct Fetched {
    len: u64,
    pieces: Vec<(u64, Bytes)>,
    pos: u64,
}

impl Fetched {
    /// An object of `len` bytes, none fetched yet.
    pub(crate) fn new(len: u64) -> Self {
        Fetched {
            len,
            pieces: Vec::new(),
            pos: 0,
        }
    }

    /// Adds the bytes fetched at `at`.
    pub(crate) fn add(&mut self, at: u64, bytes: Bytes) {
        self.pieces.push((at, bytes));
    }

    /// Whether every byte of `range` has been fetched (within one piece).
    pub(crate) fn covers(&self, range: &Range<u64>) -> bool {
        range.is_empty()
            || self
                .pieces
                .iter()
                .any(|(at, b)| *at <= range.start && range.end <= at.saturating_add(b.len() as u64))
    }

    /// The fetched bytes from `pos` on, as far as one piece holds them.
    fn at(&self, pos: u64) -> Option<&[u8]> {
        self.pieces
            .iter()
            .filter_map(|(at, b)| {
                let skip = usize::try_from(pos.checked_sub(*at)?).ok()?;
                b.get(skip..).filter(|rest| !rest.is_empty())
            })
            .max_by_key(|rest| rest.len())
    }
}

impl Read for Fetched {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pos >= self.len || buf.is_empty() {
            return Ok(0);
        }
        let Some(rest) = self.at(self.pos) else {
            // a caller fetches what the reader reads: this is a bug
            return Err(std::io::Error::other(format!(
                "internal error: byte {} of the object was not fetched",
                self.pos
            )));
        };
        let n = rest.len().min(buf.len());
        if let (Some(to), Some(from)) = (buf.get_mut(..n), rest.get(..n)) {
            to.copy_from_slice(from);
        }
        self.pos = self.pos.saturating_add(n as u64);
        Ok(n)
    }
}

impl Seek for Fetched {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        let pos = match to {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::End(d) => self.len.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        self.pos = pos.ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "seek before the object's start",
            )
        })?;
        Ok(self.pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_pieces_and_refuses_the_gaps() {
        let mut f = Fetched::new(10);
        f.add(0, Bytes::from_static(b"abc"));
        f.add(6, Bytes::from_static(b"ghij"));
        assert!(f.covers(&(1..3)) && f.covers(&(6..10)) && f.covers(&(4..4)));
        assert!(!f.covers(&(2..7)));
        let mut buf = [0u8; 8];
        assert_eq!(f.read(&mut buf).unwrap(), 3);
        assert_eq!(&buf[..3], b"abc");
        assert!(f.read(&mut buf).unwrap_err().to_string().contains("byte 3"));
        f.seek(SeekFrom::End(-3)).unwrap();
        let mut rest = Vec::new();
        f.read_to_end(&mut rest).unwrap();
        assert_eq!(rest, b"hij");
        assert!(f.seek(SeekFrom::Current(-20)).is_err());
    }
}
