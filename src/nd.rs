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

use crate::dtype::ShapeRepr;
use crate::error::{Error, Result};

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
        if fortran_order && shape.iter().filter(|&&n| n > 1).count() > 1 {
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

/// Checks that `len` elements fill an array of `shape` exactly.
fn check_len(shape: &[usize], len: usize) -> Result<()> {
    let want = element_count(shape)?;
    if want == len {
        Ok(())
    } else {
        Err(Error::mismatch(format!(
            "shape {} holds {want} element(s), but the data has {len}",
            ShapeRepr(shape)
        )))
    }
}

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
        check_len(&shape, data.len())?;
        Ok(NdView {
            order: Order::of(order.is_fortran(), &shape),
            shape,
            data,
        })
    }

    /// The size of each axis; `[]` for a 0-d array (one element).
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// How [`data`](Self::data) is laid out.
    pub fn order(&self) -> Order {
        self.order
    }

    /// The elements, in [`order`](Self::order).
    pub fn data(&self) -> &'a [T] {
        self.data
    }

    /// The number of elements (the product of the shape).
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether an axis is 0 long.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
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
        check_len(&shape, data.len())?;
        Ok(NdViewMut {
            order: Order::of(order.is_fortran(), &shape),
            shape,
            data,
        })
    }

    /// The size of each axis; `[]` for a 0-d array (one element).
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// How the data is laid out.
    pub fn order(&self) -> Order {
        self.order
    }

    /// The elements, in [`order`](Self::order).
    pub fn data(&self) -> &[T] {
        self.data
    }

    /// The elements, to be written in place.
    pub fn data_mut(&mut self) -> &mut [T] {
        self.data
    }

    /// A read-only view of the same data.
    pub fn view(&self) -> NdView<'_, T> {
        NdView {
            shape: self.shape.clone(),
            order: self.order,
            data: self.data,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
