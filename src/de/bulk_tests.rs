//! The bulk path (`Bulk<T>`, `#[serde(with = "npy_serde::bulk")]`) against
//! plain `Vec<T>`: for every scalar type and byte order of `fast_tests`,
//! its bit patterns, several shapes (1-d, 2-d, 3-d, Fortran, 0-d, empty)
//! and subarray fields of records, every element type, and every reader
//! (`from_slice`, `from_reader`, the `NpyReader` rows), lossy or not: the
//! same values or the same error message. Then which arrays are offered in
//! bulk at all (the offer's key), so the comparison is not vacuous.

use std::fmt::Debug;

use serde::{Deserialize, Deserializer};

use super::fast_tests::{PATTERNS, bytes_of, types};
use crate::array::bulk::Element;
use crate::format::dtype::{ByteOrder, Dtype, Scalar};
use crate::{Bulk, Header, NpyReader, ReadOptions};

fn npy(dtype: Dtype, fortran: bool, shape: Vec<u64>, data: &[u8]) -> Vec<u8> {
    let (mut file, _) = Header::new(dtype, fortran, shape).encode(None).unwrap();
    file.extend_from_slice(data);
    file
}

/// `count` elements of `s`, cycling through the bit patterns.
fn elements(s: Scalar, count: usize) -> Vec<u8> {
    (0..count)
        .flat_map(|j| bytes_of(PATTERNS[j % PATTERNS.len()], s.itemsize()))
        .collect()
}

fn show<T: Debug>(r: crate::Result<T>) -> String {
    match r {
        Ok(v) => format!("Ok({v:?})"),
        Err(e) => format!("Err({e})"),
    }
}

/// Arrays of `s` of several shapes, with a name for messages.
fn arrays(s: Scalar) -> Vec<(String, Vec<u8>)> {
    let d = Dtype::Scalar(s);
    let mut out = Vec::new();
    for (shape, fortran) in [
        (vec![9], false),
        (vec![3, 3], false),
        (vec![3, 3], true),
        (vec![3, 2], false),
        (vec![2, 3, 3], false),
        (vec![2, 3, 3], true),
        (vec![], false),
        (vec![0], false),
        (vec![0, 3], false),
    ] {
        let count = shape.iter().product::<u64>() as usize;
        let file = npy(d.clone(), fortran, shape.clone(), &elements(s, count));
        out.push((format!("'{s}' {shape:?} fortran {fortran}"), file));
    }
    out
}

/// Records `[('a', '|u1'), ('x', s, dims)]` (the field off offset 0).
fn records(s: Scalar) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for dims in [vec![3], vec![2, 3], vec![3, 3], vec![]] {
        let x = if dims.is_empty() {
            Dtype::Scalar(s)
        } else {
            Dtype::subarray(Dtype::Scalar(s), dims.clone()).unwrap()
        };
        let u1 = Dtype::Scalar(Scalar::le(crate::format::dtype::ScalarType::UInt(1)));
        let size = 1 + x.itemsize();
        let fields = vec![
            crate::Field::new("a", u1, 0),
            crate::Field::new("x", x.clone(), 1),
        ];
        let dtype = Dtype::Record(crate::Record::new(fields, size).unwrap());
        let descr = dtype.to_string();
        let per = x.itemsize() / s.itemsize().max(1);
        let mut data = Vec::new();
        for r in 0..2u8 {
            data.push(r);
            data.extend(elements(s, per).iter().map(|b| b ^ r));
        }
        out.push((format!("{descr} (2,)"), npy(dtype, false, vec![2], &data)));
    }
    out
}

#[derive(Deserialize, Debug)]
#[serde(bound(deserialize = "T: Element"))]
struct WithBulk<T> {
    #[serde(with = "crate::array::bulk")]
    x: Vec<T>,
}

#[derive(Deserialize, Debug)]
struct Plain<T> {
    x: Vec<T>,
}

fn compare_array<T: Element + Debug>(name: &str, file: &[u8]) {
    for lossy in [false, true] {
        let o = ReadOptions::new().lossy(lossy);
        let what = format!("{name} into {} (lossy {lossy})", std::any::type_name::<T>());
        let bulk = show(o.from_slice::<Bulk<T>>(file).map(|b| b.0));
        let plain = show(o.from_slice::<Vec<T>>(file));
        assert_eq!(bulk, plain, "from_slice {what}");
        let bulk = show(o.from_reader::<Bulk<T>>(file).map(|b| b.0));
        let plain = show(o.from_reader::<Vec<T>>(file));
        assert_eq!(bulk, plain, "from_reader {what}");
        // rows of a 2-d or 3-d array, one at a time
        let rows = |bulk: bool| -> Vec<String> {
            let mut r = NpyReader::with_options(file, o.clone()).unwrap();
            if bulk {
                r.deserialize::<Bulk<T>>()
                    .map(|x| show(x.map(|b| b.0)))
                    .collect()
            } else {
                r.deserialize::<Vec<T>>().map(show).collect()
            }
        };
        assert_eq!(rows(true), rows(false), "NpyReader rows {what}");
    }
}

fn compare_record<T: Element + Debug>(name: &str, file: &[u8]) {
    for lossy in [false, true] {
        let o = ReadOptions::new().lossy(lossy);
        let what = format!("{name} into {} (lossy {lossy})", std::any::type_name::<T>());
        let strip = |v: Vec<WithBulk<T>>| v.into_iter().map(|r| r.x).collect::<Vec<_>>();
        let strip_plain = |v: Vec<Plain<T>>| v.into_iter().map(|r| r.x).collect::<Vec<_>>();
        let bulk = show(o.from_slice::<Vec<WithBulk<T>>>(file).map(strip));
        let plain = show(o.from_slice::<Vec<Plain<T>>>(file).map(strip_plain));
        assert_eq!(bulk, plain, "from_slice {what}");
        let bulk = show(o.from_reader::<Vec<WithBulk<T>>>(file).map(strip));
        let plain = show(o.from_reader::<Vec<Plain<T>>>(file).map(strip_plain));
        assert_eq!(bulk, plain, "from_reader {what}");
    }
}

macro_rules! each_target {
    ($f:ident, $name:expr, $file:expr) => {{
        $f::<bool>($name, $file);
        $f::<i8>($name, $file);
        $f::<i16>($name, $file);
        $f::<i32>($name, $file);
        $f::<i64>($name, $file);
        $f::<u8>($name, $file);
        $f::<u16>($name, $file);
        $f::<u32>($name, $file);
        $f::<u64>($name, $file);
        $f::<f32>($name, $file);
        $f::<f64>($name, $file);
        $f::<[f32; 3]>($name, $file);
        $f::<[f64; 3]>($name, $file);
        $f::<[i16; 3]>($name, $file);
        $f::<[u8; 3]>($name, $file);
        $f::<[bool; 3]>($name, $file);
        $f::<[f64; 2]>($name, $file);
        $f::<[u64; 0]>($name, $file);
        $f::<[[u32; 3]; 3]>($name, $file);
        $f::<[[f32; 3]; 2]>($name, $file);
        #[cfg(feature = "half")]
        $f::<half::f16>($name, $file);
        #[cfg(feature = "half")]
        $f::<[half::f16; 3]>($name, $file);
    }};
}

#[test]
fn bulk_matches_vec_for_every_type_order_and_shape() {
    for ty in types() {
        for order in [ByteOrder::Little, ByteOrder::Big] {
            let s = Scalar::new(ty, order);
            for (name, file) in arrays(s) {
                each_target!(compare_array, &name, &file);
            }
            for (name, file) in records(s) {
                each_target!(compare_record, &name, &file);
            }
        }
    }
}

/// What a type asking for the bulk newtype is offered: the key of the
/// array, or `newtype` (the ordinary path).
#[derive(Debug, PartialEq)]
struct Offered(String);

impl<'de> Deserialize<'de> for Offered {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Offered;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("anything")
            }
            fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Offered, D::Error> {
                serde::de::IgnoredAny::deserialize(d)?;
                Ok(Offered("newtype".into()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Offered, A::Error> {
                let key: String = map.next_key()?.unwrap_or_default();
                map.next_value::<serde::de::IgnoredAny>()?;
                Ok(Offered(key))
            }
        }
        d.deserialize_newtype_struct(crate::kinds::special::BULK, V)
    }
}

#[derive(Deserialize, Debug, PartialEq)]
struct OfferedField {
    x: Offered,
}

#[test]
fn offers_name_the_layout_of_exact_plain_arrays() {
    let offered = |descr: &str, shape: Vec<u64>, fortran: bool| -> [String; 2] {
        let d: Dtype = descr.parse().unwrap();
        let n = shape.iter().product::<u64>() as usize * d.itemsize();
        let file = npy(d, fortran, shape, &vec![0; n]);
        [
            crate::from_slice::<Offered>(&file).unwrap().0,
            crate::from_reader::<Offered>(&file[..]).unwrap().0,
        ]
    };
    let both = |k: &str| [k.to_owned(), k.to_owned()];
    assert_eq!(offered("<f8", vec![5], false), both("f8,5"));
    assert_eq!(offered("<f4", vec![4, 3], false), both("f4,4,3"));
    assert_eq!(offered("|b1", vec![2], false), both("b1,2"));
    assert_eq!(offered("|i1", vec![2], false), both("i1,2"));
    assert_eq!(offered("<u2", vec![0], false), both("u2,0"));
    assert_eq!(offered("<f2", vec![1], false), both("f2,1"));
    let native = if cfg!(target_endian = "little") {
        both("i8,2")
    } else {
        both("newtype")
    };
    assert_eq!(offered("=i8", vec![2], false), native);
    // Fortran order: reordered first (whole), then offered in C order
    assert_eq!(offered("<f8", vec![2, 3], true), both("f8,2,3"));
    // a 1-d Fortran array is C order already
    assert_eq!(offered("<f8", vec![3], true), both("f8,3"));
    // big-endian plain numbers too, marked with '>'
    assert_eq!(offered(">f8", vec![5], false), both(">f8,5"));
    assert_eq!(offered(">i2", vec![2, 3], false), both(">i2,2,3"));
    for (descr, shape) in [
        ("<c16", vec![5]),
        ("<M8[ns]", vec![5]),
        ("<U3", vec![5]),
        ("|S3", vec![5]),
        ("[('x', '<f8')]", vec![5]),
        ("<f8", vec![]),
    ] {
        assert_eq!(offered(descr, shape, false), both("newtype"), "{descr}");
    }
    // fields: subarrays of exact scalars
    let field = |descr: &str| -> String {
        let d: Dtype = descr.parse().unwrap();
        let file = npy(d.clone(), false, vec![1], &vec![0; d.itemsize()]);
        let v: Vec<OfferedField> = crate::from_slice(&file).unwrap();
        let w: Vec<OfferedField> = crate::from_reader(&file[..]).unwrap();
        assert_eq!(v, w);
        v.into_iter().next().unwrap().x.0
    };
    assert_eq!(field("[('x', '<f4', (3,))]"), "f4,3");
    assert_eq!(field("[('a', '|u1'), ('x', '<i2', (2, 3))]"), "i2,2,3");
    assert_eq!(field("[('x', '>f4', (3,))]"), ">f4,3");
    assert_eq!(field("[('x', '<f4')]"), "newtype");
    assert_eq!(field("[('x', [('y', '<f4')], (2,))]"), "newtype");
    // rows of an (N, 3) array, one at a time
    let file = npy("<u4".parse().unwrap(), false, vec![2, 3], &[0; 24]);
    let mut r = NpyReader::new(&file[..]).unwrap();
    let rows: Vec<Offered> = r.deserialize().collect::<crate::Result<_>>().unwrap();
    assert_eq!(rows, [Offered("u4,3".into()), Offered("u4,3".into())]);
}
