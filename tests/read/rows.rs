//! Row ranges of numpy-made files (tests/data/rows, made by make.py):
//! `from_slice_rows`, `NpyReader::rows` and `view_rows` of `a..b` read
//! what `from_slice` and `view` read from numpy's `np.save` of
//! `np.load(path, mmap_mode='r')[a:b]`, for every fixture and range in
//! cases.json (1-d, 2-d, 3-d, both byte orders, records with a subarray
//! field, strings, empty axes, a 1-d file marked Fortran order), into
//! `serde_json::Value` and into typed targets. Refusals (Fortran order in
//! two dimensions, 0-d, ranges outside the first axis, limits, files cut
//! short) in snapshot `rows_refusals`.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::io::Cursor;

use npy_serde::view::ViewElement;
use npy_serde::{NdView, NpyReader, ReadOptions, from_slice, from_slice_rows, view, view_rows};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use tests::Aligned;

fn file(name: &str) -> Vec<u8> {
    let path = format!("{}/data/rows/{name}.npy", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every (fixture, a, b) of cases.json.
fn cases() -> Vec<(String, u64, u64)> {
    let path = format!("{}/data/rows/cases.json", env!("CARGO_MANIFEST_DIR"));
    let map: BTreeMap<String, Vec<(u64, u64)>> =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let out: Vec<_> = map
        .into_iter()
        .flat_map(|(name, ranges)| ranges.into_iter().map(move |(a, b)| (name.clone(), a, b)))
        .collect();
    assert!(out.len() >= 30, "{out:?}");
    out
}

macro_rules! snap {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        });
    };
}

#[derive(Deserialize, Debug, PartialEq)]
struct Rec {
    id: u16,
    pos: [f32; 2],
    big: i64,
    tag: String,
}

/// Rows `a..b` of `whole` read into `T` both ways equal `expected` (numpy's
/// file of `arr[a:b]`) read whole into `T`.
fn same<T: DeserializeOwned + PartialEq + Debug>(
    what: &str,
    whole: &[u8],
    a: u64,
    b: u64,
    expected: &[u8],
) {
    let want: T = from_slice(expected).unwrap_or_else(|e| panic!("{what}: {e}"));
    let got: T = from_slice_rows(whole, a..b).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(got, want, "{what}: from_slice_rows");
    let mut r = NpyReader::new(Cursor::new(whole)).unwrap();
    let got: T = r.rows(a..b).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(got, want, "{what}: NpyReader::rows");
}

/// [`same`] into the fixture's natural typed target.
fn typed(name: &str, whole: &[u8], a: u64, b: u64, expected: &[u8]) {
    let what = format!("{name} {a}..{b}");
    match name {
        "f8_1d" | "f8_1d_fortran" => same::<Vec<f64>>(&what, whole, a, b, expected),
        "i4_be_2d" => same::<Vec<[i32; 2]>>(&what, whole, a, b, expected),
        "f8_3d" => same::<Vec<[[f64; 2]; 3]>>(&what, whole, a, b, expected),
        "records" => same::<Vec<Rec>>(&what, whole, a, b, expected),
        "u3_1d" => same::<Vec<String>>(&what, whole, a, b, expected),
        "empty_0x3" => same::<Vec<[f64; 3]>>(&what, whole, a, b, expected),
        "u1_4x0" => same::<Vec<Vec<u8>>>(&what, whole, a, b, expected),
        other => panic!("no typed target for {other}"),
    }
}

#[test]
fn rows_equal_numpys_slices() {
    for (name, a, b) in cases() {
        let whole = file(&name);
        let expected = file(&format!("{name}_{a}_{b}"));
        let what = format!("{name} {a}..{b}");
        let want: Value = from_slice(&expected).unwrap();
        let got: Value = from_slice_rows(&whole, a..b).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(got, want, "{what}");
        let mut r = NpyReader::new(Cursor::new(&whole[..])).unwrap();
        assert_eq!(r.rows::<Value>(a..b).unwrap(), want, "{what}");
        typed(&name, &whole, a, b, &expected);
    }
}

/// The view of rows `a..b`, or its error, as text.
fn shown<T: ViewElement + Debug>(v: npy_serde::Result<NdView<'_, T>>) -> String {
    match v {
        Ok(v) => format!("{:?} {:?} {:?}", v.shape(), v.order(), v.data()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn views_of_rows_equal_views_of_numpys_slices() {
    let mut viewed = 0;
    for (name, a, b) in cases() {
        let whole = Aligned::new(&file(&name), 0);
        let expected = Aligned::new(&file(&format!("{name}_{a}_{b}")), 0);
        let (w, e) = (whole.bytes(), expected.bytes());
        let what = format!("{name} {a}..{b}");
        let f64s = shown(view::<f64>(e));
        assert_eq!(shown(view_rows::<f64>(w, a..b)), f64s, "{what}");
        assert_eq!(
            shown(view_rows::<i32>(w, a..b)),
            shown(view::<i32>(e)),
            "{what}"
        );
        assert_eq!(
            shown(view_rows::<u8>(w, a..b)),
            shown(view::<u8>(e)),
            "{what}"
        );
        viewed += usize::from(view::<f64>(e).is_ok());
    }
    assert!(viewed >= 10, "{viewed}");
}

#[test]
fn the_reader_goes_on_after_the_rows() {
    let whole = file("i4_be_2d");
    let mut r = NpyReader::new(Cursor::new(&whole[..])).unwrap();
    let mid: Vec<[i32; 2]> = r.rows(2..4).unwrap();
    assert_eq!(mid, [[-1, 0], [1, 2]]);
    let rest: Vec<[i32; 2]> = r.deserialize().collect::<Result<_, _>>().unwrap();
    assert_eq!(rest, [[3, 4], [5, 6]]);
    // and back
    let first: Vec<[i32; 2]> = r.rows(0..1).unwrap();
    assert_eq!(first, [[-5, -4]]);
}

#[test]
fn rows_refusals() {
    let hundred = npy_serde::to_vec(&(0..100i64).collect::<Vec<_>>()).unwrap();
    let fortran = file("f4_2d_fortran");
    let zero_d = file("zero_d");
    let f8 = file("f8_1d");
    let cut = &f8[..f8.len() - 1];
    let mut lines = Vec::new();
    let mut case = |what: &str, bytes: &[u8], range: std::ops::Range<u64>| {
        let a = from_slice_rows::<Value>(bytes, range.clone()).unwrap_err();
        let aligned = Aligned::new(bytes, 0);
        let v = view_rows::<f64>(aligned.bytes(), range.clone()).map(|_| ());
        let r = NpyReader::new(Cursor::new(bytes)).and_then(|mut r| r.rows::<Value>(range.clone()));
        lines.push(format!("{what} {range:?}:\n  from_slice_rows: {a}"));
        match v {
            Ok(()) => lines.push("  view_rows: ok".to_owned()),
            Err(e) => lines.push(format!("  view_rows: {e}")),
        }
        match r {
            Ok(_) => lines.push("  NpyReader::rows: ok".to_owned()),
            Err(e) => lines.push(format!("  NpyReader::rows: {e}")),
        }
    };
    case("(100,) '<i8'", &hundred, 90..120);
    case("(100,) '<i8'", &hundred, 101..101);
    case(
        "(100,) '<i8'",
        &hundred,
        std::ops::Range { start: 30, end: 20 },
    );
    case("Fortran (2, 3)", &fortran, 0..1);
    case("Fortran (2, 3)", &fortran, 0..0);
    case("0-d", &zero_d, 0..1);
    case("0-d", &zero_d, 0..0);
    case("(10,) '<f8' cut by a byte", cut, 9..10);
    snap!("rows_refusals", lines.join("\n"));
}

#[test]
fn limits_apply_to_the_rows() {
    let hundred = npy_serde::to_vec(&(0..100i64).collect::<Vec<_>>()).unwrap();
    let opts = ReadOptions::new().max_elements(10);
    assert!(opts.from_slice::<Vec<i64>>(&hundred).is_err());
    assert_eq!(
        opts.from_slice_rows::<Vec<i64>>(&hundred, 90..100).unwrap(),
        (90..100).collect::<Vec<_>>()
    );
    let err = opts
        .from_slice_rows::<Vec<i64>>(&hundred, 0..11)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "limit exceeded: shape (11,) has 11 elements, more than max_elements 10; raise it \
         with ReadOptions::max_elements(11)"
    );
    // max_bytes: 8 bytes of data a row
    let opts = ReadOptions::new().max_bytes(80);
    assert!(opts.from_slice_rows::<Vec<i64>>(&hundred, 0..10).is_ok());
    assert!(opts.from_slice_rows::<Vec<i64>>(&hundred, 0..11).is_err());
}
