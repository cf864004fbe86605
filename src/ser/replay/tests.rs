use super::*;
use crate::datetime::{Datetime64, Timedelta64};
use crate::dtype::{ByteOrder, Scalar};
use serde::Serialize;
use std::collections::BTreeMap;

/// The number tags are exactly the plain numbers of `Scalar::plain`
/// (the rule the read side's fast tags use too), and map back.
#[test]
fn number_tags_are_the_plain_scalars() {
    use crate::dtype::{DatetimeUnit, TimeUnit};
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
            let tag = leaf_tag(&Dtype::Scalar(s));
            assert_eq!(tag.and_then(num_of), s.plain(), "{s}");
            if let Some(p) = s.plain() {
                plain += 1;
                assert_eq!(tag, Some(tag_of(p)), "{s}");
                assert_eq!(p.size(), s.itemsize(), "{s}");
                assert_eq!(format!("<{}", p.code()), format!("{s}").replace('|', "<"));
            }
        }
    }
    // 11 numbers little-endian, and the one-byte ones whatever the order
    assert_eq!(plain, 11 + 3);
}

/// `Enc` alone, on a zeroed slot.
fn by_enc<T: ?Sized + Serialize>(dt: &Dtype, strict: bool, v: &T) -> Option<Vec<u8>> {
    let mut buf = vec![0u8; dt.itemsize()];
    v.serialize(Enc::with_mode(dt, &mut buf, strict)).ok()?;
    Some(buf)
}

/// The tape (replay, falling back to `Enc`), on a zeroed slot.
fn by_tape<T: ?Sized + Serialize>(tape: &mut DtypeTree, v: &T) -> Option<Vec<u8>> {
    let mut buf = vec![0u8; tape.root.size];
    tape.encode(v, &mut buf).ok()?;
    Some(buf)
}

/// Whether the replay alone takes the value (no fallback).
fn replays<T: ?Sized + Serialize>(tape: &DtypeTree, v: &T) -> bool {
    let mut buf = vec![0u8; tape.root.size];
    let mut frame = Frame {
        buf: &mut buf,
        base: 0,
    };
    v.serialize(Replay {
        node: &tape.root,
        frame: &mut frame,
    })
    .is_ok()
}

/// Same bytes and same success as `Enc`, in both modes, twice (the
/// second time with warm key caches).
#[track_caller]
fn same<T: ?Sized + Serialize>(dt: &Dtype, v: &T) {
    for strict in [false, true] {
        for mut tape in [
            DtypeTree::new(dt, strict),
            DtypeTree::from_dtype(dt.clone(), strict),
        ] {
            assert_eq!(tape.dtype(), dt);
            for _ in 0..2 {
                assert_eq!(
                    by_tape(&mut tape, v),
                    by_enc(dt, strict, v),
                    "strict {strict}"
                );
            }
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

fn p() -> P {
    P {
        id: 7,
        pos: [1.5, -2.0, 3.25],
        vel: [0.5, 1.0, -1.0],
        mass: 2.0,
        charge: -3,
    }
}

fn dt(s: &str) -> Dtype {
    s.parse().unwrap()
}

const PDT: &str = "[('id', '<u8'), ('pos', '<f8', (3,)), ('vel', '<f4', (3,)), ('mass', '<f4'), ('charge', '|i1')]";

#[test]
fn records_replay_with_the_same_bytes() {
    let d = dt(PDT);
    same(&d, &p());
    assert!(replays(&DtypeTree::new(&d, true), &p()));
    // aligned: gaps stay zero
    let a = d.aligned().unwrap();
    same(&a, &p());
    assert!(replays(&DtypeTree::new(&a, true), &p()));
    // tuples into records, by position
    let t = dt("[('f0', '|u1'), ('f1', '<f4')]");
    same(&t, &(1u8, 2.5f32));
    assert!(replays(&DtypeTree::new(&t, true), &(1u8, 2.5f32)));
    #[derive(Serialize)]
    struct Ts(u8, f32);
    same(&t, &Ts(1, 2.5));
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
    same(&n, &v);
    assert!(replays(&DtypeTree::new(&n, true), &v));
}

#[test]
fn subarrays_unrolled_repeated_and_nested() {
    // longer than UNROLL: one element node, repeated
    let long = dt("('<i2', (40,))");
    let v: Vec<i16> = (0..40).collect();
    same(&long, &v);
    assert!(replays(&DtypeTree::new(&long, true), &v));
    same(&long, &v[..39]); // too short: both refuse
    same(&long, &(0..41).collect::<Vec<i16>>()); // too long
    // nested dims
    let nested = dt("('<f8', (3, 20))");
    let v = [[0.5f64; 20]; 3];
    same(&nested, &v);
    assert!(replays(&DtypeTree::new(&nested, true), &v));
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
    same(&recs, &v);
    assert!(replays(&DtypeTree::new(&recs, true), &v));
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
    same(&d, &ok);
    assert!(replays(&DtypeTree::new(&d, true), &ok));
    // ASCII (widened byte by byte) and not, short and full, too long
    for other in [
        S { s: "ab", ..ok },
        S { s: "abcd", ..ok },
        S { s: "", ..ok },
    ] {
        same(&d, &other);
        assert!(replays(&DtypeTree::new(&d, true), &other));
    }
    for bad in [
        S { s: "toolong", ..ok },
        S { s: "abcde", ..ok },
        S { s: "éabcd", ..ok },
        S { s: "a\0", ..ok },
        S { b: b"abcd", ..ok },
        S { b: b"a\0", ..ok },
    ] {
        same(&d, &bad);
    }
    // another unit: not replayed, converted (or refused) by `Enc`
    #[derive(Serialize)]
    struct T {
        t: Datetime64<crate::unit::us>,
    }
    let t = dt("[('t', '<M8[ns]')]");
    same(
        &t,
        &T {
            t: Datetime64::new(3),
        },
    );
    assert!(!replays(
        &DtypeTree::new(&t, true),
        &T {
            t: Datetime64::new(3)
        }
    ));
    // big-endian and other scalars go to `Enc`
    let be = Dtype::Scalar(Scalar::new(ScalarType::Int(4), ByteOrder::Big));
    same(&be, &7i32);
    let u = Dtype::Scalar(Scalar::new(ScalarType::Unicode(2), ByteOrder::Big));
    same(&u, &"ab");
    same(&dt("<c16"), &(1.0f64, 2.0f64));
    same(&dt("<f2"), &1.5f64);
}

#[test]
fn conversions_and_other_orders_fall_back() {
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
    // conversions: a miss, then `Enc` (which refuses them in strict mode)
    same(&d, &Ab { a: -1, b: 0.5 });
    assert!(!replays(&DtypeTree::new(&d, false), &Ab { a: -1, b: 0.5 }));
    // fields in another order: a miss, then `Enc` by name
    same(&d, &Ba { b: 0.5, a: 2 });
    assert!(!replays(&DtypeTree::new(&d, false), &Ba { b: 0.5, a: 2 }));
    // maps go to `Enc` whole
    let mut m = BTreeMap::new();
    m.insert("b", 1.0f64);
    m.insert("a", 2.0);
    same(&d, &m);
    // missing, extra and repeated fields, wrong shapes
    #[derive(Serialize)]
    struct A {
        a: i64,
    }
    same(&d, &A { a: 1 });
    same(&d, &(1i64, 2.0f64, 3u8));
    same(&d, &vec![1i64, 2]);
    same(&d, &1.0f64);
    same(&dt("<i8"), &Some(3i64));
    same(&dt("<i8"), &None::<i64>);
    same(&dt("<u1"), &300u16);
}

#[test]
fn many_misses_turn_the_replay_off() {
    let d = dt("[('a', '<i8'), ('b', '<f8')]");
    let mut tape = DtypeTree::new(&d, false);
    #[derive(Serialize)]
    struct Ba {
        b: f64,
        a: i64,
    }
    for i in 0..(MAX_MISSES + 10) {
        let v = Ba {
            b: i as f64,
            a: i as i64,
        };
        assert_eq!(by_tape(&mut tape, &v), by_enc(&d, false, &v));
    }
    assert_eq!(tape.root.tag, Tag::Generic);
    // still right for values the replay would have taken
    let mut m = BTreeMap::new();
    m.insert("a", 1.0f64);
    m.insert("b", 2.0);
    assert_eq!(by_tape(&mut tape, &m), by_enc(&d, false, &m));
    // conversions, each a miss until the tape is off
    let s = dt("<i2");
    let mut tape = DtypeTree::new(&s, false);
    for i in 0..(MAX_MISSES + 10) {
        let v = i as i64;
        assert_eq!(by_tape(&mut tape, &v), by_enc(&s, false, &v));
    }
    assert_eq!(tape.root.tag, Tag::Generic);
    assert_eq!(by_tape(&mut tape, &3i16), by_enc(&s, false, &3i16));
    // a string into a bytes node goes to `Enc` (which takes it only
    // outside strict mode), without a miss
    let b = dt("|S4");
    assert!(replays(&DtypeTree::new(&b, false), &"ab"));
    assert!(!replays(&DtypeTree::new(&b, true), &"ab"));
    same(&b, &"ab");
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
