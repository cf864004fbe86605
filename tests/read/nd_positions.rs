//! Where an element of an n-d array fails, read into `NdArray<T>`: its
//! position on each axis in C index order (`element [3, 17]`, `record [1,
//! 2]` for records), whatever the file's order and whether it is read from
//! a slice or a stream; a 1-d array keeps `record N`, the one element of a
//! 0-d array has no position.

use npy_serde::{NdArray, Segment};
use serde::{Deserialize, Serialize};

macro_rules! snap {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        });
    };
}

/// `0..n` as i64 with 300 (too big for `u8`) at the C-order index `at`,
/// laid out in `fortran` order or not.
fn ints(shape: &[usize], at: &[usize], fortran: bool) -> Vec<u8> {
    let n: usize = shape.iter().product();
    let flat_c = at.iter().zip(shape).fold(0, |k, (&i, &d)| k * d + i);
    let mut c: Vec<i64> = (0..n as i64).map(|v| v % 100).collect();
    c[flat_c] = 300;
    let a = NdArray::from_shape_vec(shape.to_vec(), c).unwrap();
    let a = if fortran { to_fortran(a) } else { a };
    npy_serde::to_vec(&a).unwrap()
}

/// The same array with its data laid out column-major.
fn to_fortran<T: Clone>(a: NdArray<T>) -> NdArray<T> {
    let shape = a.shape().to_vec();
    let c = a.into_vec();
    let n = c.len();
    let mut f = Vec::with_capacity(n);
    for k in 0..n {
        // the C index of the element at Fortran position k
        let mut rest = k;
        let mut idx = vec![0; shape.len()];
        for (ax, &d) in shape.iter().enumerate() {
            idx[ax] = rest % d;
            rest /= d;
        }
        let c_at = idx.iter().zip(&shape).fold(0, |acc, (&i, &d)| acc * d + i);
        f.push(c[c_at].clone());
    }
    NdArray::from_shape_vec_fortran(shape, f).unwrap()
}

/// The message of reading `bytes` as `T`, from a slice and from a reader
/// (which must agree).
fn both<T: serde::de::DeserializeOwned + std::fmt::Debug>(bytes: &[u8]) -> String {
    let a = npy_serde::from_slice::<T>(bytes).unwrap_err().to_string();
    let b = npy_serde::from_reader::<T>(bytes).unwrap_err().to_string();
    assert_eq!(a, b, "from_slice and from_reader differ");
    a
}

#[derive(Serialize, Clone)]
struct Rec {
    id: u32,
    x: i64,
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct RecU8 {
    id: u32,
    x: u8,
}

fn records(shape: &[usize], at: usize, fortran: bool) -> Vec<u8> {
    let n: usize = shape.iter().product();
    let c: Vec<Rec> = (0..n)
        .map(|i| Rec {
            id: i as u32,
            x: if i == at { 300 } else { 1 },
        })
        .collect();
    let a = NdArray::from_shape_vec(shape.to_vec(), c).unwrap();
    let a = if fortran { to_fortran(a) } else { a };
    npy_serde::to_vec(&a).unwrap()
}

#[test]
fn nd_reads_name_the_element_by_its_indices() {
    let c = ints(&[4, 20], &[3, 17], false);
    let f = ints(&[4, 20], &[3, 17], true);
    assert!(String::from_utf8_lossy(&f).contains("'fortran_order': True"));
    let lines = [
        ("2-d, C order", both::<NdArray<u8>>(&c)),
        ("2-d, Fortran order", both::<NdArray<u8>>(&f)),
        (
            "3-d, C order",
            both::<NdArray<u8>>(&ints(&[2, 3, 4], &[1, 2, 3], false)),
        ),
        (
            "3-d, Fortran order",
            both::<NdArray<u8>>(&ints(&[2, 3, 4], &[1, 2, 3], true)),
        ),
        (
            "2-d records, C order",
            both::<NdArray<RecU8>>(&records(&[3, 4], 6, false)),
        ),
        (
            "2-d records, Fortran order",
            both::<NdArray<RecU8>>(&records(&[3, 4], 6, true)),
        ),
        (
            "3-d, element absorbs the last axis",
            both::<NdArray<[u8; 4]>>(&ints(&[2, 3, 4], &[1, 2, 3], false)),
        ),
        ("1-d", both::<NdArray<u8>>(&ints(&[20], &[17], false))),
        (
            "1-d records",
            both::<NdArray<RecU8>>(&records(&[5], 3, false)),
        ),
        (
            "0-d",
            both::<NdArray<u8>>(&npy_serde::to_vec(&2.5f64).unwrap()),
        ),
        (
            "0-d, value out of range",
            both::<NdArray<u8>>(&npy_serde::to_vec(&300i64).unwrap()),
        ),
        ("2-d as nested Vecs (unchanged)", both::<Vec<Vec<u8>>>(&c)),
    ];
    let text: Vec<String> = lines.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    snap!("nd_positions_read", text.join("\n"));
    // the position is one segment
    let err = npy_serde::from_slice::<NdArray<u8>>(&f).unwrap_err();
    assert_eq!(
        err.path().collect::<Vec<_>>(),
        [&Segment::At {
            index: vec![3, 17],
            record: false
        }]
    );
    let err =
        npy_serde::from_slice::<NdArray<u8>>(&npy_serde::to_vec(&300i64).unwrap()).unwrap_err();
    assert_eq!(err.path().count(), 0);
}

/// An npz member and the rows `NpyReader` hands out place the element the
/// same way, after the member or row.
#[test]
fn nd_positions_inside_members_and_rows() {
    let c = ints(&[4, 20], &[3, 17], false);
    let mut file = std::io::Cursor::new(Vec::new());
    let mut w = npy_serde::npz::NpzWriter::new(&mut file);
    w.add("img", &npy_serde::from_slice::<NdArray<i64>>(&c).unwrap())
        .unwrap();
    w.finish().unwrap();
    file.set_position(0);
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Scene {
        img: NdArray<u8>,
    }
    let err = npy_serde::npz::from_reader::<Scene>(&mut file).unwrap_err();
    assert_eq!(
        err.to_string(),
        "member 'img', element [3, 17]: expected u8, found integer `300` in '<i8'"
    );
    let three = ints(&[4, 5, 20], &[3, 2, 17], false);
    let mut r = npy_serde::NpyReader::new(&three[..]).unwrap();
    let err = r
        .deserialize::<NdArray<u8>>()
        .find_map(|row| row.err())
        .unwrap();
    assert_eq!(
        err.to_string(),
        "record 3, element [2, 17]: expected u8, found integer `300` in '<i8'"
    );
}
