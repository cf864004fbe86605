//! Row ranges: `arr[a:b]` of the first axis, read without the rest of the
//! data. [`from_slice_rows`] and [`view_rows`] take them from a file's
//! bytes, [`NpyReader::rows`](crate::NpyReader::rows) by seeking, and
//! `NpzReader::rows` from an archive's member.
//!
//! The rows of a C-order array (and of any 1-d array) are one contiguous
//! run of its data: rows `a..b` are the bytes `[a * row, b * row)`, and
//! they read exactly as the file numpy writes for `arr[a:b]` (the same
//! dtype, the first axis `b - a`) reads. A Fortran-order array of two or
//! more dimensions stores each row spread over the whole data, and a 0-d
//! array has no first axis: both are refused. The range is checked against
//! the shape before anything is read or allocated.

// Sizes come from untrusted headers: every operation is checked.
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::ops::Range;

use serde::Deserialize;

use crate::budget::Budget;
use crate::de::check_readable;
use crate::de::data::{check_data_len, deserialize_data_in};
use crate::de::stream::row_size;
use crate::error::{Error, Result};
use crate::format::dtype::ShapeRepr;
use crate::format::header::Header;
use crate::format::header_read::{check_element_limits, parse_header};
use crate::options::ReadOptions;

/// Rows `a..b` of an array: where their bytes lie in its data, and the
/// header of the array they form.
pub(crate) struct Window {
    /// The header numpy writes for `arr[a:b]`: the same dtype, C order, the
    /// first axis `b - a`.
    pub(crate) header: Header,
    /// The first byte of the rows within the data.
    pub(crate) start: u64,
    /// The bytes of the rows.
    pub(crate) len: u64,
}

/// Checks `range` against `header`'s first axis and finds its bytes.
pub(crate) fn window(header: &Header, range: &Range<u64>) -> Result<Window> {
    let (a, b) = (range.start, range.end);
    let Some(&n) = header.shape.first() else {
        return Err(Error::unsupported(format!(
            "rows {a}..{b} of a 0-d array (shape ()): it has no first axis to take rows of; \
             read the array whole"
        )));
    };
    if header.column_major() {
        return Err(Error::unsupported(format!(
            "rows {a}..{b} of a Fortran-order array of shape {}: a row's values are spread \
             over the whole data (column-major order), so rows cannot be read on their own; \
             read the whole array, or save it in C order (np.ascontiguousarray)",
            ShapeRepr(&header.shape)
        )));
    }
    if a > b {
        return Err(Error::data(format!(
            "rows {a}..{b} of {n}: the range starts after it ends"
        )));
    }
    if b > n {
        return Err(Error::data(format!(
            "rows {a}..{b} of {n}: the range ends past the first axis"
        )));
    }
    // the whole data's size fits u64 and usize: every row count up to n does
    header.data_len()?;
    let row = row_size(header)? as u64;
    let start = a.checked_mul(row).ok_or_else(crate::de::internal)?;
    let count = b.checked_sub(a).ok_or_else(crate::de::internal)?;
    let len = count.checked_mul(row).ok_or_else(crate::de::internal)?;
    let shape = [&[count], header.shape.get(1..).unwrap_or_default()].concat();
    Ok(Window {
        header: Header::new(header.descr.clone(), false, shape),
        start,
        len,
    })
}

/// The options a header is read with before rows of it are: the element
/// limit applies to the rows ([`checked_window`]), not the whole array.
pub(crate) fn whole_array(options: &ReadOptions) -> ReadOptions {
    options.clone().max_elements(u64::MAX)
}

/// [`window`], refused where the dtype cannot be read or the rows exceed
/// `max_elements`, and charged to `budget`: every row-range reader's checks
/// before it reads the rows.
pub(crate) fn checked_window(
    header: &Header,
    range: &Range<u64>,
    max_elements: u64,
    budget: &Budget,
) -> Result<Window> {
    check_readable(&header.descr)?;
    let w = window(header, range)?;
    check_element_limits(&w.header, max_elements)?;
    budget.charge_data(&w.header)?;
    Ok(w)
}

/// Reads rows `range` (of the first axis) of the `.npy` file in `bytes`:
/// what [`from_slice`](crate::from_slice) reads from the file numpy writes
/// for `arr[a:b]`. C order or a 1-d array; a Fortran-order array of two or
/// more dimensions and a 0-d array are refused, and so is a range that
/// does not lie within the first axis (`rows 90..120 of 100`). The file
/// must be whole, as for `from_slice`; only the rows' bytes are decoded.
///
/// ```
/// let file = npy_serde::to_vec(&[[1u8, 2], [3, 4], [5, 6], [7, 8]])?;
/// let rows: Vec<[u8; 2]> = npy_serde::from_slice_rows(&file, 1..3)?;
/// assert_eq!(rows, [[3, 4], [5, 6]]);
/// let none: Vec<[u8; 2]> = npy_serde::from_slice_rows(&file, 4..4)?;
/// assert!(none.is_empty());
///
/// let err = npy_serde::from_slice_rows::<Vec<[u8; 2]>>(&file, 3..5).unwrap_err();
/// assert_eq!(err.to_string(), "rows 3..5 of 4: the range ends past the first axis");
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn from_slice_rows<'de, T: Deserialize<'de>>(bytes: &'de [u8], range: Range<u64>) -> Result<T> {
    ReadOptions::new().from_slice_rows(bytes, range)
}

impl ReadOptions {
    /// [`from_slice_rows`] with these options. `max_elements` and
    /// `max_bytes` apply to the rows read, not to the whole array.
    ///
    /// ```
    /// let file = npy_serde::to_vec(&(0..1000u32).collect::<Vec<_>>())?;
    /// let opts = npy_serde::ReadOptions::new().max_elements(10);
    /// assert!(opts.from_slice::<Vec<u32>>(&file).is_err());
    /// let some: Vec<u32> = opts.from_slice_rows(&file, 500..510)?;
    /// assert_eq!(some, (500..510).collect::<Vec<_>>());
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn from_slice_rows<'de, T: Deserialize<'de>>(
        &self,
        bytes: &'de [u8],
        range: Range<u64>,
    ) -> Result<T> {
        let budget = Budget::new(self.max_bytes);
        let (header, data) = slice_rows(bytes, &range, self, &budget)?;
        deserialize_data_in(&header, data, self.cfg(), self.max_elements, &budget)
    }
}

/// The header and data bytes of rows `range` of the file in `bytes`, the
/// rows checked against the limits and charged to `budget`.
fn slice_rows<'a>(
    bytes: &'a [u8],
    range: &Range<u64>,
    options: &ReadOptions,
    budget: &Budget,
) -> Result<(Header, &'a [u8])> {
    let parsed = parse_header(bytes, &whole_array(options))?;
    let w = checked_window(&parsed.header, range, options.max_elements, budget)?;
    let data = bytes
        .get(parsed.data_offset..)
        .ok_or_else(|| Error::header("the header runs past the end of the input"))?;
    check_data_len(&parsed.header, data.len() as u64)?;
    let rows = byte_range(data, w.start, w.len)?;
    Ok((w.header, rows))
}

/// `data[start..start + len]`, which the caller has checked lies within.
fn byte_range(data: &[u8], start: u64, len: u64) -> Result<&[u8]> {
    let start = usize::try_from(start).map_err(|_| crate::de::internal())?;
    let len = usize::try_from(len).map_err(|_| crate::de::internal())?;
    let end = start.checked_add(len).ok_or_else(crate::de::internal)?;
    data.get(start..end).ok_or_else(crate::de::internal)
}

/// Borrows rows `range` (of the first axis) of the `.npy` file in `bytes`
/// as an n-d array of `T`, without copying: what [`view`](crate::view())
/// gives for the file numpy writes for `arr[a:b]`, its first axis
/// `b - a`. The rows are refused as [`from_slice_rows`] refuses them, the
/// rest is checked as `view` checks it (the dtype is `T` in this machine's
/// byte order, the data aligned and whole).
///
/// ```
/// let bytes = npy_serde::to_vec(&[[1u8, 2, 3], [4, 5, 6], [7, 8, 9]])?;
/// let v = npy_serde::view_rows::<u8>(&bytes, 1..3)?;
/// assert_eq!(v.shape(), &[2, 3]);
/// assert_eq!(v.data(), &[4, 5, 6, 7, 8, 9]);
///
/// let err = npy_serde::view_rows::<u8>(&bytes, 2..1).unwrap_err();
/// assert_eq!(err.to_string(), "rows 2..1 of 3: the range starts after it ends");
/// # Ok::<(), npy_serde::Error>(())
/// ```
#[cfg(feature = "view")]
pub fn view_rows<T: crate::array::view::ViewElement>(
    bytes: &[u8],
    range: Range<u64>,
) -> Result<crate::NdView<'_, T>> {
    let (header, data, offset) = view_window(bytes, &range)?;
    crate::array::view::view_data(&header, data, offset)
}

/// The header, data bytes and their offset in `bytes` of rows `range`.
#[cfg(feature = "view")]
fn view_window<'a>(bytes: &'a [u8], range: &Range<u64>) -> Result<(Header, &'a [u8], u64)> {
    let parsed = parse_header(bytes, &crate::array::view::view_options())?;
    let w = window(&parsed.header, range)?;
    let data = bytes.get(parsed.data_offset..).unwrap_or(&[]);
    crate::array::view::check_len(&parsed.header, data.len() as u64)?;
    let rows = byte_range(data, w.start, w.len)?;
    let offset = (parsed.data_offset as u64)
        .checked_add(w.start)
        .ok_or_else(crate::de::internal)?;
    Ok((w.header, rows, offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(descr: &str, shape: Vec<u64>) -> Header {
        Header::new(descr.parse().unwrap(), false, shape)
    }

    #[test]
    fn rows_window_bytes() {
        let w = window(&header("<f4", vec![5, 3]), &(1..4)).unwrap();
        assert_eq!((w.start, w.len, w.header.shape), (12, 36, vec![3, 3]));
        let w = window(&header("<f4", vec![5, 0]), &(2..5)).unwrap();
        assert_eq!((w.start, w.len, w.header.shape), (0, 0, vec![3, 0]));
    }

    #[test]
    fn rows_of_a_shape_too_big_are_refused_before_anything() {
        let err = window(&header("<f8", vec![1 << 62]), &(0..1))
            .map(|_| ())
            .unwrap_err();
        assert!(err.to_string().contains("too big"), "{err}");
    }
}
