//! Errors that say what the file has: a struct field with no npz member, a
//! missing record field, and the dtype printed once-quoted.

use serde::{Deserialize, Serialize};
use std::io::Cursor;

macro_rules! snap {
    ($name:literal, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

#[derive(Serialize)]
struct Xy {
    x: Vec<f64>,
    y: Vec<f64>,
    labels: Vec<u8>,
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Xyz {
    x: Vec<f64>,
    z: Vec<f64>,
}

#[derive(Serialize)]
struct Ab {
    a: u8,
    b: f32,
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Ax {
    a: u8,
    x: f32,
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Outer {
    inner: Ax,
}

#[derive(Serialize)]
struct OuterAb {
    inner: Ab,
}

#[test]
fn missing_things_list_what_is_there() {
    let mut file = Cursor::new(Vec::new());
    let xy = Xy {
        x: vec![1.0],
        y: vec![2.0],
        labels: vec![3],
    };
    npy_serde::npz::to_writer(&mut file, &xy).unwrap();
    file.set_position(0);
    let member = npy_serde::npz::from_reader::<Xyz>(&mut file).unwrap_err();

    let bytes = npy_serde::to_vec(&vec![Ab { a: 1, b: 2.0 }]).unwrap();
    let field = npy_serde::from_slice::<Vec<Ax>>(&bytes).unwrap_err();
    let nested = npy_serde::to_vec(&vec![OuterAb {
        inner: Ab { a: 1, b: 2.0 },
    }])
    .unwrap();
    let nested = npy_serde::from_slice::<Vec<Outer>>(&nested).unwrap_err();

    // columns: one member per record field
    let mut file = Cursor::new(Vec::new());
    npy_serde::npz::to_writer(&mut file, &vec![Ab { a: 1, b: 2.0 }]).unwrap();
    file.set_position(0);
    let column = npy_serde::npz::from_reader::<Vec<Ax>>(&mut file).unwrap_err();

    snap!(
        "what_is_there_missing",
        [member, field, nested, column]
            .map(|e| e.to_string())
            .join("\n")
    );
}

#[test]
fn npz_of_plain_arrays_names_the_dtype_once_quoted() {
    let mut file = Cursor::new(Vec::new());
    let err = npy_serde::npz::to_writer(&mut file, &vec![[1.0f64; 3]]).unwrap_err();
    let msg = err.to_string();
    assert!(!msg.contains("''"), "{msg}");
    snap!("npz_plain_array_message", msg);
}
