//! ndarray interop (feature `ndarray`): [`NdArray`] and [`NdView`] to and
//! from ndarray's [`Array`] and [`ArrayView`], and
//! `#[serde(with = "npy_serde::ndarray")]` for `Array<T, D>` fields of
//! `.npz` structs (or records: a subarray field).
//!
//! Read a file as an [`NdArray`] (any shape, plain numbers in one block) and
//! turn it into an `Array` of the dimension you expect; a Fortran-order file
//! becomes an array with Fortran strides, without a copy:
//!
//! ```
//! use ndarray::{Array2, array};
//!
//! let bytes = npy_serde::to_vec(&[[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]])?; // '<f4', (2, 3)
//! let img: Array2<f32> = npy_serde::from_slice::<npy_serde::NdArray<f32>>(&bytes)?.into_ndarray()?;
//! assert_eq!(img, array![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
//!
//! // and back: an Array becomes an NdArray in its own layout
//! let nd = npy_serde::NdArray::from(img.reversed_axes());
//! assert_eq!((nd.shape(), nd.order()), (&[3, 2][..], npy_serde::Order::Fortran));
//! # Ok::<(), npy_serde::Error>(())
//! ```
//!
//! # Not ndarray's own serde
//!
//! ndarray's feature `serde` gives `Array` a serde impl of its own, a struct
//! `Array {v, dim, data}`. Through this crate that is not a numpy array (it
//! would be one record of fields `v`, `dim` and `data`, of shape `()`), so
//! it is refused, written or read, with an error that says what to use
//! instead. Convert through [`NdArray`] / [`NdView`] (or mark `Array` fields
//! of `.npz` structs with this module's functions) to read and write
//! numpy's arrays.
//!
//! # Layouts
//!
//! | ndarray | [`NdArray`] / [`NdView`] |
//! |---|---|
//! | standard layout (`is_standard_layout()`) | [`Order::C`], no copy |
//! | Fortran layout (`t().is_standard_layout()`) | [`Order::Fortran`], no copy |
//! | other strides (a slice with steps, permuted axes) | `NdArray`: copied to C order; `NdView`: refused (use `as_standard_layout`) |

use ::ndarray::{Array, ArrayBase, ArrayView, Data, Dimension, ShapeBuilder, StrideShape};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::array::nd::{NdArray, NdView, Order};
use crate::error::{Error, Result};
use crate::format::dtype::ShapeRepr;

impl<T> NdArray<T> {
    /// The array as an ndarray [`Array`] of dimension `D` (`Ix2`, `IxDyn`,
    /// …): an error when the array has another number of dimensions. The
    /// data is moved, not copied; Fortran-order data gets Fortran strides.
    ///
    /// ```
    /// use ndarray::{Array2, Array3, ArrayD};
    ///
    /// let f = npy_serde::NdArray::from_shape_vec_fortran(vec![2, 3], vec![0, 3, 1, 4, 2, 5])?;
    /// let a: Array2<i32> = f.clone().into_ndarray()?;
    /// assert_eq!(a, ndarray::array![[0, 1, 2], [3, 4, 5]]);
    /// assert!(a.t().is_standard_layout()); // Fortran strides, the data as it was
    ///
    /// let any: ArrayD<i32> = f.clone().into_ndarray()?;
    /// assert_eq!(any.shape(), &[2, 3]);
    ///
    /// let err = f.into_ndarray::<ndarray::Ix3>().unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "expected a 3-d array for ndarray's Array3, found a 2-d array of shape (2, 3)"
    /// );
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn into_ndarray<D: Dimension>(self) -> Result<Array<T, D>> {
        let shape = stride_shape::<D>(self.shape(), self.order())?;
        Array::from_shape_vec(shape, self.into_vec()).map_err(shape_error)
    }
}

impl<'a, T> NdView<'a, T> {
    /// The view as an ndarray [`ArrayView`] of dimension `D`, borrowing the
    /// same data (a view of a memory-mapped file stays a view of it): an
    /// error when the array has another number of dimensions.
    ///
    /// ```
    /// use npy_serde::{NdView, Order};
    ///
    /// let data = [1u8, 2, 3, 4, 5, 6];
    /// let v = NdView::new(vec![2, 3], Order::Fortran, &data)?;
    /// let a: ndarray::ArrayView2<u8> = v.to_ndarray_view()?;
    /// assert_eq!(a, ndarray::array![[1, 3, 5], [2, 4, 6]]);
    /// assert!(v.to_ndarray_view::<ndarray::Ix1>().is_err());
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    pub fn to_ndarray_view<D: Dimension>(&self) -> Result<ArrayView<'a, T, D>> {
        let shape = stride_shape::<D>(self.shape(), self.order())?;
        ArrayView::from_shape(shape, self.data()).map_err(shape_error)
    }
}

/// ndarray's shape and strides for an array of `shape` laid out in `order`,
/// as dimension `D`: the one dimension check of this module (the error
/// names both dimension counts).
fn stride_shape<D: Dimension>(shape: &[usize], order: Order) -> Result<StrideShape<D>> {
    if let Some(n) = D::NDIM.filter(|&n| n != shape.len()) {
        return Err(Error::mismatch(format!(
            "expected a {n}-d array for ndarray's Array{n}, found a {}-d array of shape {}",
            shape.len(),
            ShapeRepr(shape)
        )));
    }
    let mut dim = D::zeros(shape.len());
    dim.slice_mut().copy_from_slice(shape);
    Ok(match order {
        Order::C => dim.into(),
        Order::Fortran => dim.f().into(),
    })
}

/// An ndarray shape error (the element count is checked on both sides, so
/// this is ndarray's own guard).
fn shape_error(e: ::ndarray::ShapeError) -> Error {
    Error::mismatch(format!("ndarray refused the shape: {e}"))
}

/// The layout of an ndarray array that [`NdArray`] and [`NdView`] can take
/// as it is: C for standard layout, Fortran when the transpose is standard.
fn layout_of<S: Data, D: Dimension>(a: &ArrayBase<S, D>) -> Option<Order> {
    if a.is_standard_layout() {
        Some(Order::C)
    } else if a.t().is_standard_layout() {
        Some(Order::Fortran)
    } else {
        None
    }
}

impl<T, D: Dimension> From<Array<T, D>> for NdArray<T> {
    /// The array in its own layout: standard layout gives [`Order::C`] and
    /// Fortran layout [`Order::Fortran`], the data moved, not copied; an
    /// array with other strides (a slice with steps, permuted axes) has its
    /// elements moved into C order.
    ///
    /// ```
    /// use ndarray::{Array2, ShapeBuilder};
    /// use npy_serde::{NdArray, Order};
    ///
    /// let c = NdArray::from(Array2::from_shape_vec((2, 3), vec![0, 1, 2, 3, 4, 5]).unwrap());
    /// assert_eq!((c.order(), c.data()), (Order::C, &[0, 1, 2, 3, 4, 5][..]));
    ///
    /// let f = NdArray::from(Array2::from_shape_vec((2, 3).f(), vec![0, 3, 1, 4, 2, 5]).unwrap());
    /// assert_eq!((f.order(), f.data()), (Order::Fortran, &[0, 3, 1, 4, 2, 5][..]));
    /// assert_eq!(f, c);
    ///
    /// // every other column: copied to C order
    /// let mut a = Array2::from_shape_vec((2, 4), (0..8).collect()).unwrap();
    /// a.slice_collapse(ndarray::s![.., ..;2]);
    /// let s = NdArray::from(a);
    /// assert_eq!((s.shape(), s.data()), (&[2, 2][..], &[0, 2, 4, 6][..]));
    /// ```
    fn from(a: Array<T, D>) -> NdArray<T> {
        let shape = a.shape().to_vec();
        let len = a.len();
        let (order, data) = match layout_of(&a) {
            Some(order) => {
                // contiguous: the elements are `len` consecutive slots of the
                // allocation, from `offset` (a slice of the array in place
                // leaves the others before or after them)
                let (mut data, offset) = a.into_raw_vec_and_offset();
                let offset = offset.unwrap_or(0);
                data.truncate(offset.saturating_add(len));
                data.drain(..offset.min(data.len()));
                (order, data)
            }
            None => (Order::C, a.into_iter().collect()),
        };
        NdArray::from_ndarray_parts(shape, order, data)
    }
}

impl<'a, T, D: Dimension> TryFrom<ArrayView<'a, T, D>> for NdView<'a, T> {
    type Error = Error;

    /// The view's data in place when it is in standard or Fortran layout;
    /// an error for other strides, which a borrowed n-d array cannot
    /// describe.
    ///
    /// ```
    /// use ndarray::{Array2, s};
    /// use npy_serde::{NdView, Order};
    ///
    /// let a = Array2::from_shape_vec((2, 3), vec![0.0f64, 1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
    /// let v = NdView::try_from(a.view())?;
    /// assert_eq!((v.shape(), v.order()), (&[2, 3][..], Order::C));
    /// let t = NdView::try_from(a.t())?; // the transpose is Fortran layout
    /// assert_eq!((t.shape(), t.order()), (&[3, 2][..], Order::Fortran));
    ///
    /// let err = NdView::try_from(a.slice(s![.., ..;2])).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "an ndarray view of shape (2, 2) with strides (3, 2) is neither in standard (C) nor \
    ///      in Fortran layout: copy it with as_standard_layout() first"
    /// );
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    fn try_from(a: ArrayView<'a, T, D>) -> Result<NdView<'a, T>> {
        let order = layout_of(&a);
        match (order, a.to_slice_memory_order()) {
            (Some(order), Some(data)) => NdView::new(a.shape().to_vec(), order, data),
            _ => Err(Error::mismatch(format!(
                "an ndarray view of shape {} with strides {} is neither in standard (C) nor in \
                 Fortran layout: copy it with as_standard_layout() first",
                ShapeRepr(a.shape()),
                ShapeRepr(a.strides())
            ))),
        }
    }
}

/// Deserializes an ndarray [`Array`] of dimension `D` through [`NdArray`]
/// (plain numbers in one block, a Fortran-order file without a copy); for
/// `Array` fields of `.npz` structs:
/// `#[serde(deserialize_with = "npy_serde::ndarray::deserialize")]`.
///
/// ```
/// use ndarray::{Array1, Array2, array};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Deserialize)]
/// struct Scene {
///     #[serde(deserialize_with = "npy_serde::ndarray::deserialize")]
///     points: Array2<f32>,
///     #[serde(deserialize_with = "npy_serde::ndarray::deserialize")]
///     ids: Array1<u64>,
/// }
///
/// // an archive with points.npy '<f4' (2, 3) and ids.npy '<u8' (2,)
/// #[derive(Serialize)]
/// struct Columns { points: Vec<[f32; 3]>, ids: Vec<u64> }
/// let mut file = std::io::Cursor::new(Vec::new());
/// let cols = Columns { points: vec![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], ids: vec![7, 8] };
/// npy_serde::npz::to_writer(&mut file, &cols)?;
/// file.set_position(0);
///
/// let scene: Scene = npy_serde::npz::from_reader(&mut file)?;
/// assert_eq!(scene.points, array![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
/// assert_eq!(scene.ids, array![7, 8]);
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn deserialize<'de, T, D, De>(deserializer: De) -> std::result::Result<Array<T, D>, De::Error>
where
    T: Deserialize<'de> + 'static,
    D: Dimension,
    De: Deserializer<'de>,
{
    NdArray::<T>::deserialize(deserializer)?
        .into_ndarray()
        .map_err(serde::de::Error::custom)
}

/// Serializes an ndarray [`Array`] as the n-d array numpy has (its shape,
/// standard or Fortran layout as it is, without a copy; other strides
/// copied into C order), for `Array` fields of `.npz` structs:
/// `#[serde(with = "npy_serde::ndarray")]` (or `serialize_with`).
///
/// ```
/// use ndarray::{Array2, array};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Serialize, Deserialize, Debug, PartialEq)]
/// struct Scene {
///     #[serde(with = "npy_serde::ndarray")]
///     depth: Array2<f32>,
/// }
///
/// let scene = Scene { depth: array![[1.0, 2.0], [3.0, 4.0]].reversed_axes() };
/// let mut file = std::io::Cursor::new(Vec::new());
/// npy_serde::npz::to_writer(&mut file, &scene)?;
/// file.set_position(0);
/// let mut z = npy_serde::npz::NpzReader::new(&mut file)?;
/// assert!(String::from_utf8_lossy(&z.raw("depth")?).contains("'fortran_order': True, 'shape': (2, 2)"));
/// file.set_position(0);
/// assert_eq!(npy_serde::npz::from_reader::<Scene>(&mut file)?, scene);
/// # Ok::<(), npy_serde::Error>(())
/// ```
pub fn serialize<T, D, S>(
    array: &Array<T, D>,
    serializer: S,
) -> std::result::Result<S::Ok, S::Error>
where
    T: Serialize + Clone + 'static,
    D: Dimension,
    S: Serializer,
{
    match NdView::try_from(array.view()) {
        Ok(view) => view.serialize(serializer),
        Err(_) => NdArray::from(array.as_standard_layout().into_owned()).serialize(serializer),
    }
}
