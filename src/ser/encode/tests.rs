use super::*;
use crate::format::dtype::{DatetimeUnit, TimeUnit};
use crate::kinds::datetime::{Datetime64, Timedelta64};
use serde::Serialize;
use std::collections::BTreeMap;

/// The leaves with a number fast path are exactly the plain numbers of
/// `Scalar::plain` (the rule the read side's fast tags use too).
#[test]
fn number_leaves_are_the_plain_scalars() {
    let ns = DatetimeUnit::new(TimeUnit::Nanoseconds);
    let sized = |f: fn(u8) -> ScalarType, sizes: &[u8]| sizes.iter().map(|&n| f(n)).collect();
    let types: Vec<ScalarType> = [
        vec![ScalarType::Bool],
        sized(ScalarType::Int, &[1, 2, 4, 8]),
        sized(ScalarType::UInt, &[1, 2, 4, 8]),
        sized(ScalarType::Float, &[2, 4, 8]),
        sized(ScalarType::Complex, &[8, 16]),
        vec![
            ScalarType::Bytes(3),
            ScalarType::Unicode(3),
            ScalarType::Void(3),
        ],
        vec![ScalarType::Datetime(ns), ScalarType::Timedelta(ns)],
    ]
    .concat();
    let mut plain = 0;
    for ty in types {
        for order in [ByteOrder::Little, ByteOrder::Big] {
            let s = Scalar::new(ty, order);
            let node = compile(&Dtype::Scalar(s), &[], 0, s.itemsize(), false);
            assert_eq!(node.num, s.plain(), "{s}");
            if let Some(p) = s.plain() {
                plain += 1;
                assert_eq!(p.size(), s.itemsize(), "{s}");
                assert_eq!(format!("<{}", p.code()), format!("{s}").replace('|', "<"));
            }
        }
    }
    // 11 numbers little-endian, and the one-byte ones whatever the order
    assert_eq!(plain, 11 + 3);
}

/// The element's bytes (on a slot filled with `fill`), or the message.
fn encode<T: ?Sized + Serialize>(
    dt: &Dtype,
    strict: bool,
    fill: u8,
    v: &T,
) -> std::result::Result<Vec<u8>, String> {
    let mut buf = vec![fill; dt.itemsize()];
    DtypeTree::new(dt, strict)
        .encode(v, &mut buf)
        .map_err(|e| e.to_string())?;
    Ok(buf)
}

fn enc<T: ?Sized + Serialize>(dt: &Dtype, v: &T) -> Result<Vec<u8>> {
    let mut buf = vec![0xAA; dt.itemsize()];
    DtypeTree::new(dt, false).encode(v, &mut buf)?;
    Ok(buf)
}

/// The bytes of `v` into `dt`, checked to be the same whichever way the
/// tree is made, cold or warm (key caches filled), and in strict mode
/// whenever strict mode takes the value; `None` when refused.
#[track_caller]
fn same<T: ?Sized + Serialize>(dt: &Dtype, v: &T) -> Option<Vec<u8>> {
    let lenient = encode(dt, false, 0, v);
    for strict in [false, true] {
        for mut tape in [
            DtypeTree::new(dt, strict),
            DtypeTree::from_dtype(dt.clone(), strict),
        ] {
            assert_eq!(tape.dtype(), dt);
            let mut first = None;
            for _ in 0..2 {
                let mut buf = vec![0u8; dt.itemsize()];
                let got = tape
                    .encode(v, &mut buf)
                    .map(|()| buf)
                    .map_err(|e| e.to_string());
                let mut alone = vec![0u8; dt.itemsize()];
                let exact = tape.exact(v, &mut alone).map(|()| alone);
                let exact = exact.map_err(|e| e.to_string());
                assert_eq!(exact, got, "the exact pass alone, strict {strict}");
                if strict {
                    if let Ok(bytes) = &got {
                        assert_eq!(
                            Ok(bytes),
                            lenient.as_ref(),
                            "strict takes only what is exact"
                        );
                    }
                } else {
                    assert_eq!(got, lenient, "cold and warm");
                }
                match &first {
                    None => first = Some(got),
                    Some(f) => assert_eq!(&got, f, "strict {strict}: cold and warm"),
                }
            }
        }
    }
    lenient.ok()
}

/// Whether strict mode takes the value (the speculative pass goes on).
fn strict_takes<T: ?Sized + Serialize>(dt: &Dtype, v: &T) -> bool {
    encode(dt, true, 0, v).is_ok()
}

#[derive(Serialize)]
struct P {
    id: u64,
    pos: [f64; 3],
    vel: [f32; 3],
    mass: f32,
    charge: i8,
}

fn p() -> P {
    P {
        id: 7,
        pos: [1.5, -2.0, 3.25],
        vel: [0.5, 1.0, -1.0],
        mass: 2.0,
        charge: -3,
    }
}

/// `p()`'s bytes, field by field (`gap` zero bytes after `mass`... as
/// `aligned` places them).
fn p_bytes() -> Vec<u8> {
    let p = p();
    let mut b = p.id.to_le_bytes().to_vec();
    p.pos.iter().for_each(|v| b.extend(v.to_le_bytes()));
    p.vel.iter().for_each(|v| b.extend(v.to_le_bytes()));
    b.extend(p.mass.to_le_bytes());
    b.extend(p.charge.to_le_bytes());
    b
}

fn dt(s: &str) -> Dtype {
    s.parse().unwrap()
}

const PDT: &str = "[('id', '<u8'), ('pos', '<f8', (3,)), ('vel', '<f4', (3,)), ('mass', '<f4'), ('charge', '|i1')]";

#[test]
fn records_fields_and_tuples() {
    let d = dt(PDT);
    assert_eq!(same(&d, &p()), Some(p_bytes()));
    assert!(strict_takes(&d, &p()));
    // aligned: gaps stay zero
    let a = d.aligned().unwrap();
    let mut aligned = p_bytes();
    aligned.resize(a.itemsize(), 0);
    assert_eq!(same(&a, &p()), Some(aligned));
    assert!(strict_takes(&a, &p()));
    // tuples into records, by position
    let t = dt("[('f0', '|u1'), ('f1', '<f4')]");
    let tb = [&[1u8][..], &2.5f32.to_le_bytes()].concat();
    assert_eq!(same(&t, &(1u8, 2.5f32)), Some(tb.clone()));
    assert!(strict_takes(&t, &(1u8, 2.5f32)));
    #[derive(Serialize)]
    struct Ts(u8, f32);
    assert_eq!(same(&t, &Ts(1, 2.5)), Some(tb));
    // nested records and newtypes are transparent
    #[derive(Serialize)]
    struct W(u16);
    #[derive(Serialize)]
    struct In {
        a: W,
        b: Option<i32>,
    }
    #[derive(Serialize)]
    struct Out {
        x: In,
        y: bool,
    }
    let n = dt("[('x', [('a', '<u2'), ('b', '<i4')]), ('y', '|b1')]");
    let v = Out {
        x: In {
            a: W(3),
            b: Some(-4),
        },
        y: true,
    };
    let nb = [&3u16.to_le_bytes()[..], &(-4i32).to_le_bytes(), &[1]].concat();
    assert_eq!(same(&n, &v), Some(nb));
    assert!(strict_takes(&n, &v));
}

#[test]
fn subarrays_unrolled_repeated_and_nested() {
    // longer than UNROLL: one element node, repeated
    let long = dt("('<i2', (40,))");
    let v: Vec<i16> = (0..40).collect();
    let vb: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    assert_eq!(same(&long, &v), Some(vb));
    assert!(strict_takes(&long, &v));
    // too short, too long: refused with the lengths
    assert_eq!(
        encode(&long, false, 0, &v[..39]),
        Err("expected a sequence of length 40, found length 39".to_owned())
    );
    assert_eq!(same(&long, &v[..39]), None);
    assert_eq!(
        encode(&long, false, 0, &(0..41).collect::<Vec<i16>>()),
        Err("sequence longer than the subarray length 40".to_owned())
    );
    // unrolled: the same messages
    let short = dt("('<i2', (3,))");
    assert_eq!(
        encode(&short, false, 0, &[1i16, 2]),
        Err("expected a sequence of length 3, found length 2".to_owned())
    );
    assert_eq!(
        encode(&short, false, 0, &[1i16, 2, 3, 4]),
        Err("sequence longer than the subarray length 3".to_owned())
    );
    assert_eq!(
        encode(&short, false, 0, &(1i16, 2i16, "x")),
        Err("element [2]: expected '<i2', found string".to_owned())
    );
    // nested dims
    let nested = dt("('<f8', (3, 20))");
    let v = [[0.5f64; 20]; 3];
    assert_eq!(same(&nested, &v), Some(0.5f64.to_le_bytes().repeat(60)));
    assert!(strict_takes(&nested, &v));
    // a subarray of records
    #[derive(Serialize, Clone, Copy)]
    struct Q {
        a: u8,
        b: f64,
    }
    let recs = dt("[('q', [('a', '|u1'), ('b', '<f8')], (20,)), ('z', '<i4')]");
    #[derive(Serialize)]
    struct R {
        q: [Q; 20],
        z: i32,
    }
    let v = R {
        q: [Q { a: 1, b: 2.0 }; 20],
        z: 9,
    };
    let q = [&[1u8][..], &2.0f64.to_le_bytes()].concat();
    let rb = [q.repeat(20), 9i32.to_le_bytes().to_vec()].concat();
    assert_eq!(same(&recs, &v), Some(rb));
    assert!(strict_takes(&recs, &v));
}

#[test]
fn strings_bytes_and_times() {
    let d = dt("[('s', '<U4'), ('b', '|S3'), ('t', '<M8[ns]'), ('d', '<m8[s]'), ('c', '<U1')]");
    #[derive(Serialize)]
    struct S<'a> {
        s: &'a str,
        #[serde(with = "serde_bytes")]
        b: &'a [u8],
        t: Datetime64<crate::unit::ns>,
        d: Timedelta64<crate::unit::s>,
        c: char,
    }
    let ok = S {
        s: "é€x",
        b: b"ab",
        t: Datetime64::new(-5),
        d: Timedelta64::new(i64::MIN),
        c: 'z',
    };
    let bytes = |s: &str, b: &[u8]| {
        let mut u: Vec<u8> = s.chars().flat_map(|c| u32::from(c).to_le_bytes()).collect();
        u.resize(16, 0);
        let mut sb = b.to_vec();
        sb.resize(3, 0);
        [
            u,
            sb,
            (-5i64).to_le_bytes().to_vec(),
            i64::MIN.to_le_bytes().to_vec(),
            u32::from('z').to_le_bytes().to_vec(),
        ]
        .concat()
    };
    assert_eq!(same(&d, &ok), Some(bytes("é€x", b"ab")));
    assert!(strict_takes(&d, &ok));
    // ASCII (widened byte by byte) and not, short and full
    for s in ["ab", "abcd", ""] {
        assert_eq!(same(&d, &S { s, ..ok }), Some(bytes(s, b"ab")));
        assert!(strict_takes(&d, &S { s, ..ok }));
    }
    // too long, NUL-ended: refused
    for bad in [
        S { s: "toolong", ..ok },
        S { s: "abcde", ..ok },
        S { s: "éabcd", ..ok },
        S { s: "a\0", ..ok },
        S { b: b"abcd", ..ok },
        S { b: b"a\0", ..ok },
    ] {
        assert_eq!(same(&d, &bad), None);
    }
    assert_eq!(
        encode(&d, false, 0, &S { s: "éabcd", ..ok }),
        Err("field s: value of 5 characters does not fit '<U4'".to_owned())
    );
    // another unit: converted, but not in strict mode
    #[derive(Serialize)]
    struct T {
        t: Datetime64<crate::unit::us>,
    }
    let t = dt("[('t', '<M8[ns]')]");
    let v = T {
        t: Datetime64::new(3),
    };
    assert_eq!(same(&t, &v), Some(3000i64.to_le_bytes().to_vec()));
    assert!(!strict_takes(&t, &v));
    // big-endian and other scalars: the general rules
    let be = Dtype::Scalar(Scalar::new(ScalarType::Int(4), ByteOrder::Big));
    assert_eq!(same(&be, &7i32), Some(vec![0, 0, 0, 7]));
    let u = Dtype::Scalar(Scalar::new(ScalarType::Unicode(2), ByteOrder::Big));
    assert_eq!(same(&u, &"ab"), Some(vec![0, 0, 0, b'a', 0, 0, 0, b'b']));
    let c = [1.0f64.to_le_bytes(), 2.0f64.to_le_bytes()].concat();
    assert_eq!(same(&dt("<c16"), &(1.0f64, 2.0f64)), Some(c));
    assert_eq!(same(&dt("<f2"), &1.5f64), Some(vec![0x00, 0x3e]));
}

#[test]
fn conversions_and_other_orders() {
    let d = dt("[('a', '<i8'), ('b', '<f8')]");
    #[derive(Serialize)]
    struct Ab {
        a: i32,
        b: f32,
    }
    #[derive(Serialize)]
    struct Ba {
        b: f64,
        a: i64,
    }
    let ab = |a: i64, b: f64| [a.to_le_bytes(), b.to_le_bytes()].concat();
    // conversions (which strict mode refuses)
    assert_eq!(same(&d, &Ab { a: -1, b: 0.5 }), Some(ab(-1, 0.5)));
    assert!(!strict_takes(&d, &Ab { a: -1, b: 0.5 }));
    // fields in another order: by name, and again (the order kept)
    assert_eq!(same(&d, &Ba { b: 0.5, a: 2 }), Some(ab(2, 0.5)));
    assert!(!strict_takes(&d, &Ba { b: 0.5, a: 2 }));
    // maps by name
    let mut m = BTreeMap::new();
    m.insert("b", 1.0f64);
    m.insert("a", 2.0);
    assert_eq!(same(&d, &m), None);
    assert_eq!(
        encode(&d, false, 0, &m),
        Err("field a: expected '<i8', found float 2".to_owned())
    );
    let ff = dt("[('a', '<f8'), ('b', '<f8')]");
    let fb = [2.0f64.to_le_bytes(), 1.0f64.to_le_bytes()].concat();
    assert_eq!(same(&ff, &m), Some(fb));
    // missing, extra and repeated fields, wrong shapes
    #[derive(Serialize)]
    struct A {
        a: i64,
    }
    assert_eq!(same(&d, &A { a: 1 }), None);
    assert_eq!(
        encode(&d, false, 0, &A { a: 1 }),
        Err("field b: missing from the value (the dtype has this field)".to_owned())
    );
    assert_eq!(same(&d, &(1i64, 2.0f64, 3u8)), None);
    assert_eq!(
        encode(&d, false, 0, &(1i64, 2.0f64, 3u8)),
        Err("tuple longer than the record's 2 fields".to_owned())
    );
    assert_eq!(same(&d, &vec![1i64, 2]), Some(ab(1, 2.0)));
    assert_eq!(same(&d, &1.0f64), None);
    assert_eq!(
        same(&dt("<i8"), &Some(3i64)),
        Some(3i64.to_le_bytes().to_vec())
    );
    assert_eq!(same(&dt("<i8"), &None::<i64>), None);
    assert_eq!(same(&dt("<u1"), &300u16), None);
    assert_eq!(
        encode(&dt("<u1"), false, 0, &300u16),
        Err("300 does not fit '|u1'".to_owned())
    );
    // a string into bytes: only outside strict mode
    let b = dt("|S4");
    assert_eq!(same(&b, &"ab"), Some(b"ab\0\0".to_vec()));
    assert!(!strict_takes(&b, &"ab"));
}

#[test]
fn fields_out_of_order_each_time() {
    // the same tree for many values out of order: each by name
    let d = dt("[('a', '<i8'), ('b', '<f8')]");
    let mut tape = DtypeTree::new(&d, false);
    #[derive(Serialize)]
    struct Ba {
        b: f64,
        a: i64,
    }
    /// Fields given by hand: `keys` in order, each an `i64` (`b` an `f64`).
    struct Fields(&'static [&'static str]);
    impl Serialize for Fields {
        fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let mut st = s.serialize_struct("Fields", self.0.len())?;
            for (i, &k) in self.0.iter().enumerate() {
                if k == "b" {
                    st.serialize_field(k, &(i as f64))?;
                } else {
                    st.serialize_field(k, &(i as i64))?;
                }
            }
            st.end()
        }
    }
    for i in 0..100 {
        let mut buf = vec![0; 16];
        let v = Ba {
            b: i as f64,
            a: i as i64,
        };
        tape.encode(&v, &mut buf).unwrap();
        assert_eq!(
            buf,
            [(i as i64).to_le_bytes(), (i as f64).to_le_bytes()].concat()
        );
        // a field again: in order first, or after one out of order
        for keys in [&["a", "a", "b"][..], &["b", "a", "a"]] {
            let twice = tape.encode(&Fields(keys), &mut buf);
            assert_eq!(twice.unwrap_err().to_string(), "field a: field given twice");
        }
        tape.encode(&Fields(&["a", "b"]), &mut buf).unwrap();
        assert_eq!(buf, [0i64.to_le_bytes(), 1f64.to_le_bytes()].concat());
        let short = tape.encode(&Fields(&["b"]), &mut buf);
        let missing = "field a: missing from the value (the dtype has this field)";
        assert_eq!(short.unwrap_err().to_string(), missing);
    }
}

#[test]
fn key_cache_needs_address_and_length() {
    let d = dt("[('ab', '|u1'), ('abc', '|u1')]");
    let tape = DtypeTree::new(&d, true);
    let Some([ab, abc]) = tape.root.kids.first_chunk::<2>() else {
        panic!("two fields");
    };
    let text: &'static str = "abc";
    assert!(abc.matches(text));
    // the same address, shorter: "ab" is not "abc"
    let prefix: &'static str = &text[..2];
    assert!(!abc.matches(prefix));
    assert!(ab.matches(prefix));
    assert!(!ab.matches(text));
}

#[test]
fn byte_orders() {
    let be = Dtype::Scalar(Scalar::new(ScalarType::UInt(4), ByteOrder::Big));
    assert_eq!(enc(&be, &0x01020304u32).unwrap(), [1, 2, 3, 4]);
    let le = Dtype::scalar(ScalarType::Int(2));
    assert_eq!(enc(&le, &-2i64).unwrap(), [0xfe, 0xff]);
    let u = Dtype::Scalar(Scalar::new(ScalarType::Unicode(2), ByteOrder::Big));
    assert_eq!(enc(&u, &"é").unwrap(), [0, 0, 0, 0xe9, 0, 0, 0, 0]);
}

#[test]
fn record_fields_by_name_in_any_order() {
    #[derive(serde::Serialize)]
    struct R {
        b: u8,
        a: u8,
    }
    let dt = Dtype::record()
        .field("a", Dtype::scalar(ScalarType::UInt(1)))
        .padding(1)
        .field("b", Dtype::scalar(ScalarType::UInt(1)))
        .build()
        .unwrap();
    let mut buf = vec![0; 3];
    DtypeTree::new(&dt, false)
        .encode(&R { b: 2, a: 1 }, &mut buf)
        .unwrap();
    assert_eq!(buf, [1, 0, 2]);
}

#[test]
fn many_fields_use_the_big_bitset() {
    let mut b = Dtype::record();
    for i in 0..200 {
        b = b.field(format!("f{i}"), Dtype::scalar(ScalarType::UInt(1)));
    }
    let dt = b.build().unwrap();
    let mut m = std::collections::BTreeMap::new();
    for i in 0..199 {
        m.insert(format!("f{i}"), 1u8);
    }
    let err = enc(&dt, &m).unwrap_err();
    assert_eq!(
        err.to_string(),
        "field f199: missing from the value (the dtype has this field)"
    );
    m.insert("f199".into(), 1u8);
    assert_eq!(enc(&dt, &m).unwrap(), vec![1u8; 200]);
}

#[test]
fn integers_into_datetime_and_bytes_into_void() {
    let dt = Dtype::scalar(ScalarType::Datetime(DatetimeUnit::new(TimeUnit::Seconds)));
    let mut buf = [0u8; 8];
    DtypeTree::new(&dt, false).encode(&7i32, &mut buf).unwrap();
    assert_eq!(buf, 7i64.to_le_bytes());
    let v = Dtype::scalar(ScalarType::Void(4));
    let mut buf = [9u8; 4];
    DtypeTree::new(&v, false)
        .encode(&serde_bytes::Bytes::new(&[1, 0]), &mut buf)
        .unwrap();
    assert_eq!(buf, [1, 0, 0, 0]);
    // strict mode takes no conversion
    assert!(!strict_takes(&dt, &7i32));
    let f4 = Dtype::scalar(ScalarType::Float(4));
    assert!(!strict_takes(&f4, &1.0f64));
    assert!(strict_takes(&f4, &1.0f32));
}

/// Random values (JSON: numbers, strings, sequences, maps; some that fit,
/// some that do not) into assorted dtypes: the fast pass and then the exact
/// pass give what the exact pass alone gives, bytes or message.
#[test]
fn the_passes_agree_on_random_values() {
    use serde_json::{Value, json};
    // xorshift: the same values every run
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n.max(1)
    };
    fn value(dt: &Dtype, next: &mut dyn FnMut(u64) -> u64, depth: usize) -> Value {
        let other = next(10) == 0 || depth > 4;
        match dt {
            _ if other => match next(6) {
                0 => json!(null),
                1 => json!("text"),
                2 => json!(1.5),
                3 => json!(-3),
                4 => json!([1, 2]),
                _ => json!({"a": 1}),
            },
            Dtype::Scalar(s) => match s.ty() {
                ScalarType::Bool => json!(next(2) == 1),
                ScalarType::Int(_) | ScalarType::UInt(_) => {
                    json!(next(70_000) as i64 - 1_000)
                }
                ScalarType::Float(_) => match next(3) {
                    0 => json!(next(100) as f64 * 0.25),
                    1 => json!(next(100) as i64),
                    _ => json!(1e300),
                },
                ScalarType::Complex(_) => json!([next(10) as f64, 0.5]),
                ScalarType::Unicode(_) | ScalarType::Bytes(_) => {
                    json!(["", "ab", "abcd", "é€", "toolong"][next(5) as usize])
                }
                _ => json!(next(100) as i64),
            },
            Dtype::Subarray(base, dims) => {
                let n = dims.iter().product::<u64>() as i64 + [0, 0, 0, -1, 1][next(5) as usize];
                let inner = match dims.split_first() {
                    Some((_, rest)) if !rest.is_empty() => {
                        Dtype::subarray((**base).clone(), rest.to_vec()).unwrap()
                    }
                    _ => (**base).clone(),
                };
                let n = if dims.len() > 1 { dims[0] as i64 } else { n };
                Value::Array(
                    (0..n.max(0))
                        .map(|_| value(&inner, next, depth + 1))
                        .collect(),
                )
            }
            Dtype::Record(r) => {
                let mut fields: Vec<_> = r.fields().iter().collect();
                if next(3) == 0 {
                    fields.reverse();
                }
                if next(8) == 0 {
                    fields.pop();
                }
                if next(2) == 0 {
                    let items = fields.iter().map(|f| value(f.dtype(), next, depth + 1));
                    return Value::Array(items.collect());
                }
                let mut m = serde_json::Map::new();
                for f in fields {
                    m.insert(f.name().to_owned(), value(f.dtype(), next, depth + 1));
                }
                if next(8) == 0 {
                    m.insert("extra".into(), json!(1));
                }
                Value::Object(m)
            }
        }
    }
    let dtypes = [
        "<i4",
        ">i2",
        "|u1",
        "<f8",
        "<f4",
        ">f8",
        "<f2",
        "|b1",
        "<c16",
        "<U3",
        ">U2",
        "|S4",
        "('<i2', (3,))",
        "('<f8', (2, 20))",
        "('<u4', (40,))",
        "[('a', '<i8'), ('b', '<f8')]",
        "[('x', [('p', '|u1'), ('q', '<f4', (2,))]), ('s', '<U2'), ('c', '<c8')]",
        "[('r', [('a', '|i1'), ('b', '<i2')], (3,)), ('z', '>u8')]",
    ];
    let mut checked = 0;
    for descr in dtypes {
        let dt = dt(descr);
        for _ in 0..300 {
            let v = value(&dt, &mut next, 0);
            for strict in [false, true] {
                let mut tape = DtypeTree::new(&dt, strict);
                let (mut a, mut b) = (vec![0u8; dt.itemsize()], vec![0u8; dt.itemsize()]);
                let both = tape
                    .encode(&v, &mut a)
                    .map(|()| a)
                    .map_err(|e| e.to_string());
                let alone = tape
                    .exact(&v, &mut b)
                    .map(|()| b)
                    .map_err(|e| e.to_string());
                assert_eq!(both, alone, "{descr} strict {strict}: {v}");
                checked += usize::from(both.is_ok());
            }
        }
    }
    // not only refusals
    assert!(checked > 1000, "{checked} values encoded");
}

/// `encode_rows` writes each value as `encode` does, and refuses an output
/// that is not exactly one row per value instead of leaving values out.
#[cfg(feature = "rayon")]
#[test]
fn encode_rows_needs_a_row_per_value() {
    let dt: Dtype = "[('a', '<u2'), ('b', '<f8')]".parse().unwrap();
    #[derive(Serialize)]
    struct R {
        a: u16,
        b: f64,
    }
    let values: Vec<R> = (0..40)
        .map(|i| R {
            a: i,
            b: f64::from(i) * 0.5,
        })
        .collect();
    let mut each = Vec::new();
    for v in &values {
        let mut one = [0u8; 10];
        DtypeTree::new(&dt, true).encode(v, &mut one).unwrap();
        each.extend_from_slice(&one);
    }
    let mut out = vec![0u8; 400];
    DtypeTree::new(&dt, true)
        .encode_rows(&values, &mut out, 10)
        .unwrap();
    assert_eq!(out, each);
    for len in [390, 410, 0] {
        let mut short = vec![0u8; len];
        let err = DtypeTree::new(&dt, true)
            .encode_rows(&values, &mut short, 10)
            .unwrap_err();
        assert!(err.to_string().contains("internal"), "{err}");
    }
}
