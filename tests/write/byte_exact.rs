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
    let path = format!("{}/data/write/{name}.npy", env!("CARGO_MANIFEST_DIR"));
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
        insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
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

// ---- The examples of numpy's array interface spec (array-interface.txt) ----

#[derive(Serialize, serde::Deserialize)]
struct Rgb {
    r: u8,
    g: u8,
    b: u8,
}

#[test]
fn array_interface_rgb_pixel() {
    let v = vec![
        Rgb { r: 255, g: 0, b: 0 },
        Rgb { r: 0, g: 128, b: 0 },
        Rgb { r: 1, g: 2, b: 255 },
    ];
    let bytes = to_vec(&v).unwrap();
    assert!(header_text(&bytes).contains("[('r', '|u1'), ('g', '|u1'), ('b', '|u1')]"));
    same("ai_rgb", bytes);
    assert_eq!(
        Dtype::of::<Rgb>().unwrap().to_string(),
        "[('r', '|u1'), ('g', '|u1'), ('b', '|u1')]"
    );
}

#[derive(Serialize)]
struct Sub {
    sval: u16,
    bval: u8,
    cval: u8,
}

#[derive(Serialize)]
struct NestedStruct {
    ival: i32,
    sub: Sub,
}

#[test]
fn array_interface_nested_structure() {
    let v = vec![
        NestedStruct {
            ival: -7,
            sub: Sub {
                sval: 65535,
                bval: 1,
                cval: 2,
            },
        },
        NestedStruct {
            ival: 123456,
            sub: Sub {
                sval: 300,
                bval: 254,
                cval: 0,
            },
        },
    ];
    let bytes = to_vec(&v).unwrap();
    assert!(header_text(&bytes).contains(
        "[('ival', '<i4'), ('sub', [('sval', '<u2'), ('bval', '|u1'), ('cval', '|u1')])]"
    ));
    same("ai_nested", bytes);
}

#[derive(Serialize)]
struct NestedArray {
    ival: i32,
    data: [[f64; 4]; 16],
}

fn nested_array_values() -> Vec<NestedArray> {
    (0..2)
        .map(|r| NestedArray {
            ival: if r == 0 { 1 } else { -1 },
            data: std::array::from_fn(|i| {
                std::array::from_fn(|j| (r * 64 + i * 4 + j) as f64 / 8.0 - 3.0)
            }),
        })
        .collect()
}

#[test]
fn array_interface_nested_array() {
    let v = nested_array_values();
    // little-endian: derived from [[f64; 4]; 16] alone
    let bytes = to_vec(&v).unwrap();
    assert!(header_text(&bytes).contains("[('ival', '<i4'), ('data', '<f8', (16, 4))]"));
    same("ai_nested_array_le", bytes);
    // big-endian as in the spec, via an explicit dtype (parsed and built)
    let dt: Dtype = "[('ival', '>i4'), ('data', '>f8', (16, 4))]"
        .parse()
        .unwrap();
    let built = Dtype::record()
        .field("ival", be(ScalarType::Int(4)))
        .field(
            "data",
            Dtype::subarray(be(ScalarType::Float(8)), vec![16, 4]).unwrap(),
        )
        .build()
        .unwrap();
    assert_eq!(dt, built);
    assert_eq!(dt.itemsize(), 516);
    same(
        "ai_nested_array_be",
        WriteOptions::new().dtype(dt.clone()).to_vec(&v).unwrap(),
    );
    let mut out = Vec::new();
    WriteOptions::new()
        .dtype(dt)
        .to_writer(&mut out, &v)
        .unwrap();
    same("ai_nested_array_be", out);
}

#[derive(Serialize)]
struct PaddedStruct {
    ival: i32,
    _pad: Padding<4>,
    dval: f64,
}

#[derive(Serialize)]
struct Unpadded {
    dval: f64,
    ival: i32,
}

#[test]
fn array_interface_padded_structure() {
    let v = vec![
        PaddedStruct {
            ival: 5,
            _pad: Padding,
            dval: 0.5,
        },
        PaddedStruct {
            ival: -6,
            _pad: Padding,
            dval: -1e10,
        },
    ];
    let bytes = to_vec(&v).unwrap();
    assert!(header_text(&bytes).contains("[('ival', '<i4'), ('', '|V4'), ('dval', '<f8')]"));
    same("ai_padded_le", bytes);
    // the same gap from align(true) on the plain C struct of the spec
    #[derive(Serialize)]
    struct CStruct {
        ival: i32,
        dval: f64,
    }
    let c = vec![
        CStruct { ival: 5, dval: 0.5 },
        CStruct {
            ival: -6,
            dval: -1e10,
        },
    ];
    same(
        "ai_padded_le",
        WriteOptions::new().align(true).to_vec(&c).unwrap(),
    );
    // a struct in another order, without Padding
    let plain = vec![
        Unpadded { dval: 0.5, ival: 5 },
        Unpadded {
            dval: -1e10,
            ival: -6,
        },
    ];
    let dt: Dtype = "[('ival', '>i4'), ('', '|V4'), ('dval', '>f8')]"
        .parse()
        .unwrap();
    assert_eq!(dt.itemsize(), 16);
    // big-endian via the dtype: padding filled, fields matched by name
    same(
        "ai_padded_be",
        WriteOptions::new()
            .dtype(dt.clone())
            .to_vec(&plain)
            .unwrap(),
    );
    same(
        "ai_padded_be",
        WriteOptions::new().dtype(dt.clone()).to_vec(&v).unwrap(),
    );
    let mut out = Vec::new();
    WriteOptions::new()
        .dtype(dt)
        .to_writer(&mut out, &plain)
        .unwrap();
    same("ai_padded_be", out);
}

#[derive(Serialize)]
struct LittleBig {
    little: i32,
    big: i32,
}

#[test]
fn array_interface_mixed_endian() {
    let dt = Dtype::record()
        .field("big", be(ScalarType::Int(4)))
        .field("little", sc(ScalarType::Int(4)))
        .build()
        .unwrap();
    assert_eq!(dt.to_string(), "[('big', '>i4'), ('little', '<i4')]");
    let v = vec![
        LittleBig {
            little: 0x0102_0304,
            big: 1,
        },
        LittleBig {
            little: -3,
            big: -2,
        },
    ];
    same(
        "ai_mixed_endian",
        WriteOptions::new().dtype(dt.clone()).to_vec(&v).unwrap(),
    );
    let mut out = Vec::new();
    WriteOptions::new()
        .dtype(dt)
        .to_writer(&mut out, &v)
        .unwrap();
    same("ai_mixed_endian", out);
}

#[derive(Serialize, serde::Deserialize)]
struct AlS {
    a: i32,
    b: i8,
}
#[derive(Serialize, serde::Deserialize)]
struct AlU {
    h: i16,
    k: i8,
}
#[derive(Serialize, serde::Deserialize)]
struct AlT {
    c: i8,
    u: AlU,
}
#[derive(Serialize, serde::Deserialize)]
struct AlNested {
    x: i8,
    s: AlS,
    y: i16,
    arr: [i16; 3],
    t: AlT,
    z: f64,
}

#[test]
fn aligned_nested_with_inner_and_trailing_padding() {
    let v: Vec<AlNested> = [1i8, -1]
        .into_iter()
        .map(|g| AlNested {
            x: g,
            s: AlS {
                a: 2 * g as i32,
                b: 3 * g,
            },
            y: 4 * g as i16,
            arr: [5 * g as i16, 6 * g as i16, 7 * g as i16],
            t: AlT {
                c: 8 * g,
                u: AlU {
                    h: 9 * g as i16,
                    k: 10 * g,
                },
            },
            z: 11.5 * g as f64,
        })
        .collect();
    let bytes = WriteOptions::new().align(true).to_vec(&v).unwrap();
    snap!("write_aligned_nested_header", header_text(&bytes));
    same("aligned_nested", bytes);
    let mut out = Vec::new();
    WriteOptions::new()
        .align(true)
        .to_writer(&mut out, &v)
        .unwrap();
    same("aligned_nested", out);
    // the same layout from the dtype builder's align and from Dtype::aligned
    let numpy: Dtype = header_text(&fixture("aligned_nested"))
        .split("'descr': ")
        .nth(1)
        .unwrap()
        .split(", 'fortran_order'")
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let packed = Dtype::of::<AlNested>().unwrap();
    assert_eq!(packed.aligned().unwrap(), numpy);
}

#[test]
fn every_datetime_unit() {
    macro_rules! units_struct {
        ($($dt:ident $td:ident: $u:ident = $rename_dt:literal $rename_td:literal;)*) => {
            #[derive(Serialize)]
            struct Units {
                $(#[serde(rename = $rename_dt)] $dt: Datetime64<unit::$u>,)*
                $(#[serde(rename = $rename_td)] $td: Timedelta64<unit::$u>,)*
            }
            fn row(i: Option<i64>) -> Units {
                let mut k = 0;
                $(k += 1; let $dt = k;)*
                Units {
                    $($dt: i.map_or(Datetime64::NAT, |_| Datetime64::new($dt)),)*
                    $($td: i.map_or(Timedelta64::NAT, |_| Timedelta64::new(-$dt)),)*
                }
            }
        };
    }
    units_struct! {
        y td_y: Y = "M8_Y" "m8_Y";
        mo td_mo: M = "M8_M" "m8_M";
        w td_w: W = "M8_W" "m8_W";
        d td_d: D = "M8_D" "m8_D";
        h td_h: h = "M8_h" "m8_h";
        mi td_mi: m = "M8_m" "m8_m";
        s td_s: s = "M8_s" "m8_s";
        ms td_ms: ms = "M8_ms" "m8_ms";
        us td_us: us = "M8_us" "m8_us";
        ns td_ns: ns = "M8_ns" "m8_ns";
        ps td_ps: ps = "M8_ps" "m8_ps";
        fs td_fs: fs = "M8_fs" "m8_fs";
        at td_at: as_ = "M8_as" "m8_as";
    }
    let v = vec![row(Some(0)), row(None)];
    same("datetime_units", to_vec(&v).unwrap());
    let mut out = Vec::new();
    npy_serde::to_writer(&mut out, &v).unwrap();
    same("datetime_units", out);
}

#[test]
fn datetime_multiplier_units_via_dtype() {
    #[derive(Serialize)]
    struct T {
        d: Timedelta64<unit::D>,
        t: Datetime64<unit::s>,
    }
    let dt: Dtype = "[('t', '<M8[25s]'), ('d', '<m8[7D]')]".parse().unwrap();
    let v = vec![
        T {
            t: Datetime64::new(50),
            d: Timedelta64::new(14),
        },
        T {
            t: Datetime64::NAT,
            d: Timedelta64::new(-7),
        },
    ];
    same(
        "datetime_multiplier",
        WriteOptions::new().dtype(dt.clone()).to_vec(&v).unwrap(),
    );
    // 10 s is not a whole number of 25-second ticks
    let bad = vec![T {
        t: Datetime64::new(10),
        d: Timedelta64::new(14),
    }];
    let err = WriteOptions::new().dtype(dt).to_vec(&bad).unwrap_err();
    snap!("write_datetime_multiplier_inexact", err.to_string());
}

#[derive(Serialize)]
struct SubRec {
    a: i32,
    b: i8,
}

#[derive(Serialize)]
struct WithSubRecs {
    a: i8,
    s: [SubRec; 2],
    c: i8,
}

#[test]
fn subarray_of_records_aligned_and_packed() {
    let v: Vec<WithSubRecs> = (0..2)
        .map(|i| WithSubRecs {
            a: 1 + i,
            s: [
                SubRec {
                    a: 3 + 2 * i32::from(i),
                    b: 7 + 2 * i,
                },
                SubRec {
                    a: 4 + 2 * i32::from(i),
                    b: 8 + 2 * i,
                },
            ],
            c: 11 + i,
        })
        .collect();
    same("packed_subarray_records", to_vec(&v).unwrap());
    same(
        "aligned_subarray_records",
        WriteOptions::new().align(true).to_vec(&v).unwrap(),
    );
    let mut out = Vec::new();
    WriteOptions::new()
        .align(true)
        .to_writer(&mut out, &v)
        .unwrap();
    same("aligned_subarray_records", out);
}

#[test]
fn nested_big_endian_records_via_dtype() {
    let v = vec![
        NestedStructs {
            ival: -7,
            sub: [
                Sub {
                    sval: 1,
                    bval: 3,
                    cval: 7,
                },
                Sub {
                    sval: 2,
                    bval: 4,
                    cval: 8,
                },
            ],
        },
        NestedStructs {
            ival: 8,
            sub: [
                Sub {
                    sval: 65535,
                    bval: 5,
                    cval: 9,
                },
                Sub {
                    sval: 256,
                    bval: 6,
                    cval: 10,
                },
            ],
        },
    ];
    #[derive(Serialize)]
    struct NestedStructs {
        ival: i32,
        sub: [Sub; 2],
    }
    let dt: Dtype =
        "[('ival', '>i4'), ('sub', [('sval', '>u2'), ('bval', '|u1'), ('cval', '|u1')], (2,))]"
            .parse()
            .unwrap();
    same(
        "nested_be_dtype",
        WriteOptions::new().dtype(dt.clone()).to_vec(&v).unwrap(),
    );
    let mut out = Vec::new();
    WriteOptions::new()
        .dtype(dt)
        .to_writer(&mut out, &v)
        .unwrap();
    same("nested_be_dtype", out);
}

#[derive(Serialize, Clone, Copy)]
struct AB {
    a: i8,
    b: f64,
}

#[test]
fn records_2d_c_and_fortran() {
    let rows: Vec<[AB; 3]> = (0..2)
        .map(|i| {
            std::array::from_fn(|j| {
                let k = (i * 3 + j) as i8;
                AB {
                    a: k,
                    b: f64::from(k) * 0.5,
                }
            })
        })
        .collect();
    same("records_2d", to_vec(&rows).unwrap());
    let nested: Vec<Vec<AB>> = rows.iter().map(|r| r.to_vec()).collect();
    same("records_2d", to_vec(&nested).unwrap());
    same(
        "records_2d_fortran",
        WriteOptions::new()
            .fortran_order(true)
            .to_vec(&rows)
            .unwrap(),
    );
    let mut out = Vec::new();
    WriteOptions::new()
        .fortran_order(true)
        .to_writer(&mut out, &nested)
        .unwrap();
    same("records_2d_fortran", out);
}

#[test]
fn zero_size_parts_via_dtype() {
    let v: Vec<Vec<f64>> = vec![vec![], vec![], vec![]];
    let f8 = sc(ScalarType::Float(8));
    same(
        "empty_inner_axis",
        WriteOptions::new().dtype(f8.clone()).to_vec(&v).unwrap(),
    );
    let mut out = Vec::new();
    WriteOptions::new()
        .dtype(f8)
        .to_writer(&mut out, &v)
        .unwrap();
    same("empty_inner_axis", out);

    #[derive(Serialize)]
    struct Empty {}
    #[derive(Serialize)]
    struct Z {
        a: i32,
        #[serde(with = "serde_bytes")]
        e: Vec<u8>,
        x: [f64; 0],
        y: [[u16; 0]; 2],
        r: Empty,
    }
    let dt: Dtype =
        "[('a', '<i4'), ('e', '|V0'), ('x', '<f8', (0,)), ('y', '<u2', (2, 0)), ('r', [])]"
            .parse()
            .unwrap();
    let v: Vec<Z> = [1, -1]
        .into_iter()
        .map(|a| Z {
            a,
            e: vec![],
            x: [],
            y: [[], []],
            r: Empty {},
        })
        .collect();
    same(
        "zero_size_fields",
        WriteOptions::new().dtype(dt.clone()).to_vec(&v).unwrap(),
    );
    let mut out = Vec::new();
    WriteOptions::new()
        .dtype(dt)
        .to_writer(&mut out, &v)
        .unwrap();
    same("zero_size_fields", out);
}

#[test]
fn names_repr_escapes() {
    #[derive(Serialize)]
    struct E {
        #[serde(rename = "tab\there")]
        tab: i16,
        #[serde(rename = "it's")]
        its: i16,
        #[serde(rename = "a'b\"c")]
        both: i16,
        #[serde(rename = "back\\slash")]
        back: i16,
        #[serde(rename = "\u{200b}")]
        zwsp: i16,
        #[serde(rename = "q\"d")]
        q: i16,
        #[serde(rename = "\u{7f}\u{a0}\u{ad}é")]
        nonprint: i16,
    }
    let v = [E {
        tab: 1,
        its: 2,
        both: 3,
        back: 4,
        zwsp: 5,
        q: 6,
        nonprint: 7,
    }];
    let bytes = to_vec(&v).unwrap();
    assert_eq!(bytes[6], 1);
    same("escaped_names", bytes);
    #[derive(Serialize)]
    struct A {
        #[serde(rename = "😀")]
        smile: i16,
        #[serde(rename = "\u{e0001}x")]
        tag: i16,
    }
    let bytes = to_vec(&[A { smile: 1, tag: 2 }]).unwrap();
    assert_eq!(bytes[6], 3);
    same("astral_names", bytes);
}

#[derive(Serialize, serde::Deserialize)]
enum Level {
    Low,
    Mid,
    Higher,
}

#[derive(Serialize)]
struct TableRows {
    v: Vec<f32>,
    t: (i64, i64),
    z: Complex<f64>,
    e: Level,
}

#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct TableRowsTyped {
    v: [f32; 3],
    t: (i64, i64),
    z: (f64, f64),
    e: Level,
}

#[test]
fn table_rows_vec_tuple_complex_without_with_enum_width() {
    let v = vec![
        TableRows {
            v: vec![1.0, 2.0, 3.0],
            t: (7, -8),
            z: Complex::new(0.5, -1.5),
            e: Level::Low,
        },
        TableRows {
            v: vec![4.0, 5.0, 6.0],
            t: (9, 10),
            z: Complex::new(2.0, 0.0),
            e: Level::Mid,
        },
    ];
    let _ = Level::Higher;
    // inferred: the enum is as wide as the longest variant seen ('<U3')
    let inferred = to_vec(&v).unwrap();
    assert!(header_text(&inferred).contains("('e', '<U3')"));
    // from the type: every variant known, '<U6'
    let dt = Dtype::of::<TableRowsTyped>().unwrap();
    assert_eq!(
        dt.to_string(),
        "[('v', '<f4', (3,)), ('t', '<i8', (2,)), ('z', '<f8', (2,)), ('e', '<U6')]"
    );
    same(
        "table_rows",
        WriteOptions::new().dtype(dt.clone()).to_vec(&v).unwrap(),
    );
    let mut out = Vec::new();
    WriteOptions::new()
        .dtype(dt)
        .to_writer(&mut out, &v)
        .unwrap();
    same("table_rows", out);
}

/// numpy writes `fortran_order: True` only for arrays that are not also
/// C-contiguous: with at most one axis longer than 1, or no elements, the
/// two layouts are the same bytes and the header says False.
#[test]
fn fortran_order_of_arrays_that_are_also_c_contiguous() {
    let f = || WriteOptions::new().fortran_order(true);
    same(
        "fortran_2x1",
        f().to_vec(&vec![vec![0i32], vec![1]]).unwrap(),
    );
    same("fortran_1x3", f().to_vec(&vec![[0i32, 1, 2]]).unwrap());
    let empty: Vec<[i32; 3]> = Vec::new();
    let i4x3 = Dtype::subarray(sc(ScalarType::Int(4)), vec![3]).unwrap();
    same(
        "fortran_0x3",
        f().dtype(i4x3.clone()).to_vec(&empty).unwrap(),
    );
    let mut out = Vec::new();
    f().dtype(i4x3).to_writer(&mut out, &empty).unwrap();
    same("fortran_0x3", out);
    let v: Vec<[[i32; 3]; 1]> = vec![[[0, 1, 2]], [[3, 4, 5]]];
    same("fortran_2x1x3", f().to_vec(&v).unwrap());
    let mut out = Vec::new();
    f().to_writer(&mut out, &vec![vec![0i32], vec![1]]).unwrap();
    same("fortran_2x1", out);
}

/// Zero records of a fixed-size array type, with the dtype from
/// `Dtype::of` as the "cannot tell the element type" message advises.
#[test]
fn empty_sequences_with_a_subarray_dtype() {
    let dt = Dtype::of::<[i32; 3]>().unwrap();
    assert_eq!(dt.to_string(), "('<i4', (3,))");
    let empty: Vec<[i32; 3]> = Vec::new();
    let opts = WriteOptions::new().dtype(dt);
    same("empty_0x3", opts.to_vec(&empty).unwrap());
    let mut out = Vec::new();
    opts.to_writer(&mut out, &empty).unwrap();
    same("empty_0x3", out);
    let two: Vec<Vec<[i32; 3]>> = vec![vec![], vec![]];
    same("empty_2x0x3", opts.to_vec(&two).unwrap());
    // with elements the subarray shape is still checked
    let err = opts.to_vec(&vec![[1i32, 2]]).unwrap_err();
    assert!(err.to_string().contains("subarray shape (3,)"), "{err}");
}

#[derive(Serialize)]
struct Kinds {
    a: i8,
    #[serde(with = "npy_serde::complex")]
    c: Complex<f64>,
    m: Datetime64<unit::s>,
    h: F16,
    #[serde(with = "serde_bytes")]
    s: Vec<u8>,
    #[serde(with = "serde_bytes")]
    v: Vec<u8>,
    z: bool,
    u: &'static str,
    b: f64,
}

/// A packed dtype (title, big-endian field, every alignment class) made
/// C-aligned by `align(true)`, as numpy's `align=True`.
#[test]
fn aligned_every_kind_with_title_via_dtype() {
    let packed: Dtype =
        "[(('Title A', 'a'), '|i1'), ('c', '<c16'), ('m', '<M8[s]'), ('h', '<f2'), \
         ('s', '|S3'), ('v', '|V5'), ('z', '|b1'), ('u', '<U2'), ('b', '>f8')]"
            .parse()
            .unwrap();
    let v = vec![
        Kinds {
            a: 1,
            c: Complex::new(1.0, 2.0),
            m: Datetime64::new(10),
            h: F16(0x3800),
            s: b"ab".to_vec(),
            v: vec![1, 2, 3, 4, 5],
            z: true,
            u: "q",
            b: 1.5,
        },
        Kinds {
            a: -1,
            c: Complex::new(-0.0, -3.0), // Python's -3j
            m: Datetime64::NAT,
            h: F16(0xc000),
            s: b"xyz".to_vec(),
            v: vec![0, 0, 0, 0, 9],
            z: false,
            u: "rs",
            b: -2.5,
        },
    ];
    let opts = WriteOptions::new().dtype(packed.clone()).align(true);
    same("aligned_kinds", opts.to_vec(&v).unwrap());
    let mut out = Vec::new();
    opts.to_writer(&mut out, &v).unwrap();
    same("aligned_kinds", out);
    assert_eq!(packed.aligned().unwrap().itemsize(), 64);
}

/// `WriteOptions::version` gives what numpy's `write_array(version=...)`
/// wrote for tests/data/read/version_*.npy.
#[test]
fn forced_versions_match_numpy_write_array() {
    let read_fixture = |name: &str| {
        let path = format!("{}/data/read/{name}.npy", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(&path).unwrap()
    };
    #[derive(Serialize)]
    struct VRow {
        x: i32,
        y: f64,
        name: &'static str,
    }
    let v = [
        VRow {
            x: 1,
            y: 0.5,
            name: "ab",
        },
        VRow {
            x: -2,
            y: 1e100,
            name: "xyz",
        },
        VRow {
            x: 3,
            y: -0.0,
            name: "",
        },
    ];
    for (name, major) in [
        ("version_1_0", 1),
        ("version_2_0", 2),
        ("version_3_0_ascii", 3),
    ] {
        let opts = WriteOptions::new().version(major, 0);
        assert_eq!(opts.to_vec(&v).unwrap(), read_fixture(name), "{name}");
        let mut out = Vec::new();
        opts.to_writer(&mut out, &v).unwrap();
        assert_eq!(out, read_fixture(name), "{name}");
    }
    // automatic choice: 1.0
    assert_eq!(to_vec(&v).unwrap(), read_fixture("version_1_0"));
    // a name outside latin-1 cannot be written in 1.0 or 2.0
    #[derive(Serialize)]
    struct Cjk {
        #[serde(rename = "整形")]
        a: i32,
    }
    let mut msgs = String::new();
    for major in [1, 2] {
        let err = WriteOptions::new()
            .version(major, 0)
            .to_vec(&[Cjk { a: 1 }])
            .unwrap_err();
        msgs.push_str(&format!("version ({major}, 0): {err}\n"));
    }
    snap!("write_forced_version_not_latin1", msgs);
}
