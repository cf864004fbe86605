use super::*;
use serde::Serialize;

fn two_pass<T: ?Sized + Serialize>(v: &T, opts: &WriteOptions) -> Vec<u8> {
    let plan = plan(&v, opts).unwrap();
    let header = header_for(&plan, opts);
    opts.encode_vec(&Val(v), &plan, &header).unwrap()
}

#[track_caller]
fn check<T: ?Sized + Serialize>(v: &T, uniform: bool) {
    for opts in [WriteOptions::new(), WriteOptions::new().align(true)] {
        let one = one_pass(&Val(v), &opts);
        assert_eq!(one.is_some(), uniform);
        if let Some(bytes) = one {
            assert_eq!(bytes, two_pass(v, &opts));
        }
    }
}

#[derive(Serialize)]
struct P {
    id: u64,
    pos: [f64; 3],
    vel: [f32; 3],
    mass: f32,
    charge: i8,
}

#[test]
fn uniform_values_take_one_pass() {
    let ps: Vec<P> = (0..5)
        .map(|i| P {
            id: i,
            pos: [1.0; 3],
            vel: [2.0; 3],
            mass: 0.5,
            charge: -1,
        })
        .collect();
    check(&ps, true);
    check(&vec![[1.0f64, 2.0], [3.0, 4.0]], true);
    check(&vec![vec![1u8, 2], vec![3, 4]], true);
    check(&vec!["abc", "a"], true);
    check(&3.5f64, true);
    check(&(1u8, 2.0f32), true);
    check(&vec![(1u8, "x"), (2, "y")], true);
}

/// With a given dtype the one pass converts as the exact passes do and
/// gives their bytes; what it cannot take (bytes given as integer
/// sequences, complex numbers as nested `Vec`s, a value that does not
/// convert) takes the exact passes.
#[test]
fn given_dtypes_take_one_pass() {
    #[track_caller]
    fn given<T: ?Sized + Serialize>(v: &T, descr: &str, uniform: bool) {
        let opts = WriteOptions::new().dtype(descr.parse().unwrap());
        let one = one_pass(&Val(v), &opts);
        assert_eq!(one.is_some(), uniform, "{descr}");
        if let Some(bytes) = one {
            assert_eq!(bytes, two_pass(v, &opts), "{descr}");
        }
    }
    given(&vec![1.0f64, 2.0], ">f8", true);
    given(&vec![1i32, -2], "<f4", true);
    given(&vec![vec![1u8, 2], vec![3, 4]], "<i8", true);
    // a fixed-size array is one element to the pass, axes to the plan
    given(&vec![[1u8, 2], [3, 4]], "<i8", false);
    given(&vec![[1.0f64, 2.0]], "<c16", true);
    given(&vec![vec![1.0f64, 2.0]], "<c16", false);
    given(&vec![vec![1u8, 2, 3]], "|S3", false);
    given(&vec!["ab", "c"], "<U4", true);
    #[derive(Serialize)]
    struct Ab {
        b: f64,
        a: u8,
    }
    given(
        &vec![Ab { a: 1, b: 2.5 }],
        "[('a', '<i2'), ('b', '>f4')]",
        true,
    );
    given(&vec![[1.0f32; 3]; 2], "('<f8', (3,))", true);
    given(&vec![70000i32], "<i2", false);
}

/// An n-d array's flat data is the outer axes of the one pass, in its
/// own order; what the pass cannot write as numpy does (complex pairs,
/// a Fortran array of elements with axes of their own, no elements)
/// takes the exact passes, with the same bytes.
#[test]
fn nd_arrays_take_one_pass() {
    use crate::NdArray;
    let data: Vec<f64> = (0..24).map(f64::from).collect();
    let c = NdArray::from_shape_vec(vec![2, 3, 4], data.clone()).unwrap();
    let f = NdArray::from_shape_vec_fortran(vec![2, 3, 4], data).unwrap();
    check(&c, true);
    check(&f, true);
    check(&NdArray::from_shape_vec(vec![], vec![7u8]).unwrap(), true);
    let words = vec!["ab".to_string(), "cd".into(), "".into(), "ef".into()];
    check(
        &NdArray::from_shape_vec_fortran(vec![2, 2], words).unwrap(),
        true,
    );
    // wider than the first: the exact passes widen the strings
    let words = vec!["a".to_string(), "bcd".into(), "".into(), "ef".into()];
    check(
        &NdArray::from_shape_vec_fortran(vec![2, 2], words).unwrap(),
        false,
    );
    let points = vec![[1.0f32, 2.0, 3.0]; 4];
    check(
        &NdArray::from_shape_vec(vec![2, 2], points.clone()).unwrap(),
        true,
    );
    check(
        &NdArray::from_shape_vec_fortran(vec![2, 2], points).unwrap(),
        false,
    );
    let z = vec![num_complex::Complex::new(1.0f64, 2.0); 6];
    check(
        &NdArray::from_shape_vec_fortran(vec![2, 3], z).unwrap(),
        false,
    );
    check(
        &NdArray::<i16>::from_shape_vec(vec![0, 3], vec![]).unwrap(),
        false,
    );
}

/// `to_writer` writes a non-empty n-d array of real numbers or booleans
/// in its own type and layout in one walk, nothing checked first (it
/// cannot fail): the same bytes as the exact passes.
#[test]
fn plain_nd_arrays_are_written_unchecked() {
    use crate::NdArray;
    use crate::ser::probe::top;
    #[track_caller]
    fn unchecked<T: Serialize + 'static + Clone>(data: Vec<T>, shape: Vec<usize>, want: bool) {
        let arrays = [
            NdArray::from_shape_vec(shape.clone(), data.clone()).unwrap(),
            NdArray::from_shape_vec_fortran(shape, data).unwrap(),
        ];
        for a in &arrays {
            let nd = top(a).unwrap();
            assert_eq!(nd.plain() && nd.count() != Some(0), want);
            let mut out = Vec::new();
            to_writer(&mut out, a).unwrap();
            assert_eq!(out, two_pass(a, &WriteOptions::new()));
            assert_eq!(out, to_vec(a).unwrap());
        }
    }
    let xs: Vec<f64> = (0..24).map(f64::from).collect();
    unchecked(xs.clone(), vec![2, 3, 4], true);
    unchecked(
        vec![true, false, true, true, false, false],
        vec![3, 2],
        true,
    );
    unchecked(vec![-3i8, 4, 5, 6], vec![2, 2], true);
    unchecked(vec![7u64], vec![], true);
    unchecked(vec![1.5f32; 6], vec![6], true);
    unchecked(Vec::<u16>::new(), vec![0, 3], false);
    unchecked(
        vec![num_complex::Complex::new(1.0f64, 2.0); 6],
        vec![2, 3],
        false,
    );
    unchecked(vec!["ab".to_string(); 4], vec![2, 2], false);
    unchecked(vec![[1.0f32, 2.0, 3.0]; 4], vec![2, 2], false);
}

/// An `NdArray` of plain or complex numbers in its own type and layout
/// is written from the bytes it offers, nothing walked; anything else,
/// or another dtype or layout asked for, is not, and nothing is written
/// then. A view's numbers are copied into bytes, then written as one
/// block too. Human-readable serializers still see the elements.
#[test]
fn nd_arrays_offer_their_bytes() {
    use crate::{NdArray, NdView, Order};
    #[track_caller]
    fn raw<T: Serialize + ?Sized>(v: &T, opts: &WriteOptions) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        let written = raw_nd(&mut out, &crate::ser::spec::Val(v), opts).unwrap();
        assert_eq!(written, !out.is_empty());
        written.then_some(out)
    }
    #[track_caller]
    fn offers<T: Serialize + 'static + Clone>(data: Vec<T>, shape: Vec<usize>) {
        for a in [
            NdArray::from_shape_vec(shape.clone(), data.clone()).unwrap(),
            NdArray::from_shape_vec_fortran(shape.clone(), data.clone()).unwrap(),
        ] {
            for opts in [WriteOptions::new(), WriteOptions::new().version(3, 0)] {
                let bytes = raw(&a, &opts).expect("written from its bytes");
                assert_eq!(bytes, two_pass(&a, &opts));
                assert_eq!(raw(&Some(&a), &opts), Some(bytes));
            }
            let other = WriteOptions::new().fortran_order(a.order() == Order::C);
            assert_eq!(raw(&a, &other), None);
            let given = WriteOptions::new().dtype(">f8".parse().unwrap());
            assert_eq!(raw(&a, &given), None);
            let view = NdView::new(shape.clone(), a.order(), a.data()).unwrap();
            assert_eq!(
                raw(&view, &WriteOptions::new()),
                raw(&a, &WriteOptions::new())
            );
            assert_eq!(to_vec(&view).unwrap(), to_vec(&a).unwrap());
        }
    }
    offers((0..24).map(f64::from).collect(), vec![2, 3, 4]);
    offers(vec![true, false, true, true, false, false], vec![3, 2]);
    offers(vec![-3i8, 4, 5, 6], vec![2, 2]);
    offers(vec![7u64], vec![]);
    // every type the array's name carries a code for (number::nd_name)
    offers(vec![-1i16, 2, 3], vec![3]);
    offers(vec![-1i32, 2], vec![1, 2]);
    offers(vec![-1i64, 2], vec![2, 1]);
    offers(vec![1u8, 2, 3, 4], vec![2, 2]);
    offers(vec![1u32, 2], vec![2]);
    #[cfg(feature = "half")]
    offers(vec![half::f16::from_f32(1.5); 4], vec![2, 2]);
    offers(vec![1.5f32; 6], vec![6]);
    offers(Vec::<u16>::new(), vec![0, 3]);
    offers(vec![num_complex::Complex::new(1.0f64, 2.0); 6], vec![2, 3]);
    offers(vec![num_complex::Complex::new(1.0f32, -2.0); 2], vec![2, 1]);
    let strings = NdArray::from_shape_vec(vec![2], vec!["a".to_string(), "b".into()]);
    assert_eq!(raw(&strings.unwrap(), &WriteOptions::new()), None);
    let rows = NdArray::from_shape_vec(vec![2], vec![[1.0f32, 2.0, 3.0]; 2]).unwrap();
    assert_eq!(raw(&rows, &WriteOptions::new()), None);
    assert_eq!(raw(&vec![1.0f64, 2.0], &WriteOptions::new()), None);
    // no request outlives the write
    let m = NdArray::from_shape_vec(vec![2], vec![1u8, 2]).unwrap();
    assert!(raw(&m, &WriteOptions::new()).is_some());
    assert_eq!(
        serde_json::to_string(&m).unwrap(),
        r#"{"shape":[2],"order":"C","data":[1,2]}"#
    );
    /// The n-d array's name over something that is not its parts.
    struct Impostor;
    impl Serialize for Impostor {
        fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            s.serialize_newtype_struct(crate::kinds::number::nd_name::<u8>(), &1u8)
        }
    }
    assert_eq!(raw(&Impostor, &WriteOptions::new()), None);
    assert_eq!(
        serde_json::to_string(&m).unwrap(),
        r#"{"shape":[2],"order":"C","data":[1,2]}"#
    );
}

/// Zero-size elements stay in the speculative pass's per-element path
/// (their count is not bounded by output bytes): same bytes, one pass.
#[test]
fn zero_size_elements_take_one_pass() {
    #[derive(Serialize)]
    struct Unit;
    #[derive(Serialize, Clone)]
    struct Empty {}
    check(&vec![(); 1000], true);
    check(&vec![Unit, Unit, Unit], true);
    check(&vec![vec![Empty {}, Empty {}]; 3], true);
    let bytes = to_vec(&vec![(); 1000]).unwrap();
    assert!(String::from_utf8_lossy(&bytes).contains("'shape': (1000,)"));
}

#[test]
fn other_values_take_two_passes() {
    check(&vec!["a", "abc"], false); // wider later
    #[derive(Serialize)]
    #[serde(untagged)]
    enum E {
        I(i32),
        L(i64),
    }
    // the dtype is '<i8' only with all values seen; strict mode refuses i32
    assert!(one_pass(&Val(&vec![E::I(1), E::L(2)]), &WriteOptions::new()).is_none());
    #[derive(Serialize)]
    struct Ab {
        a: u8,
        b: u8,
    }
    #[derive(Serialize)]
    struct Ba {
        b: u8,
        a: u8,
    }
    #[derive(Serialize)]
    #[serde(untagged)]
    enum O {
        Ab(Ab),
        Ba(Ba),
    }
    // fields in another order: two passes, which refuse it
    let v = vec![O::Ab(Ab { a: 1, b: 2 }), O::Ba(Ba { b: 3, a: 4 })];
    assert!(one_pass(&Val(&v), &WriteOptions::new()).is_none());
    assert!(WriteOptions::new().to_vec(&v).is_err());
}

#[test]
fn fallback_gives_errors_and_widths() {
    let opts = WriteOptions::new();
    assert!(one_pass(&Val(&vec![vec![1u8], vec![2, 3]]), &opts).is_none());
    assert!(opts.to_vec(&vec![vec![1u8], vec![2, 3]]).is_err());
    assert!(one_pass(&Val(&Vec::<f64>::new()), &opts).is_none());
}
