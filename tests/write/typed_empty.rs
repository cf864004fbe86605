//! Empty arrays whose type says their element: `Bulk<T>`, a
//! `#[serde(with = "npy_serde::bulk")]` field and `NdArray<T>` write the
//! dtype and shape numpy writes for the same empty array, byte for byte
//! (tests/data/empty/make.py), through every entry point and as npz
//! members. A plain empty `Vec<T>` member of an npz struct says what to
//! change in its type.

use std::io::{Cursor, Read};

use npy_serde::npz::{self, NpzWriter};
use npy_serde::{Bulk, NdArray, WriteOptions};
use num_complex::Complex;
use serde::Serialize;

macro_rules! snap {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        });
    };
}

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/data/empty/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `value` written by `to_vec`, `to_writer`, `to_path` and as an npz
/// member (`NpzWriter::add`) must each be `<name>.npy` byte for byte.
#[track_caller]
fn every_way<T: Serialize + ?Sized>(name: &str, value: &T) {
    let expected = fixture(&format!("{name}.npy"));
    let bytes = npy_serde::to_vec(value).unwrap_or_else(|e| panic!("{name}: to_vec: {e}"));
    assert!(
        bytes == expected,
        "{name}: to_vec\n ours: {:?}\nnumpy: {:?}",
        String::from_utf8_lossy(&bytes),
        String::from_utf8_lossy(&expected)
    );
    let mut w = Vec::new();
    npy_serde::to_writer(&mut w, value).unwrap_or_else(|e| panic!("{name}: to_writer: {e}"));
    assert!(w == expected, "{name}: to_writer");
    static FILES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = FILES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("npy_serde_empty_{}_{n}.npy", std::process::id()));
    npy_serde::to_path(&path, value).unwrap_or_else(|e| panic!("{name}: to_path: {e}"));
    let written = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(written == expected, "{name}: to_path");
    let mut npz = NpzWriter::new(Cursor::new(Vec::new()));
    npz.add("a", value)
        .unwrap_or_else(|e| panic!("{name}: npz member: {e}"));
    let archive = npz.finish().unwrap().into_inner();
    let mut r = npz::NpzReader::new(Cursor::new(&archive)).unwrap();
    assert!(r.raw("a").unwrap() == expected, "{name}: npz member");
}

/// A `with = "npy_serde::bulk"` field, written as the only member of an
/// npz struct, next to the `.npy` of the same field alone.
#[derive(Serialize)]
struct Field<T: npy_serde::bulk::Element> {
    #[serde(with = "npy_serde::bulk")]
    a: Vec<T>,
}

#[track_caller]
fn bulk_every_way<T: npy_serde::bulk::Element>(name: &str) {
    every_way(name, &Bulk::<T>(Vec::new()));
    every_way(
        name,
        &NdArray::<T>::from_shape_vec(vec![0], Vec::new()).unwrap(),
    );
    let mut out = Cursor::new(Vec::new());
    npz::to_writer(&mut out, &Field::<T> { a: Vec::new() })
        .unwrap_or_else(|e| panic!("{name}: with field: {e}"));
    let members = members(&out.into_inner());
    assert_eq!(members.len(), 1);
    assert!(
        members[0] == ("a.npy".to_owned(), fixture(&format!("{name}.npy"))),
        "{name}: with field"
    );
}

#[test]
fn empty_bulk_writes_its_element_type() {
    bulk_every_way::<bool>("empty_b1");
    bulk_every_way::<u8>("empty_u1");
    bulk_every_way::<i8>("empty_i1");
    bulk_every_way::<i16>("empty_i2");
    bulk_every_way::<u16>("empty_u2");
    bulk_every_way::<i32>("empty_i4");
    bulk_every_way::<u32>("empty_u4");
    bulk_every_way::<i64>("empty_i8");
    bulk_every_way::<u64>("empty_u8");
    bulk_every_way::<f32>("empty_f4");
    bulk_every_way::<f64>("empty_f8");
    #[cfg(feature = "half")]
    bulk_every_way::<half::f16>("empty_f2");
}

#[test]
fn empty_bulk_of_arrays_keeps_their_axes() {
    every_way("empty_f4_0x3", &Bulk::<[f32; 3]>(Vec::new()));
    every_way("empty_f8_0x2x4", &Bulk::<[[f64; 4]; 2]>(Vec::new()));
    every_way("empty_u1_0x0", &Bulk::<[u8; 0]>(Vec::new()));
    let mut out = Cursor::new(Vec::new());
    npz::to_writer(&mut out, &Field::<[f32; 3]> { a: Vec::new() }).unwrap();
    assert_eq!(
        members(&out.into_inner()),
        [("a.npy".to_owned(), fixture("empty_f4_0x3.npy"))]
    );
    // an empty bulk written with a dtype keeps the given one
    let given = WriteOptions::new().dtype("<f8".parse().unwrap());
    let bytes = given.to_vec(&Bulk::<f32>(Vec::new())).unwrap();
    assert_eq!(bytes, fixture("empty_f8.npy"));
    // nested in a sequence: the element type under empty rows too
    let rows: Vec<Bulk<f32>> = vec![Bulk(Vec::new()), Bulk(Vec::new())];
    let bytes = npy_serde::to_vec(&rows).unwrap();
    assert!(
        String::from_utf8_lossy(&bytes)
            .contains("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 0), }"),
        "{}",
        String::from_utf8_lossy(&bytes)
    );
    // a non-empty one writes what Vec<T> writes, as before
    let xs = Bulk(vec![[1.0f32, 2.0, 3.0]]);
    assert_eq!(
        npy_serde::to_vec(&xs).unwrap(),
        npy_serde::to_vec(&xs.0).unwrap()
    );
}

#[test]
fn empty_nd_arrays_write_numpys_bytes() {
    every_way(
        "empty_c8",
        &NdArray::<Complex<f32>>::from_shape_vec(vec![0], Vec::new()).unwrap(),
    );
    every_way(
        "empty_c16",
        &NdArray::<Complex<f64>>::from_shape_vec(vec![0], Vec::new()).unwrap(),
    );
    every_way(
        "empty_i8_2x0x3",
        &NdArray::<i64>::from_shape_vec(vec![2, 0, 3], Vec::new()).unwrap(),
    );
}

/// An npz struct of empty bulk members: the members `np.savez` writes for
/// the same empty arrays, stored like numpy's.
#[test]
fn npz_struct_of_empty_bulks_matches_savez() {
    #[derive(Serialize)]
    struct Columns {
        #[serde(with = "npy_serde::bulk")]
        a: Vec<f32>,
        b: Bulk<[f32; 3]>,
    }
    let numpy = members(&fixture("columns.npz"));
    let value = Columns {
        a: Vec::new(),
        b: Bulk(Vec::new()),
    };
    let mut out = Cursor::new(Vec::new());
    npz::to_writer(&mut out, &value).unwrap();
    assert_eq!(members(&out.into_inner()), numpy);
    let mut w = NpzWriter::new(Cursor::new(Vec::new()));
    w.add("a", &Bulk::<f32>(Vec::new())).unwrap();
    w.add("b", &value.b).unwrap();
    assert_eq!(members(&w.finish().unwrap().into_inner()), numpy);
}

/// A plain empty `Vec<T>` member: the message names the member and what
/// to change in its type.
#[test]
fn empty_plain_vec_member_says_what_to_change() {
    #[derive(Serialize)]
    struct Columns {
        t: Bulk<f64>,
        xs: Vec<f32>,
    }
    let value = Columns {
        t: Bulk(Vec::new()),
        xs: Vec::new(),
    };
    let err = npz::to_writer(Cursor::new(Vec::new()), &value).unwrap_err();
    snap!("empty_vec_npz_member", err.to_string());
    // positional members too
    let err = npz::to_writer(Cursor::new(Vec::new()), &(Vec::<u8>::new(),)).unwrap_err();
    assert!(err.to_string().starts_with("member 'arr_0': "), "{err}");
    assert!(err.to_string().contains("Bulk<T>"), "{err}");
    // elsewhere the message still gives the dtype through WriteOptions
    let err = npy_serde::to_vec(&Vec::<f32>::new()).unwrap_err();
    assert!(err.to_string().contains("WriteOptions::dtype"), "{err}");
}

/// The uncompressed bytes of every member, in archive order.
fn members(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
    (0..zip.len())
        .map(|i| {
            let mut f = zip.by_index(i).unwrap();
            let mut v = Vec::new();
            f.read_to_end(&mut v).unwrap();
            (f.name().to_owned(), v)
        })
        .collect()
}
