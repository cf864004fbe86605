//! npz members that are not arrays: one named `.npy` without the npy magic
//! is damaged (an error naming it, where numpy silently returns raw bytes);
//! another (`readme.txt`) reads into byte targets only, anything else is an
//! error naming it and pointing to `raw()`.

use npy_serde::npz::{self, NpzReader};
use serde_bytes::ByteBuf;
use std::io::{Cursor, Write};

macro_rules! snap {
    ($name:literal, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

/// An archive with `x.npy` (an array), `bad.npy` (no magic) and `readme.txt`.
fn archive() -> Cursor<Vec<u8>> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    zip.start_file("x.npy", opts).unwrap();
    zip.write_all(&npy_serde::to_vec(&[1.0f64]).unwrap())
        .unwrap();
    zip.start_file("bad.npy", opts).unwrap();
    zip.write_all(b"not numpy at all").unwrap();
    zip.start_file("readme.txt", opts).unwrap();
    zip.write_all(b"hello npz\n").unwrap();
    let mut c = zip.finish().unwrap();
    c.set_position(0);
    c
}

#[test]
fn non_array_members() {
    let mut z = NpzReader::new(archive()).unwrap();
    // byte targets keep working; raw() reads anything
    assert_eq!(
        z.by_name::<ByteBuf>("readme.txt").unwrap().into_vec(),
        b"hello npz\n"
    );
    assert_eq!(z.raw("bad.npy").unwrap(), b"not numpy at all");
    assert_eq!(z.by_name::<Vec<f64>>("x").unwrap(), [1.0]);
    let errs = [
        z.by_name::<ByteBuf>("bad.npy").unwrap_err(),
        z.by_name::<Vec<u8>>("bad").unwrap_err(),
        z.by_name::<serde_json::Value>("readme.txt").unwrap_err(),
        z.by_name::<Vec<u8>>("readme.txt").unwrap_err(),
        z.by_name::<String>("readme.txt").unwrap_err(),
    ];
    // a struct of members, and a generic value of the whole archive
    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct X {
        x: Vec<f64>,
        #[serde(rename = "readme.txt")]
        readme: String,
    }
    let st = npz::from_reader::<X>(archive()).unwrap_err();
    let any = npz::from_reader::<serde_json::Value>(archive()).unwrap_err();
    snap!(
        "npz_non_array_members",
        errs.iter()
            .chain([&st, &any])
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    );
    // a struct skipping the odd members reads
    #[derive(serde::Deserialize)]
    struct OnlyX {
        x: Vec<f64>,
    }
    assert_eq!(npz::from_reader::<OnlyX>(archive()).unwrap().x, [1.0]);
}

/// Members `arr_0`..`arr_{n-1}` (as `np.savez(f, a, b)` writes them) read
/// positionally into tuples and tuple structs.
#[test]
fn positional_members_read_into_tuples() {
    let mut file = Cursor::new(Vec::new());
    let mut w = npz::NpzWriter::new(&mut file);
    // written out of order: positions come from the names
    w.add("arr_1", &[1.5f64, 2.5]).unwrap();
    w.add("arr_0", &[1i32, 2, 3, 4]).unwrap();
    w.finish().unwrap();
    let bytes = file.into_inner();
    let (a, b): (Vec<i32>, Vec<f64>) = npz::from_reader(Cursor::new(&bytes)).unwrap();
    assert_eq!((a, b), (vec![1, 2, 3, 4], vec![1.5, 2.5]));
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Pair(Vec<i64>, Vec<f32>);
    let p: Pair = npz::from_reader(Cursor::new(&bytes)).unwrap();
    assert_eq!(p, Pair(vec![1, 2, 3, 4], vec![1.5, 2.5]));
    // a tuple struct of another length, or an archive with other keys
    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Three(Vec<i64>, Vec<f32>, Vec<u8>);
    let three = npz::from_reader::<Three>(Cursor::new(&bytes)).unwrap_err();
    let other = npz::from_reader::<Pair>(archive()).unwrap_err();
    snap!("npz_positional_refused", format!("{three}\n{other}"));
}

/// A tuple or tuple struct writes members `arr_0`..`arr_{n-1}`, as
/// `np.savez(f, a, b)` does: the same bytes as numpy's members, read back
/// positionally.
#[test]
fn tuples_write_positional_members() {
    let path = format!("{}/data/npz/positional.npz", env!("CARGO_MANIFEST_DIR"));
    let mut numpy = NpzReader::new(std::fs::File::open(path).unwrap()).unwrap();
    let value = (vec![0i32, 1, 2], vec![1.0f64, 2.0]);
    let mut file = Cursor::new(Vec::new());
    npz::to_writer(&mut file, &value).unwrap();
    let bytes = file.into_inner();
    let mut ours = NpzReader::new(Cursor::new(&bytes)).unwrap();
    assert_eq!(ours.names(), ["arr_0", "arr_1"]);
    for name in ["arr_0", "arr_1"] {
        assert_eq!(ours.raw(name).unwrap(), numpy.raw(name).unwrap(), "{name}");
    }
    let back: (Vec<i32>, Vec<f64>) = npz::from_reader(Cursor::new(&bytes)).unwrap();
    assert_eq!(back, value);

    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Pair(Vec<i64>, f32);
    let pair = Pair(vec![7, 8], 0.5);
    let mut file = Cursor::new(Vec::new());
    npz::to_writer(&mut file, &pair).unwrap();
    let bytes = file.into_inner();
    assert_eq!(
        NpzReader::new(Cursor::new(&bytes)).unwrap().names(),
        ["arr_0", "arr_1"]
    );
    assert_eq!(npz::from_reader::<Pair>(Cursor::new(&bytes)).unwrap(), pair);

    // a None would leave a gap in the positions
    let err = npz::to_writer(Cursor::new(Vec::new()), &(vec![1u8], None::<Vec<u8>>)).unwrap_err();
    snap!("npz_tuple_none_refused", err.to_string());
}

/// A member started with a nested subarray dtype (`(2, 5)` records of
/// `f8` as `Subarray(Subarray(f8, [5]), [2])`) is the file `NpyWriter`
/// writes for it, shape `(n, 2, 5)`: the count of bytes the member must
/// hold is taken from that same header.
#[test]
fn started_members_of_nested_subarrays_finish() {
    use npy_serde::{Dtype, ScalarType};
    let inner = Dtype::subarray(Dtype::scalar(ScalarType::Float(8)), vec![5]).unwrap();
    let dt = Dtype::subarray(inner, vec![2]).unwrap();
    let mut w = npz::NpzWriter::new(Cursor::new(Vec::new()));
    let mut col = w.start("x", dt, 2).unwrap();
    col.serialize(&[[1.0f64; 5]; 2]).unwrap();
    col.serialize(&[[2.0f64; 5]; 2]).unwrap();
    col.finish().unwrap();
    let bytes = w.finish().unwrap().into_inner();
    let mut r = NpzReader::new(Cursor::new(bytes)).unwrap();
    let x: Vec<[[f64; 5]; 2]> = r.by_name("x").unwrap();
    assert_eq!(x, [[[1.0; 5]; 2], [[2.0; 5]; 2]]);
}
