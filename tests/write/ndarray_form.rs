//! ndarray's own serde form of an array (its feature `serde`: a struct
//! `Array {v, dim, data}`) is no numpy array: refused when written (it
//! would be one record of shape `()`) and when read, with a message that
//! points to `NdArray` and `#[serde(with = "npy_serde::ndarray")]`. The
//! types here mimic that form, so the tests need no ndarray feature.

use std::fmt;
use std::io::Cursor;

use npy_serde::npz::{self, NpzWriter};
use npy_serde::{NdArray, WriteOptions};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

macro_rules! snap {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        });
    };
}

/// What ndarray's `Array2<f32>` serializes as: version 1, the shape, the
/// flat data.
#[derive(Debug, PartialEq)]
struct Array {
    dim: (u64, u64),
    data: Vec<f32>,
}

impl Serialize for Array {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Array", 3)?;
        st.serialize_field("v", &1u8)?;
        st.serialize_field("dim", &self.dim)?;
        st.serialize_field("data", &self.data)?;
        st.end()
    }
}

/// What ndarray's `Deserialize` asks for: the struct `Array` of fields
/// `v`, `dim`, `data` (anything it is then given is refused here).
impl<'de> Deserialize<'de> for Array {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Array;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("ndarray representation")
            }
            fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Array, A::Error> {
                Err(de::Error::custom("visited"))
            }
        }
        d.deserialize_struct("Array", &["v", "dim", "data"], V)
    }
}

fn array() -> Array {
    Array {
        dim: (2, 3),
        data: vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
    }
}

#[test]
fn writing_ndarrays_own_form_is_refused() {
    let err = npy_serde::to_vec(&array()).unwrap_err();
    snap!("ndarray_form_write", err.to_string());
    assert!(matches!(err.kind(), npy_serde::ErrorKind::Unsupported(_)));
    let text = err.to_string();
    assert!(text.contains("NdArray::from") && text.contains("npy_serde::ndarray"));
    let mut out = Vec::new();
    assert_eq!(
        npy_serde::to_writer(&mut out, &array())
            .unwrap_err()
            .to_string(),
        text
    );
    let path = std::env::temp_dir().join(format!("npy_serde_ndform_{}.npy", std::process::id()));
    assert_eq!(
        npy_serde::to_path(&path, &array()).unwrap_err().to_string(),
        format!("file '{}': {text}", path.display())
    );
    assert!(!path.exists());
    // in a sequence, as a record's field, as an npz member
    let err = npy_serde::to_vec(&vec![array(), array()]).unwrap_err();
    assert_eq!(err.to_string(), format!("record 0: {text}"));
    #[derive(Serialize)]
    struct Scene {
        img: Array,
    }
    let err = npy_serde::to_vec(&vec![Scene { img: array() }]).unwrap_err();
    assert_eq!(err.to_string(), format!("record 0, field img: {text}"));
    let err = npz::to_writer(Cursor::new(Vec::new()), &Scene { img: array() }).unwrap_err();
    assert_eq!(err.to_string(), format!("member 'img': {text}"));
    let mut w = NpzWriter::new(Cursor::new(Vec::new()));
    let err = w.add("img", &array()).unwrap_err();
    assert_eq!(err.to_string(), format!("member 'img': {text}"));
    // npz::to_writer of the array itself: refused before any member
    let mut file = Cursor::new(Vec::new());
    let err = npz::to_writer(&mut file, &array()).unwrap_err();
    assert_eq!(err.to_string(), text);
    // with a dtype given the values do not fit it either
    assert!(
        WriteOptions::new()
            .dtype("<f4".parse().unwrap())
            .to_vec(&array())
            .is_err()
    );
    // what the message advises writes the array
    let nd = NdArray::from_shape_vec(vec![2, 3], array().data).unwrap();
    let bytes = npy_serde::to_vec(&nd).unwrap();
    assert!(String::from_utf8_lossy(&bytes).contains("'shape': (2, 3)"));
}

/// Only ndarray's form is refused: other structs named `Array` write as
/// records.
#[test]
fn other_structs_named_array_write() {
    #[derive(Serialize)]
    #[serde(rename = "Array")]
    struct Other {
        v: u8,
        dim: u64,
        x: f32,
    }
    let bytes = npy_serde::to_vec(&[Other {
        v: 1,
        dim: 2,
        x: 0.5,
    }])
    .unwrap();
    assert!(String::from_utf8_lossy(&bytes).contains("('x', '<f4')"));
    #[derive(Serialize)]
    #[serde(rename = "Array")]
    struct Two {
        v: u8,
        dim: u64,
    }
    let mut file = Cursor::new(Vec::new());
    npz::to_writer(&mut file, &Two { v: 1, dim: 2 }).unwrap();
}

#[test]
fn reading_into_ndarrays_own_form_is_refused() {
    let nd = NdArray::from_shape_vec(vec![2, 3], array().data).unwrap();
    let bytes = npy_serde::to_vec(&nd).unwrap();
    let err = npy_serde::from_slice::<Array>(&bytes).unwrap_err();
    snap!("ndarray_form_read", err.to_string());
    let text = err.to_string();
    assert!(text.contains("NdArray") && text.contains("npy_serde::ndarray"));
    assert_eq!(
        npy_serde::from_reader::<Array>(&bytes[..])
            .unwrap_err()
            .to_string(),
        text
    );
    // 1-d, 0-d and Fortran-order files too
    for other in [
        npy_serde::to_vec(&[1.0f32, 2.0]).unwrap(),
        npy_serde::to_vec(&1.5f64).unwrap(),
        npy_serde::to_vec(&NdArray::from_shape_vec_fortran(vec![2, 3], array().data).unwrap())
            .unwrap(),
    ] {
        let err = npy_serde::from_slice::<Array>(&other).unwrap_err();
        assert_eq!(err.to_string(), text);
        let err = npy_serde::from_reader::<Array>(&other[..]).unwrap_err();
        assert_eq!(err.to_string(), text);
    }
    // as a record field, an npz member and an npz archive
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Scene {
        img: Array,
    }
    #[derive(Serialize)]
    struct Out {
        img: [[f32; 3]; 2],
    }
    let recs = npy_serde::to_vec(&[Out { img: [[0.0; 3]; 2] }]).unwrap();
    let err = npy_serde::from_slice::<Vec<Scene>>(&recs).unwrap_err();
    assert_eq!(err.to_string(), format!("record 0, field img: {text}"));
    let mut file = Cursor::new(Vec::new());
    let mut w = NpzWriter::new(&mut file);
    w.add("img", &nd).unwrap();
    w.finish().unwrap();
    file.set_position(0);
    let err = npz::from_reader::<Scene>(&mut file).unwrap_err();
    assert_eq!(err.to_string(), format!("member 'img': {text}"));
    file.set_position(0);
    let err = npz::from_reader::<Array>(&mut file).unwrap_err();
    assert_eq!(err.to_string(), text);
}
