//! Every refusal of the write path, with its message (snapshot), and the
//! guarantee that `to_writer` writes nothing when pass 1 refuses.

use std::collections::{BTreeMap, HashMap};

use npy_serde::{Datetime64, Dtype, ScalarType, WriteOptions, to_vec, to_writer, unit};
use serde::Serialize;

fn sc(ty: ScalarType) -> Dtype {
    Dtype::scalar(ty)
}

/// The message of writing `value`, checking that `to_writer` wrote nothing.
fn refuse<T: ?Sized + Serialize>(value: &T) -> String {
    refuse_with(&WriteOptions::new(), value)
}

fn refuse_with<T: ?Sized + Serialize>(opts: &WriteOptions, value: &T) -> String {
    let err = opts.to_vec(value).unwrap_err().to_string();
    let mut out = Vec::new();
    let err2 = opts.to_writer(&mut out, value).unwrap_err().to_string();
    assert_eq!(err, err2);
    assert!(
        out.is_empty(),
        "to_writer wrote {} bytes before failing: {err}",
        out.len()
    );
    err
}

#[derive(Serialize)]
struct WithOption {
    x: Option<f64>,
}

#[derive(Serialize)]
struct Wide {
    a: i128,
}

#[derive(Serialize)]
struct WideU {
    a: u128,
}

#[derive(Serialize)]
enum Shape {
    Circle(f64),
    Pair(f64, f64),
    Rect { w: f64, h: f64 },
}

#[derive(Serialize)]
struct HasShape {
    s: Shape,
}

#[derive(Serialize)]
struct Tags {
    id: u32,
    tags: Vec<f64>,
}

#[derive(Serialize)]
struct Named {
    name: String,
}

#[derive(Serialize)]
struct Raw {
    #[serde(with = "serde_bytes")]
    raw: Vec<u8>,
}

#[derive(Serialize)]
struct A {
    a: i32,
    b: f64,
}

#[derive(Serialize)]
struct Ab2 {
    a: i32,
    c: f64,
}

#[derive(Serialize)]
struct Pos {
    pos: [f64; 2],
}

#[derive(Serialize)]
struct Conv {
    i: i64,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Either {
    A(A),
    B(Ab2),
}

#[derive(Serialize)]
#[serde(untagged)]
enum Num {
    I(i32),
    F(f64),
}

fn rec(fields: &[(&str, Dtype)]) -> Dtype {
    let mut b = Dtype::record();
    for (n, d) in fields {
        b = b.field(*n, d.clone());
    }
    b.build().unwrap()
}

#[test]
fn refusals() {
    let mut lines: Vec<String> = Vec::new();
    let mut case = |name: &str, msg: String| lines.push(format!("{name}: {msg}"));

    case(
        "none",
        refuse(&vec![WithOption { x: Some(1.0) }, WithOption { x: None }]),
    );
    case("i128", refuse(&vec![Wide { a: 1 }]));
    case("u128", refuse(&vec![WideU { a: 1 }]));
    let mut m = HashMap::new();
    m.insert(1u32, 2.0f64);
    case("non-string map key", refuse(&vec![m]));
    case(
        "newtype variant",
        refuse(&vec![HasShape {
            s: Shape::Circle(1.0),
        }]),
    );
    case(
        "tuple variant",
        refuse(&vec![HasShape {
            s: Shape::Pair(1.0, 2.0),
        }]),
    );
    case(
        "struct variant",
        refuse(&vec![HasShape {
            s: Shape::Rect { w: 1.0, h: 2.0 },
        }]),
    );
    case(
        "ragged top level",
        refuse(&vec![vec![1.0f64, 2.0], vec![3.0], vec![4.0, 5.0]]),
    );
    case(
        "ragged top level (longer)",
        refuse(&vec![vec![1.0f64], vec![3.0, 4.0]]),
    );
    case(
        "ragged field",
        refuse(&vec![
            Tags {
                id: 0,
                tags: vec![1.0, 2.0],
            },
            Tags {
                id: 1,
                tags: vec![1.0, 2.0],
            },
            Tags {
                id: 2,
                tags: vec![1.0],
            },
        ]),
    );
    case(
        "string ending in NUL",
        refuse(&vec![
            Named { name: "a".into() },
            Named { name: "b\0".into() },
        ]),
    );
    case(
        "bytes ending in NUL",
        refuse(&vec![Raw { raw: vec![1, 0] }]),
    );
    case("char NUL", refuse(&vec!['a', '\0']));
    case(
        "record with other fields",
        refuse(&vec![
            Either::A(A { a: 1, b: 2.0 }),
            Either::A(A { a: 1, b: 2.0 }),
            Either::B(Ab2 { a: 1, c: 2.0 }),
        ]),
    );
    let mut m1 = BTreeMap::new();
    m1.insert("a", 1.0);
    m1.insert("b", 2.0);
    let mut m2 = BTreeMap::new();
    m2.insert("a", 1.0);
    case("map with fewer keys", refuse(&vec![m1.clone(), m2]));
    let mut m3 = m1.clone();
    m3.insert("c", 3.0);
    case("map with more keys", refuse(&vec![m1, m3]));
    case(
        "field of another type",
        refuse(&vec![Num::I(1), Num::F(2.0)]),
    );
    let empty: Vec<A> = Vec::new();
    case("empty without dtype", refuse(&empty));
    let empties: Vec<Vec<f64>> = vec![vec![], vec![]];
    case("empty inner sequences", refuse(&empties));

    // with a given dtype
    let f8 = sc(ScalarType::Float(8));
    let i4 = sc(ScalarType::Int(4));
    let dt = rec(&[("a", i4.clone())]);
    case(
        "field the dtype lacks",
        refuse_with(&WriteOptions::new().dtype(dt), &vec![A { a: 1, b: 2.0 }]),
    );
    let dt = rec(&[("a", i4.clone()), ("b", f8.clone()), ("z", f8.clone())]);
    case(
        "field the value lacks",
        refuse_with(&WriteOptions::new().dtype(dt), &vec![A { a: 1, b: 2.0 }]),
    );
    let opts = WriteOptions::new().dtype(rec(&[("i", sc(ScalarType::Int(1)))]));
    case(
        "integer out of range",
        refuse_with(&opts, &vec![Conv { i: 1 }, Conv { i: 300 }]),
    );
    let opts = WriteOptions::new().dtype(rec(&[("i", sc(ScalarType::UInt(2)))]));
    case(
        "negative into unsigned",
        refuse_with(&opts, &vec![Conv { i: -1 }]),
    );
    let opts = WriteOptions::new().dtype(rec(&[("i", f8.clone())]));
    case(
        "integer not exact as float",
        refuse_with(&opts, &vec![Conv { i: (1 << 53) + 1 }]),
    );
    let opts = WriteOptions::new().dtype(sc(ScalarType::Float(4)));
    case(
        "f64 not exact as f4",
        refuse_with(&opts, &vec![0.5f64, 0.1]),
    );
    let opts = WriteOptions::new().dtype(sc(ScalarType::Float(2)));
    case("f64 not exact as f2", refuse_with(&opts, &vec![1e6f64]));
    let opts = WriteOptions::new().dtype(sc(ScalarType::Int(8)));
    case("float into integer", refuse_with(&opts, &vec![1.0f64]));
    case("bool into integer", refuse_with(&opts, &vec![true]));
    case("string into integer", refuse_with(&opts, &vec!["a"]));
    let opts = WriteOptions::new().dtype(sc(ScalarType::Bool));
    case("integer into bool", refuse_with(&opts, &vec![1u8]));
    let opts = WriteOptions::new().dtype(sc(ScalarType::Unicode(2)));
    case(
        "string too long for U",
        refuse_with(&opts, &vec!["ab", "abc"]),
    );
    let opts = WriteOptions::new().dtype(sc(ScalarType::Bytes(2)));
    case(
        "bytes too long for S",
        refuse_with(&opts, &vec![serde_bytes::ByteBuf::from(b"abc".to_vec())]),
    );
    let ms = npy_serde::DatetimeUnit::new(npy_serde::TimeUnit::Seconds);
    let opts = WriteOptions::new().dtype(sc(ScalarType::Datetime(ms)));
    case(
        "datetime not exact in unit",
        refuse_with(&opts, &vec![Datetime64::<unit::ms>::new(1500)]),
    );
    let days = npy_serde::DatetimeUnit::new(npy_serde::TimeUnit::Days);
    let opts = WriteOptions::new().dtype(sc(ScalarType::Timedelta(days)));
    case(
        "timedelta years into days",
        refuse_with(&opts, &vec![npy_serde::Timedelta64::<unit::Y>::new(3)]),
    );
    let years = npy_serde::DatetimeUnit::new(npy_serde::TimeUnit::Years);
    let opts = WriteOptions::new().dtype(sc(ScalarType::Datetime(years)));
    case(
        "datetime day not on a year start",
        refuse_with(&opts, &vec![Datetime64::<unit::D>::new(1097)]),
    );
    let opts = WriteOptions::new().dtype(sc(ScalarType::Timedelta(days)));
    case(
        "datetime into timedelta",
        refuse_with(&opts, &vec![Datetime64::<unit::D>::new(3)]),
    );
    let opts = WriteOptions::new().dtype(sc(ScalarType::Complex(8)));
    case(
        "complex part not exact in c8",
        refuse_with(&opts, &vec![[1.0f64, 0.1]]),
    );
    case(
        "complex needs pairs",
        refuse_with(&opts, &vec![[1.0f64, 2.0, 3.0]]),
    );
    let opts = WriteOptions::new().dtype(rec(&[(
        "pos",
        Dtype::subarray(f8.clone(), vec![3]).unwrap(),
    )]));
    case(
        "subarray of another length",
        refuse_with(&opts, &vec![Pos { pos: [1.0, 2.0] }]),
    );
    let opts = WriteOptions::new().dtype(f8.clone());
    case(
        "nesting depth differs",
        refuse_with(&opts, &(vec![1.0f64], 2.0f64)),
    );
    case(
        "record into scalar dtype",
        refuse_with(&opts, &vec![A { a: 1, b: 2.0 }]),
    );
    let opts = WriteOptions::new().version(1, 0);
    let mut m = BTreeMap::new();
    m.insert("x".repeat(70000), 1u8);
    case("header too long for version 1.0", refuse_with(&opts, &m));
    let opts = WriteOptions::new().version(4, 0);
    case("unknown version", refuse_with(&opts, &1u8));

    let text = lines.join("\n");
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("write_refusals", text);
    });
}

#[test]
fn errors_carry_paths() {
    #[derive(Serialize)]
    struct Body {
        pos: [f64; 3],
    }
    #[derive(Serialize)]
    struct P {
        body: Body,
    }
    let opts = WriteOptions::new().dtype(
        Dtype::record()
            .field(
                "body",
                Dtype::record()
                    .field(
                        "pos",
                        Dtype::subarray(sc(ScalarType::Float(4)), vec![3]).unwrap(),
                    )
                    .build()
                    .unwrap(),
            )
            .build()
            .unwrap(),
    );
    let v: Vec<P> = (0..4)
        .map(|i| P {
            body: Body {
                pos: [0.5, if i == 3 { 0.1 } else { 1.0 }, 2.0],
            },
        })
        .collect();
    let err = opts.to_vec(&v).unwrap_err();
    assert_eq!(
        err.to_string(),
        "record 3, field body.pos[1]: 0.1 is not exactly representable as '<f4'"
    );
    let _ = to_writer(Vec::new(), &1u8);
    let _ = to_vec(&1u8);
}

/// Map keys are read as names by one mechanism (`ser/key.rs`); each path
/// words its own refusal of a key that is not text.
#[test]
fn map_keys_that_are_not_text() {
    let int_keys = vec![BTreeMap::from([(1u8, 1.0f64)])];
    // inferred dtype: the key's kind is named
    assert_eq!(
        refuse(&int_keys),
        "record 0: unsupported: map key of type integer; record field names must be strings"
    );
    // given dtype: the encoder refuses it
    let opts = WriteOptions::new().dtype(rec(&[("a", sc(ScalarType::Float(8)))]));
    assert_eq!(
        refuse_with(&opts, &int_keys),
        "record 0: unsupported: map key that is not a string; record field names must be strings"
    );
    // text keys through Some and newtypes are names
    let some_keys = vec![BTreeMap::from([(Some("a"), 1.0f64)])];
    assert_eq!(
        to_vec(&some_keys).unwrap(),
        to_vec(&vec![BTreeMap::from([("a", 1.0f64)])]).unwrap()
    );
    assert_eq!(
        opts.to_vec(&some_keys).unwrap(),
        opts.to_vec(&vec![BTreeMap::from([("a", 1.0f64)])]).unwrap()
    );
    // npz member names: strings only, `Some` included in the refusal
    for err in [
        npy_serde::npz::to_writer(
            std::io::Cursor::new(Vec::new()),
            &BTreeMap::from([(1u8, vec![1.0f64])]),
        ),
        npy_serde::npz::to_writer(
            std::io::Cursor::new(Vec::new()),
            &BTreeMap::from([(Some("a"), vec![1.0f64])]),
        ),
    ] {
        assert_eq!(
            err.unwrap_err().to_string(),
            "npz member keys must be strings (map keys become member names)"
        );
    }
}
