//! Deserializer tests on dtypes built in code and data bytes made by numpy
//! (`np.array(...).tobytes().hex()`), independent of header parsing.

use serde::Deserialize;
use serde_json::json;

use super::Cfg;
use super::stream::StreamDe;
use crate::de::data::deserialize_data;
use crate::error::Result;
use crate::format::dtype::{ByteOrder, DatetimeUnit, Dtype, Scalar, ScalarType, TimeUnit};
use crate::format::header::Header;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn sc(ty: ScalarType) -> Dtype {
    Dtype::scalar(ty)
}

fn be(ty: ScalarType) -> Dtype {
    Dtype::Scalar(Scalar::new(ty, ByteOrder::Big))
}

fn de<'de, T: Deserialize<'de>>(dtype: Dtype, shape: &[u64], data: &'de [u8]) -> Result<T> {
    deserialize_data(
        &Header::new(dtype, false, shape.to_vec()),
        data,
        Cfg::default(),
        crate::options::DEFAULT_MAX_ELEMENTS,
    )
}

fn de_lossy<'de, T: Deserialize<'de>>(dtype: Dtype, shape: &[u64], data: &'de [u8]) -> Result<T> {
    deserialize_data(
        &Header::new(dtype, false, shape.to_vec()),
        data,
        Cfg {
            lossy: true,
            ..Cfg::default()
        },
        crate::options::DEFAULT_MAX_ELEMENTS,
    )
}

/// The same through the streaming deserializer of `from_reader`.
fn de_stream<T: serde::de::DeserializeOwned>(
    header: &Header,
    mut data: &[u8],
) -> Result<(T, usize)> {
    let mut de = StreamDe::new(
        header,
        &mut data,
        Cfg::default(),
        crate::options::DEFAULT_MAX_ELEMENTS,
    )?;
    let v = T::deserialize(&mut de)?;
    de.finish()?;
    Ok((v, data.len()))
}

fn particle_dtype() -> Dtype {
    Dtype::record()
        .field("id", sc(ScalarType::UInt(4)))
        .field(
            "pos",
            Dtype::subarray(sc(ScalarType::Float(8)), vec![3]).unwrap(),
        )
        .field("name", sc(ScalarType::Bytes(4)))
        .field("label", sc(ScalarType::Unicode(3)))
        .field("ok", sc(ScalarType::Bool))
        .build()
        .unwrap()
}

// np.array([(1,(1.5,2,3),b'ab','xy',True),(2,(4,5,6),b'abcd','é中!',False)], dt)
const PARTICLES: &str = "01000000000000000000f83f0000000000000040000000000000084061620000780000007900000000000000010200000000000000000010400000000000001440000000000000184061626364e90000002d4e00002100000000";

#[derive(Deserialize, Debug, PartialEq)]
struct Particle {
    ok: bool,
    pos: [f64; 3],
    id: u32,
    label: String,
}

#[test]
fn records_into_structs_by_name() {
    let data = hex(PARTICLES);
    let v: Vec<Particle> = de(particle_dtype(), &[2], &data).unwrap();
    assert_eq!(
        v,
        [
            Particle {
                ok: true,
                pos: [1.5, 2.0, 3.0],
                id: 1,
                label: "xy".into()
            },
            Particle {
                ok: false,
                pos: [4.0, 5.0, 6.0],
                id: 2,
                label: "é中!".into()
            }
        ]
    );
}

#[test]
fn records_into_json_value() {
    let data = hex(PARTICLES);
    let v: serde_json::Value = de(particle_dtype(), &[2], &data).unwrap();
    assert_eq!(
        v,
        json!([
            {"id": 1, "pos": [1.5, 2.0, 3.0], "name": [97, 98], "label": "xy", "ok": true},
            {"id": 2, "pos": [4.0, 5.0, 6.0], "name": [97, 98, 99, 100], "label": "é中!", "ok": false}
        ])
    );
    // keys come in file order
    struct Keys(Vec<String>);
    impl<'de> Deserialize<'de> for Keys {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> serde::de::Visitor<'de> for V {
                type Value = Keys;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("a map")
                }
                fn visit_map<A: serde::de::MapAccess<'de>>(
                    self,
                    mut a: A,
                ) -> Result<Keys, A::Error> {
                    let mut keys = Vec::new();
                    while let Some((k, _)) = a.next_entry::<String, serde::de::IgnoredAny>()? {
                        keys.push(k);
                    }
                    Ok(Keys(keys))
                }
            }
            d.deserialize_map(V)
        }
    }
    let v: Vec<Keys> = de(particle_dtype(), &[2], &data).unwrap();
    assert_eq!(v[1].0, ["id", "pos", "name", "label", "ok"]);
}

#[test]
fn borrowed_bytes_and_str() {
    #[derive(Deserialize)]
    struct B<'a> {
        #[serde(borrow)]
        name: &'a [u8],
        id: u32,
    }
    #[derive(Deserialize)]
    struct S<'a> {
        name: &'a str,
    }
    let data = hex(PARTICLES);
    let v: Vec<B> = de(particle_dtype(), &[2], &data).unwrap();
    assert_eq!(
        (v[0].name, v[1].name, v[1].id),
        (&b"ab"[..], &b"abcd"[..], 2)
    );
    let v: Vec<S> = de(particle_dtype(), &[2], &data).unwrap();
    assert_eq!(v[1].name, "abcd");
    #[derive(Deserialize)]
    struct Owned {
        #[serde(with = "serde_bytes")]
        name: Vec<u8>,
    }
    let v: Vec<Owned> = de(particle_dtype(), &[2], &data).unwrap();
    assert_eq!(v[0].name, b"ab");
}

#[test]
fn tuples_take_fields_in_file_order() {
    let data = hex(PARTICLES);
    type T = (u32, Vec<f64>, serde_bytes::ByteBuf, String, bool);
    let v: Vec<T> = de(particle_dtype(), &[2], &data).unwrap();
    assert_eq!(v[1].3, "é中!");
    let err = de::<Vec<(u32, Vec<f64>)>>(particle_dtype(), &[2], &data).unwrap_err();
    assert_eq!(
        err.to_string(),
        "record 0: the type takes only 2 of the 5 fields of the record"
    );
}

#[test]
fn two_d_big_endian_and_option() {
    let data = hex("000100020003000400050006");
    let v: Vec<[i16; 3]> = de(be(ScalarType::Int(2)), &[2, 3], &data).unwrap();
    assert_eq!(v, [[1, 2, 3], [4, 5, 6]]);
    let v: Vec<Vec<Option<i64>>> = de(be(ScalarType::Int(2)), &[2, 3], &data).unwrap();
    assert_eq!(v[1], [Some(4), Some(5), Some(6)]);
    let err = de::<Vec<[i16; 2]>>(be(ScalarType::Int(2)), &[2, 3], &data).unwrap_err();
    assert_eq!(
        err.to_string(),
        "record 0: expected 2 elements, found subarray of shape (3,) of '>i2'"
    );
}

#[test]
fn fortran_order_is_reordered() {
    // np.asfortranarray(np.arange(6, dtype='<i4').reshape(2, 3))
    let data = hex("000000000300000001000000040000000200000005000000");
    let h = Header::new(sc(ScalarType::Int(4)), true, vec![2, 3]);
    let v: Vec<Vec<i32>> = deserialize_data(
        &h,
        &data,
        Cfg::default(),
        crate::options::DEFAULT_MAX_ELEMENTS,
    )
    .unwrap();
    assert_eq!(v, [[0, 1, 2], [3, 4, 5]]);
    let (v, left): (Vec<Vec<i32>>, _) = de_stream(&h, &data).unwrap();
    assert_eq!((v, left), (vec![vec![0, 1, 2], vec![3, 4, 5]], 0));
}

#[test]
fn zero_d_and_empty() {
    let x: f64 = de(sc(ScalarType::Float(8)), &[], &2.5f64.to_le_bytes()).unwrap();
    assert_eq!(x, 2.5);
    let v: Vec<Particle> = de(particle_dtype(), &[0], &[]).unwrap();
    assert!(v.is_empty());
    let v: serde_json::Value = de(sc(ScalarType::Float(8)), &[0, 3], &[]).unwrap();
    assert_eq!(v, json!([]));
    let v: Vec<Vec<f64>> = de(sc(ScalarType::Float(8)), &[2, 0], &[]).unwrap();
    assert_eq!(v, vec![Vec::<f64>::new(), vec![]]);
}

#[test]
fn padding_and_gaps_are_skipped() {
    // np.dtype('i1, i4, i1', align=True): [('f0','|i1'),('','|V3'),('f1','<i4'),('f2','|i1'),('','|V3')]
    let dt = Dtype::record()
        .field("f0", sc(ScalarType::Int(1)))
        .field("f1", sc(ScalarType::Int(4)))
        .field("f2", sc(ScalarType::Int(1)))
        .align(true)
        .build()
        .unwrap();
    assert_eq!(dt.itemsize(), 12);
    let data = [1u8, 0xaa, 0xbb, 0xcc, 2, 0, 0, 0, 3, 9, 9, 9];
    let v: serde_json::Value = de(dt.clone(), &[1], &data).unwrap();
    assert_eq!(v, json!([{"f0": 1, "f1": 2, "f2": 3}]));
    let v: Vec<(i8, i32, i8)> = de(dt, &[1], &data).unwrap();
    assert_eq!(v, [(1, 2, 3)]);
}

#[test]
fn nested_records_and_subarrays_of_records() {
    let inner = Dtype::record()
        .field("a", sc(ScalarType::UInt(1)))
        .field("b", be(ScalarType::UInt(2)))
        .build()
        .unwrap();
    let dt = Dtype::record()
        .field("s", Dtype::subarray(inner.clone(), vec![2]).unwrap())
        .field("t", inner)
        .build()
        .unwrap();
    let data = [1u8, 0, 2, 3, 0, 4, 5, 0, 6];
    #[derive(Deserialize, Debug, PartialEq)]
    struct In {
        b: u16,
        a: u8,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Out {
        t: In,
        s: Vec<In>,
    }
    let v: Out = de(dt.clone(), &[], &data).unwrap();
    assert_eq!(
        v,
        Out {
            t: In { a: 5, b: 6 },
            s: vec![In { a: 1, b: 2 }, In { a: 3, b: 4 }]
        }
    );
    let v: serde_json::Value = de(dt, &[], &data).unwrap();
    assert_eq!(
        v,
        json!({"s": [{"a": 1, "b": 2}, {"a": 3, "b": 4}], "t": {"a": 5, "b": 6}})
    );
}

#[test]
fn nested_subarray_dims() {
    // ('c', ('<f8', (2,)), (3,)) -> [[f64; 2]; 3]
    let inner = Dtype::subarray(sc(ScalarType::UInt(1)), vec![2]).unwrap();
    let dt = Dtype::record()
        .field("c", Dtype::subarray(inner, vec![3]).unwrap())
        .build()
        .unwrap();
    #[derive(Deserialize)]
    struct C {
        c: [[u8; 2]; 3],
    }
    let v: Vec<C> = de(dt, &[1], &[1, 2, 3, 4, 5, 6]).unwrap();
    assert_eq!(v[0].c, [[1, 2], [3, 4], [5, 6]]);
}

#[test]
fn strings_strip_trailing_nuls_only() {
    let dt = Dtype::record()
        .field("s", sc(ScalarType::Bytes(5)))
        .field("u", be(ScalarType::Unicode(3)))
        .build()
        .unwrap();
    let mut data = b"a\0b\0\0".to_vec();
    data.extend_from_slice(&[0, 0, 0, 0x78, 0, 0, 0, 0, 0, 0, 0, 0]);
    #[derive(Deserialize, Debug)]
    struct R {
        s: String,
        u: String,
    }
    let v: R = de(dt.clone(), &[], &data).unwrap();
    assert_eq!((v.s.as_str(), v.u.as_str()), ("a\0b", "x"));
    // invalid code point
    data[9..13].copy_from_slice(&[0, 0x11, 0, 0]);
    let err = de::<R>(dt, &[], &data).unwrap_err();
    assert_eq!(
        err.to_string(),
        "field u: invalid UCS-4 code point 0x110000 in '>U3' string"
    );
}

#[test]
fn long_unicode_goes_to_the_heap() {
    let text: String = "αβγδ".repeat(40);
    let mut data = Vec::new();
    for c in text.chars() {
        data.extend_from_slice(&(c as u32).to_le_bytes());
    }
    data.extend_from_slice(&[0; 8]);
    let v: String = de(sc(ScalarType::Unicode(162)), &[], &data).unwrap();
    assert_eq!(v, text);
}

#[test]
fn unit_enum_from_unicode() {
    #[derive(Deserialize, Debug, PartialEq)]
    enum Color {
        Red,
        Green,
    }
    let mut data = Vec::new();
    for c in "Green\0Red\0\0\0".chars() {
        data.extend_from_slice(&(c as u32).to_le_bytes());
    }
    let v: Vec<Color> = de(sc(ScalarType::Unicode(6)), &[2], &data).unwrap();
    assert_eq!(v, [Color::Green, Color::Red]);
}

#[test]
fn int_range_is_checked_by_serde() {
    let data = 300i16.to_le_bytes();
    let err = de::<Vec<u8>>(sc(ScalarType::Int(2)), &[1], &data).unwrap_err();
    assert_eq!(
        err.to_string(),
        "record 0: expected u8, found integer `300` in '<i2'"
    );
    let v: Vec<u16> = de(sc(ScalarType::Int(2)), &[1], &data).unwrap();
    assert_eq!(v, [300]);
    let v: Vec<i128> = de(sc(ScalarType::Int(2)), &[1], &data).unwrap();
    assert_eq!(v, [300]);
}

#[test]
fn float_conversions_are_exact_or_lossy() {
    let data = 0.1f64.to_le_bytes();
    let err = de::<Vec<f32>>(sc(ScalarType::Float(8)), &[1], &data).unwrap_err();
    assert_eq!(
        err.to_string(),
        "record 0: '<f8' value 0.1 is not exactly representable as f32 \
         (ReadOptions::lossy(true) allows rounding)"
    );
    let v: Vec<f32> = de_lossy(sc(ScalarType::Float(8)), &[1], &data).unwrap();
    assert_eq!(v, [0.1f32]);
    let v: Vec<f32> = de(sc(ScalarType::Float(8)), &[1], &0.5f64.to_le_bytes()).unwrap();
    assert_eq!(v, [0.5]);
    let big = ((1i64 << 53) + 1).to_le_bytes();
    assert!(de::<Vec<f64>>(sc(ScalarType::Int(8)), &[1], &big).is_err());
    let v: Vec<f64> = de(sc(ScalarType::Int(8)), &[1], &(1i64 << 53).to_le_bytes()).unwrap();
    assert_eq!(v, [9007199254740992.0]);
    assert!(
        de::<Vec<f32>>(
            sc(ScalarType::Int(4)),
            &[1],
            &((1i32 << 24) + 1).to_le_bytes()
        )
        .is_err()
    );
    let v: Vec<f64> = de(sc(ScalarType::Float(4)), &[1], &0.1f32.to_le_bytes()).unwrap();
    assert_eq!(v, [f64::from(0.1f32)]);
    // f2 1.5 = 0x3e00
    let v: Vec<f64> = de(sc(ScalarType::Float(2)), &[1], &hex("003e")).unwrap();
    assert_eq!(v, [1.5]);
    let err = de::<Vec<i32>>(sc(ScalarType::Float(8)), &[1], &data).unwrap_err();
    assert_eq!(err.to_string(), "record 0: expected i32, found '<f8'");
}

#[test]
fn type_mismatch_names_record_and_field() {
    let data = hex(PARTICLES);
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Wrong {
        pos: [String; 3],
    }
    let err = de::<Vec<Wrong>>(particle_dtype(), &[2], &data).unwrap_err();
    assert_eq!(
        err.to_string(),
        "record 0, field pos[0]: expected a string, found '<f8'"
    );
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Missing {
        id: u32,
        mass: f64,
    }
    let err = de::<Vec<Missing>>(particle_dtype(), &[2], &data).unwrap_err();
    assert_eq!(
        err.to_string(),
        "record 0: missing field `mass`; the record has 'id', 'pos', 'name', 'label', 'ok'"
    );
    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Strict {
        id: u32,
    }
    let err = de::<Vec<Strict>>(particle_dtype(), &[2], &data).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("record 0, field pos: unknown field `pos`")
    );
    let err = de::<Vec<f64>>(particle_dtype(), &[2], &data).unwrap_err();
    assert_eq!(
        err.to_string(),
        "record 0: expected f64, found record of 5 fields"
    );
}

#[test]
fn truncated_and_trailing_data() {
    let data = hex(PARTICLES);
    let err = de::<Vec<Particle>>(particle_dtype(), &[3], &data).unwrap_err();
    assert_eq!(
        err.to_string(),
        "data ends after 90 bytes, the header promises 135 bytes (record 2 is incomplete)"
    );
    let err = de::<Vec<Particle>>(particle_dtype(), &[1], &data).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("45 bytes follow the 45 bytes of data")
    );
    let h = Header::new(particle_dtype(), false, vec![3]);
    let err = de_stream::<Vec<Particle>>(&h, &data).unwrap_err();
    assert_eq!(
        err.to_string(),
        "data ends after 90 bytes, the header promises 135 bytes (record 2 is incomplete)"
    );
    // a header promising far more than present: no big allocation, same error
    let h = Header::new(sc(ScalarType::UInt(1)), false, vec![1 << 40]);
    let err = de_stream::<Vec<u8>>(&h, &[1, 2, 3]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "data ends after 3 bytes, the header promises 1099511627776 bytes (record 3 is incomplete)"
    );
}

#[test]
fn stream_reads_exactly_the_data() {
    let mut data = hex(PARTICLES);
    data.extend_from_slice(b"next array");
    let h = Header::new(particle_dtype(), false, vec![2]);
    let (v, left): (Vec<Particle>, _) = de_stream(&h, &data).unwrap();
    assert_eq!((v.len(), left), (2, 10));
    let (v, left): (serde_json::Value, _) = de_stream(&h, &data).unwrap();
    assert_eq!((v[1]["label"].as_str(), left), (Some("é中!"), 10));
    let (_, left): (serde::de::IgnoredAny, _) = de_stream(&h, &data).unwrap();
    assert_eq!(left, 10);
    let h0 = Header::new(sc(ScalarType::Float(8)), false, vec![]);
    let (x, left): (f64, _) = de_stream(&h0, &1.25f64.to_le_bytes()).unwrap();
    assert_eq!((x, left), (1.25, 0));
    let err = de_stream::<f32>(&h0, &0.1f64.to_le_bytes()).unwrap_err();
    assert!(err.to_string().contains("not exactly representable as f32"));
}

#[test]
fn stream_of_large_rows_crosses_chunks() {
    let n = 50_000u64;
    let data: Vec<u8> = (0..n * 8).map(|i| (i % 251) as u8).collect();
    let h = Header::new(sc(ScalarType::UInt(8)), false, vec![n]);
    let (v, _): (Vec<u64>, _) = de_stream(&h, &data).unwrap();
    let direct: Vec<u64> = de(sc(ScalarType::UInt(8)), &[n], &data).unwrap();
    assert_eq!(v, direct);
    // one row bigger than a chunk
    let h = Header::new(sc(ScalarType::UInt(1)), false, vec![2, 100_000]);
    let data: Vec<u8> = (0..200_000u32).map(|i| (i % 7) as u8).collect();
    let (v, _): (Vec<Vec<u8>>, _) = de_stream(&h, &data).unwrap();
    assert_eq!(v[1][99_999], (199_999 % 7) as u8);
}

// Test-only stand-ins for the ser helper's special types: same tokens.

#[derive(Debug, PartialEq)]
struct C64(f64, f64);

impl<'de> Deserialize<'de> for C64 {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = C64;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a complex number")
            }
            fn visit_newtype_struct<D: serde::Deserializer<'de>>(
                self,
                d: D,
            ) -> Result<C64, D::Error> {
                let (re, im) = <(f64, f64)>::deserialize(d)?;
                Ok(C64(re, im))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<C64, A::Error> {
                let re = a.next_element()?.unwrap();
                let im = a.next_element()?.unwrap();
                Ok(C64(re, im))
            }
        }
        d.deserialize_newtype_struct("$npy_serde::complex", V)
    }
}

#[derive(Debug, PartialEq)]
struct Ms(i64);

impl<'de> Deserialize<'de> for Ms {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Ms;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a datetime64[s]")
            }
            fn visit_newtype_struct<D: serde::Deserializer<'de>>(
                self,
                d: D,
            ) -> Result<Ms, D::Error> {
                i64::deserialize(d).map(Ms)
            }
            fn visit_i64<E>(self, v: i64) -> Result<Ms, E> {
                Ok(Ms(v))
            }
        }
        d.deserialize_newtype_struct("$npy_serde::M8[s]", V)
    }
}

#[test]
fn complex_token() {
    // np.array([1+2j], '<c8')
    let data = hex("0000803f00000040");
    let v: Vec<C64> = de(sc(ScalarType::Complex(8)), &[1], &data).unwrap();
    assert_eq!(v, [C64(1.0, 2.0)]);
    let v: serde_json::Value = de(sc(ScalarType::Complex(8)), &[1], &data).unwrap();
    assert_eq!(v, json!([[1.0, 2.0]]));
    // a (2,) subarray of floats is accepted through visit_seq
    let dt = Dtype::record()
        .field(
            "z",
            Dtype::subarray(sc(ScalarType::Float(4)), vec![2]).unwrap(),
        )
        .build()
        .unwrap();
    #[derive(Deserialize)]
    struct Z {
        z: C64,
    }
    let v: Vec<Z> = de(dt, &[1], &data).unwrap();
    assert_eq!(v[0].z, C64(1.0, 2.0));
}

#[test]
fn datetime_token_converts_exactly() {
    let ms = |unit| sc(ScalarType::Datetime(DatetimeUnit::new(unit)));
    // '2000-03-01T00:00:01' in ms
    let data = hex("e83fcd9fdd000000");
    let v: Vec<Ms> = de(ms(TimeUnit::Milliseconds), &[1], &data).unwrap();
    assert_eq!(v, [Ms(951868801)]);
    let v: Vec<i64> = de(ms(TimeUnit::Milliseconds), &[1], &data).unwrap();
    assert_eq!(v, [951868801000]);
    let odd = 951868801001i64.to_le_bytes();
    let err = de::<Vec<Ms>>(ms(TimeUnit::Milliseconds), &[1], &odd).unwrap_err();
    assert_eq!(
        err.to_string(),
        "record 0: '<M8[ms]' value 951868801001 is not a whole number of [s]"
    );
    let nat = i64::MIN.to_le_bytes();
    let v: Vec<Ms> = de(ms(TimeUnit::Nanoseconds), &[1], &nat).unwrap();
    assert_eq!(v, [Ms(i64::MIN)]);
    let td = sc(ScalarType::Timedelta(DatetimeUnit::new(TimeUnit::Seconds)));
    let err = de::<Vec<Ms>>(td, &[1], &nat).unwrap_err();
    assert_eq!(
        err.to_string(),
        "record 0: expected datetime64, found '<m8[s]'"
    );
    // an int64 field is read as the count
    let v: Vec<Ms> = de(sc(ScalarType::Int(8)), &[1], &7i64.to_le_bytes()).unwrap();
    assert_eq!(v, [Ms(7)]);
}

#[test]
fn f16_token_gives_raw_bits() {
    #[derive(Debug, PartialEq)]
    struct Half(u16);
    impl<'de> Deserialize<'de> for Half {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> serde::de::Visitor<'de> for V {
                type Value = Half;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("f16")
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
    let data = hex("007e003e");
    let v: Vec<Half> = de(sc(ScalarType::Float(2)), &[2], &data).unwrap();
    assert_eq!(v, [Half(0x7e00), Half(0x3e00)]);
    let data = hex("7e003e00");
    let v: Vec<Half> = de(be(ScalarType::Float(2)), &[2], &data).unwrap();
    assert_eq!(v, [Half(0x7e00), Half(0x3e00)]);
}

#[test]
fn unsupported_types_are_refused_naming_the_field() {
    let dt = Dtype::record()
        .field("a", sc(ScalarType::Float(8)))
        .field("ld", sc(ScalarType::Float(16)))
        .build()
        .unwrap();
    let data = [0u8; 24];
    let err = de::<serde_json::Value>(dt.clone(), &[1], &data).unwrap_err();
    assert_eq!(
        err.to_string(),
        "record 0, field ld: unsupported: '<f16' is a long double, whose format the file does \
         not record (x87 extended precision from x86, IEEE binary128 from aarch64, double-double \
         from ppc64le); to read it rounded to f64, name the format with \
         ReadOptions::long_double(LongDouble::X87) (or Binary128, DoubleDouble) and allow \
         rounding with ReadOptions::lossy(true)"
    );
    // a field not asked for is skipped without decoding
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct A {
        a: f64,
    }
    assert!(de::<Vec<A>>(dt, &[1], &data).is_ok());
    let dt = Dtype::record()
        .field("obj", sc(ScalarType::Object))
        .build()
        .unwrap();
    let err = super::check_readable(&dt).unwrap_err();
    assert!(err.to_string().starts_with("field obj: unsupported: '|O'"));
}

#[test]
fn zero_size_records() {
    let dt = Dtype::record().build().unwrap();
    let v: Vec<()> = de(dt.clone(), &[3], &[]).unwrap();
    assert_eq!(v.len(), 3);
    #[derive(Deserialize, Debug, PartialEq)]
    struct Unit;
    let v: Vec<Unit> = de(dt.clone(), &[2], &[]).unwrap();
    assert_eq!(v, [Unit, Unit]);
    let v: serde_json::Value = de(dt, &[2], &[]).unwrap();
    assert_eq!(v, json!([{}, {}]));
}

#[test]
fn void_fields_are_bytes() {
    let dt = Dtype::record()
        .field("v", sc(ScalarType::Void(3)))
        .build()
        .unwrap();
    #[derive(Deserialize)]
    struct V<'a> {
        v: &'a [u8],
    }
    let data = [1u8, 0, 0];
    let v: V = de(dt.clone(), &[], &data).unwrap();
    assert_eq!(v.v, [1, 0, 0]);
    let v: serde_json::Value = de(dt, &[], &data).unwrap();
    assert_eq!(v, json!({"v": [1, 0, 0]}));
}

#[test]
fn deep_nesting_at_the_default_depth_limit() {
    let mut dt = sc(ScalarType::UInt(1));
    for i in 0..crate::options::DEFAULT_MAX_DEPTH / 2 {
        dt = Dtype::record().field(format!("f{i}"), dt).build().unwrap();
        dt = Dtype::subarray(dt, vec![1]).unwrap();
    }
    let v: serde_json::Value = de(dt.clone(), &[1], &[7]).unwrap();
    let mut inner = &v[0];
    while let Some(x) = inner
        .get(0)
        .or_else(|| inner.as_object().and_then(|o| o.values().next()))
    {
        inner = x;
    }
    assert_eq!(inner, &json!(7));
    let err = de::<Vec<Vec<u8>>>(dt, &[1], &[7]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "record 0[0]: expected u8, found record of 1 field"
    );
}

#[test]
fn flatten_and_maps() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Inner {
        label: String,
        ok: bool,
    }
    #[derive(Deserialize, Debug)]
    struct Outer {
        id: u32,
        #[serde(flatten)]
        inner: Inner,
        #[serde(flatten)]
        rest: std::collections::BTreeMap<String, serde_json::Value>,
    }
    let data = hex(PARTICLES);
    let v: Vec<Outer> = de(particle_dtype(), &[2], &data).unwrap();
    assert_eq!(v[1].id, 2);
    assert_eq!(
        v[1].inner,
        Inner {
            label: "é中!".into(),
            ok: false
        }
    );
    assert_eq!(v[1].rest["pos"], json!([4.0, 5.0, 6.0]));
    let v: Vec<std::collections::HashMap<String, serde_json::Value>> =
        de(particle_dtype(), &[2], &data).unwrap();
    assert_eq!(v[0]["name"], json!([97, 98]));
}

/// Structs match fields by name whatever the order, with alias and rename,
/// and one plan serves several types in turn (`NpyReader`).
#[test]
fn struct_fields_match_by_name_whatever_the_order() {
    #[derive(serde::Serialize, Deserialize, Debug, PartialEq)]
    struct Ab {
        a: u8,
        b: i16,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Ba {
        b: i16,
        a: u8,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Aliased {
        #[serde(alias = "x")]
        a: u8,
        b: i16,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Renamed {
        #[serde(rename = "b")]
        first: i16,
        #[serde(rename = "a")]
        second: u8,
    }
    // [(first, '|u1'), ('b', '<i2')]
    let ab = |first: &str| {
        Dtype::record()
            .field(first, sc(ScalarType::UInt(1)))
            .field("b", sc(ScalarType::Int(2)))
            .build()
            .unwrap()
    };
    let data = [7u8, 5, 1, 8, 6, 1];
    let v: Vec<Ab> = de(ab("a"), &[2], &data).unwrap();
    assert_eq!(v, [Ab { a: 7, b: 261 }, Ab { a: 8, b: 262 }]);
    let v: Vec<Ba> = de(ab("a"), &[2], &data).unwrap();
    assert_eq!(v, [Ba { b: 261, a: 7 }, Ba { b: 262, a: 8 }]);
    let v: Vec<Aliased> = de(ab("a"), &[2], &data).unwrap();
    assert_eq!(v[1], Aliased { a: 8, b: 262 });
    let v: Vec<Aliased> = de(ab("x"), &[2], &data).unwrap();
    assert_eq!(v[1], Aliased { a: 8, b: 262 });
    let v: Vec<Renamed> = de(ab("a"), &[2], &data).unwrap();
    assert_eq!(
        v[0],
        Renamed {
            first: 261,
            second: 7
        }
    );

    // one plan, several types in turn
    let bytes = crate::to_vec(&[Ab { a: 1, b: 2 }, Ab { a: 3, b: 4 }, Ab { a: 5, b: 6 }]).unwrap();
    let mut r = crate::NpyReader::new(&bytes[..]).unwrap();
    assert_eq!(
        r.deserialize::<Ab>().next().unwrap().unwrap(),
        Ab { a: 1, b: 2 }
    );
    assert_eq!(
        r.deserialize::<Ba>().next().unwrap().unwrap(),
        Ba { b: 4, a: 3 }
    );
    assert_eq!(
        r.deserialize::<Ab>().next().unwrap().unwrap(),
        Ab { a: 5, b: 6 }
    );
}

/// A type whose `Deserialize` asks for a struct but whose visitor would
/// also take a number or a string.
#[derive(Debug, PartialEq)]
struct Lenient(f64);

impl<'de> Deserialize<'de> for Lenient {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Lenient;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("struct Lenient")
            }
            fn visit_f64<E>(self, v: f64) -> Result<Lenient, E> {
                Ok(Lenient(v))
            }
            fn visit_str<E>(self, _: &str) -> Result<Lenient, E> {
                Ok(Lenient(0.0))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut a: A,
            ) -> Result<Lenient, A::Error> {
                let re: f64 = a.next_element()?.unwrap_or(0.0);
                let im: f64 = a.next_element()?.unwrap_or(0.0);
                Ok(Lenient(re * 10.0 + im))
            }
        }
        d.deserialize_struct("Lenient", &["x"], V)
    }
}

#[test]
fn compound_requests_refuse_numbers_and_strings() {
    // a struct request meeting a number or a `U` string is refused
    // without calling the visitor, as serde_json refuses them, in the
    // words a derived struct's visitor would give
    let data = 1.5f64.to_le_bytes();
    let e = de::<Vec<Lenient>>(sc(ScalarType::Float(8)), &[1], &data).unwrap_err();
    assert_eq!(
        e.to_string(),
        "record 0: expected struct Lenient, found '<f8'"
    );
    let data = hex("61000000");
    let e = de::<Vec<Lenient>>(sc(ScalarType::Unicode(1)), &[1], &data).unwrap_err();
    assert_eq!(
        e.to_string(),
        "record 0: expected struct Lenient, found '<U1'"
    );
    // a complex number's parts still reach visit_seq
    let data = hex("0000803f00000040");
    let v: Vec<Lenient> = de(sc(ScalarType::Complex(8)), &[1], &data).unwrap();
    assert_eq!(v, [Lenient(12.0)]);
}
