//! The special types inside `#[serde(flatten)]` and untagged enums.
//!
//! Writing goes straight through serde (flatten arrives as a map, an untagged
//! enum as its variant's content), so complex numbers, datetimes, f16 and
//! padding keep their identity and dtype. Reading is different: serde
//! buffers the values of a flattened struct or an untagged enum through
//! `deserialize_any` before the special type's `Deserialize` sees them, so the
//! type cannot ask this crate for its representation (serde_json's `RawValue`
//! has the same limit). These tests pin down exactly what happens.

use npy_serde::{Datetime64, unit};
use num_complex::Complex;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Inner {
    #[serde(with = "npy_serde::complex")]
    z: Complex<f64>,
    at: Datetime64<unit::s>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Outer {
    id: u32,
    #[serde(flatten)]
    inner: Inner,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Either {
    Timed { at: Datetime64<unit::ms> },
    Plain { x: f64 },
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct HalfInFlatten {
    #[serde(flatten)]
    inner: HalfInner,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct HalfInner {
    h: half::f16,
}

fn descr(bytes: &[u8]) -> String {
    let (header, _) = npy_serde::Header::from_bytes(bytes, &Default::default()).unwrap();
    header.descr.to_string()
}

#[test]
fn flatten_keeps_special_dtypes_on_write() {
    let v = vec![Outer {
        id: 1,
        inner: Inner {
            z: Complex::new(1.0, 2.0),
            at: Datetime64::new(5),
        },
    }];
    let bytes = npy_serde::to_vec(&v).unwrap();
    assert_eq!(
        descr(&bytes),
        "[('id', '<u4'), ('z', '<c16'), ('at', '<M8[s]')]"
    );
}

#[test]
fn flatten_reads_back_when_units_match() {
    // Buffered: the complex arrives as a [re, im] sequence (accepted), the
    // datetime as its raw count (accepted, no unit check possible).
    let v = vec![Outer {
        id: 1,
        inner: Inner {
            z: Complex::new(1.0, 2.0),
            at: Datetime64::new(5),
        },
    }];
    let bytes = npy_serde::to_vec(&v).unwrap();
    let back: Vec<Outer> = npy_serde::from_slice(&bytes).unwrap();
    assert_eq!(back, v);
}

#[test]
fn flatten_cannot_convert_datetime_units() {
    // The file holds seconds; a flattened Datetime64<ms> receives the raw
    // count, because the unit request is lost in serde's buffering. This is
    // the documented limit: give flattened datetimes the file's unit.
    #[derive(Deserialize, Debug)]
    struct InnerMs {
        at: Datetime64<unit::ms>,
    }
    #[derive(Deserialize, Debug)]
    struct OuterMs {
        #[serde(flatten)]
        inner: InnerMs,
    }
    #[derive(Serialize)]
    struct W {
        at: Datetime64<unit::s>,
    }
    let bytes = npy_serde::to_vec(&vec![W {
        at: Datetime64::new(5),
    }])
    .unwrap();
    let direct: Vec<InnerMs> = npy_serde::from_slice(&bytes).unwrap();
    assert_eq!(direct[0].at.count(), 5000, "direct reads convert units");
    let flat: Vec<OuterMs> = npy_serde::from_slice(&bytes).unwrap();
    assert_eq!(
        flat[0].inner.at.count(),
        5,
        "buffered reads see the raw count"
    );
}

#[test]
fn untagged_enum_writes_datetime_dtype() {
    let v = vec![
        Either::Timed {
            at: Datetime64::new(1),
        },
        Either::Timed {
            at: Datetime64::new(2),
        },
    ];
    let bytes = npy_serde::to_vec(&v).unwrap();
    assert_eq!(descr(&bytes), "[('at', '<M8[ms]')]");
    let back: Vec<Either> = npy_serde::from_slice(&bytes).unwrap();
    assert_eq!(back, v);
}

#[test]
fn f16_in_flatten_is_written_but_not_read() {
    let v = vec![HalfInFlatten {
        inner: HalfInner {
            h: half::f16::from_f32(1.5),
        },
    }];
    let bytes = npy_serde::to_vec(&v).unwrap();
    assert_eq!(descr(&bytes), "[('h', '<f2')]");
    // Buffered, the value arrives as an f32, and half's newtype visitor then
    // asks for the u16 bits, which an f32 cannot give: an error, not a
    // silently wrong value. Read such fields without flatten.
    let err = npy_serde::from_slice::<Vec<HalfInFlatten>>(&bytes).unwrap_err();
    assert!(err.to_string().starts_with("record 0: "), "{err}");
}
