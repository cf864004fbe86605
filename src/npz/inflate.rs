//! Deflated members inflated on every core (feature `rayon`), for a struct
//! or a map read from an archive ([`super::from_reader`]).
//!
//! serde hands `deserialize_struct` the field list up front, so the members
//! to read are known before the first is decoded. When at least two of them
//! are deflated (and the pool has two threads or more), before the first
//! is decoded their compressed bytes are read one after another from
//! the archive's reader (no more than the bytes present), then inflated on
//! rayon's pool (the current one: a caller's `install` is honoured), one
//! member per task, largest first. Each member's value is then decoded,
//! when serde asks for it, by the very `read_member` of the sequential path
//! over the inflated bytes: the same values, limits and messages.
//!
//! A member is served from its inflated bytes only if they are exactly what
//! the zip crate's reader would have yielded before a clean end: the deflate
//! stream ended, within the size its npy header describes, at exactly the
//! size the zip directory declares, and with the CRC-32 the directory
//! records (the zip crate checks it at the stream's end; so does this
//! module, with the same `crc32fast`). Anything else (a corrupt stream, a
//! bad CRC, a member cut short or going on, a header that does not parse, a
//! member that is not `.npy`) is not a copy of the zip's stream and is read
//! again, when asked for, by the sequential path, whose error is reported:
//! one implementation of every message, at the same point (the earlier
//! members read fine). Failing is the rare case.
//!
//! Inflating one member stops, past its first piece (64 KiB, which holds
//! its npy header), at what the sequential path could ever read: the
//! header's data plus one byte (to see that it goes on), and never past the
//! zip's declared size plus one; the buffers grow only as inflated bytes
//! arrive. A bomb is stopped after that first piece, then read sequentially
//! (which stops at its header's data).
//!
//! Memory: while the members inflate, the compressed bytes of those not
//! yet inflated (a member's are dropped once it is inflated) and the
//! inflated bytes of the others; while they are decoded, the inflated bytes
//! of the members not yet read (in pieces, each dropped once read, so a
//! member's bytes are freed as its value is decoded) and the output. For
//! members read as their dtype (numbers, records), the output is the size
//! of the data, so the peak stays under about twice the output
//! (`tests/memory/npz_reading.rs` asserts 2.1x).
//!
//! (Handing each member to the pool as a task and decoding it as soon as
//! it is inflated, while the later ones inflate, was tried and measured
//! slower on two cores from the global pool: 0.87x the sequential read,
//! where this way gives 1.0x to 1.12x; min of 20 reads of the bench's
//! deflated snapshot, bulk fields.)

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use flate2::{Decompress, FlushDecompress, Status};
use rayon::prelude::*;

use std::collections::{HashMap, VecDeque};
use std::io::{Cursor, Read};

use crate::format::header_read::parse_header;
use crate::options::ReadOptions;

/// One deflated member's compressed bytes and what the zip directory
/// claims about its inflated bytes.
pub(crate) struct Packed {
    /// The member index.
    pub(crate) index: usize,
    pub(crate) bytes: Vec<u8>,
    /// Uncompressed size the directory declares.
    pub(crate) declared: u64,
    /// The CRC-32 the directory records.
    pub(crate) crc: u32,
}

/// The first piece, which must hold the npy header (a longer header, up
/// to the longest [`ReadOptions::max_header_size`] allows, leaves the
/// member to the sequential path); each next one is as large as the bytes
/// inflated so far (so a buffer grows only as bytes arrive), up to
/// [`PIECE`].
const FIRST_PIECE: usize = 64 << 10;

/// The largest piece: small enough that a member being read frees its
/// inflated bytes as it goes, large enough to cost nothing.
const PIECE: usize = 1 << 20;

/// A member's inflated bytes in pieces, read from the front; a piece is
/// dropped once read, so a member's inflated bytes are freed as its value
/// is decoded.
pub(crate) struct Inflated {
    pieces: VecDeque<Cursor<Vec<u8>>>,
}

impl Inflated {
    /// Bytes not yet read.
    pub(crate) fn len(&self) -> u64 {
        let left = |p: &Cursor<Vec<u8>>| (p.get_ref().len() as u64).saturating_sub(p.position());
        self.pieces.iter().map(left).sum()
    }
}

impl Read for Inflated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while let Some(front) = self.pieces.front_mut() {
            let n = front.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            self.pieces.pop_front();
        }
        Ok(0)
    }
}

/// Inflates `members` on rayon's pool (largest first): by member index,
/// the inflated bytes of those whose bytes are exactly the zip stream's
/// (see the module docs).
pub(crate) fn inflate_all(members: Vec<Packed>, options: &ReadOptions) -> HashMap<usize, Inflated> {
    let mut jobs = members;
    // largest first (by the inflated size claimed: it is what costs time),
    // so that the last task to start is a small one
    jobs.sort_by_key(|p| std::cmp::Reverse(p.declared));
    jobs.into_par_iter()
        .with_max_len(1)
        .filter_map(|packed| Some((packed.index, inflate(packed, options)?)))
        .collect()
}

/// One member's inflated bytes, if they are exactly the zip stream's; the
/// compressed bytes are dropped on return.
fn inflate(packed: Packed, options: &ReadOptions) -> Option<Inflated> {
    let declared = usize::try_from(packed.declared).ok()?;
    let mut d = Decompress::new(false);
    let mut crc = crc32fast::Hasher::new();
    let mut pieces = VecDeque::new();
    // never more than the directory declares (and one byte to see more),
    // then, once the first piece gives the npy header, no more than its
    // data and one byte (a member that goes on is not read further)
    let mut end = declared.checked_add(1)?;
    let (mut total, mut len, mut ended) = (0usize, None, false);
    while !ended && total < end {
        let size = total
            .clamp(FIRST_PIECE, PIECE)
            .min(end.saturating_sub(total));
        let mut piece = Vec::with_capacity(size);
        ended = inflate_into(&mut d, &packed.bytes, &mut piece)?;
        if len.is_none() {
            let parsed = parse_header(&piece, options).ok()?;
            let data_len = parsed.header.data_len().ok()?;
            // a member over the byte budget is left to the sequential
            // path, which refuses it before inflating its data
            if data_len > options.max_bytes {
                return None;
            }
            let data_len = usize::try_from(data_len).ok()?;
            let whole = parsed.data_offset.checked_add(data_len)?;
            end = end.min(whole.checked_add(1)?);
            len = Some(whole);
        }
        crc.update(&piece);
        total = total.saturating_add(piece.len());
        pieces.push_back(Cursor::new(piece));
    }
    let exact = ended && len == Some(total) && total == declared;
    (exact && crc.finalize() == packed.crc).then_some(Inflated { pieces })
}

/// Inflates into `out` until its capacity is full (`Some(false)`) or the
/// stream ends (`Some(true)`); `None` when the stream is damaged or ends
/// early (no progress, with input left or none).
fn inflate_into(d: &mut Decompress, input: &[u8], out: &mut Vec<u8>) -> Option<bool> {
    while out.len() < out.capacity() {
        let before = (d.total_in(), d.total_out());
        let at = usize::try_from(d.total_in()).ok()?;
        let status = d
            .decompress_vec(input.get(at..)?, out, FlushDecompress::None)
            .ok()?;
        if status == Status::StreamEnd {
            return Some(true);
        }
        if (d.total_in(), d.total_out()) == before {
            return None;
        }
    }
    Some(false)
}
