//! Arrow batches from numpy-written files and back (feature `arrow`): the
//! fixtures of `tests/data/arrow` (made by its make.py, one of every kind
//! in the mapping) converted to `RecordBatch`es, checked column by column,
//! and written back byte for byte; batches built here written as numpy
//! writes their structured array; refusals and their messages.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, DurationMicrosecondType, DurationMillisecondType, DurationNanosecondType,
    DurationSecondType, Float16Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type,
    Int64Type, TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
    TimestampSecondType, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{
    Array, ArrayRef, BinaryArray, BooleanArray, FixedSizeListArray, Float32Array, Float64Array,
    Int32Array, RecordBatch, StringArray, StructArray, TimestampMillisecondArray,
};
use arrow_schema::{DataType, Field};
use npy_serde::arrow;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/arrow")
}

fn file(name: &str) -> Vec<u8> {
    std::fs::read(dir().join(name)).unwrap()
}

fn batch(name: &str) -> RecordBatch {
    arrow::from_slice(&file(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn col<'a>(b: &'a RecordBatch, name: &str) -> &'a ArrayRef {
    b.column_by_name(name)
        .unwrap_or_else(|| panic!("no column {name}"))
}

/// Every readable fixture: from_slice and from_reader agree, and the batch
/// is written back as the file numpy wrote.
#[test]
fn every_fixture_round_trips_byte_for_byte() {
    let refused = ["ps_inexact.npy", "months_delta.npy"];
    let mut seen = 0;
    for entry in std::fs::read_dir(dir()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if !name.ends_with(".npy") || refused.contains(&name.as_str()) {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let b = batch(&name);
        let streamed = arrow::from_reader(bytes.as_slice()).unwrap();
        assert_eq!(b, streamed, "{name}: from_reader");
        assert_eq!(arrow::to_vec(&b).unwrap(), bytes, "{name}: back to bytes");
        let mut out = Vec::new();
        arrow::to_writer(&mut out, &b).unwrap();
        assert_eq!(out, bytes, "{name}: to_writer");
        seen += 1;
    }
    assert_eq!(seen, 16);
}

#[test]
fn records_column_by_column() {
    let b = batch("records.npy");
    assert_eq!(b.num_rows(), 3);
    let md = b.schema_ref().metadata().clone();
    assert_eq!(md["numpy.shape"], "(3,)");
    assert_eq!(md["numpy.fortran_order"], "False");
    assert!(md["numpy.descr"].starts_with("[('id', '<i8'), ('pos', '<f8', (3,)), "));

    assert_eq!(
        col(&b, "id").as_primitive::<Int64Type>().values(),
        &[1, -2, 3]
    );
    let pos = col(&b, "pos").as_fixed_size_list();
    assert_eq!(pos.value_length(), 3);
    let p = pos.values().as_primitive::<Float64Type>().values().to_vec();
    assert_eq!(p[..4], [0.5, 1.5, 2.5, -1.0]);
    assert!(p[4].is_nan());
    assert_eq!(p[5..], [f64::INFINITY, 1e300, -0.0, 7.0]);
    let flag: &BooleanArray = col(&b, "flag").as_boolean();
    assert_eq!(
        flag.iter().collect::<Vec<_>>(),
        [Some(true), Some(false), Some(true)]
    );
    let name: &BinaryArray = col(&b, "name").as_binary();
    assert_eq!(
        name.iter().flatten().collect::<Vec<_>>(),
        [&b"ab"[..], b"", b"abcdef"]
    );
    let label: &StringArray = col(&b, "label").as_string();
    assert_eq!(
        label.iter().flatten().collect::<Vec<_>>(),
        ["xy", "", "h\u{e9}llo"]
    );

    let day = col(&b, "day").as_primitive::<Date32Type>();
    assert_eq!(
        day.iter().collect::<Vec<_>>(),
        [Some(19753), None, Some(-1)]
    );
    assert_eq!(
        *col(&b, "t").data_type(),
        DataType::Timestamp(arrow_schema::TimeUnit::Nanosecond, None)
    );
    let t = col(&b, "t").as_primitive::<TimestampNanosecondType>();
    assert_eq!(
        t.iter().collect::<Vec<_>>(),
        [Some(1_706_702_400_000_000_001), Some(0), None]
    );
    let dt = col(&b, "dt").as_primitive::<DurationMillisecondType>();
    assert_eq!(dt.iter().collect::<Vec<_>>(), [Some(1500), None, Some(-3)]);
    assert!(b.schema_ref().field_with_name("dt").unwrap().is_nullable());
    assert!(!b.schema_ref().field_with_name("id").unwrap().is_nullable());

    let c: &StructArray = col(&b, "c").as_struct();
    assert_eq!(c.column_names(), ["re", "im"]);
    assert_eq!(
        c.column(0).as_primitive::<Float64Type>().values(),
        &[1.0, 0.0, 0.0]
    );
    assert_eq!(
        c.column(1).as_primitive::<Float64Type>().values(),
        &[2.0, -3.5, 0.0]
    );
    let z = col(&b, "z").as_struct();
    assert_eq!(
        z.column(0).as_primitive::<Float32Type>().values(),
        &[1.5, 0.0, 2.0]
    );
    assert_eq!(
        z.column(1).as_primitive::<Float32Type>().values(),
        &[-1.0, 0.0, 0.0]
    );
    let sub = col(&b, "sub").as_struct();
    assert_eq!(
        sub.column(0).as_primitive::<Int16Type>().values(),
        &[7, -8, 9]
    );
    assert_eq!(
        sub.column(1).as_primitive::<UInt32Type>().values(),
        &[4_000_000_000, 0, 1]
    );
    let h = col(&b, "h").as_primitive::<Float16Type>();
    assert_eq!(
        h.values().iter().map(|v| v.to_f32()).collect::<Vec<_>>(),
        [0.5, -2.0, 65504.0]
    );
    let raw = col(&b, "raw").as_fixed_size_binary();
    assert_eq!(raw.value(2), [0xff, 0, 0x7f]);
    assert_eq!(
        b.schema_ref().field_with_name("raw").unwrap().metadata()["numpy.descr"],
        "|V3"
    );
    let grid = col(&b, "grid").as_fixed_size_list();
    assert_eq!(grid.value_length(), 2);
    let rows = grid.values().as_fixed_size_list();
    assert_eq!(rows.value_length(), 3);
    assert_eq!(
        rows.values().as_primitive::<Int32Type>().values().to_vec(),
        (0..18).collect::<Vec<_>>()
    );
    assert_eq!(
        col(&b, "i1").as_primitive::<Int8Type>().values(),
        &[-128, 0, 127]
    );
    assert_eq!(
        col(&b, "u1").as_primitive::<UInt8Type>().values(),
        &[0, 255, 1]
    );
    assert_eq!(
        col(&b, "u2").as_primitive::<UInt16Type>().values(),
        &[65535, 0, 2]
    );
    assert_eq!(
        col(&b, "u8").as_primitive::<UInt64Type>().values(),
        &[u64::MAX, 0, 3]
    );
    assert_eq!(
        col(&b, "f4").as_primitive::<Float32Type>().values(),
        &[0.1, -1.25, 3e38]
    );
}

#[test]
fn padding_is_dropped_and_comes_back() {
    let b = batch("padded.npy");
    assert_eq!(
        b.schema_ref()
            .fields()
            .iter()
            .map(|f| f.name().as_str())
            .collect::<Vec<_>>(),
        ["a", "b"]
    );
    assert_eq!(
        col(&b, "b").as_primitive::<Float64Type>().values(),
        &[0.25, -0.5]
    );
}

#[test]
fn big_endian_values_are_native_in_arrow() {
    let b = batch("big.npy");
    assert_eq!(
        col(&b, "x").as_primitive::<Float64Type>().values(),
        &[1.5, -2.25]
    );
    assert_eq!(
        col(&b, "n").as_primitive::<Int32Type>().values(),
        &[-7, 70000]
    );
    let s: &StringArray = col(&b, "s").as_string();
    assert_eq!(s.value(1), "xyz");
    let t = col(&b, "t").as_primitive::<TimestampSecondType>();
    assert_eq!(t.iter().collect::<Vec<_>>(), [Some(981_173_106), None]);
    let be = batch("plain_be.npy");
    assert_eq!(
        col(&be, "values").as_primitive::<Int32Type>().values(),
        &[1, -2, 3]
    );
}

#[test]
fn plain_arrays_are_rows_of_the_first_axis() {
    let f8 = batch("plain_f8.npy");
    assert_eq!(f8.schema_ref().field(0).name(), "values");
    let v = col(&f8, "values")
        .as_primitive::<Float64Type>()
        .values()
        .to_vec();
    assert_eq!(
        (v[0], v[1].to_bits(), v[3]),
        (1.5, (-0.0f64).to_bits(), 1e-300)
    );

    let two = batch("plain_2d.npy");
    assert_eq!(two.num_rows(), 2);
    let list = col(&two, "values").as_fixed_size_list();
    assert_eq!(list.value_length(), 3);
    assert_eq!(
        list.values().as_primitive::<Float32Type>().values(),
        &[0.0, 0.25, 0.5, 0.75, 1.0, 1.25]
    );

    let three = batch("plain_3d.npy");
    assert_eq!(three.num_rows(), 2);
    let outer = col(&three, "values").as_fixed_size_list();
    let inner = outer.values().as_fixed_size_list();
    assert_eq!((outer.value_length(), inner.value_length()), (3, 4));
    assert_eq!(
        inner.values().as_primitive::<Int16Type>().values().to_vec(),
        (0..24).collect::<Vec<_>>()
    );

    // Fortran order: rows in C order all the same
    let f = batch("fortran.npy");
    assert_eq!(f.schema_ref().metadata()["numpy.fortran_order"], "True");
    let list = col(&f, "values").as_fixed_size_list();
    assert_eq!(
        list.values().as_primitive::<Int64Type>().values(),
        &[0, 1, 2, 3, 4, 5]
    );

    let zero = batch("zero_d.npy");
    assert_eq!(
        (
            zero.num_rows(),
            zero.schema_ref().metadata()["numpy.shape"].as_str()
        ),
        (1, "()")
    );
    assert_eq!(
        col(&zero, "values").as_primitive::<Float64Type>().values(),
        &[42.5]
    );

    let empty = batch("empty.npy");
    assert_eq!((empty.num_rows(), empty.num_columns()), (0, 2));

    let bools = batch("bools.npy");
    let b: Vec<bool> = col(&bools, "values")
        .as_boolean()
        .iter()
        .flatten()
        .collect();
    assert_eq!(
        b,
        [true, false, true, true, false, false, false, true, true]
    );
    let s = batch("strings.npy");
    let s: Vec<&str> = col(&s, "values")
        .as_string::<i32>()
        .iter()
        .flatten()
        .collect();
    assert_eq!(s, ["", "a", "\u{fc}ber", "\u{1F600}x"]);
    let by = batch("bytes.npy");
    let by: Vec<&[u8]> = col(&by, "values")
        .as_binary::<i32>()
        .iter()
        .flatten()
        .collect();
    assert_eq!(by, [&b""[..], b"a\x00b", b"xyz"]);
}

#[test]
fn split_columns_of_a_2d_array() {
    let bytes = file("plain_2d.npy");
    let b = arrow::Options::new()
        .split_columns(true)
        .from_slice(&bytes)
        .unwrap();
    assert_eq!(
        b.schema_ref()
            .fields()
            .iter()
            .map(|f| f.name().as_str())
            .collect::<Vec<_>>(),
        ["0", "1", "2"]
    );
    assert_eq!(
        col(&b, "2").as_primitive::<Float32Type>().values(),
        &[0.5, 1.25]
    );
    assert_eq!(arrow::to_vec(&b).unwrap(), bytes);
    let bytes = file("fortran.npy");
    let b = arrow::Options::new()
        .split_columns(true)
        .from_slice(&bytes)
        .unwrap();
    assert_eq!(col(&b, "1").as_primitive::<Int64Type>().values(), &[1, 4]);
    assert_eq!(arrow::to_vec(&b).unwrap(), bytes);
}

#[test]
fn datetime_units_convert_exactly() {
    let b = batch("times.npy");
    let days = |name| {
        col(&b, name)
            .as_primitive::<Date32Type>()
            .iter()
            .collect::<Vec<_>>()
    };
    assert_eq!(days("Y"), [Some(19723), None]);
    assert_eq!(days("M"), [Some(-31), Some(19754)]);
    assert_eq!(days("W"), [Some(21), Some(-7)]);
    let secs = |name| {
        col(&b, name)
            .as_primitive::<TimestampSecondType>()
            .iter()
            .collect::<Vec<_>>()
    };
    assert_eq!(secs("h"), [Some(18000), None]);
    assert_eq!(secs("m"), [Some(-5400), Some(0)]);
    assert_eq!(secs("s5"), [Some(10), Some(-5)]);
    let ms = col(&b, "ms").as_primitive::<TimestampMillisecondType>();
    assert_eq!(
        ms.iter().collect::<Vec<_>>(),
        [Some(1_704_067_200_123), None]
    );
    let us = col(&b, "us").as_primitive::<TimestampMicrosecondType>();
    assert_eq!(us.value(0), -2_208_988_799_999_999);
    let ps = col(&b, "ps").as_primitive::<TimestampNanosecondType>();
    assert_eq!(ps.values(), &[5, -1]);
    let md = col(&b, "mD").as_primitive::<DurationSecondType>();
    assert_eq!(md.iter().collect::<Vec<_>>(), [Some(172_800), None]);
    assert_eq!(
        col(&b, "mus")
            .as_primitive::<DurationMicrosecondType>()
            .values(),
        &[-1, 1_000_000_000_000]
    );
    assert_eq!(
        col(&b, "mns")
            .as_primitive::<DurationNanosecondType>()
            .values(),
        &[1, 0]
    );
}

#[test]
fn refusals_say_what_and_where() {
    let msg = |bytes: &[u8]| arrow::from_slice(bytes).unwrap_err().to_string();
    insta::assert_snapshot!("ps_inexact", msg(&file("ps_inexact.npy")));
    insta::assert_snapshot!("months_delta", msg(&file("months_delta.npy")));
    let object = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("data/hostile/descr_object_field.npy"),
    )
    .unwrap();
    insta::assert_snapshot!("object_field", msg(&object));
    let mut cut = file("records.npy");
    cut.truncate(cut.len() - 5);
    insta::assert_snapshot!("truncated", msg(&cut));
}

#[test]
fn npz_members_make_one_batch() {
    let bytes = file("columns.npz");
    let b = arrow::from_npz(std::io::Cursor::new(&bytes)).unwrap();
    let names: Vec<&str> = b
        .schema_ref()
        .fields()
        .iter()
        .map(|f| f.name().as_str())
        .collect();
    assert_eq!(names, ["x", "ids", "pts", "grid"]);
    assert_eq!(
        col(&b, "x").as_primitive::<Float64Type>().values(),
        &[1.0, 2.0, 3.0]
    );
    assert_eq!(
        col(&b, "ids").as_primitive::<Int32Type>().values(),
        &[7, 8, 9]
    );
    assert_eq!(col(&b, "pts").as_struct().column_names(), ["a", "b"]);
    assert_eq!(col(&b, "grid").as_fixed_size_list().value_length(), 2);
    let field = b.schema_ref().field_with_name("grid").unwrap().clone();
    assert_eq!(field.metadata()["numpy.shape"], "(3, 2)");

    let ragged = file("ragged.npz");
    let err = arrow::from_npz(std::io::Cursor::new(&ragged)).unwrap_err();
    insta::assert_snapshot!("ragged_npz", err.to_string());
}

/// A batch built here, with no numpy metadata, is written as numpy's
/// `np.save` of the structured array of its columns (make.py).
#[test]
fn foreign_batch_equals_numpy() {
    let xy = FixedSizeListArray::try_new(
        Arc::new(Field::new("item", DataType::Float32, false)),
        2,
        Arc::new(Float32Array::from(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0])),
        None,
    )
    .unwrap();
    let b = RecordBatch::try_from_iter([
        ("id", Arc::new(Int32Array::from(vec![1, 2, 3])) as ArrayRef),
        (
            "name",
            Arc::new(StringArray::from(vec!["a", "\u{e9}t\u{e9}s", ""])) as _,
        ),
        (
            "score",
            Arc::new(Float64Array::from(vec![0.5, -1.0, 2.0])) as _,
        ),
        (
            "tag",
            Arc::new(BinaryArray::from(vec![&b"x"[..], b"", b"abc"])) as _,
        ),
        (
            "when",
            Arc::new(TimestampMillisecondArray::from(vec![
                Some(1000),
                None,
                Some(-1),
            ])) as _,
        ),
        (
            "ok",
            Arc::new(BooleanArray::from(vec![true, false, true])) as _,
        ),
        ("xy", Arc::new(xy) as _),
    ])
    .unwrap();
    assert_eq!(arrow::to_vec(&b).unwrap(), file("foreign.npy"));
    // and a slice of it: the rows it holds
    let tail = b.slice(1, 2);
    let back = arrow::from_slice(&arrow::to_vec(&tail).unwrap()).unwrap();
    assert_eq!(
        col(&back, "score").as_primitive::<Float64Type>().values(),
        &[-1.0, 2.0]
    );
    assert_eq!(
        col(&back, "xy")
            .as_fixed_size_list()
            .values()
            .as_primitive::<Float32Type>()
            .values(),
        &[3.0, 4.0, 5.0, 6.0]
    );
}

#[test]
fn nulls_are_refused_with_the_column_named() {
    let b = RecordBatch::try_from_iter([
        ("id", Arc::new(Int32Array::from(vec![1, 2])) as ArrayRef),
        (
            "x",
            Arc::new(Float64Array::from(vec![Some(1.0), None])) as _,
        ),
    ])
    .unwrap();
    insta::assert_snapshot!("null_refused", arrow::to_vec(&b).unwrap_err().to_string());
}

#[test]
fn a_sliced_batch_keeps_its_dtype() {
    let bytes = file("records.npy");
    let b = arrow::from_slice(&bytes).unwrap().slice(1, 2);
    let back = arrow::to_vec(&b).unwrap();
    let header = npy_serde::Header::from_bytes(&back, &Default::default())
        .unwrap()
        .0;
    let original = npy_serde::Header::from_bytes(&bytes, &Default::default())
        .unwrap()
        .0;
    assert_eq!(header.descr, original.descr);
    assert_eq!(header.shape, [2]);
    assert_eq!(arrow::from_slice(&back).unwrap().columns(), b.columns());
}

/// The hostile and read corpora: every file is a batch or an error, never
/// a panic, and a batch goes back to a file numpy's reader takes.
#[test]
fn hostile_files_are_errors_not_panics() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut read = 0;
    for folder in ["hostile", "read", "nd", "empty", "longdouble", "bf16"] {
        for entry in std::fs::read_dir(root.join(folder)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "npy") {
                let bytes = std::fs::read(&path).unwrap();
                if let Ok(b) = arrow::from_slice(&bytes) {
                    arrow::to_vec(&b).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                    read += 1;
                }
            }
        }
    }
    assert!(read > 20, "{read}");
}

/// Every prefix and every single-byte change of every fixture (and of the
/// read corpus): `from_slice` is a batch or an error, never a panic, and a
/// batch it makes goes back to bytes.
#[test]
fn mutated_files_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut files: Vec<PathBuf> = ["arrow", "read"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "npy"))
        .filter(|p| std::fs::metadata(p).unwrap().len() < 4096)
        .collect();
    files.sort();
    assert!(files.len() > 30, "{}", files.len());
    let attempt = |bytes: &[u8]| {
        if let Ok(b) = arrow::from_slice(bytes) {
            let _ = arrow::to_vec(&b);
        }
    };
    for path in files {
        let orig = std::fs::read(&path).unwrap();
        for cut in 0..orig.len() {
            let r = std::panic::catch_unwind(|| attempt(&orig[..cut]));
            assert!(
                r.is_ok(),
                "{}: panic on the first {cut} bytes",
                path.display()
            );
        }
        let mut buf = orig.clone();
        for pos in 0..orig.len() {
            let b = orig[pos];
            for m in [!b, b.wrapping_add(1), b'0', b'9'] {
                buf[pos] = m;
                let r = std::panic::catch_unwind(|| attempt(&buf));
                assert!(
                    r.is_ok(),
                    "{}: panic with byte {pos} set to {m:#04x}",
                    path.display()
                );
            }
            buf[pos] = b;
        }
    }
}

/// The n-d corpus (tests/data/nd: C and Fortran order up to 3-d, both byte
/// orders, numpy-written): every file that converts goes back to its bytes.
#[test]
fn nd_corpus_round_trips_byte_for_byte() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/nd");
    let mut fortran = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "npy") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let Ok(b) = arrow::from_slice(&bytes) else {
            continue;
        };
        assert_eq!(arrow::to_vec(&b).unwrap(), bytes, "{}", path.display());
        if b.schema_ref().metadata()["numpy.fortran_order"] == "True"
            && b.schema_ref().metadata()["numpy.shape"]
                .matches(',')
                .count()
                >= 2
        {
            fortran += 1;
        }
    }
    assert!(fortran >= 2, "{fortran} Fortran files of 3 or more axes");
}
