//! Zero-copy views of `.npy` data: [`view`] and [`view_mut`] borrow the
//! data section of a file's bytes (typically a memory map) as an
//! [`NdView`] / [`NdViewMut`] of plain numbers, without copying or
//! converting anything.
//!
//! A view is only possible when the bytes already are the Rust values: the
//! file's dtype is exactly the element's type in this machine's byte order
//! (`'<f8'` for `f64` on little-endian machines), and the data section is
//! aligned for it in memory. Anything else is an error that says what the
//! file has, never a wrong value; [`from_slice`](crate::from_slice) reads
//! (and converts) every such file instead. The casts are bytemuck's checked
//! casts: no `unsafe` here.
//!
//! The header is read with the same checks as every other entry point
//! (all format versions, `max_header_size`, `max_depth`); the element limit
//! `max_elements` does not apply, since a view allocates nothing, and the
//! data section must be exactly as long as the header says.
//!
//! ```
//! let bytes = npy_serde::to_vec(&[[1.0f64, 2.0, 3.0], [4.0, 5.0, 6.0]])?;
//! // a Vec<u8> is only 1-byte aligned: copy into 8-byte aligned storage
//! let mut words = vec![0u64; bytes.len().div_ceil(8)];
//! bytemuck::cast_slice_mut::<u64, u8>(&mut words)[..bytes.len()].copy_from_slice(&bytes);
//! let aligned = &bytemuck::cast_slice::<u64, u8>(&words)[..bytes.len()];
//!
//! let v = npy_serde::view::<f64>(aligned)?;
//! assert_eq!(v.shape(), &[2, 3]);
//! assert_eq!(v.data(), &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
//!
//! // another type is refused, with what the file holds
//! let err = npy_serde::view::<f32>(aligned).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "cannot view '<f8' data of shape (2, 3) as f32, which needs '<f4' (views take the \
//!      file's bytes as they are; from_slice reads and converts)"
//! );
//! # Ok::<(), npy_serde::Error>(())
//! ```

// Sizes and offsets here come from untrusted headers: every operation is
// checked.
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::cmp::Ordering;

use crate::array::nd::{NdView, NdViewMut, Order};
use crate::error::{Error, Result};
use crate::format::dtype::{ByteOrder, Dtype, Scalar, ScalarType, ShapeRepr};
use crate::format::header::Header;
use crate::format::header_read::parse_header;
use crate::options::ReadOptions;

pub use crate::kinds::number::Number as ViewElement;

/// Borrows the data of the `.npy` file in `bytes` as an n-d array of `T`,
/// without copying: the shape and [`Order`] from the header, the data in
/// place.
///
/// An error, never a wrong value, when the file's dtype is not exactly `T`
/// in this machine's byte order (`'>f8'` on a little-endian machine, `'<f4'`
/// for `f64`, records, strings), when the data is not aligned for `T` in
/// memory (map the file, or copy it into aligned storage: the data of every
/// `.npy` file starts at a multiple of 64 within the file), or when the
/// data section is shorter or longer than the header says. See the
/// [module docs](mod@crate::array::view) for the header checks.
///
/// ```
/// // 0-d and empty arrays too; one-byte types are always aligned
/// let bytes = npy_serde::to_vec(&7u8)?;
/// let v = npy_serde::view::<u8>(&bytes)?;
/// assert_eq!((v.shape(), v.data()), (&[][..], &[7u8][..]));
///
/// let bytes = npy_serde::to_vec(&[[true, false], [false, true]])?;
/// let v = npy_serde::view::<bool>(&bytes)?;
/// assert_eq!(v.data(), &[true, false, false, true]);
///
/// // a file cut short
/// let err = npy_serde::view::<bool>(&bytes[..bytes.len() - 1]).unwrap_err();
/// assert_eq!(err.to_string(), "data ends after 3 bytes, the header promises 4 bytes");
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn view<T: ViewElement>(bytes: &[u8]) -> Result<NdView<'_, T>> {
    let parsed = parse_header(bytes, &view_options())?;
    let data = bytes.get(parsed.data_offset..).unwrap_or(&[]);
    view_data(&parsed.header, data, parsed.data_offset as u64)
}

/// Borrows the data of the `.npy` file in `bytes` as a mutable n-d array of
/// `T`, to fill it in place (a writable map of a file made by
/// [`write_zeroed`](crate::write_zeroed)). The same checks as [`view`].
///
/// ```
/// let mut bytes = npy_serde::to_vec(&[0u8; 6])?;
/// let mut v = npy_serde::view_mut::<u8>(&mut bytes)?;
/// v.data_mut().copy_from_slice(&[1, 2, 3, 4, 5, 6]);
/// let back: Vec<u8> = npy_serde::from_slice(&bytes)?;
/// assert_eq!(back, [1, 2, 3, 4, 5, 6]);
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn view_mut<T: ViewElement>(bytes: &mut [u8]) -> Result<NdViewMut<'_, T>> {
    let parsed = parse_header(bytes, &view_options())?;
    let data = bytes.get_mut(parsed.data_offset..).unwrap_or(&mut []);
    view_data_mut(&parsed.header, data, parsed.data_offset as u64)
}

/// The header checks of a view: every limit but `max_elements`, since a
/// view allocates nothing for the elements. (`npy::rows::whole_array` of
/// the default options is the same; it is not called here so that this
/// module, which `rows` uses, does not import `rows` back.)
pub(crate) fn view_options() -> ReadOptions {
    ReadOptions::new().max_elements(u64::MAX)
}

/// `data`, which starts at byte `offset` of what the caller was given, as
/// the array `header` describes: the one rule of every view.
pub(crate) fn view_data<'a, T: ViewElement>(
    header: &Header,
    data: &'a [u8],
    offset: u64,
) -> Result<NdView<'a, T>> {
    let (shape, order) = layout::<T>(header, data, offset)?;
    NdView::new(shape, order, T::cast(data).ok_or_else(refused::<T>)?)
}

/// [`view_data`], to write.
pub(crate) fn view_data_mut<'a, T: ViewElement>(
    header: &Header,
    data: &'a mut [u8],
    offset: u64,
) -> Result<NdViewMut<'a, T>> {
    let (shape, order) = layout::<T>(header, data, offset)?;
    NdViewMut::new(shape, order, T::cast_mut(data).ok_or_else(refused::<T>)?)
}

/// Checks that `header`'s dtype is `T` and that `data` is exactly its data,
/// aligned for `T`: the shape and order.
fn layout<T: ViewElement>(
    header: &Header,
    data: &[u8],
    offset: u64,
) -> Result<(Vec<usize>, Order)> {
    check_dtype::<T>(&header.descr, &header.shape)?;
    check_len(header, data.len() as u64)?;
    let shape = header.usize_shape()?;
    let order = Order::of(header.fortran_order, &shape);
    check_aligned::<T>(data, offset)?;
    check_values::<T>(data)?;
    Ok((shape, order))
}

/// Checks that the data, `have` bytes, is exactly what `header` promises.
pub(crate) fn check_len(header: &Header, have: u64) -> Result<()> {
    let total = header.data_len()?;
    match have.cmp(&total) {
        Ordering::Equal => Ok(()),
        Ordering::Less => Err(Error::data(format!(
            "data ends after {have} bytes, the header promises {total} bytes"
        ))),
        Ordering::Greater => Err(Error::data(format!(
            "{} bytes follow the {total} bytes of data the header promises (a view takes \
             exactly one array)",
            have.saturating_sub(total)
        ))),
    }
}

/// The dtype a view of `T` needs: `T`'s type in this machine's byte order.
pub(crate) fn native<T: ViewElement>() -> Scalar {
    Scalar::new(T::TYPE, ByteOrder::NATIVE)
}

fn check_dtype<T: ViewElement>(descr: &Dtype, shape: &[u64]) -> Result<()> {
    let want = native::<T>();
    if descr.as_scalar() == Some(&want) {
        return Ok(());
    }
    Err(Error::mismatch(format!(
        "cannot view {descr} data of shape {} as {}, which needs '{want}' (views take the \
         file's bytes as they are; from_slice reads and converts)",
        ShapeRepr(shape),
        T::NAME
    )))
}

fn check_aligned<T: ViewElement>(data: &[u8], offset: u64) -> Result<()> {
    let align = std::mem::align_of::<T>();
    let off = (data.as_ptr() as usize).checked_rem(align).unwrap_or(0);
    if off == 0 {
        return Ok(());
    }
    Err(Error::mismatch(format!(
        "the data (byte {offset} of the slice) is at an address {off} byte(s) past a multiple \
         of {align}, the alignment of {}: a view needs aligned bytes (a memory map is aligned; \
         a Vec<u8> is not: copy it into aligned storage, or read the array, which copies)",
        T::NAME
    )))
}

/// `bool` bytes other than 0 and 1 are no Rust values: the one thing left
/// for bytemuck's checked cast to refuse after the checks of [`locate`].
fn check_values<T: ViewElement>(data: &[u8]) -> Result<()> {
    if T::TYPE != ScalarType::Bool {
        return Ok(());
    }
    match data.iter().enumerate().find(|(_, b)| **b > 1) {
        None => Ok(()),
        Some((i, b)) => Err(Error::mismatch(format!(
            "element {i} of the '|b1' data is the byte {b}, not 0 or 1: a view of bool \
             needs 0 or 1 (numpy reads any non-zero byte as True; so does from_slice)"
        ))),
    }
}

fn refused<T: ViewElement>() -> Error {
    Error::mismatch(format!("bytemuck refused to view the data as {}", T::NAME))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bytes` copied to 8-byte aligned storage, then offset by `shift`.
    fn aligned(bytes: &[u8], shift: usize) -> (Vec<u64>, usize) {
        let mut words = vec![0u64; (bytes.len() + shift).div_ceil(8) + 1];
        bytemuck::cast_slice_mut::<u64, u8>(&mut words)[shift..shift + bytes.len()]
            .copy_from_slice(bytes);
        (words, shift)
    }

    fn at(words: &[u64], shift: usize, len: usize) -> &[u8] {
        &bytemuck::cast_slice::<u64, u8>(words)[shift..shift + len]
    }

    #[test]
    fn views_plain_numbers_in_place() {
        let bytes = crate::to_vec(&[[1i32, 2], [3, 4], [5, 6]]).unwrap();
        let (w, s) = aligned(&bytes, 0);
        let v = view::<i32>(at(&w, s, bytes.len())).unwrap();
        assert_eq!(v.shape(), &[3, 2]);
        assert_eq!(v.order(), Order::C);
        assert_eq!(v.data(), &[1, 2, 3, 4, 5, 6]);
        // borrowed, not copied
        let data_start = at(&w, s, bytes.len())[128..].as_ptr();
        assert_eq!(v.data().as_ptr().cast::<u8>(), data_start);
    }

    #[test]
    fn misaligned_data_is_refused() {
        let bytes = crate::to_vec(&[1.0f64, 2.0]).unwrap();
        let (w, s) = aligned(&bytes, 4);
        let err = view::<f64>(at(&w, s, bytes.len())).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the data (byte 128 of the slice) is at an address 4 byte(s) past a multiple of \
             8, the alignment of f64: a view needs aligned bytes (a memory map is aligned; a \
             Vec<u8> is not: copy it into aligned storage, or read the array, which copies)"
        );
    }

    #[test]
    fn bool_bytes_other_than_0_and_1_are_refused() {
        let mut bytes = crate::to_vec(&[true, false, true]).unwrap();
        *bytes.last_mut().unwrap() = 2;
        let err = view::<bool>(&bytes).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("element 2 of the '|b1' data is the byte 2")
        );
        let err = view_mut::<bool>(&mut bytes).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("element 2 of the '|b1' data is the byte 2")
        );
    }

    #[test]
    fn trailing_bytes_and_wrong_order_are_refused() {
        let mut bytes = crate::to_vec(&[1u8, 2]).unwrap();
        bytes.push(0);
        let err = view::<u8>(&bytes).unwrap_err();
        assert!(
            err.to_string().starts_with("1 bytes follow the 2 bytes"),
            "{err}"
        );
        let order = if cfg!(target_endian = "little") {
            ">u2"
        } else {
            "<u2"
        };
        let header = crate::Header::new(order.parse().unwrap(), false, vec![1]);
        let (mut bytes, _) = header.encode(None).unwrap();
        bytes.extend_from_slice(&[0, 1]);
        let (w, s) = aligned(&bytes, 0);
        let err = view::<u16>(at(&w, s, bytes.len())).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "cannot view '{order}' data of shape (1,) as u16, which needs '{}' (views \
                 take the file's bytes as they are; from_slice reads and converts)",
                native::<u16>()
            )
        );
    }
}
