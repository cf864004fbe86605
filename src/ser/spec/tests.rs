//! The exact pass's own messages: only a value whose `Serialize` gives
//! something else than in pass 1 reaches them.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Val, Whole, encode_planned};
use crate::ser::encode::DtypeTree;

/// The error of the exact pass writing `value` as a `|u1` array of
/// shape (2,).
fn refused<T: Serialize>(value: &T) -> String {
    let tape = DtypeTree::new(&"|u1".parse().unwrap(), false);
    let mut out = Vec::new();
    encode_planned(&Val(value), tape, &[2], None, &mut out, &mut Whole)
        .unwrap_err()
        .to_string()
}

#[derive(Serialize)]
struct Rec {
    x: u8,
}

#[derive(Serialize)]
struct Pair(u8, u8);

#[derive(Serialize)]
enum E {
    A,
}

#[test]
fn what_is_not_a_sequence_is_named() {
    let cases = [
        (refused(&true), "bool"),
        (refused(&1i32), "an integer"),
        (refused(&1.5f64), "a float"),
        (refused(&'c'), "a string"),
        (refused(&"s"), "a string"),
        (refused(&serde_bytes::Bytes::new(b"ab")), "bytes"),
        (refused(&None::<u8>), "None"),
        (refused(&()), "unit"),
        (refused(&BTreeMap::<u8, u8>::new()), "a map"),
        (refused(&Rec { x: 1 }), "a record"),
        (refused(&Pair(1, 2)), "a tuple struct"),
        (refused(&E::A), "an enum variant"),
        (
            refused(&crate::Datetime64::<crate::unit::s>::NAT),
            "a scalar",
        ),
    ];
    for (got, found) in cases {
        assert_eq!(
            got,
            format!("expected a sequence of length 2 (axis 0 of shape (2,)), found {found}")
        );
    }
}

#[test]
fn lengths_other_than_the_plan_are_refused() {
    assert_eq!(
        refused(&[1u8, 2, 3]),
        "record 2: sequence longer than 2, the length of the first one"
    );
    assert_eq!(
        refused(&vec![1u8]),
        "sequence of length 1 where the first one has length 2 (ragged sequences cannot form an array)"
    );
    // a tuple is an axis too
    let mut out = Vec::new();
    let tape = DtypeTree::new(&"|u1".parse().unwrap(), false);
    let n = encode_planned(&Val(&(1u8, 2u8)), tape, &[2], None, &mut out, &mut Whole).unwrap();
    assert_eq!((n, out), (2, vec![1, 2]));
}
