//! Byte-exact comparisons with files numpy wrote (tests/data/write/make.py)
//! and snapshots of header text and error messages.

use std::collections::BTreeMap;

use npy_serde::{
    ByteOrder, Datetime64, Dtype, Padding, Scalar, ScalarType, Timedelta64, WriteOptions, to_vec,
    unit,
};
use num_complex::Complex;
use serde::{Serialize, Serializer};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/data/write/{name}.npy", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn header_text(bytes: &[u8]) -> String {
    let (start, len) = if bytes[6] == 1 {
        (10, u16::from_le_bytes([bytes[8], bytes[9]]) as usize)
    } else {
        (
            12,
            u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize,
        )
    };
    String::from_utf8_lossy(&bytes[start..start + len])
        .trim_end()
        .to_owned()
}

#[track_caller]
fn same(name: &str, ours: Vec<u8>) {
    let expected = fixture(name);
    if ours != expected {
        panic!(
            "{name}: bytes differ\n ours: {}\nnumpy: {}\n ours data: {:?}\nnumpy data: {:?}",
            header_text(&ours),
            header_text(&expected),
            &ours[ours.len().min(128)..],
            &expected[expected.len().min(128)..]
        );
    }
}

macro_rules! snap {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        });
    };
}

fn sc(ty: ScalarType) -> Dtype {
    Dtype::scalar(ty)
}
fn be(ty: ScalarType) -> Dtype {
    Dtype::Scalar(Scalar::new(ty, ByteOrder::Big))
}

/// Stand-in for `half::f16` (the optional feature): the same newtype.
struct F16(u16);
impl Serialize for F16 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct("f16", &self.0)
    }
}

#[test]
fn f64_and_bool_1d() {
    same("f64_1d", to_vec(&vec![1.0f64, 2.5, -3.0]).unwrap());
    same("bool_1d", to_vec(&[true, false, true]).unwrap());
}

#[derive(Serialize)]
struct AllNumbers {
    b: bool,
    i1: i8,
    i2: i16,
    i4: i32,
    i8: i64,
    u1: u8,
    u2: u16,
    u4: u32,
    u8: u64,
    f4: f32,
    f8: f64,
    h: F16,
}

#[test]
fn all_numbers() {
    let v = vec![
        AllNumbers {
            b: true,
            i1: -1,
            i2: -300,
            i4: -70000,
            i8: -(1 << 40),
            u1: 255,
            u2: 65535,
            u4: u32::MAX,
            u8: u64::MAX,
            f4: 1.5,
            f8: -2.25,
            h: F16(0x3800),
        },
        AllNumbers {
            b: false,
            i1: 127,
            i2: 32767,
            i4: i32::MAX,
            i8: i64::MAX,
            u1: 0,
            u2: 1,
            u4: 2,
            u8: 3,
            f4: -0.0,
            f8: 1e300,
            h: F16(0xfbff),
        },
    ];
    let bytes = to_vec(&v).unwrap();
    snap!("write_all_numbers_header", header_text(&bytes));
    same("all_numbers", bytes);
}

#[derive(Serialize)]
enum Color {
    Red,
    Green,
}

#[derive(Serialize)]
struct Strings {
    name: String,
    #[serde(with = "serde_bytes")]
    raw: Vec<u8>,
    c: char,
    color: Color,
}

#[test]
fn strings() {
    let v = vec![
        Strings {
            name: "héllo".into(),
            raw: b"ab".to_vec(),
            c: 'x',
            color: Color::Red,
        },
        Strings {
            name: "z".into(),
            raw: b"abc".to_vec(),
            c: 'é',
            color: Color::Green,
        },
    ];
    same("strings", to_vec(&v).unwrap());
}

#[derive(Serialize)]
struct Cplx {
    #[serde(with = "npy_serde::complex")]
    z8: Complex<f32>,
    #[serde(with = "npy_serde::complex")]
    z16: Complex<f64>,
}

#[test]
fn complex() {
    let v = vec![
        Cplx {
            z8: Complex::new(1.0, 2.0),
            z16: Complex::new(-3.5, 0.25),
        },
        Cplx {
            z8: Complex::new(0.0, 0.0),
            z16: Complex::new(1e-300, -1e300),
        },
    ];
    same("complex", to_vec(&v).unwrap());
}

#[derive(Serialize)]
struct Times {
    t: Datetime64<unit::ns>,
    dt: Timedelta64<unit::s>,
    g: Datetime64<unit::Generic>,
}

#[test]
fn datetime() {
    let v = vec![
        Times {
            t: Datetime64::new(1_700_000_000_000_000_000),
            dt: Timedelta64::new(-5),
            g: Datetime64::NAT,
        },
        Times {
            t: Datetime64::NAT,
            dt: Timedelta64::new(86400),
            g: Datetime64::NAT,
        },
    ];
    same("datetime", to_vec(&v).unwrap());
}

#[derive(Serialize)]
struct Padded {
    a: u8,
    _p: Padding<3>,
    b: u32,
    _q: Padding<2>,
}

#[test]
fn padding() {
    let v = vec![
        Padded {
            a: 1,
            _p: Padding,
            b: 3,
            _q: Padding,
        },
        Padded {
            a: 2,
            _p: Padding,
            b: 4,
            _q: Padding,
        },
    ];
    same("padding", to_vec(&v).unwrap());
}

#[derive(Serialize)]
struct Inner {
    x: [f32; 3],
    flag: bool,
}

#[derive(Serialize)]
struct Nested {
    id: u64,
    m: [[f64; 4]; 2],
    sub: Inner,
}

#[test]
fn nested() {
    let m = |k: f64| {
        [
            [k, k + 1.0, k + 2.0, k + 3.0],
            [k + 4.0, k + 5.0, k + 6.0, k + 7.0],
        ]
    };
    let v = vec![
        Nested {
            id: 7,
            m: m(0.0),
            sub: Inner {
                x: [1.0, 2.0, 3.0],
                flag: true,
            },
        },
        Nested {
            id: 8,
            m: m(8.0),
            sub: Inner {
                x: [4.0, 5.0, 6.0],
                flag: false,
            },
        },
    ];
    let bytes = to_vec(&v).unwrap();
    snap!("write_nested_header", header_text(&bytes));
    same("nested", bytes);
}

#[derive(Serialize)]
struct S {
    x: i8,
    y: f64,
}
#[derive(Serialize)]
struct Al {
    a: i8,
    b: i32,
    c: i8,
    s: S,
}

#[test]
fn aligned() {
    let v = vec![
        Al {
            a: 1,
            b: 3,
            c: 5,
            s: S { x: 7, y: 9.5 },
        },
        Al {
            a: 2,
            b: 4,
            c: 6,
            s: S { x: 8, y: 10.5 },
        },
    ];
    same(
        "aligned",
        WriteOptions::new().align(true).to_vec(&v).unwrap(),
    );
    // the streaming writer zeroes the gaps too
    let mut out = Vec::new();
    WriteOptions::new()
        .align(true)
        .to_writer(&mut out, &v)
        .unwrap();
    same("aligned", out);
}

#[derive(Serialize)]
struct Ab {
    b: f64,
    a: i32,
}

#[test]
fn titles_by_name_any_order() {
    let dt = Dtype::record()
        .titled_field("Title A", "a", sc(ScalarType::Int(4)))
        .field("b", sc(ScalarType::Float(8)))
        .build()
        .unwrap();
    let v = vec![Ab { b: 0.5, a: 1 }, Ab { b: 0.25, a: 2 }];
    same(
        "titles",
        WriteOptions::new().dtype(dt.clone()).to_vec(&v).unwrap(),
    );
    let mut out = Vec::new();
    WriteOptions::new()
        .dtype(dt)
        .to_writer(&mut out, &v)
        .unwrap();
    same("titles", out);
}

#[derive(Serialize)]
struct Mixed {
    t: Datetime64<unit::s>,
    c: [f64; 2],
    u: &'static str,
    f: f32,
    little: i64,
    big: i32,
}

#[test]
fn mixed_endian() {
    let dt = Dtype::record()
        .field("big", be(ScalarType::Int(4)))
        .field("little", sc(ScalarType::Int(4)))
        .field("f", be(ScalarType::Float(8)))
        .field("u", be(ScalarType::Unicode(3)))
        .field("c", be(ScalarType::Complex(16)))
        .field(
            "t",
            be(ScalarType::Datetime(npy_serde::DatetimeUnit::new(
                npy_serde::TimeUnit::Milliseconds,
            ))),
        )
        .build()
        .unwrap();
    let v = vec![
        Mixed {
            t: Datetime64::new(5),
            c: [1.0, 1.0],
            u: "ab",
            f: 0.5,
            little: 3,
            big: 1,
        },
        Mixed {
            t: Datetime64::new(-1),
            c: [2.0, -3.0],
            u: "xyz",
            f: -1.0,
            little: -4,
            big: -2,
        },
    ];
    same(
        "mixed_endian",
        WriteOptions::new().dtype(dt).to_vec(&v).unwrap(),
    );
}

#[test]
fn fortran() {
    let a: Vec<Vec<i64>> = vec![vec![0, 1, 2], vec![3, 4, 5]];
    same(
        "fortran_2d",
        WriteOptions::new().fortran_order(true).to_vec(&a).unwrap(),
    );
    let mut out = Vec::new();
    WriteOptions::new()
        .fortran_order(true)
        .to_writer(&mut out, &a)
        .unwrap();
    same("fortran_2d", out);
    let b: Vec<[[i32; 4]; 3]> = (0..2)
        .map(|i| std::array::from_fn(|j| std::array::from_fn(|k| (i * 12 + j * 4 + k) as i32)))
        .collect();
    same(
        "fortran_3d",
        WriteOptions::new().fortran_order(true).to_vec(&b).unwrap(),
    );
    // 1-d ignores fortran_order, like numpy
    same(
        "f64_1d",
        WriteOptions::new()
            .fortran_order(true)
            .to_vec(&[1.0, 2.5, -3.0])
            .unwrap(),
    );
}

#[derive(Serialize)]
struct IdX {
    id: u32,
    x: f64,
}

#[test]
fn zero_dim() {
    same("scalar_0d", to_vec(&3.5f64).unwrap());
    same("record_0d", to_vec(&IdX { id: 9, x: -1.25 }).unwrap());
    let mut out = Vec::new();
    npy_serde::to_writer(&mut out, &IdX { id: 9, x: -1.25 }).unwrap();
    same("record_0d", out);
}

#[test]
fn vec_of_arrays() {
    same(
        "vec_of_arrays",
        to_vec(&vec![[1.0f64, 2.0, 3.0], [4.0, 5.0, 6.0]]).unwrap(),
    );
    same(
        "vec_of_arrays",
        to_vec(&vec![vec![1.0f64, 2.0, 3.0], vec![4.0, 5.0, 6.0]]).unwrap(),
    );
}

#[test]
fn unicode_names_give_v3() {
    let mut rows = Vec::new();
    for (a, b) in [(1i32, 0.5f64), (2, 1.5)] {
        let mut m = serde_json::Map::new();
        m.insert("整形".into(), a.into());
        m.insert("é".into(), b.into());
        rows.push(m);
    }
    // serde_json's Map keeps keys sorted; the fixture has 整形 first, so use a Vec of pairs
    #[derive(Serialize)]
    struct Row {
        #[serde(rename = "整形")]
        a: i32,
        #[serde(rename = "é")]
        b: f64,
    }
    let v = vec![Row { a: 1, b: 0.5 }, Row { a: 2, b: 1.5 }];
    let bytes = to_vec(&v).unwrap();
    assert_eq!(&bytes[6..8], &[3, 0]);
    same("unicode_names", bytes);
}

#[test]
fn long_header_gives_v2() {
    let mut m = BTreeMap::new();
    m.insert("x".repeat(65536), 5u8);
    let bytes = to_vec(&vec![m]).unwrap();
    assert_eq!(&bytes[6..8], &[2, 0]);
    same("long_header_v2", bytes);
}

#[derive(Serialize)]
struct TS(i32, f64, String);

#[test]
fn tuples() {
    let v = vec![(1i32, 0.5f64, "a"), (2, 1.5, "bc")];
    same("tuples", to_vec(&v).unwrap());
    let v = vec![TS(1, 0.5, "a".into()), TS(2, 1.5, "bc".into())];
    same("tuples", to_vec(&v).unwrap());
}

#[derive(Serialize)]
struct Unit;

#[test]
fn unit_records() {
    same("unit", to_vec(&vec![Unit, Unit, Unit]).unwrap());
    same("unit", to_vec(&vec![(), (), ()]).unwrap());
}

#[test]
fn map_records() {
    let v: Vec<BTreeMap<&str, f64>> = vec![
        [("alpha", 1.0), ("beta", 2.0)].into_iter().collect(),
        [("alpha", 3.0), ("beta", 4.0)].into_iter().collect(),
    ];
    same("map_records", to_vec(&v).unwrap());
    #[derive(Serialize)]
    struct Flat {
        alpha: f64,
        #[serde(flatten)]
        rest: BTreeMap<String, f64>,
    }
    let v = vec![
        Flat {
            alpha: 1.0,
            rest: [("beta".to_string(), 2.0)].into_iter().collect(),
        },
        Flat {
            alpha: 3.0,
            rest: [("beta".to_string(), 4.0)].into_iter().collect(),
        },
    ];
    same("map_records", to_vec(&v).unwrap());
}

#[test]
fn empty_with_dtype() {
    let dt = Dtype::record()
        .field("a", sc(ScalarType::Int(4)))
        .field("b", sc(ScalarType::Float(8)))
        .build()
        .unwrap();
    let v: Vec<IdX> = Vec::new();
    same(
        "empty_with_dtype",
        WriteOptions::new().dtype(dt.clone()).to_vec(&v).unwrap(),
    );
    let mut out = Vec::new();
    WriteOptions::new()
        .dtype(dt)
        .to_writer(&mut out, &v)
        .unwrap();
    same("empty_with_dtype", out);
}

#[derive(Serialize)]
struct Conv {
    i: i64,
    f: f64,
    g: i64,
    #[serde(with = "serde_bytes")]
    s: Vec<u8>,
    t: Datetime64<unit::s>,
    h: f64,
}

fn conv_dtype() -> Dtype {
    Dtype::record()
        .field("i", sc(ScalarType::Int(2)))
        .field("f", sc(ScalarType::Float(4)))
        .field("g", sc(ScalarType::Float(8)))
        .field("s", sc(ScalarType::Bytes(4)))
        .field(
            "t",
            sc(ScalarType::Datetime(npy_serde::DatetimeUnit::new(
                npy_serde::TimeUnit::Milliseconds,
            ))),
        )
        .field("h", sc(ScalarType::Float(2)))
        .build()
        .unwrap()
}

#[test]
fn converted() {
    let v = vec![
        Conv {
            i: -300,
            f: 0.5,
            g: 7,
            s: b"ab".to_vec(),
            t: Datetime64::new(3),
            h: 0.25,
        },
        Conv {
            i: 12,
            f: -1.0,
            g: -(1 << 53),
            s: b"abcd".to_vec(),
            t: Datetime64::new(-2),
            h: 2.0,
        },
    ];
    same(
        "converted",
        WriteOptions::new().dtype(conv_dtype()).to_vec(&v).unwrap(),
    );
}

#[derive(Serialize)]
#[serde(untagged)]
enum AnyTime {
    Y(Datetime64<unit::Y>),
    M(Datetime64<unit::M>),
}

#[test]
fn datetime_calendar_conversion() {
    let dt = sc(ScalarType::Datetime(npy_serde::DatetimeUnit::new(
        npy_serde::TimeUnit::Days,
    )));
    let v = vec![
        AnyTime::Y(Datetime64::new(3)),
        AnyTime::M(Datetime64::new(-1)),
        AnyTime::M(Datetime64::NAT),
    ];
    same(
        "datetime_calendar",
        WriteOptions::new().dtype(dt).to_vec(&v).unwrap(),
    );
}

#[cfg(feature = "half")]
#[test]
fn half_feature() {
    #[derive(Serialize)]
    struct H {
        h: half::f16,
    }
    #[derive(Serialize)]
    struct Hs {
        b: bool,
        h: half::f16,
    }
    let bytes = to_vec(&vec![H {
        h: half::f16::from_f32(0.5),
    }])
    .unwrap();
    assert!(header_text(&bytes).contains("[('h', '<f2')]"));
    assert_eq!(&bytes[128..], &0x3800u16.to_le_bytes());
    let _ = Hs {
        b: true,
        h: half::f16::ZERO,
    };
}

#[test]
fn explicit_complex_pairs_and_subarray_dtype() {
    let c16 = sc(ScalarType::Complex(16));
    let v = vec![[1.0f64, 2.0], [3.0, -4.0]];
    same(
        "complex_pairs",
        WriteOptions::new().dtype(c16.clone()).to_vec(&v).unwrap(),
    );
    let mut out = Vec::new();
    WriteOptions::new()
        .dtype(c16)
        .to_writer(&mut out, &v)
        .unwrap();
    same("complex_pairs", out);
    // a subarray dtype is folded into the shape, as numpy does
    let sub = Dtype::subarray(sc(ScalarType::Float(8)), vec![3]).unwrap();
    same(
        "vec_of_arrays",
        WriteOptions::new()
            .dtype(sub)
            .to_vec(&vec![[1.0f64, 2.0, 3.0], [4.0, 5.0, 6.0]])
            .unwrap(),
    );
}

/// A sequence whose length hint lies: output is still right, no huge
/// reservation or panic.
#[test]
fn lying_length_hint() {
    use serde::ser::SerializeSeq;
    struct Liar;
    impl Serialize for Liar {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut seq = s.serialize_seq(Some(usize::MAX))?;
            for x in [1.0f64, 2.5, -3.0] {
                seq.serialize_element(&x)?;
            }
            seq.end()
        }
    }
    same("f64_1d", to_vec(&Liar).unwrap());
    let mut out = Vec::new();
    npy_serde::to_writer(&mut out, &Liar).unwrap();
    same("f64_1d", out);
}

#[derive(Serialize)]
struct Meters(f64);

#[test]
fn newtype_is_transparent() {
    same(
        "f64_1d",
        to_vec(&vec![Meters(1.0), Meters(2.5), Meters(-3.0)]).unwrap(),
    );
    same(
        "f64_1d",
        to_vec(&vec![Some(1.0f64), Some(2.5), Some(-3.0)]).unwrap(),
    );
}
