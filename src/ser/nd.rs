//! n-d arrays on the write side.
//!
//! An [`NdArray`](crate::NdArray) or [`NdView`](crate::NdView) serializes
//! as a newtype named by [`number::nd_name`](crate::kinds::number::nd_name)
//! over the struct `{shape, order, data}`, `data` flat in `order`: what
//! other formats see. This crate's serializers look into those parts
//! through `probe.rs` ([`parts`](crate::ser::probe::parts): the shape and
//! order, then the flat data handed to a serializer of the caller's), and
//! this module keeps their layout: an n-d array is taken
//!
//! - as an element (a record's field; `infer.rs`, `encode.rs`): a subarray
//!   of its shape, C order (Fortran data is [`reorder`]ed);
//! - at the top of a write (`spec.rs`, the plan in `ser/mod.rs`): an
//!   array of its shape in its own order, its flat data walked as the
//!   outer axes.

// Sizes here are the array's own, checked against the data: every
// operation is checked or proven bounded.
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use crate::array::nd::FortranOffsets;
use crate::error::Result;
use crate::format::dtype::Dtype;

/// An n-d array's shape and order, as its parts say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NdShape {
    pub dims: Vec<u64>,
    /// Whether the flat data is laid out column-major (normalised as
    /// [`Order::of`](crate::Order::of) does).
    pub fortran: bool,
    /// The element's numpy type code that the newtype's name carries, when
    /// it was seen ([`top`](crate::ser::probe::top)): `"f8"`, `"b1"`,
    /// `"c16"`... for plain and complex numbers
    /// ([`number::nd_name`](crate::kinds::number::nd_name)), `""` otherwise.
    pub code: &'static str,
}

impl NdShape {
    /// The number of elements; `None` when it overflows.
    pub(crate) fn count(&self) -> Option<u64> {
        self.dims.iter().try_fold(1u64, |n, &d| n.checked_mul(d))
    }

    /// Whether the name says the data are real numbers or booleans:
    /// encoded as their own type, they cannot fail.
    #[cfg(test)]
    pub(crate) fn plain(&self) -> bool {
        !self.code.is_empty() && !crate::kinds::special::nd_pairs(self.code)
    }

    /// Whether the flat data needs reordering to be C order: Fortran with
    /// more than one element (any smaller array is both).
    pub(crate) fn reordered(&self) -> bool {
        self.fortran && self.count().is_some_and(|n| n > 1)
    }
}

/// Whether a header for `shape` says `fortran_order: True` when the data
/// is laid out column-major (`fortran`): numpy says it only for an array
/// that is not also C-contiguous, at least two axes longer than 1 and no
/// empty axis; otherwise both layouts are the same bytes.
pub(crate) fn fortran_header(fortran: bool, shape: &[u64]) -> bool {
    fortran && shape.iter().filter(|&&d| d > 1).count() >= 2 && !shape.contains(&0)
}

/// `base` as the element of an array of `dims` (a subarray, its own dims
/// inside; `base` itself for a 0-d array). With a header's descr and the
/// axes after the first, the inverse of
/// [`c_order_header`](crate::npy::writer::c_order_header).
pub(crate) fn subarray_of(base: Dtype, dims: &[u64]) -> Result<Dtype> {
    if dims.is_empty() {
        return Ok(base);
    }
    match base {
        Dtype::Subarray(inner, sub) => {
            Dtype::subarray(*inner, dims.iter().chain(&sub).copied().collect())
        }
        base => Dtype::subarray(base, dims.to_vec()),
    }
}

/// Copies the elements of `elsize` bytes of an array of `dims` from `src`
/// into `dst` (both `count * elsize` bytes), from Fortran into C order
/// (`from_fortran`) or from C into Fortran order.
pub(crate) fn reorder(src: &[u8], dst: &mut [u8], dims: &[u64], elsize: usize, from_fortran: bool) {
    let Some(mut dims) = dims
        .iter()
        .map(|&d| usize::try_from(d).ok())
        .collect::<Option<Vec<usize>>>()
    else {
        return;
    };
    if elsize == 0 || src.len() != dst.len() {
        return;
    }
    // C into Fortran order is Fortran into C order of the dims reversed
    if !from_fortran {
        dims.reverse();
    }
    // each destination element in C order, from its source's (Fortran)
    // offset
    for (out, at) in dst.chunks_exact_mut(elsize).zip(FortranOffsets::new(&dims)) {
        let from = at.saturating_mul(elsize);
        if let Some(piece) = src.get(from..from.saturating_add(elsize)) {
            out.copy_from_slice(piece);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reorder_both_ways() {
        // a 2 x 3 array of 2-byte elements: C order 0..6
        let c: Vec<u8> = (0u8..6).flat_map(|v| [v, 100 + v]).collect();
        let mut f = vec![0; 12];
        reorder(&c, &mut f, &[2, 3], 2, false);
        let firsts: Vec<u8> = f.chunks(2).map(|e| e[0]).collect();
        assert_eq!(firsts, [0, 3, 1, 4, 2, 5]);
        assert_eq!(f[1], 100);
        let mut back = vec![0; 12];
        reorder(&f, &mut back, &[2, 3], 2, true);
        assert_eq!(back, c);
        // 3-d
        let c: Vec<u8> = (0u8..24).collect();
        let mut f = vec![0; 24];
        reorder(&c, &mut f, &[2, 3, 4], 1, false);
        // Fortran position of (i, j, k) is i + 2j + 6k
        for (i, j, k) in [(1, 2, 3), (0, 1, 2), (1, 0, 0)] {
            assert_eq!(f[i + 2 * j + 6 * k], c[12 * i + 4 * j + k]);
        }
        let mut back = vec![0; 24];
        reorder(&f, &mut back, &[2, 3, 4], 1, true);
        assert_eq!(back, c);
    }

    #[test]
    fn headers_say_fortran_only_when_it_differs() {
        assert!(fortran_header(true, &[2, 3]));
        assert!(!fortran_header(true, &[1, 3]));
        assert!(!fortran_header(true, &[2, 0, 3]));
        assert!(!fortran_header(false, &[2, 3]));
    }
}
