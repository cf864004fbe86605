//! [`DataRange`]: where a stored member's array data lies in the archive,
//! so that it can be viewed in place (a memory map of the whole `.npz`).

use std::ops::Range;

use crate::array::nd::Order;
#[cfg(feature = "view")]
use crate::array::nd::{NdView, NdViewMut};
#[cfg(feature = "view")]
use crate::array::view::{ViewElement, view_data, view_data_mut};
use crate::error::{Error, Result};
use crate::format::dtype::Dtype;
use crate::format::header::Header;

/// The array data of a stored `.npz` member: its byte range within the
/// archive, with the dtype, shape and order of the member's npy header
/// (from [`NpzReader::data_range`](super::NpzReader::data_range)).
///
/// Archives written by [`NpzWriter`](super::NpzWriter) align every stored
/// member's data to 64 bytes, so a memory map of the archive views it in
/// place ([`view`](DataRange::view), feature `view`); numpy's `np.savez`
/// does not align, and a view of its members is refused as misaligned for
/// types wider than a byte (read those with
/// [`by_name`](super::NpzReader::by_name)).
///
/// ```
/// use std::io::Cursor;
/// use npy_serde::npz::{NpzReader, NpzWriter};
///
/// let mut w = NpzWriter::new(Cursor::new(Vec::new()));
/// w.add("t", &[0.5f64, 1.5, 2.5])?;
/// w.add("pos", &[[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]])?;
/// let archive = w.finish()?.into_inner();
///
/// let mut z = NpzReader::new(Cursor::new(&archive))?;
/// let pos = z.data_range("pos")?;
/// assert_eq!((pos.shape(), pos.dtype().to_string()), (&[2, 3][..], "'<f4'".to_owned()));
/// assert_eq!(pos.range().start % 64, 0); // aligned by NpzWriter
/// assert_eq!(pos.range().end - pos.range().start, 24);
/// # Ok::<(), npy_serde::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataRange {
    header: Header,
    shape: Vec<usize>,
    range: Range<u64>,
}

impl DataRange {
    /// A range for the data `header` describes, starting at byte `start`.
    pub(crate) fn new(header: Header, start: u64) -> Result<DataRange> {
        let shape = header.usize_shape()?;
        let end = start
            .checked_add(header.data_len()?)
            .ok_or_else(|| Error::limit("the member's data ends past 2^64 bytes"))?;
        Ok(DataRange {
            header,
            shape,
            range: start..end,
        })
    }

    /// The member's header.
    #[cfg(feature = "object_store")]
    pub(crate) fn header(&self) -> &Header {
        &self.header
    }

    /// The member's array data: bytes `start..end` of the archive (from
    /// the position the [`NpzReader`](super::NpzReader) was given).
    pub fn range(&self) -> Range<u64> {
        self.range.clone()
    }

    /// The dtype of the member's elements.
    pub fn dtype(&self) -> &Dtype {
        &self.header.descr
    }

    /// The member's shape; `[]` for a 0-d array.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// How the data is laid out (the header's `fortran_order`, normalised
    /// as [`Order::of`] does).
    pub fn order(&self) -> Order {
        Order::of(self.header.fortran_order, &self.shape)
    }

    /// The member's data in `archive` (the whole archive's bytes, a memory
    /// map for example) as an [`NdView`], without copying: the same checks
    /// and messages as [`crate::view()`] (dtype exactly `T` in this
    /// machine's byte order, data aligned for `T`), and an error when
    /// `archive` is too short for the range.
    ///
    /// ```
    /// use std::io::Cursor;
    /// use npy_serde::npz::{NpzReader, NpzWriter};
    ///
    /// let mut w = NpzWriter::new(Cursor::new(Vec::new()));
    /// w.add("ids", &[7u8, 8, 9])?;
    /// let archive = w.finish()?.into_inner();
    /// let range = NpzReader::new(Cursor::new(&archive))?.data_range("ids")?;
    /// let ids = range.view::<u8>(&archive)?;
    /// assert_eq!(ids.data(), &[7, 8, 9]);
    /// assert!(range.view::<i8>(&archive).is_err()); // '|u1' is not i8
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    #[cfg(feature = "view")]
    pub fn view<'a, T: ViewElement>(&self, archive: &'a [u8]) -> Result<NdView<'a, T>> {
        let data = archive.get(self.bounds(archive.len())?).unwrap_or(&[]);
        view_data(&self.header, data, self.range.start)
    }

    /// The member's data in `archive` as an [`NdViewMut`], to write in
    /// place (a writable map of the archive): the checks of
    /// [`view`](DataRange::view). Only the data changes, so the zip's
    /// CRC-32 of the member no longer matches: readers that check it
    /// (numpy, this crate) refuse the member afterwards. Fill `.npy` files
    /// instead ([`crate::write_zeroed`]), or rewrite the archive.
    ///
    /// ```
    /// use std::io::Cursor;
    /// use npy_serde::npz::{NpzReader, NpzWriter};
    ///
    /// let mut w = NpzWriter::new(Cursor::new(Vec::new()));
    /// w.add("x", &[0u8; 4])?;
    /// let mut archive = w.finish()?.into_inner();
    /// let range = NpzReader::new(Cursor::new(&archive))?.data_range("x")?;
    /// range.view_mut::<u8>(&mut archive)?.data_mut()[0] = 1;
    /// assert_eq!(range.view::<u8>(&archive)?.data(), &[1, 0, 0, 0]);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    #[cfg(feature = "view")]
    pub fn view_mut<'a, T: ViewElement>(&self, archive: &'a mut [u8]) -> Result<NdViewMut<'a, T>> {
        let bounds = self.bounds(archive.len())?;
        let data = archive.get_mut(bounds).unwrap_or(&mut []);
        view_data_mut(&self.header, data, self.range.start)
    }

    /// The range as indices into a slice of `len` bytes.
    #[cfg(feature = "view")]
    fn bounds(&self, len: usize) -> Result<Range<usize>> {
        let end = usize::try_from(self.range.end)
            .ok()
            .filter(|&end| end <= len);
        let start = usize::try_from(self.range.start).ok();
        match (start, end) {
            (Some(start), Some(end)) => Ok(start..end),
            _ => Err(Error::data(format!(
                "the archive's bytes end at {len}, but the member's data is at {}..{}",
                self.range.start, self.range.end
            ))),
        }
    }
}
