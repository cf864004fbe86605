//! Feature `ndarray`: `NdArray`/`NdView` to and from ndarray's `Array` and
//! `ArrayView` in both layouts (the data moved or borrowed, not copied),
//! dimension checks, npz struct fields, and numpy's files (tests/data/nd)
//! read through `into_ndarray` equal to ndarray-npy's reads of the same
//! files, strides included.

use std::fmt::Debug;
use std::io::Cursor;

use ndarray::{Array, Array1, Array2, Array3, ArrayD, Ix2, IxDyn, ShapeBuilder, s};
use ndarray_npy::{ReadNpyExt, ReadableElement};
use npy_serde::{NdArray, NdView, Order};
use num_complex::Complex;
use serde::Deserialize;
use serde::de::DeserializeOwned;

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/data/nd/{name}.npy", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `name` read through `NdArray<T>` + `into_ndarray` equals ndarray-npy's
/// read: shape, values and strides (a Fortran file keeps Fortran strides).
fn agrees_with_ndarray_npy<T>(name: &str)
where
    T: DeserializeOwned + ReadableElement + PartialEq + Debug + 'static,
{
    let bytes = fixture(name);
    let nd: NdArray<T> = npy_serde::from_slice(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let order = nd.order();
    let ours: ArrayD<T> = nd.into_ndarray().unwrap_or_else(|e| panic!("{name}: {e}"));
    let theirs = ArrayD::<T>::read_npy(&bytes[..]).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(ours, theirs, "{name}");
    assert_eq!(ours.strides(), theirs.strides(), "{name}");
    assert_eq!(
        ours.t().is_standard_layout() && !ours.is_standard_layout(),
        order == Order::Fortran,
        "{name}"
    );
}

#[test]
fn numpy_files_read_as_ndarray_npy_reads_them() {
    for dims in ["1d", "2d", "3d", "4d"] {
        for order in ["C", "F"] {
            for end in ["le", "be"] {
                agrees_with_ndarray_npy::<f64>(&format!("f8_{dims}_{order}_{end}"));
                agrees_with_ndarray_npy::<i32>(&format!("i4_{dims}_{order}_{end}"));
            }
        }
    }
    for order in ["C", "F"] {
        agrees_with_ndarray_npy::<f32>(&format!("le_f4_{order}"));
        agrees_with_ndarray_npy::<f32>(&format!("be_f4_{order}"));
        agrees_with_ndarray_npy::<u64>(&format!("be_u8_{order}"));
        agrees_with_ndarray_npy::<u64>(&format!("le_u8_{order}"));
        agrees_with_ndarray_npy::<u32>(&format!("le_u4_{order}"));
        agrees_with_ndarray_npy::<u16>(&format!("le_u2_{order}"));
        agrees_with_ndarray_npy::<i16>(&format!("le_i2_{order}"));
        agrees_with_ndarray_npy::<i64>(&format!("le_i8_{order}"));
        agrees_with_ndarray_npy::<u8>(&format!("u1_{order}"));
        agrees_with_ndarray_npy::<i8>(&format!("i1_{order}"));
        agrees_with_ndarray_npy::<bool>(&format!("bool_{order}"));
        agrees_with_ndarray_npy::<Complex<f64>>(&format!("c16_{order}"));
        agrees_with_ndarray_npy::<Complex<f32>>(&format!("c8_be_{order}"));
        agrees_with_ndarray_npy::<f32>(&format!("points_n3_{order}"));
    }
    for name in ["zero_d", "empty_0_5", "empty_5_0", "empty_12345678_0"] {
        agrees_with_ndarray_npy::<f64>(name);
    }
}

#[test]
fn a_fortran_file_becomes_fortran_strides_without_a_copy() {
    let nd: NdArray<f64> = npy_serde::from_slice(&fixture("f8_3d_F_le")).unwrap();
    let data = nd.data().as_ptr();
    let a: Array3<f64> = nd.into_ndarray().unwrap();
    assert_eq!(a.as_ptr(), data);
    assert_eq!(a.strides(), &[1, 2, 6]);
    let c: NdArray<f64> = npy_serde::from_slice(&fixture("f8_3d_C_le")).unwrap();
    let c: Array3<f64> = c.into_ndarray().unwrap();
    assert_eq!(c.strides(), &[12, 4, 1]);
    assert_eq!(a, c);
}

#[test]
fn the_dimension_count_is_checked() {
    let nd: NdArray<f64> = npy_serde::from_slice(&fixture("f8_3d_C_le")).unwrap();
    let err = nd.clone().into_ndarray::<Ix2>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected a 2-d array for ndarray's Array2, found a 3-d array of shape (2, 3, 4)"
    );
    assert!(matches!(err.kind(), npy_serde::ErrorKind::Mismatch(_)));
    let zero: NdArray<f64> = npy_serde::from_slice(&fixture("zero_d")).unwrap();
    assert_eq!(
        zero.clone()
            .into_ndarray::<ndarray::Ix1>()
            .unwrap_err()
            .to_string(),
        "expected a 1-d array for ndarray's Array1, found a 0-d array of shape ()"
    );
    let a: ndarray::Array0<f64> = zero.into_ndarray().unwrap();
    assert_eq!(a.shape(), &[] as &[usize]);
    // a view likewise
    let err = nd.view().to_ndarray_view::<ndarray::Ix4>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected a 4-d array for ndarray's Array4, found a 3-d array of shape (2, 3, 4)"
    );
}

#[test]
fn arrays_become_nd_arrays_in_their_own_layout_without_a_copy() {
    let c = Array3::from_shape_fn((2, 3, 4), |(i, j, k)| (i * 100 + j * 10 + k) as u32);
    let f = Array3::from_shape_fn((2, 3, 4).f(), |(i, j, k)| (i * 100 + j * 10 + k) as u32);
    let (pc, pf) = (c.as_ptr(), f.as_ptr());
    let nc = NdArray::from(c.clone());
    let nf = NdArray::from(f.clone());
    assert_eq!((nc.shape(), nc.order()), (&[2, 3, 4][..], Order::C));
    assert_eq!((nf.shape(), nf.order()), (&[2, 3, 4][..], Order::Fortran));
    assert_eq!(nc, nf);
    assert_eq!(nc.data(), c.as_slice().unwrap());
    assert_eq!(nf.data(), f.as_slice_memory_order().unwrap());
    // moved: the same allocation (clones above, so compare with fresh moves)
    assert_eq!(NdArray::from(c).data().as_ptr(), pc);
    assert_eq!(NdArray::from(f).data().as_ptr(), pf);
    // and back, both layouts, values and strides
    let back: Array3<u32> = nf.into_ndarray().unwrap();
    assert_eq!(back.strides(), &[1, 2, 6]);
    let back_c: Array3<u32> = nc.into_ndarray().unwrap();
    assert_eq!(back, back_c);
}

#[test]
fn other_strides_are_moved_into_c_order() {
    // every other column, in place (the allocation keeps the others)
    let mut a = Array2::from_shape_fn((3, 4), |(i, j)| format!("{i}{j}"));
    a.slice_collapse(s![.., ..;2]);
    let n = NdArray::from(a);
    assert_eq!(n.shape(), &[3, 2]);
    assert_eq!(n.order(), Order::C);
    assert_eq!(n.data(), ["00", "02", "10", "12", "20", "22"]);
    // permuted axes of a 3-d array: neither C nor Fortran
    let p =
        Array3::from_shape_fn((2, 3, 4), |(i, j, k)| i * 100 + j * 10 + k).permuted_axes([1, 0, 2]);
    assert!(!p.is_standard_layout() && !p.t().is_standard_layout());
    let want: Vec<usize> = p.iter().copied().collect();
    let n = NdArray::from(p);
    assert_eq!((n.shape(), n.order()), (&[3, 2, 4][..], Order::C));
    assert_eq!(n.data(), want);
    // a contiguous part of a larger allocation (rows 1..): only those elements
    let mut r = Array2::from_shape_fn((4, 2), |(i, j)| i * 10 + j);
    r.slice_collapse(s![1..3, ..]);
    assert_eq!(NdArray::from(r).data(), [10, 11, 20, 21]);
    // a Fortran array sliced in place keeps its layout
    let mut f = Array2::from_shape_fn((4, 3).f(), |(i, j)| i * 10 + j);
    f.slice_collapse(s![.., 1..]);
    let n = NdArray::from(f);
    assert_eq!(
        (n.order(), n.data()),
        (Order::Fortran, &[1, 11, 21, 31, 2, 12, 22, 32][..])
    );
}

#[test]
fn empty_and_zero_d_arrays_keep_their_shape() {
    let e = Array2::<f64>::zeros((0, 5));
    let n = NdArray::from(e);
    assert_eq!((n.shape(), n.len()), (&[0, 5][..], 0));
    let back: Array2<f64> = n.into_ndarray().unwrap();
    assert_eq!(back.shape(), &[0, 5]);
    let z = NdArray::from(ndarray::arr0(2.5f32));
    assert_eq!((z.shape(), z.data()), (&[][..], &[2.5][..]));
    let big = Array2::<u8>::zeros((12_345_678, 0));
    assert_eq!(NdArray::from(big).shape(), &[12_345_678, 0]);
}

#[test]
fn views_borrow_standard_and_fortran_layouts_and_refuse_others() {
    let a = Array2::from_shape_fn((3, 4), |(i, j)| (i * 4 + j) as f32);
    let v = NdView::try_from(a.view()).unwrap();
    assert_eq!((v.shape(), v.order()), (&[3, 4][..], Order::C));
    assert_eq!(v.data().as_ptr(), a.as_ptr());
    let t = NdView::try_from(a.t()).unwrap();
    assert_eq!((t.shape(), t.order()), (&[4, 3][..], Order::Fortran));
    assert_eq!(t.data().as_ptr(), a.as_ptr());
    // the borrowed data goes back to ndarray as the same view
    assert_eq!(t.to_ndarray_view::<Ix2>().unwrap(), a.t());
    assert_eq!(v.to_ndarray_view::<IxDyn>().unwrap(), a.view().into_dyn());
    // a column (stride 4) and a reversed axis are refused with the hint
    let err = NdView::try_from(a.column(1)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "an ndarray view of shape (3,) with strides (4,) is neither in standard (C) nor in \
         Fortran layout: copy it with as_standard_layout() first"
    );
    let rev = a.slice(s![..;-1, ..]);
    assert!(NdView::try_from(rev).is_err());
    // ... and as_standard_layout() is the way through
    let copy = rev.as_standard_layout();
    let ok = NdView::try_from(copy.view()).unwrap();
    assert_eq!(ok.data()[..4], [8.0, 9.0, 10.0, 11.0]);
    // a row of a C array, a column of a Fortran one: contiguous, taken
    assert_eq!(
        NdView::try_from(a.row(2)).unwrap().data(),
        [8.0, 9.0, 10.0, 11.0]
    );
    let f = Array2::from_shape_fn((3, 4).f(), |(i, j)| (i * 4 + j) as f32);
    assert_eq!(
        NdView::try_from(f.column(1)).unwrap().data(),
        [1.0, 5.0, 9.0]
    );
    assert!(NdView::try_from(f.row(1)).is_err());
}

#[derive(Deserialize)]
struct Scene {
    #[serde(deserialize_with = "npy_serde::ndarray::deserialize")]
    image: Array2<f32>,
    #[serde(deserialize_with = "npy_serde::ndarray::deserialize")]
    cube: ArrayD<i32>,
    #[serde(deserialize_with = "npy_serde::ndarray::deserialize")]
    ids: Array1<i32>,
}

/// An archive holding numpy's files as members, written by hand (stored).
fn npz_of(members: &[(&str, &str)]) -> Vec<u8> {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (member, file) in members {
        zip.start_file(format!("{member}.npy"), opts).unwrap();
        zip.write_all(&fixture(file)).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// ndarray-npy's read of a fixture.
fn theirs<T: ReadableElement, D: ndarray::Dimension>(name: &str) -> Array<T, D> {
    Array::<T, D>::read_npy(&fixture(name)[..]).unwrap()
}

#[test]
fn npz_struct_fields_read_as_arrays() {
    let npz = npz_of(&[
        ("image", "be_f4_F"),
        ("cube", "i4_3d_F_be"),
        ("ids", "i4_1d_C_le"),
    ]);
    let scene: Scene = npy_serde::npz::from_reader(Cursor::new(&npz)).unwrap();
    assert_eq!(scene.image, theirs::<f32, Ix2>("be_f4_F"));
    assert!(scene.image.t().is_standard_layout());
    assert_eq!(scene.cube, theirs::<i32, IxDyn>("i4_3d_F_be"));
    assert_eq!(scene.ids, theirs::<i32, ndarray::Ix1>("i4_1d_C_le"));
    // a 2-d member for a 1-d field: the error names the member and both shapes
    let bad = npz_of(&[
        ("image", "be_f4_F"),
        ("cube", "i4_3d_F_be"),
        ("ids", "i4_2d_C_le"),
    ]);
    let err = match npy_serde::npz::from_reader::<Scene>(Cursor::new(&bad)) {
        Ok(s) => panic!("read a (3, 4) member as Array1: {:?}", s.ids),
        Err(e) => e,
    };
    assert!(
        err.to_string().contains(
            "expected a 1-d array for ndarray's Array1, found a 2-d array of shape (3, 4)"
        ),
        "{err}"
    );
    assert!(err.to_string().contains("ids"), "{err}");
}
