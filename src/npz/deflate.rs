//! A deflated member in independent pieces, compressed on every core.
//!
//! The member's bytes are cut every [`PIECE`] bytes from its start. Each
//! piece is compressed on its own at the member's level (0 to 9, numpy's
//! 6 by default), primed with the 32 KiB of input before it (so
//! back-references reach across the cut and the ratio stays a single
//! stream's), and ends with a sync flush (an empty stored block,
//! byte-aligned); the last piece ends the stream instead. Concatenated,
//! the pieces are one standard deflate stream (pigz's layout): zip
//! readers, Python's zipfile and so `np.load` inflate it as any other.
//!
//! With the `rayon` feature a wave of pieces (two per thread) is
//! compressed in parallel on rayon's pool; without it, one piece at a
//! time. The cuts do not depend on the wave, so the archive's bytes are
//! the same whatever the thread count. Memory: a wave of input and its
//! compressed pieces, whatever the member's size.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::io::{self, Write};

use flate2::{Compress, Compression, FlushCompress, Status};

/// Input bytes per piece (the cuts are at multiples of it).
pub(crate) const PIECE: usize = 256 << 10;

/// The window deflate refers back into: what each piece is primed with.
const WINDOW: usize = 32 << 10;

/// numpy's level (`np.savez_compressed`: zlib's default, 6), the default.
pub(crate) const DEFAULT_LEVEL: u32 = 6;

/// The input of one member not compressed yet.
pub(crate) struct Deflater {
    /// `primed` bytes of input already compressed (the dictionary of the
    /// next piece), then the input not compressed yet.
    buf: Vec<u8>,
    primed: usize,
    /// Bytes compressed per wave: whole pieces.
    wave: usize,
    /// The deflate level, 0 to 9 (checked by the caller).
    level: u32,
}

impl Deflater {
    /// A deflater at `level` (0 to 9; checked by the caller, see
    /// `npz::check_level`).
    pub(crate) fn new(level: u32) -> Deflater {
        #[cfg(feature = "rayon")]
        let pieces = rayon::current_num_threads().saturating_mul(2);
        #[cfg(not(feature = "rayon"))]
        let pieces = 1;
        Deflater {
            buf: Vec::new(),
            primed: 0,
            wave: PIECE.saturating_mul(pieces.max(1)),
            level,
        }
    }

    fn pending(&self) -> usize {
        self.buf.len().saturating_sub(self.primed)
    }

    /// Takes `data`, compressing each wave into `out` as soon as input
    /// follows it (the last piece is compressed by [`finish`](Self::finish)).
    /// Returns the compressed bytes written.
    pub(crate) fn push(&mut self, mut data: &[u8], out: &mut impl Write) -> io::Result<u64> {
        // the most it holds: a window, a wave and a byte
        let most = WINDOW.saturating_add(self.wave).saturating_add(1);
        let mut written = 0u64;
        while !data.is_empty() {
            // at most one byte past a wave: then the wave is not the last
            let room = self.wave.saturating_add(1).saturating_sub(self.pending());
            let (now, later) = data.split_at(room.min(data.len()));
            // grown as input arrives (a small member stays small), by
            // doubling but never past `most`
            let need = self.buf.len().saturating_add(now.len());
            if need > self.buf.capacity() {
                let to = need.max(self.buf.capacity().saturating_mul(2)).min(most);
                self.buf.reserve_exact(to.saturating_sub(self.buf.len()));
            }
            self.buf.extend_from_slice(now);
            data = later;
            if self.pending() > self.wave {
                let n = self.compress(self.wave, false, out)?;
                written = written.saturating_add(n);
            }
        }
        Ok(written)
    }

    /// Compresses what is left, the stream's end included. Returns the
    /// compressed bytes written.
    pub(crate) fn finish(mut self, out: &mut impl Write) -> io::Result<u64> {
        self.compress(self.pending(), true, out)
    }

    /// Compresses the next `n` pending bytes (whole pieces unless `last`)
    /// into `out`, then keeps their last window as the next dictionary.
    fn compress(&mut self, n: usize, last: bool, out: &mut impl Write) -> io::Result<u64> {
        let start = self.primed;
        let end = start.saturating_add(n).min(self.buf.len());
        let (buf, level) = (&self.buf, self.level);
        // (dictionary, input, last) of each piece; one piece at least (the
        // stream's end when nothing is pending)
        let pieces = (start..end.max(start.saturating_add(1)))
            .step_by(PIECE)
            .map(|at| {
                let to = at.saturating_add(PIECE).min(end);
                let dict = buf.get(at.saturating_sub(WINDOW)..at)?;
                Some((dict, buf.get(at..to)?, last && to == end))
            })
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| io::Error::other("internal: a deflate piece outside its buffer"))?;
        let deflate = |&(dict, input, ends): &(&[u8], &[u8], bool)| piece(dict, input, ends, level);
        #[cfg(feature = "rayon")]
        let packed: Vec<io::Result<Vec<u8>>> = {
            use rayon::prelude::*;
            pieces.par_iter().map(deflate).collect()
        };
        #[cfg(not(feature = "rayon"))]
        let packed: Vec<io::Result<Vec<u8>>> = pieces.iter().map(deflate).collect();
        let mut written = 0u64;
        for p in packed {
            let p = p?;
            out.write_all(&p)?;
            written = written.saturating_add(p.len() as u64);
        }
        // the window before the next piece becomes the dictionary
        let keep_from = end.saturating_sub(WINDOW);
        self.buf.drain(..keep_from);
        self.primed = end.saturating_sub(keep_from);
        Ok(written)
    }
}

/// One piece: raw deflate of `input` at `level` primed with `dict`, ended
/// by a sync flush, or by the stream's end when `last`.
fn piece(dict: &[u8], input: &[u8], last: bool, level: u32) -> io::Result<Vec<u8>> {
    let mut c = Compress::new(Compression::new(level), false);
    if !dict.is_empty() {
        c.set_dictionary(dict).map_err(io::Error::other)?;
    }
    let flush = if last {
        FlushCompress::Finish
    } else {
        FlushCompress::Sync
    };
    let mut out = Vec::with_capacity((input.len() / 2).saturating_add(1024));
    loop {
        if out.len() == out.capacity() {
            out.reserve(out.capacity().max(4096));
        }
        let (was_in, was_out) = (c.total_in(), c.total_out());
        let taken = usize::try_from(was_in).unwrap_or(usize::MAX);
        let status = c
            .compress_vec(input.get(taken..).unwrap_or_default(), &mut out, flush)
            .map_err(io::Error::other)?;
        let all_in = c.total_in() == input.len() as u64;
        let room = out.len() < out.capacity();
        match status {
            Status::StreamEnd => return Ok(out),
            _ if !last && all_in && room => return Ok(out),
            _ if room && (was_in, was_out) == (c.total_in(), c.total_out()) => {
                // room to write, nothing left to flush, no progress: never
                // loop on it
                return Err(io::Error::other("deflate made no progress"));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
