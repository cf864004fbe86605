//! Where a column's values lie in a data section: the strided walk both
//! directions share (gather on read, scatter on write).

use crate::error::{Error, Result};

/// The byte offsets of one column's values: value `k`, counted in
/// row-major order over `dims`, starts at `base + Σ i_d · stride_d`. The
/// rows of a record array are one dimension; each subarray adds its own.
#[derive(Clone, Debug)]
pub(super) struct Places {
    base: usize,
    dims: Vec<(usize, usize)>,
}

impl Places {
    /// `n` rows of `row_size` bytes from offset 0.
    pub(super) fn rows(n: usize, row_size: usize) -> Places {
        Places {
            base: 0,
            dims: vec![(n, row_size)],
        }
    }

    /// The number of values (callers checked the shapes against the data
    /// and the element limit, so the product fits).
    pub(super) fn len(&self) -> usize {
        self.dims
            .iter()
            .fold(1usize, |acc, &(n, _)| acc.saturating_mul(n))
    }

    /// The same values, `offset` bytes further in (a record's field).
    pub(super) fn at(&self, offset: usize) -> Places {
        Places {
            base: self.base.saturating_add(offset),
            dims: self.dims.clone(),
        }
    }

    /// Each value split into `count` values `stride` bytes apart (one axis
    /// of a subarray).
    pub(super) fn split(&self, count: usize, stride: usize) -> Places {
        let mut dims = self.dims.clone();
        dims.push((count, stride));
        Places {
            base: self.base,
            dims,
        }
    }

    /// The byte range of all values when values of `size` bytes lie back
    /// to back (a plain array, a subarray filling its rows).
    pub(super) fn contiguous(&self, size: usize) -> Option<std::ops::Range<usize>> {
        let mut expect = size;
        for &(n, stride) in self.dims.iter().rev() {
            if n > 1 && stride != expect {
                return None;
            }
            expect = expect.checked_mul(n)?;
        }
        Some(self.base..self.base.checked_add(expect)?)
    }

    /// The same bytes as runs as long as possible: innermost axes whose
    /// values of `size` bytes lie back to back merge into one value (a
    /// subarray of a record is one run per row). Returns the runs' places
    /// and length.
    pub(super) fn runs(&self, size: usize) -> (Places, usize) {
        let mut dims = self.dims.clone();
        let mut run = size;
        while let [.., _, (n, stride)] = dims[..] {
            if stride != run {
                break;
            }
            run = run.saturating_mul(n);
            dims.pop();
        }
        (
            Places {
                base: self.base,
                dims,
            },
            run,
        )
    }

    /// Calls `f` with each value's offset, in order.
    pub(super) fn for_each(&self, mut f: impl FnMut(usize) -> Result<()>) -> Result<()> {
        walk(self.base, &self.dims, &mut f)
    }
}

fn walk(
    base: usize,
    dims: &[(usize, usize)],
    f: &mut impl FnMut(usize) -> Result<()>,
) -> Result<()> {
    match dims {
        [] => f(base),
        [(n, stride)] => {
            let mut at = base;
            for _ in 0..*n {
                f(at)?;
                at = at.saturating_add(*stride);
            }
            Ok(())
        }
        [(n, stride), rest @ ..] => {
            let mut at = base;
            for _ in 0..*n {
                walk(at, rest, f)?;
                at = at.saturating_add(*stride);
            }
            Ok(())
        }
    }
}

/// The bytes `at..at + size` of `data`: the layout was checked against the
/// data's length, so a miss is an internal error, reported, not a panic.
pub(super) fn bytes_at(data: &[u8], at: usize, size: usize) -> Result<&[u8]> {
    at.checked_add(size)
        .and_then(|end| data.get(at..end))
        .ok_or_else(|| outside(at, size, data.len()))
}

/// The same, to write.
pub(super) fn bytes_at_mut(data: &mut [u8], at: usize, size: usize) -> Result<&mut [u8]> {
    let len = data.len();
    at.checked_add(size)
        .and_then(|end| data.get_mut(at..end))
        .ok_or_else(|| outside(at, size, len))
}

fn outside(at: usize, size: usize, len: usize) -> Error {
    Error::data(format!(
        "internal error: a value at bytes {at}..+{size} lies outside the {len} bytes of data"
    ))
}

/// Copies the values of `size` bytes at `places` into one buffer, in
/// order, each reversed when `swap` (stored in the other order than this
/// machine's).
pub(super) fn gather(data: &[u8], places: &Places, size: usize, swap: bool) -> Result<Vec<u8>> {
    let mut out = match places.contiguous(size) {
        Some(range) => {
            let len = range.len();
            bytes_at(data, range.start, len)?.to_vec()
        }
        None => {
            // runs of values back to back (a subarray) are copied as one
            let (runs, run) = places.runs(size);
            let mut out = Vec::with_capacity(places.len().saturating_mul(size));
            match run {
                1 => gather_sized::<1>(data, &runs, &mut out)?,
                2 => gather_sized::<2>(data, &runs, &mut out)?,
                4 => gather_sized::<4>(data, &runs, &mut out)?,
                8 => gather_sized::<8>(data, &runs, &mut out)?,
                16 => gather_sized::<16>(data, &runs, &mut out)?,
                _ => runs.for_each(|at| {
                    out.extend_from_slice(bytes_at(data, at, run)?);
                    Ok(())
                })?,
            }
            out
        }
    };
    if swap && size > 1 {
        out.chunks_exact_mut(size).for_each(<[u8]>::reverse);
    }
    Ok(out)
}

/// [`gather`] of `N`-byte runs: a copy of a known size per value, not a
/// call to `memcpy`.
fn gather_sized<const N: usize>(data: &[u8], runs: &Places, out: &mut Vec<u8>) -> Result<()> {
    runs.for_each(|at| {
        let run: [u8; N] = bytes_at(data, at, N)?
            .try_into()
            .map_err(|_| outside(at, N, data.len()))?;
        out.extend_from_slice(&run);
        Ok(())
    })
}

/// Writes `values` (values of `size` bytes back to back, native order)
/// to `places`, reversing each when `swap`.
pub(super) fn scatter(
    out: &mut [u8],
    places: &Places,
    values: &[u8],
    size: usize,
    swap: bool,
) -> Result<()> {
    let mut chunks = values.chunks_exact(size.max(1));
    if size == 0 {
        return Ok(());
    }
    match places.contiguous(size) {
        Some(range) if !swap => {
            let len = range.len();
            bytes_at_mut(out, range.start, len)?.copy_from_slice(bytes_at(values, 0, len)?);
            Ok(())
        }
        _ => places.for_each(|at| {
            let value = chunks
                .next()
                .ok_or_else(|| outside(at, size, values.len()))?;
            let dst = bytes_at_mut(out, at, size)?;
            dst.copy_from_slice(value);
            if swap {
                dst.reverse();
            }
            Ok(())
        }),
    }
}
