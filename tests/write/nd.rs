//! Writing n-d arrays: every fixture numpy wrote (tests/data/nd) read into
//! `NdArray<T>` and written back with the reader's dtype gives the file's
//! bytes, through every entry point; `from_shape_vec` / `NdView::new` +
//! `to_vec` equal `np.save`; conversions of dtype and order; record
//! fields; npz members and struct fields; the shapes that hold nothing.

use std::fmt::Debug;
use std::io::Cursor;

use npy_serde::{Dtype, NdArray, NdView, Order, WriteOptions};
use num_complex::Complex;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/data/nd/{name}.npy", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn descr_of(bytes: &[u8]) -> Dtype {
    let (header, _) = npy_serde::Header::from_bytes(bytes, &Default::default()).unwrap();
    header.descr
}

/// Every entry point's bytes for `value` with `opts`: `to_vec`,
/// `to_writer`, `to_path`, and an npz member (stored).
fn every_way<T: Serialize + ?Sized>(value: &T, opts: &WriteOptions, name: &str) -> Vec<u8> {
    let bytes = opts.to_vec(value).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut w = Vec::new();
    opts.to_writer(&mut w, value).unwrap();
    assert_eq!(w, bytes, "{name}: to_writer");
    static FILES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = FILES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("npy_serde_nd_{}_{n}.npy", std::process::id()));
    opts.to_path(&dir, value).unwrap();
    assert_eq!(std::fs::read(&dir).unwrap(), bytes, "{name}: to_path");
    // without syncs, over a longer file (a plain array's blocks are
    // reserved first): the same bytes, the old file gone
    std::fs::write(&dir, vec![7u8; bytes.len() + 4096]).unwrap();
    opts.clone().durable(false).to_path(&dir, value).unwrap();
    assert_eq!(
        std::fs::read(&dir).unwrap(),
        bytes,
        "{name}: durable(false).to_path"
    );
    std::fs::remove_file(&dir).unwrap();
    let mut npz = npy_serde::npz::NpzWriter::new(Cursor::new(Vec::new()));
    npz.add_with_options("a", opts, value).unwrap();
    let archive = npz.finish().unwrap().into_inner();
    let mut r = npy_serde::npz::NpzReader::new(Cursor::new(&archive)).unwrap();
    assert_eq!(r.raw("a").unwrap(), bytes, "{name}: npz member");
    bytes
}

/// Reads fixture `name` as `NdArray<T>`, writes it back with the file's
/// dtype every way and compares with `expect` (the file itself, or the
/// C-order file when the element absorbs axes).
fn write_back<T>(name: &str, expect: &str)
where
    T: DeserializeOwned + Serialize + PartialEq + Debug + 'static,
{
    let bytes = fixture(name);
    let a: NdArray<T> = npy_serde::from_slice(&bytes).unwrap();
    let opts = WriteOptions::new().dtype(descr_of(&bytes));
    let out = every_way(&a, &opts, name);
    assert!(
        out == fixture(expect),
        "{name}: written back differs from {expect}.npy"
    );
    // and it reads back equal
    let b: NdArray<T> = npy_serde::from_slice(&out).unwrap();
    assert_eq!(a, b, "{name}");
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone, Copy)]
struct Particle {
    id: u32,
    pos: [f32; 3],
    mass: f64,
}

#[test]
fn every_fixture_written_back_equals_numpy() {
    let dir = format!("{}/data/nd", env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".npy").map(str::to_owned)
        })
        .collect();
    names.sort();
    for name in &names {
        let name = name.as_str();
        let descr = descr_of(&fixture(name)).to_string();
        let kind = descr.trim_matches('\'').get(1..).unwrap_or("").to_owned();
        match kind.as_str() {
            _ if name.starts_with("records") => write_back::<Particle>(name, name),
            _ if name.starts_with("points_n3") => write_back::<[f32; 3]>(name, "points_n3_C"),
            "f8" => write_back::<f64>(name, name),
            "f4" | "f2" => write_back::<f32>(name, name),
            "i1" => write_back::<i8>(name, name),
            "i2" => write_back::<i16>(name, name),
            "i4" => write_back::<i32>(name, name),
            "i8" => write_back::<i64>(name, name),
            "u1" => write_back::<u8>(name, name),
            "u2" => write_back::<u16>(name, name),
            "u4" => write_back::<u32>(name, name),
            "u8" => write_back::<u64>(name, name),
            "b1" => write_back::<bool>(name, name),
            "c8" => write_back::<Complex<f32>>(name, name),
            "c16" => write_back::<Complex<f64>>(name, name),
            "M8[s]" => write_back::<i64>(name, name),
            k if k.starts_with('U') => write_back::<String>(name, name),
            k if k.starts_with('S') => write_back::<serde_bytes::ByteBuf>(name, name),
            other => panic!("{name}: no type for {other} ({descr})"),
        }
        seen += 1;
    }
    assert!(seen >= 75, "{seen}");
}

/// With the dtype inferred, a little-endian file of a native type is
/// written back as numpy wrote it (byte order, string widths, complex).
#[test]
fn inferred_dtypes_equal_numpy() {
    fn same<T: DeserializeOwned + Serialize + 'static>(name: &str) {
        let bytes = fixture(name);
        let a: NdArray<T> = npy_serde::from_slice(&bytes).unwrap();
        let out = every_way(&a, &WriteOptions::new(), name);
        assert!(out == bytes, "{name}");
    }
    for name in [
        "f8_1d_C_le",
        "f8_2d_C_le",
        "f8_2d_F_le",
        "f8_3d_F_le",
        "f8_4d_C_le",
        "f8_4d_F_le",
        "zero_d",
        "empty_0_5",
        "empty_5_0",
        "empty_12345678_0",
    ] {
        same::<f64>(name);
    }
    for name in ["i4_2d_F_le", "i4_3d_C_le"] {
        same::<i32>(name);
    }
    same::<bool>("bool_F");
    same::<u8>("u1_C");
    same::<Complex<f64>>("c16_F");
    same::<String>("strings_U_F");
    // records_C has a '>f8' field: written back with its dtype (above)
}

/// `from_shape_vec` and `NdView::new` of the values give `np.save`'s
/// bytes, C order and Fortran.
#[test]
fn arrays_built_from_values_equal_numpy() {
    let c: NdArray<f64> = npy_serde::from_slice(&fixture("f8_3d_C_le")).unwrap();
    let f: NdArray<f64> = npy_serde::from_slice(&fixture("f8_3d_F_le")).unwrap();
    let shape = c.shape().to_vec();
    let built = NdArray::from_shape_vec(shape.clone(), c.data().to_vec()).unwrap();
    assert!(npy_serde::to_vec(&built).unwrap() == fixture("f8_3d_C_le"));
    let built = NdArray::from_shape_vec_fortran(shape.clone(), f.data().to_vec()).unwrap();
    assert!(npy_serde::to_vec(&built).unwrap() == fixture("f8_3d_F_le"));
    let view = NdView::new(shape.clone(), Order::C, c.data()).unwrap();
    assert!(npy_serde::to_vec(&view).unwrap() == fixture("f8_3d_C_le"));
    let view = NdView::new(shape, Order::Fortran, f.data()).unwrap();
    assert!(npy_serde::to_vec(&view).unwrap() == fixture("f8_3d_F_le"));
}

/// `fortran_order(b)` set explicitly converts; a dtype converts the values.
#[test]
fn options_convert_order_and_dtype() {
    let c: NdArray<f64> = npy_serde::from_slice(&fixture("f8_3d_C_le")).unwrap();
    let f: NdArray<f64> = npy_serde::from_slice(&fixture("f8_3d_F_le")).unwrap();
    let to_f = WriteOptions::new().fortran_order(true);
    let to_c = WriteOptions::new().fortran_order(false);
    assert!(every_way(&c, &to_f, "c_to_f") == fixture("f8_3d_F_le"));
    assert!(every_way(&f, &to_c, "f_to_c") == fixture("f8_3d_C_le"));
    assert!(every_way(&f, &to_f, "f_to_f") == fixture("f8_3d_F_le"));
    let be = WriteOptions::new().dtype(">f8".parse().unwrap());
    assert!(every_way(&c, &be, "c_be") == fixture("f8_3d_C_be"));
    assert!(every_way(&f, &be, "f_be") == fixture("f8_3d_F_be"));
    let be_c = be.clone().fortran_order(false);
    assert!(every_way(&f, &be_c, "f_be_c") == fixture("f8_3d_C_be"));
    // i32 values into the file's '<f8'... and a value that does not fit
    let ints: NdArray<i32> = npy_serde::from_slice(&fixture("i4_2d_F_le")).unwrap();
    let bytes = WriteOptions::new()
        .dtype("<i2".parse().unwrap())
        .to_vec(&ints)
        .unwrap();
    let back: NdArray<i16> = npy_serde::from_slice(&bytes).unwrap();
    assert_eq!(back.order(), Order::Fortran);
    assert_eq!(back.shape(), ints.shape());
    let big = NdArray::from_shape_vec(vec![2], vec![1i32, 70000]).unwrap();
    let err = WriteOptions::new()
        .dtype("<i2".parse().unwrap())
        .to_vec(&big)
        .unwrap_err();
    assert!(err.to_string().contains("70000"), "{err}");
}

/// As a record's field an n-d array is a subarray field, in C order.
#[test]
fn record_fields_are_subarrays() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Frame {
        id: u16,
        img: NdArray<u8>,
    }
    let frames = vec![
        Frame {
            id: 1,
            img: NdArray::from_shape_vec(vec![2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap(),
        },
        Frame {
            id: 2,
            // the same layout given column by column
            img: NdArray::from_shape_vec_fortran(vec![2, 3], vec![1, 4, 2, 5, 3, 6]).unwrap(),
        },
    ];
    let bytes = npy_serde::to_vec(&frames).unwrap();
    let (header, offset) = npy_serde::Header::from_bytes(&bytes, &Default::default()).unwrap();
    assert_eq!(
        header.descr.to_string(),
        "[('id', '<u2'), ('img', '|u1', (2, 3))]"
    );
    assert_eq!(header.shape, [2]);
    assert_eq!(
        &bytes[offset..],
        &[1, 0, 1, 2, 3, 4, 5, 6, 2, 0, 1, 2, 3, 4, 5, 6]
    );
    let back: Vec<Frame> = npy_serde::from_slice(&bytes).unwrap();
    assert_eq!(back, frames);
    // one shape for every record
    let ragged = vec![
        Frame {
            id: 1,
            img: NdArray::from_shape_vec(vec![2], vec![1, 2]).unwrap(),
        },
        Frame {
            id: 2,
            img: NdArray::from_shape_vec(vec![1, 2], vec![1, 2]).unwrap(),
        },
    ];
    let err = npy_serde::to_vec(&ragged).unwrap_err();
    assert_eq!(
        err.to_string(),
        "record 1, field img: an n-d array of shape (1, 2) where the first record has shape (2,)"
    );
    let given = WriteOptions::new().dtype(header.descr.clone());
    let err = given.to_vec(&ragged).unwrap_err();
    assert!(err.to_string().starts_with("record 0, field img"), "{err}");
}

/// An npz struct's field is a member of the array's shape.
#[test]
fn npz_struct_fields() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Scene {
        depth: NdArray<f32>,
        ids: Vec<u32>,
    }
    let scene = Scene {
        depth: NdArray::from_shape_vec_fortran(vec![2, 2], vec![0.0, 1.0, 2.0, 3.0]).unwrap(),
        ids: vec![7, 8],
    };
    let mut file = Cursor::new(Vec::new());
    npy_serde::npz::to_writer(&mut file, &scene).unwrap();
    let back: Scene = npy_serde::npz::from_reader(Cursor::new(file.get_ref())).unwrap();
    assert_eq!(back, scene);
    assert_eq!(back.depth.order(), Order::Fortran);
}

/// Other formats see `{shape, order, data}` and read it back.
#[test]
fn other_formats_round_trip() {
    let f = NdArray::from_shape_vec_fortran(vec![2, 2], vec![1i32, 3, 2, 4]).unwrap();
    let json = serde_json::to_string(&f).unwrap();
    assert_eq!(json, r#"{"shape":[2,2],"order":"F","data":[1,3,2,4]}"#);
    let back: NdArray<i32> = serde_json::from_str(&json).unwrap();
    assert_eq!((back.order(), back.data()), (Order::Fortran, f.data()));
}

/// Empty arrays keep their shape; plain numbers keep their dtype without a
/// value to infer it from; other types need it given.
#[test]
fn empty_arrays_keep_shape_and_dtype() {
    let e = NdArray::<u16>::from_shape_vec(vec![3, 0, 2], vec![]).unwrap();
    let bytes = npy_serde::to_vec(&e).unwrap();
    let (header, _) = npy_serde::Header::from_bytes(&bytes, &Default::default()).unwrap();
    assert_eq!(
        header.to_string(),
        "{'descr': '<u2', 'fortran_order': False, 'shape': (3, 0, 2), }"
    );
    let back: NdArray<u16> = npy_serde::from_slice(&bytes).unwrap();
    assert_eq!(back.shape(), [3, 0, 2]);
    let words = NdArray::<String>::from_shape_vec(vec![0, 4], vec![]).unwrap();
    let err = npy_serde::to_vec(&words).unwrap_err();
    assert!(
        err.to_string().contains("cannot tell the element type"),
        "{err}"
    );
    let given = WriteOptions::new().dtype("<U3".parse().unwrap());
    let bytes = given.to_vec(&words).unwrap();
    assert!(String::from_utf8_lossy(&bytes).contains("'shape': (0, 4)"));
}
