//! The compiled write path (`ser/replay.rs`) against the general encoder:
//! values it does not replay (another field order, conversions, maps) give
//! the same bytes, and errors the same messages, as before it existed.

use std::collections::BTreeMap;
use std::io::Cursor;

use npy_serde::{Dtype, NpyWriter, WriteOptions};
use serde::Serialize;

#[derive(Serialize)]
struct Ab {
    a: u8,
    b: f64,
}

#[derive(Serialize)]
struct Ba {
    b: f64,
    a: u8,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Either {
    Ab(Ab),
    Ba(Ba),
    Map(BTreeMap<&'static str, Num>),
}

#[derive(Serialize)]
#[serde(untagged)]
enum Num {
    U(u8),
    F(f64),
}

fn ab_dtype() -> Dtype {
    "[('a', '|u1'), ('b', '<f8')]".parse().unwrap()
}

fn expected(rows: &[(u8, f64)]) -> Vec<u8> {
    let recs: Vec<Ab> = rows.iter().map(|&(a, b)| Ab { a, b }).collect();
    npy_serde::to_vec(&recs).unwrap()
}

fn mixed() -> Vec<Either> {
    let mut m = BTreeMap::new();
    m.insert("b", Num::F(4.5));
    m.insert("a", Num::U(3));
    vec![
        Either::Ab(Ab { a: 1, b: 0.5 }),
        Either::Ba(Ba { b: 1.5, a: 2 }),
        Either::Map(m),
        Either::Ab(Ab { a: 4, b: 2.5 }),
    ]
}

#[test]
fn other_field_orders_and_maps_with_a_given_dtype() {
    let want = expected(&[(1, 0.5), (2, 1.5), (3, 4.5), (4, 2.5)]);
    let opts = WriteOptions::new().dtype(ab_dtype());
    assert_eq!(opts.to_vec(&mixed()).unwrap(), want);
    let mut out = Vec::new();
    opts.to_writer(&mut out, &mixed()).unwrap();
    assert_eq!(out, want);
    let mut w = NpyWriter::with_dtype(Cursor::new(Vec::new()), ab_dtype()).unwrap();
    for r in &mixed() {
        w.serialize(r).unwrap();
    }
    assert_eq!(w.finish().unwrap().into_inner(), want);
}

#[test]
fn another_order_after_the_first_record_takes_the_exact_passes() {
    // inferred: the first record fixes the order; the second is another
    // struct (the speculative pass gives up, the exact passes refuse it
    // the way they always did)
    let v = vec![
        Either::Ab(Ab { a: 1, b: 0.5 }),
        Either::Ba(Ba { b: 1.5, a: 2 }),
    ];
    let err = npy_serde::to_vec(&v).unwrap_err();
    assert_eq!(
        err.to_string(),
        "record 1: fields ['b', 'a'] differ from the first record's ['a', 'b']"
    );
}

#[test]
fn conversions_into_a_given_dtype() {
    #[derive(Serialize)]
    struct Wide {
        a: i64,
        b: f32,
    }
    let rows: Vec<Wide> = (0..100u8)
        .map(|i| Wide {
            a: i64::from(i),
            b: f32::from(i) * 0.5,
        })
        .collect();
    let want = expected(
        &(0..100u8)
            .map(|i| (i, f64::from(i) * 0.5))
            .collect::<Vec<_>>(),
    );
    assert_eq!(
        WriteOptions::new().dtype(ab_dtype()).to_vec(&rows).unwrap(),
        want
    );
    let mut w = NpyWriter::with_dtype(Cursor::new(Vec::new()), ab_dtype()).unwrap();
    for r in &rows {
        w.serialize(r).unwrap();
    }
    assert_eq!(w.finish().unwrap().into_inner(), want);
}

#[test]
fn errors_name_record_and_field_as_before() {
    #[derive(Serialize)]
    struct Big {
        a: u16,
        b: f64,
    }
    let rows = vec![Big { a: 1, b: 0.5 }, Big { a: 300, b: 0.5 }];
    let err = WriteOptions::new()
        .dtype(ab_dtype())
        .to_vec(&rows)
        .unwrap_err();
    assert_eq!(err.to_string(), "record 1, field a: 300 does not fit '|u1'");
    let mut w = NpyWriter::with_dtype(Cursor::new(Vec::new()), ab_dtype()).unwrap();
    w.serialize(&rows[0]).unwrap();
    let err = w.serialize(&rows[1]).unwrap_err();
    assert_eq!(err.to_string(), "record 1, field a: 300 does not fit '|u1'");
    // the writer stays usable and the failed record is not counted
    w.serialize(&rows[0]).unwrap();
    assert_eq!(w.len(), 2);
    #[derive(Serialize)]
    struct Named {
        name: String,
    }
    let mut w = NpyWriter::new(Cursor::new(Vec::new())).unwrap();
    w.serialize(&Named { name: "ab".into() }).unwrap();
    let err = w.serialize(&Named { name: "abc".into() }).unwrap_err();
    // (the stream's hint on giving wider fields follows)
    assert!(
        err.to_string()
            .starts_with("record 1, field name: value of 3 characters does not fit '<U2'; "),
        "{err}"
    );
    let err = w.serialize(&Named { name: "a\0".into() }).unwrap_err();
    assert_eq!(
        err.to_string(),
        "record 1, field name: unsupported: value ends in NUL, which numpy strips when reading; use a '|V' dtype to keep it"
    );
}

#[test]
fn large_arrays_agree_across_paths() {
    #[derive(Serialize, Clone)]
    struct P {
        id: u64,
        pos: [f64; 3],
        tag: String,
        hist: Vec<u16>,
    }
    let v: Vec<P> = (0..3000u64)
        .map(|i| P {
            id: i,
            pos: [i as f64, 0.5, -1.0],
            tag: format!("t{}", i % 10),
            hist: vec![i as u16; 40],
        })
        .collect();
    let a = npy_serde::to_vec(&v).unwrap();
    let mut b = Vec::new();
    npy_serde::to_writer(&mut b, &v).unwrap();
    assert_eq!(a, b);
    let mut w = NpyWriter::new(Cursor::new(Vec::new())).unwrap();
    for p in &v {
        w.serialize(p).unwrap();
    }
    assert_eq!(w.finish().unwrap().into_inner(), a);
}

#[test]
fn writers_stay_send_and_sync() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<NpyWriter<Vec<u8>>>();
    send_sync::<NpyWriter<Cursor<Vec<u8>>>>();
}
