//! Reading numpy's n-d arrays (tests/data/nd, made by make.py with the numpy
//! in VERSION) into `NdArray<T>`: the shape, the order as stored and the
//! values flat in that order (expected.json), through `from_slice`,
//! `from_reader` and an npz member; and the same values and errors as
//! `Vec<T>` / `Bulk<T>` reads of the same files.

use std::fmt::Debug;
use std::io::Cursor;

use npy_serde::{Bulk, NdArray, Order};
use num_complex::Complex;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/data/nd/{name}.npy", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn expected() -> serde_json::Map<String, Value> {
    let path = format!("{}/data/nd/expected.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The file as the only member of an npz archive, written by hand (stored).
fn as_npz_member(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    zip.start_file("a.npy", opts).unwrap();
    zip.write_all(bytes).unwrap();
    zip.finish().unwrap().into_inner()
}

#[derive(Deserialize)]
struct Member<T: 'static> {
    a: NdArray<T>,
}

/// Reads `name` every way; checks they agree and match expected.json.
fn check<T>(name: &str, case: &Value, from_json: impl Fn(&Value) -> T) -> NdArray<T>
where
    T: DeserializeOwned + PartialEq + Debug + 'static,
{
    let bytes = fixture(name);
    let a: NdArray<T> = npy_serde::from_slice(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let shape: Vec<usize> = serde_json::from_value(case["shape"].clone()).unwrap();
    let order = match case["order"].as_str().unwrap() {
        "F" => Order::Fortran,
        _ => Order::C,
    };
    assert_eq!(a.shape(), shape, "{name}");
    assert_eq!(a.order(), order, "{name}");
    let values: Vec<T> = case["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(&from_json)
        .collect();
    assert_eq!(a.data(), values, "{name}");
    let b: NdArray<T> = npy_serde::from_reader(&bytes[..]).unwrap();
    assert_eq!(
        (b.shape(), b.order(), b.data()),
        (a.shape(), a.order(), a.data()),
        "{name}"
    );
    // from the file itself: its length proves the data present, so plain
    // numbers are read into an output sized once
    let path = format!("{}/data/nd/{name}.npy", env!("CARGO_MANIFEST_DIR"));
    let p: NdArray<T> = npy_serde::from_path(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(
        (p.shape(), p.order(), p.data()),
        (a.shape(), a.order(), a.data()),
        "{name}: from_path"
    );
    let npz = as_npz_member(&bytes);
    let mut reader = npy_serde::npz::NpzReader::new(Cursor::new(&npz)).unwrap();
    let c: NdArray<T> = reader.by_name("a").unwrap();
    assert_eq!(
        (c.shape(), c.order(), c.data()),
        (a.shape(), a.order(), a.data()),
        "{name}"
    );
    let d: Member<T> = npy_serde::npz::from_reader(Cursor::new(&npz)).unwrap();
    assert_eq!(d.a.data(), a.data(), "{name}");
    a
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

#[test]
fn every_fixture_reads_with_its_shape_order_and_values() {
    let cases = expected();
    let mut seen = 0;
    for (name, case) in &cases {
        let descr = case["descr"].as_str().unwrap_or("record");
        let kind = if descr == "record" {
            descr
        } else {
            &descr[1..]
        };
        match kind {
            "f8" => drop(check(name, case, num)),
            "f4" => drop(check(name, case, |v| num(v) as f32)),
            "f2" => drop(check(name, case, |v| num(v) as f32)),
            "i4" => drop(check(name, case, |v| v.as_i64().unwrap() as i32)),
            "i1" => drop(check(name, case, |v| v.as_i64().unwrap() as i8)),
            "i2" => drop(check(name, case, |v| v.as_i64().unwrap() as i16)),
            "i8" => drop(check(name, case, |v| v.as_i64().unwrap())),
            "u1" => drop(check(name, case, |v| v.as_u64().unwrap() as u8)),
            "u2" => drop(check(name, case, |v| v.as_u64().unwrap() as u16)),
            "u4" => drop(check(name, case, |v| v.as_u64().unwrap() as u32)),
            "u8" => drop(check(name, case, |v| v.as_u64().unwrap())),
            "b1" => drop(check(name, case, |v| v.as_bool().unwrap())),
            "c16" => drop(check(name, case, |v| Complex::new(num(&v[0]), num(&v[1])))),
            "c8" => drop(check(name, case, |v| {
                Complex::new(num(&v[0]) as f32, num(&v[1]) as f32)
            })),
            "M8[s]" => drop(check(name, case, |v| v.as_i64().unwrap())),
            k if k.starts_with('U') => drop(check(name, case, |v| v.as_str().unwrap().to_owned())),
            k if k.starts_with('S') => drop(check(name, case, |v| {
                serde_bytes::ByteBuf::from(serde_json::from_value::<Vec<u8>>(v.clone()).unwrap())
            })),
            "record" => drop(check(name, case, |v| Particle {
                id: v["id"].as_u64().unwrap() as u32,
                pos: serde_json::from_value(v["pos"].clone()).unwrap(),
                mass: num(&v["mass"]),
            })),
            other => panic!("{name}: no reader for {other}"),
        }
        seen += 1;
    }
    assert!(seen >= 70, "{seen}");
}

#[derive(Deserialize, Debug, PartialEq, Clone, Copy)]
struct Particle {
    id: u32,
    pos: [f32; 3],
    mass: f64,
}

#[test]
fn half_floats_read_bit_exact() {
    #[cfg(feature = "half")]
    for name in ["le_f2_C", "be_f2_F"] {
        let a: NdArray<half::f16> = npy_serde::from_slice(&fixture(name)).unwrap();
        let b: NdArray<f32> = npy_serde::from_slice(&fixture(name)).unwrap();
        let widened: Vec<f32> = a.data().iter().map(|h| h.to_f32()).collect();
        assert_eq!(widened, b.data(), "{name}");
    }
}

#[test]
fn element_arrays_absorb_the_last_axis() {
    for name in ["points_n3_C", "points_n3_F"] {
        let a: NdArray<[f32; 3]> = npy_serde::from_slice(&fixture(name)).unwrap();
        assert_eq!(a.shape(), [10]);
        assert_eq!(a.order(), Order::C);
        assert_eq!(a.data()[2], [6.0, 7.0, 8.0]);
        let v: Vec<[f32; 3]> = npy_serde::from_slice(&fixture(name)).unwrap();
        assert_eq!(a.data(), v);
    }
}

#[test]
fn fortran_arrays_equal_their_c_copies() {
    for (c, f) in [
        ("f8_3d_C_le", "f8_3d_F_be"),
        ("records_C", "records_F"),
        ("c16_C", "c16_F"),
    ] {
        let c: NdArray<Value> = npy_serde::from_slice(&fixture(c)).unwrap();
        let f: NdArray<Value> = npy_serde::from_slice(&fixture(f)).unwrap();
        assert_eq!(f.order(), Order::Fortran);
        assert_eq!(c, f);
        assert_eq!(f.into_c_order().into_vec(), c.into_vec());
    }
}

#[test]
fn empty_shapes_cost_nothing_per_zero_axis() {
    for (name, shape) in [
        ("empty_0_5", vec![0, 5]),
        ("empty_5_0", vec![5, 0]),
        ("empty_12345678_0", vec![12345678, 0]),
    ] {
        let a: NdArray<f64> = npy_serde::from_slice(&fixture(name)).unwrap();
        assert_eq!(a.shape(), shape);
        assert!(a.is_empty());
    }
    let z: NdArray<f64> = npy_serde::from_slice(&fixture("zero_d")).unwrap();
    assert_eq!((z.shape(), z.data()), (&[][..], &[2.5][..]));
    // nested Vecs would hold 12345678 empty Vecs: refused by default
    let err = npy_serde::from_slice::<Vec<Vec<f64>>>(&fixture("empty_12345678_0")).unwrap_err();
    assert!(
        err.to_string().contains("values that hold no bytes"),
        "{err}"
    );
}

/// The values of a 1-d file and the C-order data of an n-d one equal what
/// `Vec<T>` and `Bulk<T>` read; a mismatch fails with the same message.
#[test]
fn nd_reads_agree_with_vec_and_bulk_reads() {
    for name in ["f8_1d_C_le", "f8_1d_C_be", "i4_1d_F_le", "i4_1d_C_be"] {
        let bytes = fixture(name);
        let nd: NdArray<f64> = npy_serde::from_slice(&bytes).unwrap();
        let v: Vec<f64> = npy_serde::from_slice(&bytes).unwrap();
        let b: Bulk<f64> = npy_serde::from_slice(&bytes).unwrap();
        assert_eq!(nd.data(), v, "{name}");
        assert_eq!(*b, v, "{name}");
        let nd_err = npy_serde::from_slice::<NdArray<u8>>(&bytes).unwrap_err();
        let vec_err = npy_serde::from_slice::<Vec<u8>>(&bytes).unwrap_err();
        let bulk_err = npy_serde::from_slice::<Bulk<u8>>(&bytes).unwrap_err();
        assert_eq!(nd_err.to_string(), vec_err.to_string(), "{name}");
        assert_eq!(bulk_err.to_string(), vec_err.to_string(), "{name}");
    }
    for name in ["f8_2d_C_le", "f8_2d_F_be", "i4_2d_C_be"] {
        let bytes = fixture(name);
        let nd: NdArray<f64> = npy_serde::from_slice(&bytes).unwrap();
        let rows: Vec<Vec<f64>> = npy_serde::from_slice(&bytes).unwrap();
        assert_eq!(nd.into_c_order().into_vec(), rows.concat(), "{name}");
    }
}

/// A 2-d file into a flat Vec names its shape and the types that read it.
#[test]
fn shape_errors_suggest_ndarray() {
    let err = npy_serde::from_slice::<Vec<f64>>(&fixture("f8_2d_C_le")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "record 0: expected f64, found subarray of shape (4,) of '<f8'; the file holds a 2-d \
         array of shape (3, 4): read it as NdArray<f64> (shape and flat data) or as nested Vecs \
         (Vec<Vec<f64>>)"
    );
    let err = npy_serde::from_reader::<Bulk<f64>>(&fixture("f8_2d_C_le")[..]).unwrap_err();
    assert!(err.to_string().contains("NdArray<f64>"), "{err}");
    let err = npy_serde::from_slice::<Vec<Particle>>(&fixture("records_C")).unwrap_err();
    assert!(
        err.to_string().contains("a 2-d array of shape (20, 30)"),
        "{err}"
    );
}

/// `NpyReader` hands out the first axis: each row an n-d array of the rest.
#[test]
fn npy_reader_rows_are_nd_arrays() {
    for name in ["f8_3d_C_le", "f8_3d_F_be"] {
        let bytes = fixture(name);
        let mut r = npy_serde::NpyReader::new(&bytes[..]).unwrap();
        let rows: Vec<NdArray<f64>> = r.deserialize().collect::<Result<_, _>>().unwrap();
        assert_eq!(rows.len(), 2, "{name}");
        assert!(
            rows.iter()
                .all(|row| row.shape() == [3, 4] && row.order() == Order::C)
        );
        let whole: NdArray<f64> = npy_serde::from_slice(&bytes).unwrap();
        let flat: Vec<f64> = rows.iter().flat_map(|row| row.data().to_vec()).collect();
        assert_eq!(flat, whole.into_c_order().into_vec(), "{name}");
    }
}
