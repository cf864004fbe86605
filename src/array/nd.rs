//! N-d arrays as numpy has them: a shape, a memory [`Order`] and flat data.
//!
//! [`NdView`] and [`NdViewMut`] borrow flat data with a shape (for example
//! the data section of a memory-mapped `.npy` file). Their shape always
//! matches their data: the constructors check that the data holds exactly
//! the product of the shape's sizes.
//!
//! ```
//! use npy_serde::{NdView, Order};
//!
//! let data = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
//! let view = NdView::new(vec![2, 3], Order::C, &data)?;
//! assert_eq!(view.shape(), &[2, 3]);
//! assert_eq!(view.order(), Order::C);
//! assert_eq!(view.data()[4], 5.0);
//!
//! // the data must hold exactly 2 x 3 elements
//! assert!(NdView::new(vec![2, 2], Order::C, &data).is_err());
//! # Ok::<(), npy_serde::Error>(())
//! ```
//!
//! [`NdArray`] owns its data: any numpy array read with its shape and order.

use crate::error::{Error, Result};
use crate::format::dtype::ShapeRepr;

/// How an n-d array's flat data is laid out: numpy's `fortran_order`.
///
/// `C` (row-major, the last axis varies fastest) or `Fortran` (column-major,
/// the first axis varies fastest). When both describe the same layout
/// (fewer than two dimensions, or at most one axis longer than 1), the
/// order is `C`, as numpy's reader treats such arrays.
///
/// ```
/// use npy_serde::Order;
///
/// assert_eq!(Order::of(true, &[3, 4]), Order::Fortran);
/// assert_eq!(Order::of(true, &[12]), Order::C); // 1-d: both layouts agree
/// assert_eq!(Order::of(true, &[1, 12, 1]), Order::C); // one axis longer than 1
/// assert_eq!(Order::of(false, &[3, 4]), Order::C);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Order {
    /// Row-major: numpy's default, `fortran_order: False`.
    #[default]
    C,
    /// Column-major: `fortran_order: True`.
    Fortran,
}

impl Order {
    /// The order of an array of `shape` whose header says `fortran_order`:
    /// [`Order::C`] whenever both layouts coincide.
    pub fn of(fortran_order: bool, shape: &[usize]) -> Order {
        Order::of_header(fortran_order, shape)
    }

    /// [`Order::of`] for a header's shape (or any other sizes).
    pub(crate) fn of_header<N: From<u8> + PartialOrd + Copy>(
        fortran_order: bool,
        shape: &[N],
    ) -> Order {
        if fortran_order && shape.iter().filter(|&&n| n > N::from(1)).count() > 1 {
            Order::Fortran
        } else {
            Order::C
        }
    }

    /// Whether this is [`Order::Fortran`] (the header's `fortran_order`).
    pub fn is_fortran(self) -> bool {
        self == Order::Fortran
    }
}

/// The number of elements of an array of `shape`, or an error when the
/// product does not fit a `usize`.
pub(crate) fn element_count(shape: &[usize]) -> Result<usize> {
    shape
        .iter()
        .try_fold(1usize, |n, &axis| n.checked_mul(axis))
        .ok_or_else(|| {
            Error::limit(format!(
                "shape {} has more elements than this platform can address",
                ShapeRepr(shape)
            ))
        })
}

/// An error from the flat data of an n-d array of `dims` (its elements
/// laid out column-major when `fortran`): the flat index, its outermost
/// position, becomes the element's position on each axis in C index order
/// ([`Segment::At`](crate::Segment::At); `record [i, j]` when `record` or
/// when the error is in a field). A 1-d array keeps its record or element
/// index; the one element of a 0-d array has no position.
#[cold]
#[inline(never)]
pub(crate) fn flat_to_nd(mut e: Error, dims: &[u64], fortran: bool, record: bool) -> Error {
    if dims.len() == 1 {
        return e;
    }
    let Some(mut k) = e.take_flat_index() else {
        return e;
    };
    if dims.is_empty() {
        return e;
    }
    let mut index = vec![0u64; dims.len()];
    let mut place = |(i, &d): (&mut u64, &u64)| {
        *i = k % d.max(1);
        k /= d.max(1);
    };
    let axes = index.iter_mut().zip(dims);
    if fortran {
        axes.for_each(&mut place);
    } else {
        axes.rev().for_each(&mut place);
    }
    e.at_nd(index, record)
}

/// Checks that `len` elements fill an array of `shape` exactly; then
/// `order`, normalised as [`Order::of`] does.
fn checked_order(shape: &[usize], order: Order, len: usize) -> Result<Order> {
    let want = element_count(shape)?;
    if want == len {
        Ok(Order::of(order.is_fortran(), shape))
    } else {
        Err(Error::mismatch(format!(
            "shape {} holds {want} element(s), but the data has {len}",
            ShapeRepr(shape)
        )))
    }
}

/// The accessors the three n-d types share; `len` and `is_empty` where
/// named, and for the two that own their data mutably (`NdViewMut`,
/// `NdArray`) `data`, `data_mut` and `view` where `data_mut` is named.
macro_rules! accessors {
    ($($ty:ident<$($g:tt),+> [$($len:ident)?] [$($data_mut:ident)?];)+) => {$(
        impl<$($g),+> $ty<$($g),+> {
            /// The size of each axis; `[]` for a 0-d array (one element).
            pub fn shape(&self) -> &[usize] {
                &self.shape
            }

            /// How [`data`](Self::data) is laid out.
            pub fn order(&self) -> Order {
                self.order
            }
            $(
            /// The number of elements (the product of the shape).
            pub fn $len(&self) -> usize {
                self.data.len()
            }

            /// Whether an axis is 0 long.
            pub fn is_empty(&self) -> bool {
                self.data.is_empty()
            }
            )?
            $(
            /// The elements, in [`order`](Self::order).
            pub fn data(&self) -> &[T] {
                &self.data
            }

            /// The elements, to be changed in place (the shape stays).
            pub fn $data_mut(&mut self) -> &mut [T] {
                &mut self.data
            }

            /// A read-only view of the same data (written without a copy).
            pub fn view(&self) -> NdView<'_, T> {
                NdView {
                    shape: self.shape.clone(),
                    order: self.order,
                    data: &self.data,
                }
            }
            )?
        }
    )+};
}

accessors!(NdView<'a, T> [len] []; NdViewMut<'a, T> [] [data_mut]; NdArray<T> [len] [data_mut];);

/// A borrowed n-d array: a shape, an [`Order`] and flat data.
///
/// ```
/// use npy_serde::{NdView, Order};
///
/// // a 2 x 3 Fortran-order array: the first axis varies fastest
/// let data = [0u8, 3, 1, 4, 2, 5];
/// let view = NdView::new(vec![2, 3], Order::Fortran, &data)?;
/// assert_eq!(view.len(), 6);
/// # Ok::<(), npy_serde::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct NdView<'a, T> {
    shape: Vec<usize>,
    order: Order,
    data: &'a [T],
}

impl<'a, T> NdView<'a, T> {
    /// A view of `data` with `shape`, laid out in `order`; an error when
    /// `data.len()` is not the product of the shape's sizes. The order is
    /// normalised as [`Order::of`] does.
    pub fn new(shape: Vec<usize>, order: Order, data: &'a [T]) -> Result<NdView<'a, T>> {
        let order = checked_order(&shape, order, data.len())?;
        Ok(NdView { shape, order, data })
    }

    /// The elements, in [`order`](Self::order).
    pub fn data(&self) -> &'a [T] {
        self.data
    }
}

/// A mutably borrowed n-d array: a shape, an [`Order`] and flat data that
/// can be written in place (for example a writable memory map of a file
/// made by `write_zeroed`).
///
/// ```
/// use npy_serde::{NdViewMut, Order};
///
/// let mut data = [0.0f64; 6];
/// let mut view = NdViewMut::new(vec![3, 2], Order::C, &mut data)?;
/// view.data_mut()[5] = 1.5;
/// assert_eq!(view.shape(), &[3, 2]);
/// assert_eq!(data[5], 1.5);
/// # Ok::<(), npy_serde::Error>(())
/// ```
#[derive(Debug)]
pub struct NdViewMut<'a, T> {
    shape: Vec<usize>,
    order: Order,
    data: &'a mut [T],
}

impl<'a, T> NdViewMut<'a, T> {
    /// A mutable view of `data` with `shape`, laid out in `order`; the same
    /// checks as [`NdView::new`].
    pub fn new(shape: Vec<usize>, order: Order, data: &'a mut [T]) -> Result<NdViewMut<'a, T>> {
        let order = checked_order(&shape, order, data.len())?;
        Ok(NdViewMut { shape, order, data })
    }
}

/// An n-d array as numpy has it: a shape, an [`Order`] and flat data.
///
/// Reading keeps the file's layout (a Fortran-order file gives
/// [`Order::Fortran`] data, nothing transposed); plain numbers are read in
/// one block. Equality compares the shape and the values in logical order,
/// so a Fortran array equals its C-order copy.
///
/// ```
/// use npy_serde::{NdArray, Order};
///
/// // a 2 x 3 image ('<f4', shape (2, 3)) read with its shape
/// let bytes = npy_serde::to_vec(&[[0.0f32, 0.1, 0.2], [1.0, 1.1, 1.2]])?;
/// let img: NdArray<f32> = npy_serde::from_slice(&bytes)?;
/// assert_eq!(img.shape(), &[2, 3]);
/// assert_eq!(img.data(), &[0.0, 0.1, 0.2, 1.0, 1.1, 1.2]);
///
/// // the same values stored column by column
/// let f = NdArray::from_shape_vec_fortran(vec![2, 3], vec![0.0f32, 1.0, 0.1, 1.1, 0.2, 1.2])?;
/// assert_eq!(f.order(), Order::Fortran);
/// assert_eq!(f, img);
/// assert_eq!(f.into_c_order().data(), img.data());
/// # Ok::<(), npy_serde::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct NdArray<T> {
    shape: Vec<usize>,
    order: Order,
    data: Vec<T>,
}

impl<T> NdArray<T> {
    /// A C-order array; an error when `data.len()` is not the product of
    /// the shape's sizes.
    ///
    /// ```
    /// let m = npy_serde::NdArray::from_shape_vec(vec![2, 2], vec![1, 2, 3, 4])?;
    /// assert_eq!(m.data(), &[1, 2, 3, 4]);
    /// assert!(npy_serde::NdArray::from_shape_vec(vec![2, 2], vec![1, 2, 3]).is_err());
    /// // 0-d: shape [] and one element
    /// assert_eq!(npy_serde::NdArray::from_shape_vec(vec![], vec![7])?.len(), 1);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn from_shape_vec(shape: Vec<usize>, data: Vec<T>) -> Result<NdArray<T>> {
        NdArray::from_parts(shape, Order::C, data)
    }

    /// A Fortran-order array (the first axis varies fastest); the same
    /// checks as [`from_shape_vec`](Self::from_shape_vec). The order is
    /// normalised as [`Order::of`] does.
    ///
    /// ```
    /// let m = npy_serde::NdArray::from_shape_vec_fortran(vec![2, 2], vec![1, 3, 2, 4])?;
    /// assert_eq!(m, npy_serde::NdArray::from_shape_vec(vec![2, 2], vec![1, 2, 3, 4])?);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn from_shape_vec_fortran(shape: Vec<usize>, data: Vec<T>) -> Result<NdArray<T>> {
        NdArray::from_parts(shape, Order::Fortran, data)
    }

    /// An array of `shape` laid out in `order`, checked.
    pub(crate) fn from_parts(shape: Vec<usize>, order: Order, data: Vec<T>) -> Result<NdArray<T>> {
        let order = checked_order(&shape, order, data.len())?;
        Ok(NdArray { shape, order, data })
    }

    /// An array from an ndarray array's parts, which ndarray has already
    /// checked (the data fills the shape, whose element count fits).
    #[cfg(feature = "ndarray")]
    pub(crate) fn from_ndarray_parts(shape: Vec<usize>, order: Order, data: Vec<T>) -> NdArray<T> {
        debug_assert_eq!(element_count(&shape).ok(), Some(data.len()));
        let order = Order::of(order.is_fortran(), &shape);
        NdArray { shape, order, data }
    }

    /// The data as its numbers' little-endian bytes in place, for plain
    /// and complex numbers with feature `view` on a little-endian machine
    /// ([`number::le_in_place`](crate::kinds::number::le_in_place)).
    pub(crate) fn le_in_place(&self) -> Option<&[u8]>
    where
        T: 'static,
    {
        crate::kinds::number::le_in_place(&self.data)
    }

    /// The elements, in [`order`](Self::order).
    pub fn into_vec(self) -> Vec<T> {
        self.data
    }

    /// The same array laid out in C order: a Fortran array's data is
    /// transposed (moved, not cloned); a C array is returned as it is.
    ///
    /// ```
    /// let f = npy_serde::NdArray::from_shape_vec_fortran(vec![2, 3], vec![0, 3, 1, 4, 2, 5])?;
    /// assert_eq!(f.into_c_order().into_vec(), [0, 1, 2, 3, 4, 5]);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn into_c_order(self) -> NdArray<T> {
        if !self.order.is_fortran() {
            return self;
        }
        let mut slots: Vec<Option<T>> = self.data.into_iter().map(Some).collect();
        let data = FortranOffsets::new(&self.shape)
            .filter_map(|at| slots.get_mut(at).and_then(Option::take))
            .collect();
        NdArray {
            shape: self.shape,
            order: Order::C,
            data,
        }
    }
}

impl<T: PartialEq> PartialEq for NdArray<T> {
    /// Equal shapes and equal values at every index, whatever the layouts.
    fn eq(&self, other: &NdArray<T>) -> bool {
        if self.shape != other.shape {
            return false;
        }
        if self.order == other.order {
            return self.data == other.data;
        }
        let (c, f) = if self.order.is_fortran() {
            (&other.data, &self.data)
        } else {
            (&self.data, &other.data)
        };
        c.iter()
            .zip(FortranOffsets::new(&self.shape))
            .all(|(a, at)| f.get(at) == Some(a))
    }
}

/// For each index of an array of `shape` in C order (last axis fastest),
/// the offset of that element in Fortran-order data (first axis fastest):
/// the one reordering of Fortran data, of an [`NdArray`]'s elements and of
/// bytes both ways (`de::array::fortran_to_c`, `ser::nd::reorder`).
pub(crate) struct FortranOffsets {
    dims: Vec<usize>,
    /// Fortran strides in elements.
    strides: Vec<usize>,
    index: Vec<usize>,
    offset: usize,
    left: usize,
}

impl FortranOffsets {
    /// The offsets for `shape`; its element count fits a `usize` (checked
    /// where the shape was made).
    pub(crate) fn new(shape: &[usize]) -> FortranOffsets {
        let mut strides = Vec::with_capacity(shape.len());
        let mut s = 1usize;
        for &d in shape {
            strides.push(s);
            s = s.saturating_mul(d);
        }
        FortranOffsets {
            dims: shape.to_vec(),
            strides,
            index: vec![0; shape.len()],
            offset: 0,
            left: s,
        }
    }
}

impl Iterator for FortranOffsets {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        self.left = self.left.checked_sub(1)?;
        let at = self.offset;
        // advance the C-order odometer: last axis fastest; every offset
        // stays below the element count, so nothing here wraps
        for ((i, &d), &st) in self
            .index
            .iter_mut()
            .zip(&self.dims)
            .zip(&self.strides)
            .rev()
        {
            *i = i.wrapping_add(1);
            self.offset = self.offset.wrapping_add(st);
            if *i < d {
                break;
            }
            self.offset = self.offset.wrapping_sub(st.wrapping_mul(d));
            *i = 0;
        }
        Some(at)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_indices_become_nd_positions() {
        let at = |k: u64, dims: &[u64], fortran: bool| {
            flat_to_nd(Error::mismatch("x").at_record(k), dims, fortran, false).to_string()
        };
        assert_eq!(at(3017, &[4000, 1000], false), "element [3, 17]: x");
        // column-major: the first axis varies fastest
        assert_eq!(at(3 + 17 * 4000, &[4000, 1000], true), "element [3, 17]: x");
        assert_eq!(at(23, &[2, 3, 4], false), "element [1, 2, 3]: x");
        assert_eq!(at(23, &[2, 3, 4], true), "element [1, 2, 3]: x");
        assert_eq!(at(5, &[6], false), "record 5: x");
        assert_eq!(at(0, &[], false), "x");
        let e = Error::mismatch("x").at_index(1).in_field("f").at_index(4);
        assert_eq!(
            flat_to_nd(e, &[2, 3], false, false).to_string(),
            "record [1, 1], field f[1]: x"
        );
    }

    #[test]
    fn order_is_c_when_both_layouts_coincide() {
        assert_eq!(Order::of(true, &[]), Order::C);
        assert_eq!(Order::of(true, &[0, 5]), Order::C);
        assert_eq!(Order::of(true, &[2, 5]), Order::Fortran);
        assert_eq!(Order::of(true, &[2, 1, 5]), Order::Fortran);
        assert_eq!(Order::of(false, &[2, 1, 5]), Order::C);
    }

    #[test]
    fn views_check_their_length() {
        let data = [0i32; 12];
        assert!(NdView::new(vec![3, 4], Order::C, &data).is_ok());
        assert!(NdView::new(vec![], Order::C, &data[..1]).is_ok());
        assert!(NdView::new(vec![12345678, 0], Order::C, &data[..0]).is_ok());
        let err = NdView::new(vec![5, 0, 2], Order::C, &data).unwrap_err();
        assert_eq!(
            err.to_string(),
            "shape (5, 0, 2) holds 0 element(s), but the data has 12"
        );
        let err = NdView::new(vec![usize::MAX, 2], Order::C, &data).unwrap_err();
        assert!(err.to_string().contains("more elements than"), "{err}");
    }
}
