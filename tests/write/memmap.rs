//! `npy_serde::memmap` (feature `memmap`, issue 35): `create` writes the
//! bytes numpy's `open_memmap(mode='w+')` writes (tests/data/memmap, made
//! by its make.py), filled maps read back with `from_path`, numpy's
//! open_memmap files opened and written in place with `open_mut`, and the
//! refusals with their messages.

use std::path::{Path, PathBuf};

use npy_serde::Order;
use npy_serde::memmap::{create, open, open_mut};
use num_complex::Complex;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/memmap")
        .join(name)
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("npy_serde_memmap_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `create` then the file's bytes, the map dropped.
fn created<T: npy_serde::view::ViewElement>(name: &str, shape: &[usize]) -> Vec<u8> {
    let path = scratch(name);
    let a = create::<T>(&path, shape).unwrap();
    assert_eq!(a.shape(), shape);
    drop(a);
    std::fs::read(&path).unwrap()
}

#[test]
fn memmap_create_writes_the_bytes_of_numpys_open_memmap() {
    let want = |name: &str| std::fs::read(fixture(&format!("w_plus_{name}.npy"))).unwrap();
    assert_eq!(created::<f64>("a.npy", &[100, 7]), want("f8_100x7"));
    assert_eq!(
        created::<Complex<f32>>("b.npy", &[2, 3, 4]),
        want("c8_2x3x4")
    );
    assert_eq!(created::<bool>("c.npy", &[5]), want("b1_5"));
    assert_eq!(created::<i64>("d.npy", &[]), want("i8_0d"));
    assert_eq!(created::<u16>("e.npy", &[0, 3]), want("u2_0x3"));
    assert_eq!(created::<f32>("f.npy", &[1234567, 0]), want("f4_1234567x0"));
}

#[test]
fn memmap_filled_flushed_and_dropped_reads_back() {
    let path = scratch("filled.npy");
    let mut a = create::<f64>(&path, &[100, 7]).unwrap();
    assert_eq!((a.order(), a.len()), (Order::C, 700));
    let mut v = a.view_mut();
    assert_eq!(v.shape(), &[100, 7]);
    for (i, x) in v.data_mut().iter_mut().enumerate() {
        *x = i as f64 * 0.25 - 3.0;
    }
    a.flush().unwrap();
    drop(a);
    let back: Vec<[f64; 7]> = npy_serde::from_path(&path).unwrap();
    assert_eq!(back.len(), 100);
    assert_eq!(back[0], [-3.0, -2.75, -2.5, -2.25, -2.0, -1.75, -1.5]);
    assert_eq!(back[99][6], 699.0 * 0.25 - 3.0);
    // the header is numpy's open_memmap header for '<f8' (100, 7)
    let bytes = std::fs::read(&path).unwrap();
    let numpy = std::fs::read(fixture("w_plus_f8_100x7.npy")).unwrap();
    assert_eq!(bytes[..128], numpy[..128]);
    assert_eq!(bytes.len(), numpy.len());
}

#[test]
fn memmap_create_replaces_an_existing_file() {
    let path = scratch("replaced.npy");
    std::fs::write(&path, vec![0xAB; 10_000]).unwrap();
    let a = create::<u8>(&path, &[3]).unwrap();
    assert_eq!(a.view().data(), &[0, 0, 0]);
    drop(a);
    assert_eq!(std::fs::metadata(&path).unwrap().len(), 128 + 3);
}

#[test]
fn memmap_open_mut_writes_numpys_open_memmap_file_in_place() {
    // a copy: the fixture stays as numpy made it
    let path = scratch("numpy_filled_i4.npy");
    std::fs::copy(fixture("filled_i4.npy"), &path).unwrap();
    let mut a = open_mut::<i32>(&path).unwrap();
    assert_eq!((a.shape(), a.order()), (&[6, 4][..], Order::C));
    assert_eq!(a.view().data(), (0..24).collect::<Vec<i32>>());
    for x in a.view_mut().data_mut() {
        *x = *x * 10 + 1;
    }
    a.flush().unwrap();
    drop(a);
    let back: Vec<[i32; 4]> = npy_serde::from_path(&path).unwrap();
    assert_eq!(back[0], [1, 11, 21, 31]);
    assert_eq!(back[5], [201, 211, 221, 231]);
    // only the data changed: the header is numpy's
    let bytes = std::fs::read(&path).unwrap();
    let numpy = std::fs::read(fixture("filled_i4.npy")).unwrap();
    assert_eq!((bytes.len(), &bytes[..128]), (numpy.len(), &numpy[..128]));

    // and read-only, the same values in place
    let r = open::<i32>(&path).unwrap();
    assert_eq!(r.view().data()[23], 231);
}

#[test]
fn memmap_fortran_order_is_mapped_as_stored() {
    let a = open::<f64>(fixture("fortran_f8.npy")).unwrap();
    assert_eq!((a.shape(), a.order()), (&[3, 4][..], Order::Fortran));
    assert!(a.header().fortran_order);
    // column-major: the first axis varies fastest
    assert_eq!(
        a.view().data()[..4],
        [0.0, 4.0, 8.0, 1.0],
        "{:?}",
        a.view().data()
    );
}

#[test]
fn memmap_refusals_say_what_is_wrong() {
    let dir = scratch("x").parent().unwrap().to_path_buf();
    let mut text = String::new();
    let mut line = |what: &str, err: npy_serde::Error| {
        let err = err.to_string().replace(&dir.display().to_string(), "DIR");
        let err = err.replace(&fixture("").display().to_string(), "tests/data/memmap/");
        text += &format!("{what}: {err}\n");
    };
    let f8 = fixture("w_plus_f8_100x7.npy");
    line("open::<f32> of '<f8'", open::<f32>(&f8).unwrap_err());
    let copy = scratch("f8_copy.npy");
    std::fs::copy(&f8, &copy).unwrap();
    line(
        "open_mut::<i64> of '<f8'",
        open_mut::<i64>(&copy).unwrap_err(),
    );
    line(
        "open::<f64> of '>f8'",
        open::<f64>(fixture("big_endian_f8.npy")).unwrap_err(),
    );
    line(
        "open::<f64> of a missing file",
        open::<f64>(dir.join("missing.npy")).unwrap_err(),
    );
    line(
        "open_mut::<f64> of a missing file",
        open_mut::<f64>(dir.join("missing.npy")).unwrap_err(),
    );
    line(
        "create in a missing directory",
        create::<f64>(dir.join("no/such/dir.npy"), &[3]).unwrap_err(),
    );
    line(
        "create too big",
        create::<f64>(scratch("big.npy"), &[usize::MAX, 2]).unwrap_err(),
    );
    let cut = scratch("cut.npy");
    let bytes = std::fs::read(fixture("filled_i4.npy")).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() - 4]).unwrap();
    line("open::<i32> of a cut file", open::<i32>(&cut).unwrap_err());
    let not_npy = scratch("not.npy");
    std::fs::write(&not_npy, b"PK\x03\x04 a zip, not an npy file").unwrap();
    line("open::<u8> of a zip", open::<u8>(&not_npy).unwrap_err());
    std::fs::write(&not_npy, b"").unwrap();
    line(
        "open::<u8> of an empty file",
        open::<u8>(&not_npy).unwrap_err(),
    );
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("memmap_refusals", text);
    });
}
