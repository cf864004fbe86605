//! Helpers shared by the derive tests: reading the header text back out of
//! the bytes `to_vec` wrote, and sample values for every type.
#![allow(dead_code)]

use derive_tests::*;
use half::f16;
use npy_serde::{Datetime64, Padding, Timedelta64};
use num_complex::Complex;

/// `v1.0 {'descr': ..., 'fortran_order': False, 'shape': (2,), }` without the
/// padding spaces and the newline.
pub fn header_text(bytes: &[u8]) -> String {
    assert_eq!(&bytes[..6], b"\x93NUMPY", "magic");
    let (major, minor) = (bytes[6], bytes[7]);
    let (len, start) = if major == 1 {
        (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10)
    } else {
        (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        )
    };
    assert_eq!((start + len) % 64, 0, "data starts on a 64-byte boundary");
    let text = if major == 3 {
        String::from_utf8(bytes[start..start + len].to_vec()).unwrap()
    } else {
        bytes[start..start + len]
            .iter()
            .map(|&b| b as char)
            .collect()
    };
    assert!(text.ends_with('\n'));
    format!("v{major}.{minor} {}", text.trim_end())
}

/// The `descr` part of the header, as numpy wrote it (`'<f8'`, `[(...)]`).
pub fn descr(bytes: &[u8]) -> String {
    let text = header_text(bytes);
    let start = text.find("'descr': ").unwrap() + "'descr': ".len();
    let end = text.find(", 'fortran_order'").unwrap();
    text[start..end].to_owned()
}

/// The `shape` part of the header.
pub fn shape(bytes: &[u8]) -> String {
    let text = header_text(bytes);
    let start = text.find("'shape': ").unwrap() + "'shape': ".len();
    let end = text[start..].find("), ").unwrap() + start + 1;
    text[start..end].to_owned()
}

pub fn inner(x: f64, y: f64) -> Inner {
    Inner { x, y }
}

pub fn bools() -> Vec<Bools> {
    vec![Bools { flag: true }, Bools { flag: false }]
}
pub fn ints() -> Vec<Ints> {
    vec![
        Ints {
            a: -1,
            b: -300,
            c: 70_000,
            d: i64::MIN,
        },
        Ints {
            a: i8::MAX,
            b: i16::MIN,
            c: i32::MAX,
            d: 1 << 40,
        },
    ]
}
pub fn uints() -> Vec<UInts> {
    vec![
        UInts {
            a: 255,
            b: 65_535,
            c: u32::MAX,
            d: u64::MAX,
        },
        UInts {
            a: 0,
            b: 1,
            c: 2,
            d: 3,
        },
    ]
}
pub fn floats() -> Vec<Floats> {
    vec![
        Floats {
            single: 1.5,
            double: -0.1,
        },
        Floats {
            single: f32::MAX,
            double: f64::MIN_POSITIVE,
        },
    ]
}
pub fn halves() -> Vec<Half> {
    vec![
        Half {
            h: f16::from_f32(1.5),
        },
        Half {
            h: f16::from_bits(0x0001),
        },
        Half {
            h: f16::NEG_INFINITY,
        },
    ]
}
pub fn complexes() -> Vec<Complexes> {
    vec![Complexes {
        a: Complex::new(1.0, -2.0),
        b: Complex::new(0.5, 0.25),
        plain: Complex::new(3.0, 4.0),
    }]
}
pub fn chars() -> Vec<Chars> {
    vec![Chars { c: 'a' }, Chars { c: 'é' }, Chars { c: '漢' }]
}
pub fn strings() -> Vec<Strings> {
    vec![
        Strings {
            name: "alpha".into(),
        },
        Strings { name: "".into() },
        Strings {
            name: "ünïcødé 漢字".into(),
        },
    ]
}
pub fn bytes() -> Vec<Bytes> {
    vec![
        Bytes {
            raw: b"\x00\x01abc".to_vec(),
        },
        Bytes { raw: b"z".to_vec() },
    ]
}
pub fn nested() -> Vec<Nested> {
    vec![Nested {
        id: 7,
        inner: inner(1.0, 2.0),
    }]
}
pub fn with_newtype() -> Vec<WithNewtype> {
    vec![WithNewtype { len: Meters(2.5) }]
}
pub fn with_units() -> Vec<WithUnits> {
    vec![WithUnits {
        a: 1,
        marker: Marker,
        unit: (),
    }]
}
pub fn arrays() -> Vec<Arrays> {
    vec![Arrays {
        v: [1.0, 2.0, 3.0],
        grid: [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]],
        pair: (-1, 1),
    }]
}
pub fn vec_field() -> Vec<VecField> {
    vec![
        VecField {
            samples: vec![1.0, 2.0],
        },
        VecField {
            samples: vec![3.0, 4.0],
        },
    ]
}
pub fn tuple_struct() -> Vec<TupleStruct> {
    vec![TupleStruct(1, 2.0)]
}
pub fn mixed_tuple() -> Vec<MixedTuple> {
    vec![MixedTuple { t: (1, 2.0) }]
}
pub fn padded() -> Vec<Padded> {
    vec![Padded {
        tag: 1,
        _pad: Padding,
        len: 2,
    }]
}
pub fn with_enum() -> Vec<WithEnum> {
    vec![
        WithEnum { color: Color::Red },
        WithEnum {
            color: Color::Green,
        },
    ]
}
pub fn times() -> Vec<Times> {
    vec![
        Times {
            at: Datetime64::new(1_700_000_000_000_000_000),
            took: Timedelta64::new(-5),
        },
        Times {
            at: Datetime64::NAT,
            took: Timedelta64::NAT,
        },
    ]
}
pub fn renamed() -> Vec<Renamed> {
    vec![Renamed {
        x: 1.0,
        second_value: 2,
    }]
}
pub fn skipped() -> Vec<Skipped> {
    vec![Skipped {
        kept: 1.0,
        cache: None,
    }]
}
pub fn flattened() -> Vec<Flattened> {
    vec![Flattened {
        id: 1,
        inner: inner(2.0, 3.0),
    }]
}
pub fn defaulted() -> Vec<Defaulted> {
    vec![Defaulted { a: 1, b: 2 }]
}
pub fn with_module() -> Vec<WithModule> {
    vec![WithModule { n: u32::MAX }]
}
pub fn aliased() -> Vec<Aliased> {
    vec![Aliased { x: 1.0 }]
}
pub fn transparent() -> Vec<Transparent> {
    vec![Transparent { value: 1.0 }, Transparent { value: 2.0 }]
}
pub fn with_untagged() -> Vec<WithUntagged> {
    vec![
        WithUntagged {
            v: Untagged::F(1.5),
        },
        WithUntagged {
            v: Untagged::F(-2.5),
        },
    ]
}
pub fn tagged() -> Vec<Tagged> {
    vec![Tagged::Circle { r: 1.0 }, Tagged::Circle { r: 2.0 }]
}
pub fn strict() -> Vec<Strict> {
    vec![Strict { a: 1 }]
}
pub fn wider() -> Vec<Wider> {
    vec![Wider { a: 1, b: 2 }]
}
pub fn optional() -> Vec<Optional> {
    vec![Optional { maybe: Some(1.0) }]
}
pub fn particles() -> Vec<Particle> {
    vec![
        Particle {
            id: 1,
            pos: [0.0, 1.0, 2.0],
            vel: [0.5; 3],
            charge: -1,
            alive: true,
        },
        Particle {
            id: 2,
            pos: [3.0, 4.0, 5.0],
            vel: [-0.5; 3],
            charge: 1,
            alive: false,
        },
    ]
}
pub fn mixed() -> Vec<Mixed> {
    vec![Mixed {
        id: -3,
        name: "probe".into(),
        pos: [1.0, 2.0],
        inner: inner(3.0, 4.0),
        pair: (5, 6.5),
        color: Color::Blue,
        z: Complex::new(7.0, 8.0),
    }]
}
