//! Reading matches fields by name, never by position: `alias` puts extra
//! names into serde's field list, so a file whose names happen to equal that
//! list must still be matched name by name.

use serde::{Deserialize, Serialize};

#[derive(Serialize)]
struct File3 {
    a: i32,
    b: i32,
    c: i32,
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Aliased {
    #[serde(alias = "b")]
    a: i32,
    c: i32,
}

#[test]
fn alias_in_the_field_list_is_not_read_by_position() {
    // serde's FIELDS for `Aliased` is ["a", "b", "c"], the file's names too.
    let bytes = npy_serde::to_vec(&vec![File3 { a: 1, b: 2, c: 3 }]).unwrap();
    // By name, `a` and its alias `b` both arrive: serde reports the duplicate.
    // By position, `c` would silently get `b`'s value 2.
    let err = npy_serde::from_slice::<Vec<Aliased>>(&bytes).unwrap_err();
    assert!(err.to_string().contains("duplicate field `a`"), "{err}");
}

#[test]
fn alias_reads_the_aliased_column() {
    #[derive(Serialize)]
    struct File2 {
        b: i32,
        c: i32,
    }
    let bytes = npy_serde::to_vec(&vec![File2 { b: 2, c: 3 }]).unwrap();
    let v: Vec<Aliased> = npy_serde::from_slice(&bytes).unwrap();
    assert_eq!((v[0].a, v[0].c), (2, 3));
}
