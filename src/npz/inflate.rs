//! Deflated members inflated on every core (feature `rayon`), for a struct
//! or a map read from an archive ([`super::from_reader`]).
//!
//! serde hands `deserialize_struct` the field list up front, so the members
//! to read are known before the first is decoded. When at least two of them
//! are deflated (and the pool has two threads or more), at the first value
//! asked of them their compressed bytes are read one after another from
//! the archive's reader (no more than the bytes present), then each is
//! handed to rayon's pool as a task, in field order. Each member's value is
//! decoded, when serde asks for it, by the very `read_member` of the
//! sequential path over the inflated bytes (the same values, limits and
//! messages), while the later members go on inflating.
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
//! Inflating one member stops at what the sequential path could ever read:
//! its npy header's data plus one byte (to see that it goes on), and never
//! past the zip's declared size plus one; the buffers grow only as inflated
//! bytes arrive. A bomb is stopped after its header's few KiB, then read
//! sequentially (which stops there too).
//!
//! Memory: the compressed bytes of the members not yet inflated (a member's
//! are dropped once it is inflated), the inflated bytes of the members not
//! yet read (in pieces, each dropped once read, so a member's bytes are
//! freed as its value is decoded) and the output. For members read as
//! their dtype (numbers, records), the output is the size of the data, so
//! the peak stays under about twice the output (`tests/memory/npz_reading.rs`
//! asserts 2.1x). When the read ends (done or failed), members not read
//! stop inflating, and no task outlives the read.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use flate2::{Decompress, FlushDecompress, Status};

use std::io::{Read, Seek};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use crate::header_read::parse_header;
use crate::options::ReadOptions;

use super::read::NpzReader;

/// One deflated member's compressed bytes and what the zip directory
/// claims about its inflated bytes.
pub(crate) struct Packed {
    pub(crate) bytes: Vec<u8>,
    /// Uncompressed size the directory declares.
    pub(crate) declared: u64,
    /// The CRC-32 the directory records.
    pub(crate) crc: u32,
}

/// The first inflated bytes tried for the npy header; doubled (up to the
/// longest header the options allow) while the header does not parse.
const FIRST_HEAD: usize = 4 << 10;

/// The first piece after the header; each next one is as large as the
/// bytes inflated so far (so a buffer grows only as bytes arrive), up to
/// [`PIECE`].
const FIRST_PIECE: usize = 64 << 10;

/// The largest piece: small enough that a member being read frees its
/// inflated bytes as it goes, large enough to cost nothing.
const PIECE: usize = 1 << 20;

/// A member's inflated bytes in pieces, read from the front; a piece is
/// dropped once read, so a member's inflated bytes are freed as its value
/// is decoded.
pub(crate) struct Inflated {
    pieces: std::collections::VecDeque<Vec<u8>>,
    /// Bytes of the front piece already read.
    at: usize,
}

impl Read for Inflated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while let Some(front) = self.pieces.front() {
            let rest = front.get(self.at..).unwrap_or_default();
            if rest.is_empty() {
                self.pieces.pop_front();
                self.at = 0;
                continue;
            }
            let n = rest.len().min(buf.len());
            let (to, from) = (buf.get_mut(..n), rest.get(..n));
            if let (Some(to), Some(from)) = (to, from) {
                to.copy_from_slice(from);
            }
            self.at = self.at.saturating_add(n);
            return Ok(n);
        }
        Ok(0)
    }
}

/// The members of a struct or map read that inflate ahead, then their
/// inflated bytes until each is read.
pub(crate) struct Ahead {
    /// The member indices to inflate at the first value asked of them.
    pending: Vec<usize>,
    /// The members handed to the pool, in `pending`'s order, with their
    /// results as they come.
    spawned: Option<Arc<Slots>>,
}

/// The members being inflated on the pool, and each one's result once done.
struct Slots {
    /// The member indices, each with its slot.
    members: Vec<usize>,
    done: Mutex<Vec<Slot>>,
    /// Signalled when a slot is filled.
    filled: Condvar,
    /// Set when the read ends: tasks not yet done stop.
    cancel: AtomicBool,
}

enum Slot {
    Inflating,
    /// Its inflated bytes, or `None` when the member is left to the
    /// sequential path.
    Done(Option<Inflated>),
    Taken,
}

impl Ahead {
    /// The deflated members of `order` (the members a struct or map will
    /// read, in that order) when there are at least two and the pool has
    /// at least two threads; none otherwise (then nothing changes).
    pub(crate) fn plan<R: Read + Seek>(npz: &mut NpzReader<R>, order: &[usize]) -> Self {
        let mut pending: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&i| npz.is_deflated(i))
            .collect();
        // (asked only now: the first call starts rayon's global pool)
        if pending.len() < 2 || rayon::current_num_threads() < 2 {
            pending.clear();
        }
        Ahead {
            pending,
            spawned: None,
        }
    }

    /// Member `i`'s inflated bytes if it was inflated ahead and they are
    /// exactly the zip stream's. At the first of the planned members asked
    /// for, all of them are read and handed to the pool, in order; this
    /// waits for member `i` (running pool work meanwhile when on a pool
    /// thread, so that a pool of any size makes progress).
    pub(crate) fn take<R: Read + Seek>(
        &mut self,
        npz: &mut NpzReader<R>,
        i: usize,
    ) -> Option<Inflated> {
        if self.spawned.is_none() && self.pending.contains(&i) {
            self.spawned = Some(spawn_all(npz, std::mem::take(&mut self.pending)));
        }
        let slots = self.spawned.as_ref()?;
        let at = slots.members.iter().position(|&m| m == i)?;
        slots.wait(|done| !matches!(done.get(at), Some(Slot::Inflating)));
        let mut done = lock(&slots.done);
        match std::mem::replace(done.get_mut(at)?, Slot::Taken) {
            Slot::Done(inflated) => inflated,
            Slot::Inflating | Slot::Taken => None,
        }
    }
}

impl Slots {
    /// Waits until `ready` holds of the slots, running pool work meanwhile
    /// when on a pool thread (so that a pool of any size makes progress:
    /// the task waited for may be queued on this very thread).
    fn wait(&self, ready: impl Fn(&[Slot]) -> bool) {
        loop {
            if ready(&lock(&self.done)) {
                return;
            }
            match rayon::yield_now() {
                Some(rayon::Yield::Executed) => {}
                // not a pool thread, or no work queued: what is waited for
                // runs on another thread
                Some(rayon::Yield::Idle) | None => {
                    let done = lock(&self.done);
                    if !ready(&done) {
                        // a bounded wait, then a look for pool work again
                        drop(self.filled.wait_timeout(done, Duration::from_millis(10)));
                    }
                }
            }
        }
    }
}

/// The read is over (done, or failed): members not read stop inflating,
/// and no task outlives the read.
impl Drop for Ahead {
    fn drop(&mut self) {
        if let Some(slots) = &self.spawned {
            slots.cancel.store(true, Ordering::SeqCst);
            slots.wait(|done| !done.iter().any(|s| matches!(s, Slot::Inflating)));
        }
    }
}

/// The lock, even if a task panicked holding it (it holds no invariant
/// a panic could break: a slot is replaced whole).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Reads the compressed bytes of `members` one after another and hands
/// each to rayon's pool (the current one: a caller's `install` is
/// honoured), in order, so that the first asked for is the first done.
fn spawn_all<R: Read + Seek>(npz: &mut NpzReader<R>, members: Vec<usize>) -> Arc<Slots> {
    let packed: Vec<Option<Packed>> = members.iter().map(|&m| npz.packed(m)).collect();
    let slots = Arc::new(Slots {
        done: Mutex::new(
            packed
                .iter()
                .map(|p| match p {
                    Some(_) => Slot::Inflating,
                    None => Slot::Done(None),
                })
                .collect(),
        ),
        members,
        filled: Condvar::new(),
        cancel: AtomicBool::new(false),
    });
    for (at, packed) in packed.into_iter().enumerate() {
        let Some(packed) = packed else { continue };
        let slots = Arc::clone(&slots);
        let options = npz.options.clone();
        rayon::spawn_fifo(move || {
            // a panic (none is expected) leaves the member to the
            // sequential path rather than abort the process
            let inflated = catch_unwind(AssertUnwindSafe(|| {
                inflate(packed, &options, &slots.cancel)
            }))
            .ok()
            .flatten();
            if let Some(slot) = lock(&slots.done).get_mut(at) {
                *slot = Slot::Done(inflated);
            }
            slots.filled.notify_all();
        });
    }
    slots
}

/// One member's inflated bytes, if they are exactly the zip stream's; the
/// compressed bytes are dropped on return.
fn inflate(packed: Packed, options: &ReadOptions, cancel: &AtomicBool) -> Option<Inflated> {
    let input = packed.bytes.as_slice();
    // never more than the directory declares (and one byte to see more)
    let declared = usize::try_from(packed.declared).ok()?;
    let most = declared.checked_add(1)?;
    // the longest header read_header accepts: magic, version, a 4-byte
    // length, and up to 4 bytes a character (a version 3.0 header)
    let longest_head = options.max_header_size.saturating_mul(4).saturating_add(12);
    let mut d = Decompress::new(false);
    let mut head = Vec::new();
    let mut want = FIRST_HEAD.min(longest_head).min(most);
    let (parsed, mut ended) = loop {
        head.reserve_exact(want.saturating_sub(head.len()));
        let ended = inflate_into(&mut d, input, &mut head)?;
        match parse_header(&head, options) {
            Ok(parsed) => break (parsed, ended),
            Err(_) if !ended && want < longest_head.min(most) => {
                want = want.saturating_mul(2).min(longest_head).min(most);
            }
            Err(_) => return None,
        }
    };
    let data_len = usize::try_from(parsed.header.data_len().ok()?).ok()?;
    let len = parsed.data_offset.checked_add(data_len)?;
    // one byte past the data: a member that goes on is not read further
    let end = len.checked_add(1)?.min(most);
    let mut crc = crc32fast::Hasher::new();
    crc.update(&head);
    let mut total = head.len();
    let mut pieces = std::collections::VecDeque::from([head]);
    while !ended && total < end {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        let size = total
            .clamp(FIRST_PIECE, PIECE)
            .min(end.saturating_sub(total));
        let mut piece = Vec::with_capacity(size);
        ended = inflate_into(&mut d, input, &mut piece)?;
        crc.update(&piece);
        total = total.saturating_add(piece.len());
        pieces.push_back(piece);
    }
    let exact = ended && total == len && total == declared;
    (exact && crc.finalize() == packed.crc).then_some(Inflated { pieces, at: 0 })
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
