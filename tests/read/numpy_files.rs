//! Reading numpy-made files (tests/data/read, made by make.py with the
//! numpy in VERSION) into derived structs and into `serde_json::Value`,
//! checked against the values make.py exported to expected.json.

use std::io::Cursor;

use npy_serde::{NpyReader, ReadOptions, from_reader, from_slice};
use serde::Deserialize;
use serde_json::Value;

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/data/read/{name}.npy", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn expected() -> serde_json::Map<String, Value> {
    let path = format!("{}/data/read/expected.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

// ---- Test-only stand-ins for the crate's special types (same tokens) ----

#[derive(Debug, PartialEq, Clone, Copy)]
struct Complex<T>(T, T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Complex<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for V<T> {
            type Value = Complex<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a complex number")
            }
            fn visit_newtype_struct<D: serde::Deserializer<'de>>(
                self,
                d: D,
            ) -> Result<Self::Value, D::Error> {
                let (re, im) = <(T, T)>::deserialize(d)?;
                Ok(Complex(re, im))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut a: A,
            ) -> Result<Self::Value, A::Error> {
                use serde::de::Error;
                let re = a
                    .next_element()?
                    .ok_or_else(|| A::Error::invalid_length(0, &self))?;
                let im = a
                    .next_element()?
                    .ok_or_else(|| A::Error::invalid_length(1, &self))?;
                Ok(Complex(re, im))
            }
        }
        d.deserialize_newtype_struct("$npy_serde::complex", V(std::marker::PhantomData))
    }
}

trait Unit {
    const TOKEN: &'static str;
}

#[derive(Debug, PartialEq)]
struct Time<U>(i64, std::marker::PhantomData<U>);

impl<'de, U: Unit> Deserialize<'de> for Time<U> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<U>(std::marker::PhantomData<U>);
        impl<'de, U> serde::de::Visitor<'de> for V<U> {
            type Value = Time<U>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a datetime64 or timedelta64 count")
            }
            fn visit_newtype_struct<D: serde::Deserializer<'de>>(
                self,
                d: D,
            ) -> Result<Self::Value, D::Error> {
                Ok(Time(i64::deserialize(d)?, std::marker::PhantomData))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
                Ok(Time(v, std::marker::PhantomData))
            }
        }
        d.deserialize_newtype_struct(U::TOKEN, V(std::marker::PhantomData))
    }
}

macro_rules! unit {
    ($name:ident, $tok:expr) => {
        #[derive(Debug, PartialEq)]
        struct $name;
        impl Unit for $name {
            const TOKEN: &'static str = $tok;
        }
    };
}
unit!(DtSeconds, "$npy_serde::M8[s]");
unit!(DtDays, "$npy_serde::M8[D]");
unit!(DtMonths, "$npy_serde::M8[M]");
unit!(DtNanos, "$npy_serde::M8[ns]");
unit!(TdMs, "$npy_serde::m8[ms]");
unit!(TdUs, "$npy_serde::m8[us]");

fn t<U>(v: i64) -> Time<U> {
    Time(v, std::marker::PhantomData)
}

const NAT: i64 = i64::MIN;

// ---- Every fixture against expected.json ----

#[test]
fn every_fixture_reads_as_expected_json() {
    let expected = expected();
    assert!(expected.len() > 30);
    for (name, want) in &expected {
        if name.starts_with("f2_all") {
            continue; // not a file, see f2_all_bit_patterns
        }
        let bytes = fixture(name);
        let got: Value = from_slice(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(&got, want, "{name} (from_slice)");
        let got: Value = from_reader(&bytes[..]).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(&got, want, "{name} (from_reader)");
        // one record at a time
        let mut reader = NpyReader::new(&bytes[..]).unwrap();
        let records: Vec<Value> = reader.deserialize().collect::<Result<_, _>>().unwrap();
        if reader.shape().is_empty() {
            assert_eq!(
                records,
                std::slice::from_ref(want),
                "{name} (NpyReader, 0-d)"
            );
        } else {
            assert_eq!(&Value::Array(records), want, "{name} (NpyReader)");
        }
    }
}

// ---- Derived structs ----

#[derive(Deserialize, Debug, PartialEq)]
struct Scalars {
    b1: bool,
    i1: i8,
    i2: i16,
    i4: i32,
    i8: i64,
    u1: u8,
    u2: u16,
    u4: u32,
    u8: u64,
    f2: f32,
    f4: f32,
    f8: f64,
    c8: Complex<f32>,
    c16: Complex<f64>,
    #[serde(rename = "S5", with = "serde_bytes")]
    s5: Vec<u8>,
    #[serde(rename = "U4")]
    u4_text: String,
    #[serde(rename = "V3", with = "serde_bytes")]
    v3: Vec<u8>,
    #[serde(rename = "M8")]
    dt: Time<DtSeconds>,
    m8: Time<TdMs>,
}

fn scalars_expected() -> Vec<Scalars> {
    vec![
        Scalars {
            b1: true,
            i1: -128,
            i2: -32768,
            i4: i32::MIN,
            i8: i64::MIN,
            u1: 0,
            u2: 0,
            u4: 0,
            u8: 0,
            f2: 1.5,
            f4: 0.5,
            f8: 0.125,
            c8: Complex(1.0, 2.0),
            c16: Complex(1.25, -2.0),
            s5: b"abc".to_vec(),
            u4_text: "xyz".into(),
            v3: vec![1, 2, 3],
            dt: t(946684800),
            m8: t(1500),
        },
        Scalars {
            b1: false,
            i1: 0,
            i2: 1,
            i4: 2,
            i8: 3,
            u1: 1,
            u2: 2,
            u4: 3,
            u8: 4,
            f2: -0.25,
            f4: -2.75,
            f8: -1e300,
            c8: Complex(0.0, -0.5),
            c16: Complex(0.0, 0.0),
            s5: vec![],
            u4_text: String::new(),
            v3: vec![0, 0, 0],
            dt: t(NAT),
            m8: t(-1),
        },
        Scalars {
            b1: true,
            i1: 127,
            i2: 32767,
            i4: i32::MAX,
            i8: i64::MAX,
            u1: 255,
            u2: 65535,
            u4: u32::MAX,
            u8: u64::MAX,
            f2: 65504.0,
            f4: 1048576.0,
            f8: 3.0,
            c8: Complex(3.0, 0.0),
            c16: Complex(-1e200, 1e-200),
            s5: b"hello".to_vec(),
            u4_text: "é中😀!".into(),
            v3: vec![0xff, 0, 1],
            dt: t(-1),
            m8: t(NAT),
        },
    ]
}

#[test]
fn every_scalar_kind_in_both_byte_orders() {
    for name in ["scalars_le", "scalars_be"] {
        let bytes = fixture(name);
        let got: Vec<Scalars> = from_slice(&bytes).unwrap();
        assert_eq!(got, scalars_expected(), "{name}");
        let got: Vec<Scalars> = from_reader(Cursor::new(&bytes)).unwrap();
        assert_eq!(got, scalars_expected(), "{name}");
    }
    for tag in ["le", "be"] {
        let v: Vec<i16> = from_slice(&fixture(&format!("plain_i2_{tag}"))).unwrap();
        assert_eq!(v, [0, 1, 2, 3, 4]);
        let v: Vec<u64> = from_slice(&fixture(&format!("plain_u4_{tag}"))).unwrap();
        assert_eq!(v, [0, 1, 2, 3, 4]);
        let v: Vec<f64> = from_slice(&fixture(&format!("plain_i8_{tag}"))).unwrap();
        assert_eq!(v, [0.0, 1.0, 2.0, 3.0, 4.0]);
        let v: Vec<f32> = from_slice(&fixture(&format!("plain_f4_{tag}"))).unwrap();
        assert_eq!(v, [0.0, 1.0, 2.0, 3.0, 4.0]);
        let v: Vec<f32> = from_slice(&fixture(&format!("plain_f8_{tag}"))).unwrap();
        assert_eq!(v, [0.0, 1.0, 2.0, 3.0, 4.0]);
        let v: Vec<Complex<f64>> = from_slice(&fixture(&format!("plain_c16_{tag}"))).unwrap();
        assert_eq!(v[4], Complex(4.0, 0.0));
    }
    let v: Vec<bool> = from_slice(&fixture("plain_bool")).unwrap();
    assert_eq!(v, [true, false, true]);
}

#[test]
fn borrowed_fields_from_slice() {
    #[derive(Deserialize)]
    struct B<'a> {
        #[serde(rename = "S5", borrow)]
        s5: &'a [u8],
        #[serde(rename = "V3", borrow)]
        v3: &'a [u8],
    }
    #[derive(Deserialize)]
    struct S<'a> {
        #[serde(rename = "S5")]
        s5: &'a str,
    }
    let bytes = fixture("scalars_be");
    let v: Vec<B> = from_slice(&bytes).unwrap();
    assert_eq!((v[2].s5, v[0].v3), (&b"hello"[..], &[1u8, 2, 3][..]));
    let v: Vec<S> = from_slice(&bytes).unwrap();
    assert_eq!(v[2].s5, "hello");
}

#[test]
fn aligned_records_skip_padding() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Inner {
        a: i8,
        b: f64,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Aligned {
        z: i8,
        s: Inner,
        x: i8,
        y: i32,
    }
    let v: Vec<Aligned> = from_slice(&fixture("aligned")).unwrap();
    assert_eq!(
        v[1],
        Aligned {
            x: -1,
            s: Inner { a: -2, b: -2.5 },
            y: -3,
            z: -4
        }
    );
    // tuples take the fields in file order, padding skipped
    let v: Vec<(i8, (i8, f64), i32, i8)> = from_slice(&fixture("aligned")).unwrap();
    assert_eq!(v[0], (1, (2, 2.5), 3, 4));
}

#[test]
fn offsets_with_gaps_and_titles() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Ab {
        b: i32,
        a: i32,
    }
    let v: Vec<Ab> = from_slice(&fixture("offsets")).unwrap();
    assert_eq!(v, [Ab { a: 10, b: 11 }, Ab { a: 20, b: 21 }]);
    #[derive(Deserialize, Debug, PartialEq)]
    struct Titled {
        a: i32,
        b: f64,
    }
    let v: Vec<Titled> = from_slice(&fixture("titles")).unwrap();
    assert_eq!(v, [Titled { a: 1, b: 1.5 }, Titled { a: 2, b: 2.5 }]);
}

#[test]
fn nested_records_with_subarrays() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Info2 {
        name: String,
        value: [Complex<f64>; 2],
        y3: [f64; 2],
        z3: [u32; 2],
    }
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "PascalCase")]
    struct InfoUpper {
        name: String,
        value: Complex<f64>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "PascalCase")]
    struct Info {
        #[serde(rename = "value")]
        value: Complex<f64>,
        #[serde(rename = "y2")]
        y2: f64,
        info2: Info2,
        #[serde(rename = "name")]
        name: String,
        #[serde(rename = "z2")]
        z2: bool,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Nested {
        x: [i32; 2],
        #[serde(rename = "Info")]
        info_big: Info,
        #[serde(with = "serde_bytes")]
        color: Vec<u8>,
        info: InfoUpper,
        y: [[f64; 2]; 2],
        z: u8,
    }
    let v: Vec<Nested> = from_slice(&fixture("nested")).unwrap();
    assert_eq!(v.len(), 2);
    assert_eq!(v[0].x, [3, 2]);
    assert_eq!(
        v[0].info_big.info2,
        Info2 {
            name: "nn".into(),
            value: [Complex(0.0, 6.0), Complex(0.0, 4.0)],
            y3: [6.0, 4.0],
            z3: [1, 2]
        }
    );
    assert_eq!(v[1].info_big.name, "OO");
    assert!(!v[1].info_big.z2);
    assert_eq!(v[1].color, b"dd");
    assert_eq!(
        v[1].info,
        InfoUpper {
            name: "OO".into(),
            value: Complex(0.0, 7.0)
        }
    );
    assert_eq!(v[1].y, [[7.0, 5.0], [7.0, 5.0]]);
    assert_eq!(v[1].z, 9);
}

#[test]
fn subarray_of_records() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct S {
        x: i8,
        y: f32,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct R {
        id: u16,
        s: [S; 2],
    }
    let v: Vec<R> = from_slice(&fixture("subarray_records")).unwrap();
    assert_eq!(
        v[1],
        R {
            id: 8,
            s: [S { x: 3, y: 2.5 }, S { x: 4, y: 3.5 }]
        }
    );
}

#[test]
fn reordered_and_extra_fields() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Few {
        v: f64,
        id: u32,
    }
    let v: Vec<Few> = from_slice(&fixture("extra_fields")).unwrap();
    assert_eq!(v, [Few { v: 3.5, id: 2 }, Few { v: 6.5, id: 5 }]);
    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Strict {
        v: f64,
        id: u32,
    }
    let err = from_slice::<Vec<Strict>>(&fixture("extra_fields")).unwrap_err();
    snapshot!("read_unknown_field", err.to_string());
}

#[test]
fn shapes() {
    let x: f64 = from_slice(&fixture("zero_d")).unwrap();
    assert_eq!(x, 10.5);
    let x: Vec<f64> = from_slice(&fixture("zero_d"))
        .map(|x: f64| vec![x])
        .unwrap();
    assert_eq!(x, [10.5]);
    #[derive(Deserialize, Debug, PartialEq)]
    struct Ab {
        a: i16,
        b: f32,
    }
    let r: Ab = from_slice(&fixture("zero_d_record")).unwrap();
    assert_eq!(r, Ab { a: 1, b: 2.5 });
    let r: Ab = from_reader(&fixture("zero_d_record")[..]).unwrap();
    assert_eq!(r, Ab { a: 1, b: 2.5 });
    let v: Vec<Ab> = from_slice(&fixture("empty")).unwrap_or_default();
    assert!(v.is_empty());
    let v: Vec<[f64; 3]> = from_slice(&fixture("empty_2d")).unwrap();
    assert!(v.is_empty());
    let v: Vec<[f64; 3]> = from_slice(&fixture("n3")).unwrap();
    assert_eq!(v[3], [2.25, 2.5, 2.75]);
    let v: Vec<Vec<f64>> = from_reader(&fixture("n3")[..]).unwrap();
    assert_eq!(v[1], [0.75, 1.0, 1.25]);
}

#[test]
fn fortran_order() {
    let v: Vec<Vec<i32>> = from_slice(&fixture("fortran_2d")).unwrap();
    assert_eq!(v, [[0, 1, 2], [3, 4, 5]]);
    let v: Vec<[[u16; 4]; 3]> = from_slice(&fixture("fortran_3d")).unwrap();
    assert_eq!(v[1][2], [20, 21, 22, 23]);
    let v: Vec<[[u16; 4]; 3]> = from_reader(&fixture("fortran_3d")[..]).unwrap();
    assert_eq!(v[0][1], [4, 5, 6, 7]);
    let f3 = fixture("fortran_3d");
    let mut reader = NpyReader::new(&f3[..]).unwrap();
    assert!(reader.fortran_order());
    let rows: Vec<Vec<Vec<u16>>> = reader.deserialize().collect::<Result<_, _>>().unwrap();
    assert_eq!(rows[1][0], [12, 13, 14, 15]);
    #[derive(Deserialize, Debug, PartialEq)]
    struct Ab {
        a: i8,
        b: f64,
    }
    let v: Vec<Vec<Ab>> = from_slice(&fixture("fortran_records")).unwrap();
    assert_eq!(v[1][0], Ab { a: 3, b: 2.5 });
}

#[test]
fn strings_with_nuls() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Str {
        #[serde(with = "serde_bytes")]
        s: Vec<u8>,
        u: String,
        ub: String,
    }
    let v: Vec<Str> = from_slice(&fixture("strings")).unwrap();
    let s: Vec<&[u8]> = v.iter().map(|r| &r.s[..]).collect();
    assert_eq!(s, [&b"a\0b"[..], b"\0\0x", b"", b"abcdef"]);
    let u: Vec<&str> = v.iter().map(|r| r.u.as_str()).collect();
    assert_eq!(u, ["a\0b", "\0x", "", "éè中😀z"]);
    let ub: Vec<&str> = v.iter().map(|r| r.ub.as_str()).collect();
    assert_eq!(ub, ["x\0y", "", "zz", "😀"]);
    // S as String where UTF-8
    #[derive(Deserialize)]
    struct AsString {
        s: String,
    }
    let v: Vec<AsString> = from_slice(&fixture("strings")).unwrap();
    assert_eq!(v[3].s, "abcdef");
}

#[test]
fn datetimes_convert_exactly() {
    #[derive(Deserialize, Debug)]
    struct Row {
        #[serde(rename = "M8_D")]
        day: Time<DtDays>,
        #[serde(rename = "M8_Y")]
        year_as_months: Time<DtMonths>,
        #[serde(rename = "M8_M")]
        month_as_days: Time<DtDays>,
        #[serde(rename = "M8_W")]
        week_as_s: Time<DtSeconds>,
        #[serde(rename = "M8_ns")]
        ns: Time<DtNanos>,
        #[serde(rename = "M8_h")]
        hours_as_ns: Time<DtNanos>,
        #[serde(rename = "M8_25s")]
        s25: Time<DtSeconds>,
        #[serde(rename = "M8_be")]
        be: Time<DtDays>,
        #[serde(rename = "m8_s")]
        td_s_as_ms: Time<TdMs>,
        #[serde(rename = "m8_W")]
        td_w_as_us: Time<TdUs>,
        #[serde(rename = "m8_ms")]
        td_ms: i64,
    }
    let v: Vec<Row> = from_slice(&fixture("datetimes")).unwrap();
    let r = &v[0];
    assert_eq!(r.day, t(11017));
    assert_eq!(r.year_as_months, t(360));
    assert_eq!(r.month_as_days, t(11017));
    // 2000-03-01 in weeks is truncated by numpy to a Thursday
    assert_eq!(r.week_as_s, t(1573 * 7 * 86400));
    assert_eq!(r.ns, t(951868800000000000));
    assert_eq!(r.hours_as_ns, t(951868800000000000));
    assert_eq!(r.s25, t(50));
    assert_eq!(r.be, t(11017));
    assert_eq!(r.td_s_as_ms, t(3000));
    assert_eq!(r.td_w_as_us, t(3 * 7 * 86400 * 1_000_000));
    assert_eq!(r.td_ms, 3);
    let r = &v[1];
    assert_eq!((r.day.0, r.ns.0, r.s25.0), (NAT, NAT, NAT));
    assert_eq!(r.be, t(-1));
    assert_eq!(r.td_s_as_ms, t(-2000));

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Inexact {
        #[serde(rename = "M8_ms")]
        x: Time<DtMonths>,
    }
    let ok: Vec<Inexact> = from_slice(&fixture("datetimes")).unwrap();
    assert_eq!(ok[0].x, t(362));
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Refused {
        #[serde(rename = "m8_M")]
        x: Time<TdMs>,
    }
    let err = from_slice::<Vec<Refused>>(&fixture("datetimes")).unwrap_err();
    snapshot!("read_timedelta_months_inexact", err.to_string());
}

#[test]
fn arrays_in_a_stream_are_read_in_turn() {
    let mut stream = fixture("particles");
    stream.extend(fixture("zero_d"));
    stream.extend(fixture("fortran_2d"));
    stream.extend(fixture("empty"));
    stream.extend(b"tail");
    let mut r = &stream[..];
    let a: Value = from_reader(&mut r).unwrap();
    assert_eq!(a.as_array().unwrap().len(), 5);
    let b: f64 = from_reader(&mut r).unwrap();
    assert_eq!(b, 10.5);
    let c: Vec<Vec<i64>> = from_reader(&mut r).unwrap();
    assert_eq!(c, [[0, 1, 2], [3, 4, 5]]);
    let d: serde::de::IgnoredAny = from_reader(&mut r).unwrap();
    let _ = d;
    assert_eq!(r, b"tail");
    // NpyReader hands the stream back after the data
    let mut r = &stream[..];
    let mut reader = NpyReader::new(&mut r).unwrap();
    assert_eq!(reader.len(), 5);
    assert_eq!(reader.version(), (1, 0));
    assert_eq!(reader.dtype().itemsize(), 44);
    let n = reader.deserialize::<Value>().count();
    assert_eq!(n, 5);
    let _ = reader.into_inner();
    let b: f64 = from_reader(&mut r).unwrap();
    assert_eq!(b, 10.5);
}

#[test]
fn npy_reader_seeks() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct P {
        id: u32,
        mass: f64,
    }
    let file = fixture("particles");
    let mut reader = NpyReader::new(Cursor::new(&file)).unwrap();
    reader.seek_record(3).unwrap();
    let p: Vec<P> = reader.deserialize().collect::<Result<_, _>>().unwrap();
    assert_eq!(p.iter().map(|p| p.id).collect::<Vec<_>>(), [3, 4]);
    reader.seek_record(1).unwrap();
    let p = reader.deserialize::<P>().next().unwrap().unwrap();
    assert_eq!(p, P { id: 1, mass: 2.0 });
    assert!(reader.seek_record(6).is_err());
    reader.seek_record(5).unwrap();
    assert!(reader.deserialize::<P>().next().is_none());
    // an element that does not fit does not end the iteration
    let mut reader = NpyReader::new(Cursor::new(&file)).unwrap();
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Small {
        count: u8,
    }
    let results: Vec<_> = reader.deserialize::<Small>().collect();
    assert_eq!(results.len(), 5);
    assert!(results[3].is_err() && results[4].is_ok());
}

// ---- Refusals, as insta snapshots ----

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Particle {
    id: u32,
    pos: [f64; 3],
    mass: f64,
    count: i64,
}

#[test]
fn refusal_truncated_data() {
    let file = fixture("particles");
    let short = &file[..file.len() - 50];
    let err = from_slice::<Vec<Particle>>(short).unwrap_err();
    snapshot!("read_truncated_from_slice", err.to_string());
    let err = from_reader::<Vec<Particle>>(short).unwrap_err();
    snapshot!("read_truncated_from_reader", err.to_string());
    let mut reader = NpyReader::new(short).unwrap();
    let results: Vec<_> = reader.deserialize::<Particle>().collect();
    assert_eq!(results.len(), 4);
    snapshot!(
        "read_truncated_npy_reader",
        results[3].as_ref().unwrap_err().to_string()
    );
}

#[test]
fn refusal_trailing_bytes() {
    let mut file = fixture("particles");
    file.extend_from_slice(&[0; 3]);
    let err = from_slice::<Vec<Particle>>(&file).unwrap_err();
    snapshot!("read_trailing_bytes", err.to_string());
}

#[test]
fn refusal_type_mismatch_with_path() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Wrong {
        pos: (f64, String, f64),
    }
    let err = from_slice::<Vec<Wrong>>(&fixture("particles")).unwrap_err();
    snapshot!("read_type_mismatch", err.to_string());
    let err = from_slice::<Vec<f64>>(&fixture("particles")).unwrap_err();
    snapshot!("read_record_into_scalar", err.to_string());
}

#[test]
fn refusal_missing_field() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Missing {
        id: u32,
        velocity: [f64; 3],
    }
    let err = from_slice::<Vec<Missing>>(&fixture("particles")).unwrap_err();
    snapshot!("read_missing_field", err.to_string());
}

#[test]
fn refusal_object_and_long_double() {
    let err = from_slice::<Value>(&fixture("object")).unwrap_err();
    snapshot!("read_object", err.to_string());
    let err = from_reader::<Value>(&fixture("object")[..]).unwrap_err();
    snapshot!("read_object", err.to_string());
    let err = from_slice::<Value>(&fixture("longdouble")).unwrap_err();
    snapshot!("read_long_double", err.to_string());
}

#[test]
fn refusal_int_overflow_into_u8() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Small {
        count: u8,
    }
    let err = from_slice::<Vec<Small>>(&fixture("particles")).unwrap_err();
    snapshot!("read_int_overflow", err.to_string());
}

#[test]
fn refusal_f8_into_f32_not_exact() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Single {
        mass: f32,
    }
    let err = from_slice::<Vec<Single>>(&fixture("particles")).unwrap_err();
    snapshot!("read_f8_into_f32", err.to_string());
    let ok: Vec<Single> = ReadOptions::new()
        .lossy(true)
        .from_slice(&fixture("particles"))
        .unwrap();
    assert_eq!(ok[2].mass, 0.1f32);
}

// ---- Untrusted input ----

/// A v1.0 file with this header dict text and data.
fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    let dict = format!("{{'descr': {descr}, 'fortran_order': False, 'shape': {shape}, }}");
    let mut v = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
    v.extend(format!("{dict:<117}\n").bytes());
    v.extend_from_slice(data);
    v
}

#[test]
fn lying_shapes_fail_without_allocating() {
    let file = npy("'|u1'", "(4000000000,)", &[1, 2, 3]);
    let err = from_reader::<Vec<u8>>(&file[..]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "data ends after 3 bytes, the header promises 4000000000 bytes (record 3 is incomplete)"
    );
    assert!(from_slice::<Vec<u8>>(&file).is_err());
    let err = from_reader::<Value>(&file[..]).unwrap_err();
    assert!(err.to_string().starts_with("data ends after 3 bytes"));
    let mut reader = NpyReader::new(&file[..]).unwrap();
    let got: Vec<_> = reader.deserialize::<u8>().take(10).collect();
    assert_eq!(got.len(), 4);
    assert!(got[3].is_err());
    // a huge 0-d record
    let file = npy("[('x', '|V1000000000')]", "()", &[0; 10]);
    assert!(from_reader::<Value>(&file[..]).is_err());
    // zero-size records: bounded by max_elements
    let file = npy("[]", "(1099511627776,)", &[]);
    assert!(from_reader::<Vec<()>>(&file[..]).is_err());
    let file = npy("[]", "(3,)", &[]);
    let v: Vec<()> = from_reader(&file[..]).unwrap();
    assert_eq!(v.len(), 3);
    let err = ReadOptions::new()
        .max_elements(2)
        .from_slice::<Vec<()>>(&file)
        .unwrap_err();
    assert!(
        matches!(err.kind(), npy_serde::ErrorKind::Limit(_)),
        "{err}"
    );
}

#[test]
fn every_truncation_is_an_error() {
    for name in [
        "scalars_be",
        "nested",
        "fortran_3d",
        "strings",
        "np1_pprint_nested",
        "np1_py2_long_2d",
        "latin1_names",
        "version_3_0_cjk",
        "version_2_0",
    ] {
        let file = fixture(name);
        for n in 0..file.len() {
            assert!(
                from_slice::<Value>(&file[..n]).is_err(),
                "{name} cut at {n}"
            );
            assert!(
                from_reader::<Value>(&file[..n]).is_err(),
                "{name} cut at {n}"
            );
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
    /// Changing bytes of the data never panics.
    #[test]
    fn corrupted_data_never_panics(
        which in 0usize..4,
        flips in proptest::collection::vec((0usize..4096, proptest::prelude::any::<u8>()), 1..8),
    ) {
        let name = ["scalars_le", "nested", "strings", "datetimes"][which];
        let mut file = fixture(name);
        let start = 128;
        let len = file.len() - start;
        for (at, byte) in flips {
            file[start + at % len] = byte;
        }
        let _ = from_slice::<Value>(&file);
        let _ = from_reader::<Value>(&file[..]);
        if let Ok(mut r) = NpyReader::new(&file[..]) {
            for x in r.deserialize::<Value>() {
                let _ = x;
            }
        }
        if name == "scalars_le" {
            let _ = from_slice::<Vec<Scalars>>(&file);
        }
    }
}

#[test]
fn f2_all_bit_patterns_widen_like_numpy_and_keep_their_bits() {
    let mut data = Vec::new();
    for h in 0..=u16::MAX {
        data.extend_from_slice(&h.to_le_bytes());
    }
    let file = npy("'<f2'", "(65536,)", &data);
    let v: Vec<f32> = from_slice(&file).unwrap();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for x in &v {
        for b in x.to_bits().to_le_bytes() {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    let want = expected()["f2_all_patterns_as_f4_bits_fnv1a64"].clone();
    assert_eq!(hash.to_string(), want.as_str().unwrap());
    // through the "f16" token the raw bits come back unchanged, in both orders
    #[derive(Debug, PartialEq)]
    struct Half(u16);
    impl<'de> Deserialize<'de> for Half {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> serde::de::Visitor<'de> for V {
                type Value = Half;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("f16 bits")
                }
                fn visit_newtype_struct<D: serde::Deserializer<'de>>(
                    self,
                    d: D,
                ) -> Result<Half, D::Error> {
                    u16::deserialize(d).map(Half)
                }
            }
            d.deserialize_newtype_struct("f16", V)
        }
    }
    let v: Vec<Half> = from_reader(&file[..]).unwrap();
    assert!(v.iter().enumerate().all(|(i, h)| usize::from(h.0) == i));
    let mut be = Vec::new();
    for h in 0..=u16::MAX {
        be.extend_from_slice(&h.to_be_bytes());
    }
    let v: Vec<Half> = from_slice(&npy("'>f2'", "(65536,)", &be)).unwrap();
    assert!(v.iter().enumerate().all(|(i, h)| usize::from(h.0) == i));
}

#[test]
fn refusal_bad_strings() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Text {
        name: String,
    }
    let mut data = Vec::new();
    for u in [0x41u32, 0x11_0000] {
        data.extend_from_slice(&u.to_le_bytes());
    }
    let file = npy("[('name', '<U2')]", "(1,)", &data);
    let err = from_slice::<Vec<Text>>(&file).unwrap_err();
    snapshot!("read_invalid_ucs4", err.to_string());
    let err = from_slice::<Value>(&file).unwrap_err();
    snapshot!("read_invalid_ucs4", err.to_string());
    let file = npy("[('name', '|S3')]", "(2,)", b"ok\0\xff\xfe\0");
    let err = from_slice::<Vec<Text>>(&file).unwrap_err();
    snapshot!("read_bytes_not_utf8", err.to_string());
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    enum Color {
        Red,
    }
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct C {
        name: Color,
    }
    let file = npy(
        "[('name', '<U4')]",
        "(1,)",
        &[b'B', 0, 0, 0, b'l', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    );
    let err = from_slice::<Vec<C>>(&file).unwrap_err();
    snapshot!("read_unknown_variant", err.to_string());
}

/// A reader that returns at most a few bytes per call, like numpy's
/// `test_roundtrip_randsize`.
struct ShortReads<'a> {
    data: &'a [u8],
    sizes: Vec<usize>,
    call: usize,
}

impl std::io::Read for ShortReads<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let max = self.sizes[self.call % self.sizes.len()];
        self.call += 1;
        let n = max.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
    /// from_slice, from_reader (with short reads) and NpyReader agree on
    /// any data bytes.
    #[test]
    fn all_read_paths_agree(
        which in 0usize..5,
        seed in proptest::collection::vec(proptest::prelude::any::<u8>(), 1..64),
        sizes in proptest::collection::vec(1usize..50, 1..5),
    ) {
        let name = ["particles", "aligned", "fortran_3d", "subarray_records", "n3"][which];
        let mut file = fixture(name);
        let data_start = 128;
        for (i, b) in file[data_start..].iter_mut().enumerate() {
            *b = seed[i % seed.len()].wrapping_add(i as u8);
        }
        let a: Result<Value, _> = from_slice(&file);
        let reader = ShortReads { data: &file, sizes, call: 0 };
        let b: Result<Value, _> = from_reader(reader);
        let c: Result<Vec<Value>, _> =
            NpyReader::new(&file[..]).and_then(|mut r| r.deserialize().collect());
        match (a, b, c) {
            (Ok(a), Ok(b), Ok(c)) => {
                proptest::prop_assert_eq!(&a, &b);
                proptest::prop_assert_eq!(a, Value::Array(c));
            }
            (Err(a), Err(b), Err(c)) => {
                proptest::prop_assert_eq!(a.to_string(), b.to_string());
                proptest::prop_assert_eq!(a.to_string(), c.to_string());
            }
            (a, b, c) => proptest::prop_assert!(false, "{:?} {:?} {:?}", a, b, c),
        }
    }
}

// ---- Format versions 1.0, 2.0 and 3.0 (whole files, header and data) ----

#[derive(Deserialize, Debug, PartialEq)]
struct VRow {
    name: String,
    x: i32,
    y: f64,
}

fn vrows() -> Vec<VRow> {
    vec![
        VRow {
            name: "ab".into(),
            x: 1,
            y: 0.5,
        },
        VRow {
            name: "xyz".into(),
            x: -2,
            y: 1e100,
        },
        VRow {
            name: String::new(),
            x: 3,
            y: -0.0,
        },
    ]
}

#[test]
fn format_versions_1_2_3() {
    for (name, version) in [
        ("version_1_0", (1, 0)),
        ("version_2_0", (2, 0)),
        ("version_3_0_ascii", (3, 0)),
    ] {
        let file = fixture(name);
        assert_eq!((file[6], file[7]), version, "{name}");
        let v: Vec<VRow> = from_slice(&file).unwrap();
        assert_eq!(v, vrows(), "{name}");
        assert!(v[2].y.is_sign_negative());
        let v: Vec<VRow> = from_reader(&file[..]).unwrap();
        assert_eq!(v, vrows(), "{name}");
        let mut reader = NpyReader::new(&file[..]).unwrap();
        assert_eq!(reader.version(), version, "{name}");
        assert_eq!(reader.shape(), [3]);
        let v: Vec<VRow> = reader.deserialize().collect::<Result<_, _>>().unwrap();
        assert_eq!(v, vrows(), "{name}");
        let v: Value = from_slice(&file).unwrap();
        assert_eq!(
            v[1],
            serde_json::json!({"x": -2, "y": 1e100, "name": "xyz"})
        );
    }
}

#[test]
fn format_3_0_cjk_names() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Cjk {
        #[serde(rename = "浮動小数")]
        float: f64,
        #[serde(rename = "整形")]
        int: i32,
        #[serde(rename = "é", with = "serde_bytes")]
        e: Vec<u8>,
    }
    let file = fixture("version_3_0_cjk");
    assert_eq!((file[6], file[7]), (3, 0));
    let want = [
        Cjk {
            float: 2.5,
            int: 7,
            e: b"ab".to_vec(),
        },
        Cjk {
            float: -0.25,
            int: -8,
            e: vec![],
        },
    ];
    let v: Vec<Cjk> = from_slice(&file).unwrap();
    assert_eq!(v, want);
    let v: Vec<Cjk> = from_reader(&file[..]).unwrap();
    assert_eq!(v, want);
    let reader = NpyReader::new(&file[..]).unwrap();
    assert_eq!(reader.version(), (3, 0));
    let names: Vec<&str> = reader
        .dtype()
        .as_record()
        .unwrap()
        .fields()
        .iter()
        .map(|f| f.name())
        .collect();
    assert_eq!(names, ["整形", "浮動小数", "é"]);
    let v: Value = from_slice(&file).unwrap();
    assert_eq!(v[0]["整形"], 7);
}

#[test]
fn format_2_0_long_header() {
    let file = fixture("version_2_0_long");
    assert_eq!((file[6], file[7]), (2, 0));
    // over the default max_header_size, like np.load's
    let err = from_slice::<Value>(&file).unwrap_err();
    snapshot!("read_long_header_needs_option", err.to_string());
    let opts = ReadOptions::new().max_header_size(80_000);
    // tuples take the fields in file order
    let v: Vec<(u16, f32)> = opts.clone().from_slice(&file).unwrap();
    assert_eq!(v, [(1, 2.0), (3, 4.0)]);
    #[derive(Deserialize, Debug, PartialEq)]
    struct B {
        b: f32,
    }
    let v: Vec<B> = opts.clone().from_reader(&file[..]).unwrap();
    assert_eq!(v, [B { b: 2.0 }, B { b: 4.0 }]);
    let reader = NpyReader::with_options(&file[..], opts).unwrap();
    assert_eq!(reader.version(), (2, 0));
    let long = &reader.dtype().as_record().unwrap().fields()[0];
    assert_eq!(long.name().len(), 70_005);
}

// ---- Headers as numpy 1.x wrote them (hand-built in make.py) ----

#[test]
fn numpy_1x_pprint_headers() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Small {
        z: u8,
        y: [[f64; 2]; 2],
        x: [i32; 2],
    }
    let file = fixture("np1_pprint");
    // 16-byte alignment, multi-line dict without trailing comma
    assert_eq!(&file[8..10], b"v\x00");
    assert!(file[10..128].starts_with(b"{'descr': [('x', '<i4', (2,)), ('y', '<f8', (2, 2)), ('z', '|u1')],\n 'fortran_order': False,\n 'shape': (2,)}"));
    let want = [
        Small {
            x: [1, -2],
            y: [[0.0, 0.5], [1.0, 1.5]],
            z: 5,
        },
        Small {
            x: [3, -4],
            y: [[2.0, 2.5], [3.0, 3.5]],
            z: 255,
        },
    ];
    let v: Vec<Small> = from_slice(&file).unwrap();
    assert_eq!(v, want);
    let v: Vec<Small> = from_reader(&file[..]).unwrap();
    assert_eq!(v, want);
    let reader = NpyReader::new(&file[..]).unwrap();
    assert_eq!(reader.version(), (1, 0));
    // Display gives today's layout
    assert_eq!(
        reader.header().to_string(),
        "{'descr': [('x', '<i4', (2,)), ('y', '<f8', (2, 2)), ('z', '|u1')], 'fortran_order': False, 'shape': (2,), }"
    );

    #[derive(Deserialize, Debug, PartialEq)]
    struct Xy {
        x: i32,
        y: f64,
    }
    let file = fixture("np1_pprint_xy");
    let hlen = u16::from_le_bytes([file[8], file[9]]) as usize;
    assert_eq!((10 + hlen) % 16, 0);
    assert_eq!(file[9 + hlen], b'\n');
    assert!(file[10..].starts_with(
        b"{'descr': [('x', '<i4'), ('y', '<f8')],\n 'fortran_order': False,\n 'shape': (2,)}"
    ));
    let v: Vec<Xy> = from_slice(&file).unwrap();
    assert_eq!(v, [Xy { x: 1, y: 0.5 }, Xy { x: -1, y: 2.5 }]);

    // pprint line breaks inside the descr, big-endian, nested records
    #[derive(Deserialize, Debug, PartialEq)]
    struct Info2 {
        #[serde(with = "serde_bytes")]
        name: Vec<u8>,
        value: [Complex<f64>; 2],
        y3: [f64; 2],
        z3: [u32; 2],
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Info {
        #[serde(rename = "Info2")]
        info2: Info2,
        name: String,
        z2: bool,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "PascalCase")]
    struct InfoUpper {
        name: String,
        value: Complex<f64>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Old {
        x: [i32; 2],
        #[serde(rename = "Info")]
        info_big: Info,
        color: String,
        info: InfoUpper,
        z: u8,
    }
    let file = fixture("np1_pprint_nested");
    assert_eq!(&file[8..10], b"\x16\x02");
    let v: Vec<Old> = from_slice(&file).unwrap();
    assert_eq!(v[0].x, [3, 2]);
    assert_eq!(
        v[0].info_big.info2,
        Info2 {
            name: b"nn".to_vec(),
            value: [Complex(0.0, 6.0), Complex(0.0, 4.0)],
            y3: [6.0, 4.0],
            z3: [1, 2]
        }
    );
    assert_eq!(
        (v[1].info_big.name.as_str(), v[1].info_big.z2),
        ("OO", false)
    );
    assert_eq!(v[1].color, "dd");
    assert_eq!(
        v[1].info,
        InfoUpper {
            name: "OO".into(),
            value: Complex(0.0, 7.0)
        }
    );
    assert_eq!(v[1].z, 9);
    let w: Vec<Old> = from_reader(&file[..]).unwrap();
    assert_eq!(w, v);

    // numpy 1.0-1.13: today's `, }` layout with 16-byte alignment, Fortran order
    let file = fixture("np1_align16");
    assert_eq!(file.len(), 80 + 12);
    let v: Vec<Vec<u16>> = from_slice(&file).unwrap();
    assert_eq!(v, [[0, 1, 2], [3, 4, 5]]);
    let v: Vec<[u16; 3]> = from_reader(&file[..]).unwrap();
    assert_eq!(v, [[0, 1, 2], [3, 4, 5]]);
}

#[test]
fn numpy_1x_python2_long_suffix() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Xy {
        y: f64,
        x: i32,
    }
    let file = fixture("np1_py2_long");
    assert!(file[10..].starts_with(
        b"{'descr': [('x', '<i4'), ('y', '<f8')], 'fortran_order': False, 'shape': (3L,), }"
    ));
    let want = [
        Xy { x: 1, y: 1.5 },
        Xy { x: 2, y: -2.5 },
        Xy { x: 3, y: 1e-300 },
    ];
    let v: Vec<Xy> = from_slice(&file).unwrap();
    assert_eq!(v, want);
    let v: Vec<Xy> = from_reader(&file[..]).unwrap();
    assert_eq!(v, want);
    let reader = NpyReader::new(&file[..]).unwrap();
    assert_eq!((reader.len(), reader.shape()), (3, &[3u64][..]));
    // L inside the descr's subarray shapes too
    #[derive(Deserialize, Debug, PartialEq)]
    struct Sub {
        y: i32,
        x: [[f64; 3]; 2],
    }
    let file = fixture("np1_py2_long_subarray");
    let v: Vec<Sub> = from_slice(&file).unwrap();
    assert_eq!(
        v[1],
        Sub {
            y: 8,
            x: [[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]
        }
    );
    // Python 2 unicode names: u'...' with escapes
    #[derive(Deserialize, Debug, PartialEq)]
    struct Uni {
        #[serde(rename = "é中")]
        e: f64,
        a: i32,
    }
    let file = fixture("np1_py2_unicode_names");
    assert!(file[10..].starts_with(b"{'descr': [(u'a', '<i4'), (u'\\xe9\\u4e2d', '<f8')]"));
    let v: Vec<Uni> = from_slice(&file).unwrap();
    assert_eq!(v, [Uni { e: 0.5, a: 1 }, Uni { e: 1.5, a: 2 }]);
    // the same in a 2.0 header (numpy <= 1.13 on Python 2, long headers)
    let file = fixture("np1_py2_long_v2");
    assert_eq!((file[6], file[7]), (2, 0));
    let v: Vec<Xy> = from_slice(&file).unwrap();
    assert_eq!(v, want);
    let v: Vec<Xy> = from_reader(&file[..]).unwrap();
    assert_eq!(v, want);
    // 2-d, Fortran order
    let file = fixture("np1_py2_long_2d");
    assert!(
        file[10..].starts_with(b"{'descr': '<i8', 'fortran_order': True, 'shape': (2L, 3L), }")
    );
    let v: Vec<Vec<i64>> = from_slice(&file).unwrap();
    assert_eq!(v, [[0, 1, 2], [3, 4, 5]]);
    let reader = NpyReader::new(&file[..]).unwrap();
    assert_eq!(reader.shape(), [2, 3]);
    assert!(reader.fortran_order());
}

#[test]
fn latin1_names_in_version_1_headers() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Latin {
        #[serde(rename = "ñ")]
        n: f32,
        #[serde(rename = "été")]
        ete: i16,
    }
    for name in ["latin1_names", "np1_latin1_align16"] {
        let file = fixture(name);
        assert_eq!((file[6], file[7]), (1, 0));
        // the raw latin-1 byte, not UTF-8
        assert!(file.windows(5).any(|w| w == b"'\xe9t\xe9'"), "{name}");
        let want = [Latin { n: 2.0, ete: 1 }, Latin { n: 4.0, ete: 3 }];
        let v: Vec<Latin> = from_slice(&file).unwrap();
        assert_eq!(v, want, "{name}");
        let v: Vec<Latin> = from_reader(&file[..]).unwrap();
        assert_eq!(v, want, "{name}");
        let reader = NpyReader::new(&file[..]).unwrap();
        assert_eq!(
            reader.dtype().to_string(),
            "[('été', '<i2'), ('ñ', '<f4')]",
            "{name}"
        );
        let v: Value = from_slice(&file).unwrap();
        assert_eq!(v[1]["été"], 3);
    }
}

// ---- S/U with NULs inside and at the end of the values; datetime extras ----

#[test]
fn strings_with_trailing_nuls_in_the_values() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Str {
        #[serde(with = "serde_bytes")]
        s: Vec<u8>,
        u: String,
        ub: String,
        #[serde(with = "serde_bytes")]
        v: Vec<u8>,
    }
    let file = fixture("strings_nuls");
    let v: Vec<Str> = from_slice(&file).unwrap();
    let w: Vec<Str> = from_reader(&file[..]).unwrap();
    assert_eq!(v, w);
    let s: Vec<&[u8]> = v.iter().map(|r| &r.s[..]).collect();
    assert_eq!(s, [&b"a\0b"[..], b"\0a", b"abcde", b""]);
    let u: Vec<&str> = v.iter().map(|r| r.u.as_str()).collect();
    assert_eq!(u, ["a\0b", "\0\0x", "héllo", ""]);
    let ub: Vec<&str> = v.iter().map(|r| r.ub.as_str()).collect();
    assert_eq!(ub, ["中", "\0z", "abcd", ""]);
    // V is raw: its NULs stay
    let raw: Vec<&[u8]> = v.iter().map(|r| &r.v[..]).collect();
    assert_eq!(raw, [&b"a\0\0\0"[..], b"\0\0\0\0", b"\0\0\0b", b"abcd"]);
    // borrowed from the slice, NULs stripped the same way
    #[derive(Deserialize)]
    struct Borrowed<'a> {
        #[serde(borrow)]
        s: &'a [u8],
        #[serde(borrow)]
        v: &'a [u8],
    }
    let b: Vec<Borrowed> = from_slice(&file).unwrap();
    assert_eq!((b[1].s, b[2].v), (&b"\0a"[..], &b"\0\0\0b"[..]));
}

unit!(DtWeeks7, "$npy_serde::M8[7D]");
unit!(TdSeconds, "$npy_serde::m8[s]");

#[test]
fn datetime_multipliers_and_big_endian_timedeltas() {
    #[derive(Deserialize, Debug)]
    struct A {
        m8_25s: Time<TdSeconds>,
        #[serde(rename = "M8_7D")]
        days: Time<DtDays>,
        m8_be_us: Time<TdUs>,
        m8_generic_nat: Time<TdMs>,
        #[serde(rename = "M8_be_ns")]
        ns: Time<DtNanos>,
    }
    #[derive(Deserialize, Debug)]
    struct B {
        #[serde(rename = "M8_7D")]
        same_unit: Time<DtWeeks7>,
        m8_25s: i64,
    }
    let file = fixture("datetimes_more");
    let v: Vec<A> = from_slice(&file).unwrap();
    assert_eq!(v[0].m8_25s, t(50));
    assert_eq!(v[0].days, t(14));
    assert_eq!(v[0].m8_be_us, t(-1_500_000));
    assert_eq!(v[0].m8_generic_nat, t(NAT));
    assert_eq!(v[0].ns, t(981_173_106_000_000_007));
    assert_eq!(
        (v[1].m8_25s.0, v[1].days.0, v[1].m8_generic_nat.0, v[1].ns.0),
        (NAT, NAT, NAT, NAT)
    );
    assert_eq!(v[1].m8_be_us, t(7));
    let v: Vec<B> = from_reader(&file[..]).unwrap();
    assert_eq!((v[0].same_unit.0, v[0].m8_25s), (2, 2));
    assert_eq!(v[1].same_unit.0, NAT);
    // 7 us is not a whole number of milliseconds
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Ms {
        m8_be_us: Time<TdMs>,
    }
    let err = from_slice::<Vec<Ms>>(&file).unwrap_err();
    snapshot!("read_timedelta_us_to_ms_inexact", err.to_string());
}

#[test]
fn latin1_in_version_2_and_escaped_names() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct L {
        #[serde(rename = "ÿ")]
        y: u8,
        #[serde(rename = "é")]
        e: i16,
    }
    let file = fixture("version_2_0_latin1");
    assert_eq!((file[6], file[7]), (2, 0));
    let v: Vec<L> = from_slice(&file).unwrap();
    assert_eq!(v, [L { y: 2, e: 1 }]);
    #[derive(Deserialize, Debug, PartialEq)]
    struct E {
        #[serde(rename = "tab\there")]
        tab: i16,
        #[serde(rename = "it's")]
        its: i16,
        #[serde(rename = "back\\slash")]
        back: i16,
        #[serde(rename = "\u{200b}")]
        zwsp: i16,
        #[serde(rename = "q\"d")]
        q: i16,
        #[serde(rename = "\u{7f}\u{a0}\u{ad}")]
        nonprint: i16,
    }
    let file = fixture("escaped_names");
    assert_eq!((file[6], file[7]), (1, 0));
    let want = [E {
        tab: 1,
        its: 2,
        back: 3,
        zwsp: 4,
        q: 5,
        nonprint: 6,
    }];
    let v: Vec<E> = from_slice(&file).unwrap();
    assert_eq!(v, want);
    let v: Vec<E> = from_reader(&file[..]).unwrap();
    assert_eq!(v, want);
    // and the header prints back exactly as numpy wrote it
    let reader = NpyReader::new(&file[..]).unwrap();
    let hlen = usize::from(u16::from_le_bytes([file[8], file[9]]));
    let text: String = file[10..10 + hlen].iter().map(|&b| char::from(b)).collect();
    assert_eq!(reader.header().to_string(), text.trim_end());
}

/// Every unit into the crate's own datetime types, each in its own unit,
/// against the counts numpy exported.
#[test]
fn every_datetime_unit_into_crate_types() {
    use npy_serde::{Datetime64 as Dt, Timedelta64 as Td, unit};
    #[derive(Deserialize, Debug)]
    struct Units {
        #[serde(rename = "M8_Y")]
        y: Dt<unit::Y>,
        #[serde(rename = "M8_M")]
        mo: Dt<unit::M>,
        #[serde(rename = "M8_W")]
        w: Dt<unit::W>,
        #[serde(rename = "M8_D")]
        d: Dt<unit::D>,
        #[serde(rename = "M8_h")]
        h: Dt<unit::h>,
        #[serde(rename = "M8_m")]
        mi: Dt<unit::m>,
        #[serde(rename = "M8_s")]
        s: Dt<unit::s>,
        #[serde(rename = "M8_ms")]
        ms: Dt<unit::ms>,
        #[serde(rename = "M8_us")]
        us: Dt<unit::us>,
        #[serde(rename = "M8_ns")]
        ns: Dt<unit::ns>,
        #[serde(rename = "M8_ps")]
        ps: Dt<unit::ps>,
        #[serde(rename = "M8_fs")]
        fs: Dt<unit::fs>,
        #[serde(rename = "M8_as")]
        at: Dt<unit::as_>,
        #[serde(rename = "M8_generic")]
        generic: Dt<unit::Generic>,
        #[serde(rename = "m8_Y")]
        td_y: Td<unit::Y>,
        #[serde(rename = "m8_M")]
        td_mo: Td<unit::M>,
        #[serde(rename = "m8_W")]
        td_w: Td<unit::W>,
        #[serde(rename = "m8_D")]
        td_d: Td<unit::D>,
        #[serde(rename = "m8_h")]
        td_h: Td<unit::h>,
        #[serde(rename = "m8_m")]
        td_mi: Td<unit::m>,
        #[serde(rename = "m8_s")]
        td_s: Td<unit::s>,
        #[serde(rename = "m8_ms")]
        td_ms: Td<unit::ms>,
        #[serde(rename = "m8_us")]
        td_us: Td<unit::us>,
        #[serde(rename = "m8_ns")]
        td_ns: Td<unit::ns>,
        #[serde(rename = "m8_ps")]
        td_ps: Td<unit::ps>,
        #[serde(rename = "m8_fs")]
        td_fs: Td<unit::fs>,
        #[serde(rename = "m8_as")]
        td_at: Td<unit::as_>,
        #[serde(rename = "m8_generic")]
        td_generic: Td<unit::Generic>,
        #[serde(rename = "M8_25s")]
        s25_as_s: Dt<unit::s>,
        #[serde(rename = "M8_be")]
        be: Dt<unit::D>,
    }
    let exp = expected()["datetimes"].clone();
    let file = fixture("datetimes");
    let v: Vec<Units> = from_slice(&file).unwrap();
    let w: Vec<Units> = from_reader(&file[..]).unwrap();
    for (i, (r, r2)) in v.iter().zip(&w).enumerate() {
        let e = |k: &str| exp[i][k].as_i64().unwrap();
        let got = [
            ("M8_Y", r.y.count()),
            ("M8_M", r.mo.count()),
            ("M8_W", r.w.count()),
            ("M8_D", r.d.count()),
            ("M8_h", r.h.count()),
            ("M8_m", r.mi.count()),
            ("M8_s", r.s.count()),
            ("M8_ms", r.ms.count()),
            ("M8_us", r.us.count()),
            ("M8_ns", r.ns.count()),
            ("M8_ps", r.ps.count()),
            ("M8_fs", r.fs.count()),
            ("M8_as", r.at.count()),
            ("M8_generic", r.generic.count()),
            ("m8_Y", r.td_y.count()),
            ("m8_M", r.td_mo.count()),
            ("m8_W", r.td_w.count()),
            ("m8_D", r.td_d.count()),
            ("m8_h", r.td_h.count()),
            ("m8_m", r.td_mi.count()),
            ("m8_s", r.td_s.count()),
            ("m8_ms", r.td_ms.count()),
            ("m8_us", r.td_us.count()),
            ("m8_ns", r.td_ns.count()),
            ("m8_ps", r.td_ps.count()),
            ("m8_fs", r.td_fs.count()),
            ("m8_as", r.td_at.count()),
            ("m8_generic", r.td_generic.count()),
            ("M8_be", r.be.count()),
        ];
        for (k, count) in got {
            assert_eq!(count, e(k), "record {i}, {k}");
        }
        // 25-second ticks in seconds
        let s25 = e("M8_25s");
        let want = if s25 == NAT { NAT } else { s25 * 25 };
        assert_eq!(r.s25_as_s.count(), want);
        assert_eq!(
            (r2.at.count(), r2.td_at.count(), r2.s25_as_s.count()),
            (r.at.count(), r.td_at.count(), r.s25_as_s.count())
        );
    }
    assert!(v[0].generic.is_nat() && v[1].y.is_nat() && v[1].at.is_nat());
    assert_eq!(v[0].td_at.count(), 3);
    assert_eq!(v[1].td_y.count(), -2);
}

/// numpy 1.x wrote object arrays with the bare descr `'O'` (test_format.py's
/// doctest): still the object refusal, not a descr error.
#[test]
fn numpy_1x_bare_object_descr() {
    let text = b"{'descr': 'O', 'fortran_order': False, 'shape': (3,)}";
    let mut file = b"\x93NUMPY\x01\x00F\x00".to_vec();
    file.extend_from_slice(text);
    file.resize(79, b' ');
    file.push(b'\n');
    file.extend_from_slice(b"\x80\x02");
    let err = from_slice::<Value>(&file).unwrap_err();
    snapshot!("read_object_bare_descr", err.to_string());
    let err = from_reader::<Value>(&file[..]).unwrap_err();
    snapshot!("read_object_bare_descr", err.to_string());
}

/// The array-interface examples numpy wrote for the write tests
/// (tests/data/write/ai_*.npy) read back into the Rust types of the spec.
#[test]
fn array_interface_examples_read_back() {
    fn write_fixture(name: &str) -> Vec<u8> {
        let path = format!("{}/data/write/{name}.npy", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Padded {
        ival: i32,
        _pad: npy_serde::Padding<4>,
        dval: f64,
    }
    for name in ["ai_padded_le", "ai_padded_be"] {
        let v: Vec<Padded> = from_slice(&write_fixture(name)).unwrap();
        assert_eq!(
            v,
            [
                Padded {
                    ival: 5,
                    _pad: npy_serde::Padding,
                    dval: 0.5
                },
                Padded {
                    ival: -6,
                    _pad: npy_serde::Padding,
                    dval: -1e10
                }
            ],
            "{name}"
        );
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct NestedArray {
        ival: i32,
        data: [[f64; 4]; 16],
    }
    for name in ["ai_nested_array_le", "ai_nested_array_be"] {
        let file = write_fixture(name);
        let v: Vec<NestedArray> = from_slice(&file).unwrap();
        assert_eq!((v[0].ival, v[1].ival), (1, -1), "{name}");
        assert_eq!(v[1].data[15], [12.5, 12.625, 12.75, 12.875], "{name}");
        let w: Vec<NestedArray> = from_reader(&file[..]).unwrap();
        assert_eq!(v, w);
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Mixed {
        little: i32,
        big: i32,
    }
    let v: Vec<Mixed> = from_slice(&write_fixture("ai_mixed_endian")).unwrap();
    assert_eq!(
        v,
        [
            Mixed {
                little: 0x0102_0304,
                big: 1
            },
            Mixed {
                little: -3,
                big: -2
            }
        ]
    );
    #[derive(Deserialize, Debug, PartialEq)]
    struct Sub {
        cval: u8,
        bval: u8,
        sval: u16,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Nested {
        sub: Sub,
        ival: i32,
    }
    let v: Vec<Nested> = from_slice(&write_fixture("ai_nested")).unwrap();
    assert_eq!(
        v[1],
        Nested {
            sub: Sub {
                cval: 0,
                bval: 254,
                sval: 300
            },
            ival: 123456
        }
    );
    let v: Vec<(u8, u8, u8)> = from_slice(&write_fixture("ai_rgb")).unwrap();
    assert_eq!(v, [(255, 0, 0), (0, 128, 0), (1, 2, 255)]);
}

#[test]
fn zero_size_parts() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Empty {}
    #[derive(Deserialize, Debug, PartialEq)]
    struct Z {
        a: i32,
        #[serde(with = "serde_bytes")]
        e: Vec<u8>,
        x: [f64; 0],
        y: Vec<Vec<u16>>,
        r: Empty,
    }
    let file = fixture("zero_size_fields");
    let v: Vec<Z> = from_slice(&file).unwrap();
    assert_eq!(v.len(), 2);
    assert_eq!(
        v[1],
        Z {
            a: -1,
            e: vec![],
            x: [],
            y: vec![vec![], vec![]],
            r: Empty {}
        }
    );
    let w: Vec<Z> = from_reader(&file[..]).unwrap();
    assert_eq!(v, w);
    let v: Vec<Vec<f64>> = from_slice(&fixture("empty_inner_axis")).unwrap();
    assert_eq!(v, [Vec::<f64>::new(), vec![], vec![]]);
    let v: Vec<[f64; 0]> = from_reader(&fixture("empty_inner_axis")[..]).unwrap();
    assert_eq!(v.len(), 3);
    let e: Empty = from_slice(&fixture("empty_record_0d")).unwrap();
    assert_eq!(e, Empty {});
}

/// Names numpy's repr escapes, from the write fixtures (v1.0 and v3.0).
#[test]
fn escaped_and_astral_names_from_write_fixtures() {
    let file = |name: &str| {
        let path = format!("{}/data/write/{name}.npy", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(path).unwrap()
    };
    let escaped = file("escaped_names");
    let reader = NpyReader::new(&escaped[..]).unwrap();
    let keys: Vec<&str> = reader
        .dtype()
        .as_record()
        .unwrap()
        .fields()
        .iter()
        .map(|f| f.name())
        .collect();
    assert_eq!(
        keys,
        [
            "tab\there",
            "it's",
            "a'b\"c",
            "back\\slash",
            "\u{200b}",
            "q\"d",
            "\u{7f}\u{a0}\u{ad}é"
        ]
    );
    let v: Value = from_slice(&escaped).unwrap();
    assert_eq!(v[0]["a'b\"c"], 3);
    assert_eq!(v[0]["\u{7f}\u{a0}\u{ad}é"], 7);
    let v: Value = from_slice(&file("astral_names")).unwrap();
    assert_eq!(v, serde_json::json!([{"😀": 1, "\u{e0001}x": 2}]));
}

/// Random access in files whose data does not start on a 64-byte boundary
/// (numpy 1.x aligned to 16) and in 2.0/3.0 files.
#[test]
fn seek_record_in_old_and_new_layouts() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Xy {
        x: i32,
        y: f64,
    }
    for (name, want) in [
        ("np1_py2_long", vec![(3, 1e-300), (2, -2.5)]),
        ("np1_py2_long_v2", vec![(3, 1e-300), (2, -2.5)]),
        ("np1_pprint_xy", vec![(-1, 2.5), (-1, 2.5)]),
        ("version_2_0", vec![(3, -0.0), (-2, 1e100)]),
        ("version_3_0_ascii", vec![(3, -0.0), (-2, 1e100)]),
    ] {
        let file = fixture(name);
        let mut reader = NpyReader::new(Cursor::new(&file)).unwrap();
        let last = reader.len() - 1;
        let mut got = Vec::new();
        for i in [last, last.min(1)] {
            reader.seek_record(i).unwrap();
            let r: Xy = reader.deserialize().next().unwrap().unwrap();
            got.push((r.x, r.y));
        }
        assert_eq!(got, want, "{name}");
    }
}

/// Appending to numpy-written files of every version, and refusing the
/// numpy 1.x layouts whose header cannot be rewritten in place.
#[test]
fn append_to_numpy_files_of_each_version() {
    use npy_serde::NpyWriter;
    #[derive(serde::Serialize, Deserialize, Debug, PartialEq)]
    struct Row {
        x: i32,
        y: f64,
        name: String,
    }
    for (name, version) in [
        ("version_1_0", (1, 0)),
        ("version_2_0", (2, 0)),
        ("version_3_0_ascii", (3, 0)),
    ] {
        let file = fixture(name);
        let mut w = NpyWriter::append(Cursor::new(file.clone())).unwrap();
        w.serialize(&Row {
            x: 9,
            y: 9.5,
            name: "new".into(),
        })
        .unwrap();
        let out = w.finish().unwrap().into_inner();
        let reader = NpyReader::new(&out[..]).unwrap();
        assert_eq!(reader.version(), version, "{name}");
        let v: Vec<Row> = from_slice(&out).unwrap();
        assert_eq!(v.len(), 4);
        assert_eq!(
            v[3],
            Row {
                x: 9,
                y: 9.5,
                name: "new".into()
            }
        );
        assert_eq!(out[..reader_offset(&out)].len(), reader_offset(&file));
        // byte for byte what numpy writes for the four records
        assert_eq!(out, fixture(&format!("{name}_appended")), "{name}");
    }
    // CJK names (3.0)
    #[derive(serde::Serialize)]
    struct Cjk<'a> {
        #[serde(rename = "整形")]
        a: i32,
        #[serde(rename = "浮動小数")]
        b: f64,
        #[serde(rename = "é", with = "serde_bytes")]
        e: &'a [u8],
    }
    let mut w = NpyWriter::append(Cursor::new(fixture("version_3_0_cjk"))).unwrap();
    w.serialize(&Cjk {
        a: 1,
        b: 2.0,
        e: b"z",
    })
    .unwrap();
    let out = w.finish().unwrap().into_inner();
    let v: Value = from_slice(&out).unwrap();
    assert_eq!(v[2]["整形"], 1);
    assert_eq!(v.as_array().unwrap().len(), 3);
    // latin-1 names stay latin-1 in the rewritten 1.0 header
    #[derive(serde::Serialize)]
    struct Latin {
        #[serde(rename = "été")]
        ete: i16,
        #[serde(rename = "ñ")]
        n: f32,
    }
    let file = fixture("latin1_names");
    let mut w = NpyWriter::append(Cursor::new(file.clone())).unwrap();
    w.serialize(&Latin { ete: 5, n: 6.0 }).unwrap();
    let out = w.finish().unwrap().into_inner();
    assert_eq!(out[..reader_offset(&out)].len(), reader_offset(&file));
    assert_eq!((out[6], out[7]), (1, 0));
    assert!(out.windows(5).any(|w| w == b"'\xe9t\xe9'"));
    let v: Value = from_slice(&out).unwrap();
    assert_eq!(v[2], serde_json::json!({"été": 5, "ñ": 6.0}));
    // numpy 1.x headers: no growth spaces, 16-byte alignment, L suffixes
    let mut msgs = String::new();
    for name in ["np1_pprint_xy", "np1_py2_long", "np1_py2_long_v2"] {
        let err = NpyWriter::append(Cursor::new(fixture(name))).unwrap_err();
        msgs.push_str(&format!("{name}: {err}\n"));
    }
    snapshot!("append_numpy_1x_headers", msgs);
}

/// Where the data starts: 10 or 12 bytes of prefix plus HEADER_LEN.
fn reader_offset(file: &[u8]) -> usize {
    if file[6] == 1 {
        10 + usize::from(u16::from_le_bytes([file[8], file[9]]))
    } else {
        12 + u32::from_le_bytes([file[8], file[9], file[10], file[11]]) as usize
    }
}

#[test]
fn strings_with_nuls_in_subarrays() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct S {
        s: [serde_bytes::ByteBuf; 2],
        u: [[String; 2]; 2],
    }
    let file = fixture("strings_nuls_subarray");
    let v: Vec<S> = from_slice(&file).unwrap();
    assert_eq!(&v[0].s[1][..], b"\0b");
    assert_eq!(&v[1].s[0][..], b"");
    assert_eq!(v[0].u, [["x", ""], ["", "yz"]]);
    assert_eq!(v[1].u, [["\0q", "é"], ["ab", ""]]);
    let w: Vec<S> = from_reader(&file[..]).unwrap();
    assert_eq!(v, w);
}
