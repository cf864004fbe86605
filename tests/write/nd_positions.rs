//! Where an element of an n-d array fails when written: its position on
//! each axis in C index order (`element [3, 17]`, `record [1, 2]` when it
//! is a record), whatever the order of its data; a 1-d array keeps
//! `record N`, the one element of a 0-d array has no position.

use npy_serde::{NdArray, WriteOptions};
use serde::Serialize;

macro_rules! snap {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        });
    };
}

/// `0..n` with 300 at the C-order index `at`, its data laid out
/// column-major when `fortran`.
fn ints(shape: &[usize], at: &[usize], fortran: bool) -> NdArray<i64> {
    let n: usize = shape.iter().product();
    let flat = |idx: &[usize]| idx.iter().zip(shape).fold(0, |k, (&i, &d)| k * d + i);
    let value = |c: usize| if c == flat(at) { 300 } else { (c % 100) as i64 };
    if !fortran {
        return NdArray::from_shape_vec(shape.to_vec(), (0..n).map(value).collect()).unwrap();
    }
    let data = (0..n)
        .map(|k| {
            let mut rest = k;
            let idx: Vec<usize> = shape
                .iter()
                .map(|&d| {
                    let i = rest % d;
                    rest /= d;
                    i
                })
                .collect();
            value(flat(&idx))
        })
        .collect();
    NdArray::from_shape_vec_fortran(shape.to_vec(), data).unwrap()
}

#[derive(Serialize, Clone)]
struct Rec {
    id: u32,
    name: String,
}

/// Records whose `name` ends in NUL (refused) at C-order index `at`.
fn records(shape: &[usize], at: usize) -> NdArray<Rec> {
    let n: usize = shape.iter().product();
    let data = (0..n)
        .map(|i| Rec {
            id: i as u32,
            name: if i == at { "bad\0".into() } else { "ok".into() },
        })
        .collect();
    NdArray::from_shape_vec(shape.to_vec(), data).unwrap()
}

/// The message of writing `value` with `opts`, by `to_vec` and by
/// `to_writer` (which must agree).
fn both<T: Serialize + ?Sized>(opts: &WriteOptions, value: &T) -> String {
    let a = opts.to_vec(value).unwrap_err().to_string();
    let b = opts.to_writer(Vec::new(), value).unwrap_err().to_string();
    assert_eq!(a, b, "to_vec and to_writer differ");
    a
}

#[test]
fn nd_writes_name_the_element_by_its_indices() {
    let i1 = WriteOptions::new().dtype("|i1".parse().unwrap());
    let plain = WriteOptions::new();
    let zero_d = NdArray::from_shape_vec(vec![], vec![300i64]).unwrap();
    #[derive(Serialize)]
    struct Scene {
        recs: NdArray<Rec>,
    }
    let lines = [
        ("2-d, C order", both(&i1, &ints(&[4, 20], &[3, 17], false))),
        (
            "2-d, Fortran order",
            both(&i1, &ints(&[4, 20], &[3, 17], true)),
        ),
        (
            "3-d, Fortran order",
            both(&i1, &ints(&[2, 3, 4], &[1, 2, 3], true)),
        ),
        ("2-d records", both(&plain, &records(&[3, 4], 6))),
        ("1-d", both(&i1, &ints(&[20], &[17], false))),
        ("1-d records", both(&plain, &records(&[5], 3))),
        ("0-d", both(&i1, &zero_d)),
        (
            "2-d records as a record's field",
            both(
                &plain,
                &[
                    Scene {
                        recs: records(&[2, 3], 9),
                    },
                    Scene {
                        recs: records(&[2, 3], 5),
                    },
                ],
            ),
        ),
    ];
    let text: Vec<String> = lines.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    snap!("nd_positions_write", text.join("\n"));
}
