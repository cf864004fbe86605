//! The `.npy` header: magic, version, length, and the dict literal
//! `{'descr': ..., 'fortran_order': ..., 'shape': ..., }`.
//!
//! Writing follows numpy 2.x `_write_array_header` / `_wrap_header` byte for
//! byte: sorted keys with a trailing `, }`, growth-axis spaces, padding with
//! spaces to a 64-byte boundary plus a newline, and numpy's version choice
//! (1.0, else 2.0 when the text is latin-1 but too long, else 3.0).
//! Reading lives in `header_read.rs`.

// Sizes here come from untrusted headers: every operation is checked.
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::fmt;

use crate::error::{Error, Result};
use crate::format::dtype::{Dtype, ShapeRepr};

/// The magic string every `.npy` file starts with.
pub(crate) const MAGIC: &[u8; 6] = b"\x93NUMPY";
/// Data starts at a multiple of this.
pub(crate) const ARRAY_ALIGN: usize = 64;
/// numpy leaves room for a first-axis length of this many digits.
pub(crate) const GROWTH_AXIS_MAX_DIGITS: usize = 21;

/// The parsed header of an `.npy` file: dtype, memory order and shape.
///
/// `Display` gives the dict text exactly as numpy writes it (without the
/// growth spaces and padding).
///
/// ```
/// use npy_serde::Header;
/// let h = Header::new("<f8".parse().unwrap(), false, vec![3]);
/// assert_eq!(h.to_string(), "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The element type.
    pub descr: Dtype,
    /// Whether the data is stored column-major (only ever true for ndim ≥ 2
    /// in files numpy writes).
    pub fortran_order: bool,
    /// The array's shape; empty for a 0-d array holding one element.
    pub shape: Vec<u64>,
}

impl Header {
    /// A header from its three parts.
    ///
    /// ```
    /// use npy_serde::Header;
    /// let bytes = npy_serde::to_vec(&[[1.0f32, 2.0], [3.0, 4.0]])?;
    /// let (header, data_offset) = Header::from_bytes(&bytes, &Default::default())?;
    /// assert_eq!(header, Header::new("<f4".parse()?, false, vec![2, 2]));
    /// assert_eq!(data_offset, 128);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn new(descr: Dtype, fortran_order: bool, shape: Vec<u64>) -> Self {
        Header {
            descr,
            fortran_order,
            shape,
        }
    }

    /// Whether the data is in Fortran order and that differs from C order:
    /// `fortran_order` with two or more axes (with fewer, both orders are
    /// the same bytes). The one test behind every reorder and refusal.
    pub(crate) fn column_major(&self) -> bool {
        self.fortran_order && self.shape.len() >= 2
    }

    /// The number of elements (product of the shape; 1 for shape `()`),
    /// `None` if it overflows `u64`.
    ///
    /// ```
    /// let h = npy_serde::Header::new("<f8".parse().unwrap(), false, vec![2, 3]);
    /// assert_eq!(h.element_count(), Some(6));
    /// ```
    pub fn element_count(&self) -> Option<u64> {
        self.shape
            .iter()
            .try_fold(1u64, |acc, &d| acc.checked_mul(d))
    }

    /// The size of the data section in bytes, checked for overflow of both
    /// `u64` and this machine's `usize`.
    ///
    /// ```
    /// let h = npy_serde::Header::new("<f8".parse().unwrap(), false, vec![0, 1 << 62]);
    /// assert!(h.data_len().is_err());
    /// ```
    pub fn data_len(&self) -> Result<u64> {
        // the descr without the quotes of a scalar's
        let descr: &dyn fmt::Display = match &self.descr {
            Dtype::Scalar(s) => s,
            other => other,
        };
        let too_big = || {
            Error::header(format!(
                "shape {} of '{descr}' elements is too big ({} bytes each)",
                ShapeRepr(&self.shape),
                self.descr.itemsize()
            ))
        };
        // numpy refuses any shape whose (non-zero) dims multiply past intp,
        // even when another dim is zero; check the product of non-zero dims.
        let nonzero = self
            .shape
            .iter()
            .filter(|&&d| d != 0)
            .try_fold(1u64, |acc, &d| acc.checked_mul(d))
            .ok_or_else(too_big)?;
        let itemsize = u64::try_from(self.descr.itemsize()).map_err(|_| too_big())?;
        let nonzero_bytes = nonzero.checked_mul(itemsize.max(1)).ok_or_else(too_big)?;
        if nonzero_bytes > i64::MAX as u64 || usize::try_from(nonzero_bytes).is_err() {
            return Err(too_big());
        }
        // at most `nonzero` elements: neither overflows
        Ok(self.element_count().unwrap_or(0).saturating_mul(itemsize))
    }

    /// The shape in `usize`s, checked: an error when an axis does not fit
    /// (only on 32-bit machines, for files whose data could not be
    /// addressed anyway). For views and npz data ranges.
    #[cfg(any(feature = "view", feature = "npz"))]
    pub(crate) fn usize_shape(&self) -> Result<Vec<usize>> {
        let shape = self.shape.iter().map(|&n| usize::try_from(n).ok());
        shape.collect::<Option<_>>().ok_or_else(|| {
            Error::limit(format!(
                "shape {} has an axis longer than this platform can address",
                ShapeRepr(&self.shape)
            ))
        })
    }

    /// Number of growth spaces numpy appends after the closing brace.
    fn growth_spaces(&self) -> usize {
        let axis = if self.fortran_order {
            self.shape.last()
        } else {
            self.shape.first()
        };
        axis.map_or(0, |d| {
            GROWTH_AXIS_MAX_DIGITS.saturating_sub(d.to_string().len())
        })
    }

    /// The complete header section (magic, version, length, text, padding,
    /// newline) as `np.save` writes it, and the version chosen. With
    /// `version: None` the version is chosen like numpy; an explicit version
    /// is honoured or refused (1.0 with a header too long, 1.0/2.0 with text
    /// that is not latin-1).
    pub(crate) fn encode(&self, version: Option<(u8, u8)>) -> Result<(Vec<u8>, (u8, u8))> {
        let mut text = self.to_string();
        text.extend(std::iter::repeat_n(' ', self.growth_spaces()));
        let latin1: Option<Vec<u8>> = text
            .chars()
            .map(|c| u8::try_from(u32::from(c)).ok())
            .collect();
        let wrap = |bytes: &[u8], major: u8| -> Option<Vec<u8>> {
            // magic, two version bytes, then the length field
            let prefix: usize = if major == 1 { 10 } else { 12 };
            let hlen = bytes.len().checked_add(1)?;
            // in 1..=64, never 0: numpy adds a full 64 when already aligned
            let padlen = ARRAY_ALIGN.saturating_sub(prefix.checked_add(hlen)? % ARRAY_ALIGN);
            let total = hlen.checked_add(padlen)?;
            let mut out = Vec::with_capacity(prefix.checked_add(total)?);
            out.extend_from_slice(MAGIC);
            out.extend_from_slice(&[major, 0]);
            // two bytes in 1.0, four after
            let len = u32::try_from(total).ok()?;
            let len = (major > 1 || len <= 0xffff).then_some(len)?;
            out.extend_from_slice(len.to_le_bytes().get(..prefix.checked_sub(8)?)?);
            out.extend_from_slice(bytes);
            out.extend(std::iter::repeat_n(b' ', padlen));
            out.push(b'\n');
            Some(out)
        };
        match version {
            // not asked: 1.0, or 2.0 where 1.0 is too small, for a latin-1 header;
            // 3.0 (UTF-8) for any other, as numpy chooses
            None | Some((3, 0)) => {
                let (bytes, majors): (&[u8], &[u8]) = match &latin1 {
                    Some(l1) if version.is_none() => (l1, &[1, 2]),
                    _ => (text.as_bytes(), &[3]),
                };
                let out = majors.iter().find_map(|&m| Some((wrap(bytes, m)?, (m, 0))));
                out.ok_or_else(|| Error::header("header text is too long for any npy version"))
            }
            Some((major @ (1 | 2), 0)) => {
                let l1 = latin1.ok_or_else(|| {
                    Error::header(format!(
                        "format version {major}.0 needs a latin-1 header; a field name has other characters (use 3.0)"
                    ))
                })?;
                let out = wrap(&l1, major).ok_or_else(|| {
                    Error::header(format!(
                        "header of {} characters does not fit format version {major}.0 (use 2.0)",
                        text.chars().count()
                    ))
                })?;
                Ok((out, (major, 0)))
            }
            Some((major, minor)) => Err(Error::header(format!(
                "we only support format version (1,0), (2,0), and (3,0), not ({major},{minor})"
            ))),
        }
    }
}

impl fmt::Display for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{{'descr': {}, 'fortran_order': {}, 'shape': {}, }}",
            self.descr,
            if self.fortran_order { "True" } else { "False" },
            ShapeRepr(&self.shape)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(descr: &str, shape: Vec<u64>) -> Header {
        Header::new(descr.parse().unwrap(), false, shape)
    }

    #[test]
    fn small_header_is_128_bytes() {
        let (bytes, v) = header("<i4", vec![3]).encode(None).unwrap();
        assert_eq!(v, (1, 0));
        assert_eq!(bytes.len(), 128);
        assert_eq!(&bytes[8..10], &118u16.to_le_bytes());
        let text = std::str::from_utf8(&bytes[10..]).unwrap();
        assert!(text.starts_with("{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }"));
        assert!(text.ends_with(" \n"));
    }

    #[test]
    fn growth_axis_keeps_size() {
        // numpy's test_header_growth_axis: 22-space name, sizes 1..10**19 all
        // give 128 (numpy goes to 10**20, past u64)
        for i in 0..20u32 {
            let h = Header::new(
                format!("[('{}', '<i8')]", " ".repeat(22)).parse().unwrap(),
                false,
                vec![10u64.pow(i)],
            );
            let (bytes, _) = h.encode(None).unwrap();
            assert_eq!(bytes.len(), 128, "size {i}");
        }
    }

    #[test]
    fn non_latin1_gives_v3() {
        let (bytes, v) = header("[('整形', '<i4')]", vec![1]).encode(None).unwrap();
        assert_eq!(v, (3, 0));
        assert_eq!(bytes.len() % 64, 0);
        assert_eq!(&bytes[6..8], &[3, 0]);
    }
}
