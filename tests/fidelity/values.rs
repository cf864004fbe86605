//! Round trips that lose nothing: what the reader hands to a generic value
//! (`deserialize_any`) writes back, with the reader's dtype and order, as
//! the same bytes; NaN payloads survive the write side's conversions.

use crate::value;

use npy_serde::{Dtype, NpyReader, WriteOptions};
use value::Value;

/// Reads `bytes` into a generic value and writes it back with the file's
/// dtype, order and version.
fn round_trip(bytes: &[u8]) -> npy_serde::Result<Vec<u8>> {
    let r = NpyReader::new(bytes)?;
    let (dtype, fortran, (major, minor)) = (r.dtype().clone(), r.fortran_order(), r.version());
    let v: Value = npy_serde::from_slice(bytes)?;
    WriteOptions::new()
        .dtype(dtype)
        .fortran_order(fortran)
        .version(major, minor)
        .to_vec(&v)
}

/// An insta snapshot kept with the crate's others.
macro_rules! snap {
    ($name:literal, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

fn dt(text: &str) -> Dtype {
    text.parse().unwrap()
}

#[test]
fn s_and_v_fields_write_back_from_a_generic_value() {
    // what deserialize_any gives for '|S5' (NULs stripped) and '|V4'
    let dtype = dt("[('s', '|S5'), ('v', '|V4')]");
    let opts = WriteOptions::new().dtype(dtype);
    let rec = |s: &[u8], v: &[u8]| {
        Value::Map(vec![
            (Value::String("s".into()), Value::bytes_seq(s)),
            (Value::String("v".into()), Value::bytes_seq(v)),
        ])
    };
    let out = opts
        .to_vec(&vec![
            rec(b"ab", &[1, 0, 0, 255]),
            rec(b"\xffa\0b", &[0; 4]),
        ])
        .unwrap();
    let data = &out[out.len() - 18..];
    assert_eq!(data, b"ab\0\0\0\x01\0\0\xff\xffa\0b\0\0\0\0\0");
    let back: Value = npy_serde::from_slice(&out).unwrap();
    assert_eq!(opts.to_vec(&back).unwrap(), out);
}

#[test]
fn s_and_v_from_a_sequence_refuse_what_does_not_fit() {
    let msg = |dtype: &str, v: Value| {
        WriteOptions::new()
            .dtype(dt(dtype))
            .to_vec(&vec![v])
            .unwrap_err()
            .to_string()
    };
    snap!(
        "fidelity_bytes_seq_errors",
        [
            msg("|S2", Value::bytes_seq(b"abc")),
            msg("|S3", Value::bytes_seq(b"a\0")),
            msg("|V2", Value::Seq(vec![Value::I64(256)])),
        ]
        .join("\n")
    );
}

/// Every numpy-written file of the read fixtures that the reader accepts
/// writes back byte for byte from a generic value. (The `np1_*` files have
/// hand-built numpy 1.x headers: their data must match; an empty array with
/// inner axes keeps no inner axes in a value, `[]`.)
#[test]
fn numpy_files_round_trip_through_a_generic_value() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/read");
    let mut failed = Vec::new();
    let mut checked = 0;
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "npy"))
        .collect();
    paths.sort();
    for path in paths {
        let bytes = std::fs::read(&path).unwrap();
        if npy_serde::from_slice::<Value>(&bytes).is_err() {
            continue; // a dtype the reader refuses (object, longdouble...)
        }
        let r = NpyReader::new(&bytes[..]).unwrap();
        if r.is_empty() && r.shape().len() > 1 {
            continue;
        }
        checked += 1;
        let old_header = path
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("np1_");
        let data = |b: &[u8]| b[b.len() - (r.len() as usize) * r.dtype().itemsize()..].to_vec();
        let out = if old_header {
            let v: Value = npy_serde::from_slice(&bytes).unwrap();
            WriteOptions::new()
                .dtype(r.dtype().clone())
                .fortran_order(r.fortran_order())
                .to_vec(&v)
                .map(|out| (data(&out), data(&bytes)))
        } else {
            round_trip(&bytes).map(|out| (out, bytes.clone()))
        };
        match out {
            Ok((out, want)) if out == want => {}
            Ok(_) => failed.push(format!("{}: bytes differ", path.display())),
            Err(e) => failed.push(format!("{}: {e}", path.display())),
        }
    }
    assert!(checked > 40, "only {checked} files read");
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The data bytes of a one-dimensional array written with `dtype`.
fn written<T: serde::Serialize>(dtype: &str, v: &T) -> npy_serde::Result<Vec<u8>> {
    let out = WriteOptions::new().dtype(dt(dtype)).to_vec(v)?;
    let r = NpyReader::new(&out[..])?;
    let n = (r.len() as usize) * r.dtype().itemsize();
    Ok(out[out.len() - n..].to_vec())
}

#[test]
fn nan_payloads_survive_write_conversions() {
    // the f32 widenings of the f16 NaNs 0x7e03 and 0x7c01 (signalling)
    let f16s = [0x7e03u16, 0x7c01, 0xfe00];
    let widened: Vec<f32> = {
        let bytes: Vec<u8> = f16s.iter().flat_map(|b| b.to_le_bytes()).collect();
        let mut npy = WriteOptions::new()
            .dtype(dt("<f2"))
            .to_vec(&vec![0.0f32; 3])
            .unwrap();
        let at = npy.len() - 6;
        npy[at..].copy_from_slice(&bytes);
        npy_serde::from_slice(&npy).unwrap()
    };
    let want: Vec<u8> = f16s.iter().flat_map(|b| b.to_le_bytes()).collect();
    assert_eq!(written("<f2", &widened).unwrap(), want);
    assert_eq!(written(">f2", &widened).unwrap()[..2], [0x7e, 0x03]);
    // an f64 signalling NaN widened from f32 into '<f4'
    let snan = f64::from_bits(0x7ff0_0000_2000_0000);
    assert_eq!(
        written("<f4", &vec![snan]).unwrap(),
        0x7f80_0001u32.to_le_bytes()
    );
    // an f32 pair into '<c8', and an f64 pair into '<c8'
    let pair = vec![[f32::from_bits(0x7f80_0001), f32::from_bits(0xffc0_0002)]];
    assert_eq!(
        written("<c8", &pair).unwrap(),
        [0x01, 0, 0x80, 0x7f, 0x02, 0, 0xc0, 0xff]
    );
    let pair64 = vec![[snan, 1.5]];
    assert_eq!(
        written("<c8", &pair64).unwrap()[..4],
        0x7f80_0001u32.to_le_bytes()
    );
}

#[test]
fn nan_payloads_that_do_not_fit_are_refused() {
    let msg = |dtype: &str, v: &dyn erased::Ser| v.write(dtype).unwrap_err().to_string();
    let snan = f64::from_bits(0x7ff0_0000_0000_0001);
    let f32_snan = f32::from_bits(0x7f80_0001);
    snap!(
        "fidelity_nan_payload_errors",
        [
            msg("<f4", &vec![snan]),
            msg("<f2", &vec![snan]),
            msg("<f2", &vec![f32_snan]),
            msg("<c8", &vec![[1.0, snan]]),
        ]
        .join("\n")
    );
}

/// Writing values of different types through one closure.
mod erased {
    pub trait Ser {
        fn write(&self, dtype: &str) -> npy_serde::Result<Vec<u8>>;
    }
    impl<T: serde::Serialize> Ser for T {
        fn write(&self, dtype: &str) -> npy_serde::Result<Vec<u8>> {
            super::written(dtype, self)
        }
    }
}

#[test]
fn streaming_strings_say_how_to_give_the_width() {
    #[derive(serde::Serialize)]
    struct Row {
        id: u32,
        name: String,
    }
    let mut w = npy_serde::NpyWriter::new(std::io::Cursor::new(Vec::new())).unwrap();
    w.serialize(&Row {
        id: 0,
        name: "a".into(),
    })
    .unwrap();
    let err = w
        .serialize(&Row {
            id: 1,
            name: "abcde".into(),
        })
        .unwrap_err();
    snap!("fidelity_stream_width_hint", err.to_string());
    // the way without dtype text: the dtype of a first batch
    let first = [
        Row {
            id: 0,
            name: "a".into(),
        },
        Row {
            id: 1,
            name: "abcde".into(),
        },
    ];
    let dtype = Dtype::of_records(&first).unwrap();
    assert_eq!(dtype.to_string(), "[('id', '<u4'), ('name', '<U5')]");
    let mut w = npy_serde::NpyWriter::with_dtype(std::io::Cursor::new(Vec::new()), dtype).unwrap();
    for r in &first {
        w.serialize(r).unwrap();
    }
    let bytes = w.finish().unwrap().into_inner();
    assert_eq!(bytes, npy_serde::to_vec(&first).unwrap());
    let subarray = Dtype::of_records(&[[1.0f32; 3]]).unwrap();
    assert_eq!(subarray.to_string(), "('<f4', (3,))");
}
