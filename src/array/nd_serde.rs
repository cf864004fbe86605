//! serde for [`NdArray`] and [`NdView`]: with this crate's format an n-d
//! array is the file's shape, order and flat data (see `de::nd` for the
//! reading protocol, `ser::nd` for writing).
//!
//! # The serde representation
//!
//! An array serializes as a newtype struct over the struct `{shape, order,
//! data}` (`shape`: the sizes, `order`: `"C"` or `"F"`, `data`: the
//! elements flat in that order). The newtype's name is
//! `"$npy_serde::ndarray"`, followed by `":"` and numpy's type code
//! (`"$npy_serde::ndarray:f8"`) when the element is a plain or complex
//! number (`bool`, `i8`..`u64`, `f32`, `f64`, `half::f16`,
//! `Complex<f32>`, `Complex<f64>`: the kinds table, `kind.rs`), so that an
//! empty array still has a dtype. What `data` is depends on the format,
//! as for `IpAddr` or chrono's types, by serde's `is_human_readable`:
//!
//! - human-readable formats (JSON, YAML, TOML, RON) see the sequence of
//!   elements: `{"shape":[2,3],"order":"C","data":[1.0,2.0,...]}`;
//! - binary formats (bincode, postcard, CBOR, MessagePack, and every
//!   serializer of this crate) see, for the numbers of the table, the
//!   little-endian bytes of the elements as one byte string
//!   (`serialize_bytes`; a complex number is its real part's bytes, then
//!   the imaginary part's), and the sequence of elements for any other
//!   element type. This crate's writer then writes those bytes as the
//!   data section in one block.
//!
//! Deserializing mirrors it: a binary format's `data` is asked for with
//! `deserialize_byte_buf` for the numbers of the table, as a sequence
//! otherwise. This crate's reader answers the newtype with its own offer
//! (`de::nd`): the plain numbers, and the common rows of them
//! (`[f32; 2..=4]`, `[f64; 2..=4]`, `[u8; 3]` and `[u8; 4]` pixels), are
//! read in one block ([`crate::Bulk`]'s read, both byte orders); every
//! other element type reads its flat data as `Vec<T>`, with the usual
//! messages. An element type that is itself an array (`[f32; 3]`, nested
//! arrays, tuples) absorbs that many trailing axes: it is found by asking
//! the type to deserialize itself from a probe that records the tuple
//! lengths asked for and then fails.
//!
//! Which element types are numbers is answered by the kinds table alone
//! (`kinds/number.rs`, the one place that compares `TypeId`s); nothing passes
//! between an array and this crate's writer or reader outside its serde
//! calls.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::array::nd::{NdArray, NdView, Order};
use crate::de::nd::parse_offer_key;
use crate::format::dtype::ShapeRepr;
use crate::kinds::number;
use crate::kinds::number::nd_name;
use crate::kinds::special::{NDARRAY, NDDATA, nd_pairs};

/// The field names other formats see.
const FIELDS: &[&str] = &["shape", "order", "data"];

/// What an n-d array serializes as, inside the newtype this crate's
/// writer recognises (named by [`nd_name`]: with the element's numpy type
/// for plain numbers, so that an empty array still has a dtype): `{shape,
/// order, data}`, the data flat in `order` (this crate's writer takes its shape
/// and order from here, see `ser::nd`); last, the data's little-endian
/// bytes, when an owned array of numbers has them in place
/// ([`number::le_in_place`]).
struct Parts<'a, T>(&'a [usize], Order, &'a [T], Option<&'a [u8]>);

impl<T: Serialize + 'static> Serialize for Parts<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut parts = serializer.serialize_struct("NdArray", FIELDS.len())?;
        parts.serialize_field("shape", self.0)?;
        parts.serialize_field("order", &self.1)?;
        parts.serialize_field("data", &Data(self))?;
        parts.end()
    }
}

/// The `data` of [`Parts`]: to a binary serializer, numbers are their
/// little-endian bytes (made only when the data is serialized: a look at
/// the shape copies nothing); anything else is the elements.
struct Data<'p, 'a, T>(&'p Parts<'a, T>);

impl<T: Serialize + 'static> Serialize for Data<'_, '_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Parts(_, _, data, in_place) = *self.0;
        if serializer.is_human_readable() {
            return data.serialize(serializer);
        }
        match in_place {
            Some(bytes) => serializer.serialize_bytes(bytes),
            None => match number::le_copy(data) {
                Some(bytes) => serializer.serialize_bytes(&bytes),
                None => data.serialize(serializer),
            },
        }
    }
}

impl<T: Serialize + 'static> Serialize for NdArray<T> {
    /// This crate writes the array with its shape and in its own order
    /// (unless [`WriteOptions::fortran_order`](crate::WriteOptions::fortran_order)
    /// says otherwise); as a record's field it is a subarray field. Other
    /// formats see the struct `{shape, order, data}`: `data` the elements
    /// in human-readable formats (JSON), and for plain and complex numbers
    /// in binary ones (`is_human_readable` false: bincode, postcard) their
    /// little-endian bytes as one byte string (`serialize_bytes`).
    ///
    /// ```
    /// use npy_serde::NdArray;
    /// let m = NdArray::from_shape_vec(vec![2, 3], vec![1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0])?;
    /// let bytes = npy_serde::to_vec(&m)?;
    /// assert!(String::from_utf8_lossy(&bytes[..128]).contains("'shape': (2, 3)"));
    /// assert_eq!(npy_serde::from_slice::<NdArray<f64>>(&bytes)?, m);
    /// assert_eq!(
    ///     serde_json::to_string(&m).unwrap(),
    ///     r#"{"shape":[2,3],"order":"C","data":[1.0,2.0,3.0,4.0,5.0,6.0]}"#
    /// );
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let parts = Parts(self.shape(), self.order(), self.data(), self.le_in_place());
        serializer.serialize_newtype_struct(nd_name::<T>(), &parts)
    }
}

impl<T: Serialize + 'static> Serialize for NdView<'_, T> {
    /// As [`NdArray`]'s: the borrowed data is written without a copy.
    ///
    /// ```
    /// use npy_serde::{NdView, Order};
    /// let data = [0u8, 3, 1, 4, 2, 5];
    /// let view = NdView::new(vec![2, 3], Order::Fortran, &data)?;
    /// let bytes = npy_serde::to_vec(&view)?;
    /// assert!(String::from_utf8_lossy(&bytes[..128]).contains("'fortran_order': True, 'shape': (2, 3)"));
    /// assert_eq!(&bytes[128..], &data);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // borrowed numbers are copied into bytes ([`number::le_copy`])
        let parts = Parts(self.shape(), self.order(), self.data(), None);
        serializer.serialize_newtype_struct(nd_name::<T>(), &parts)
    }
}

impl<'de, T: Deserialize<'de> + 'static> Deserialize<'de> for NdArray<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_newtype_struct(NDARRAY, NdVisitor(PhantomData))
    }
}

struct NdVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de> + 'static> Visitor<'de> for NdVisitor<T> {
    type Value = NdArray<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an n-d array")
    }

    /// Another format: the struct `{shape, order, data}`.
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<NdArray<T>, D::Error> {
        d.deserialize_struct("NdArray", FIELDS, ReprVisitor(PhantomData))
    }

    /// This crate's offer: order and shape, then the flat data.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<NdArray<T>, A::Error> {
        let Some(key) = map.next_key::<String>()? else {
            return Err(de::Error::invalid_length(0, &self));
        };
        let Some((order, dims)) = parse_offer_key(&key) else {
            return Err(de::Error::custom(format_args!(
                "expected an n-d array, found a map key {key:?}"
            )));
        };
        let absorbed = absorbed_axes::<T>();
        let Some(lead) = dims.strip_suffix(&absorbed[..]) else {
            return Err(de::Error::custom(format_args!(
                "expected an array whose last axes are {} (the element type's), found shape {}",
                ShapeRepr(&absorbed),
                ShapeRepr(&dims)
            )));
        };
        let shape = lead
            .iter()
            .map(|&d| usize::try_from(d))
            .collect::<Result<Vec<usize>, _>>()
            .map_err(|_| {
                de::Error::custom(format_args!(
                    "shape {} does not fit this platform's usize",
                    ShapeRepr(&dims)
                ))
            })?;
        let data = map.next_value_seed(DataSeed::<T> {
            absorbed: absorbed.len(),
            _t: PhantomData,
        })?;
        // absorbed axes are read in C order (see de::nd)
        let order = if absorbed.is_empty() { order } else { Order::C };
        NdArray::from_parts(shape, order, data).map_err(de::Error::custom)
    }
}

/// Asks for the flat data, saying how many axes the element absorbs.
struct DataSeed<T> {
    absorbed: usize,
    _t: PhantomData<T>,
}

impl<'de, T: Deserialize<'de> + 'static> DeserializeSeed<'de> for DataSeed<T> {
    type Value = Vec<T>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<T>, D::Error> {
        d.deserialize_tuple_struct(NDDATA, self.absorbed, self)
    }
}

impl<'de, T: Deserialize<'de> + 'static> Visitor<'de> for DataSeed<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the flat data of an n-d array")
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Vec<T>, D::Error> {
        number::flat_vec(d)
    }
}

/// The sizes of the trailing axes an element type absorbs: the tuple
/// lengths it asks for, outermost first (`[[f32; 4]; 2]`: `[2, 4]`);
/// none for a complex number (numpy's `c8`/`c16` is one scalar).
fn absorbed_axes<'de, T: Deserialize<'de> + 'static>() -> Vec<u64> {
    let mut lens = Vec::new();
    if !number::code::<T>().is_some_and(nd_pairs) {
        // the probe always ends in an error: only the lengths matter
        let _ = T::deserialize(Probe(&mut lens));
    }
    lens
}

/// Records `deserialize_tuple` lengths and fails on anything else.
struct Probe<'a>(&'a mut Vec<u64>);

impl<'de> Deserializer<'de> for Probe<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("probe"))
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.push(len as u64);
        visitor.visit_seq(ProbeSeq(Some(self.0)))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple_struct
        map struct enum identifier ignored_any
    }
}

/// The probe's sequence: probes its first element, then fails.
struct ProbeSeq<'a>(Option<&'a mut Vec<u64>>);

impl<'de> SeqAccess<'de> for ProbeSeq<'_> {
    type Error = de::value::Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, Self::Error> {
        if let Some(lens) = self.0.take() {
            seed.deserialize(Probe(lens))?;
        }
        Err(de::Error::custom("probe"))
    }
}

/// Other formats: `{shape, order, data}`.
struct ReprVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de> + 'static> Visitor<'de> for ReprVisitor<T> {
    type Value = NdArray<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct NdArray {shape, order, data}")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<NdArray<T>, A::Error> {
        let (mut shape, mut order, mut data) = (None, None, None);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "shape" => shape = Some(map.next_value::<Vec<usize>>()?),
                "order" => order = Some(map.next_value::<Order>()?),
                "data" => data = Some(map.next_value_seed(DataField(PhantomData))?),
                other => return Err(de::Error::unknown_field(other, FIELDS)),
            }
        }
        let shape = shape.ok_or_else(|| de::Error::missing_field("shape"))?;
        let data = data.ok_or_else(|| de::Error::missing_field("data"))?;
        NdArray::from_parts(shape, order.unwrap_or_default(), data).map_err(de::Error::custom)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<NdArray<T>, A::Error> {
        let missing = |i| <A::Error as de::Error>::invalid_length(i, &self);
        let shape: Vec<usize> = seq.next_element()?.ok_or_else(|| missing(0))?;
        let order: Order = seq.next_element()?.ok_or_else(|| missing(1))?;
        let data = seq.next_element_seed(DataField(PhantomData))?;
        let data: Vec<T> = data.ok_or_else(|| missing(2))?;
        NdArray::from_parts(shape, order, data).map_err(de::Error::custom)
    }
}

/// The `data` of `{shape, order, data}`: the numbers' little-endian bytes
/// from a binary deserializer ([`number::from_le`]), a sequence of elements
/// otherwise.
struct DataField<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de> + 'static> DeserializeSeed<'de> for DataField<T> {
    type Value = Vec<T>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<T>, D::Error> {
        if d.is_human_readable() || number::code::<T>().is_none() {
            return Vec::<T>::deserialize(d);
        }
        d.deserialize_byte_buf(self)
    }
}

/// The little-endian bytes of an n-d array's numbers.
impl<'de, T: Deserialize<'de> + 'static> Visitor<'de> for DataField<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the little-endian bytes of an n-d array's numbers")
    }

    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<Vec<T>, E> {
        match number::from_le::<T>(bytes) {
            Some(Ok(v)) => Ok(v),
            Some(Err(size)) => Err(E::invalid_length(
                bytes.len(),
                &format!("whole numbers of {size} bytes").as_str(),
            )),
            None => Err(E::custom("internal error: not a number type")),
        }
    }

    /// Bytes as a format without a byte string presents them.
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Vec<T>, A::Error> {
        let bytes = Vec::<u8>::deserialize(de::value::SeqAccessDeserializer::new(seq))?;
        self.visit_bytes(&bytes)
    }
}

impl<'de> Deserialize<'de> for Order {
    /// `"C"` or `"F"`, as numpy's `order=` argument.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct OrderVisitor;
        impl Visitor<'_> for OrderVisitor {
            type Value = Order;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("\"C\" or \"F\"")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Order, E> {
                match s {
                    "C" => Ok(Order::C),
                    "F" => Ok(Order::Fortran),
                    _ => Err(E::invalid_value(de::Unexpected::Str(s), &self)),
                }
            }
        }
        deserializer.deserialize_str(OrderVisitor)
    }
}

impl serde::Serialize for Order {
    /// `"C"` or `"F"`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(if self.is_fortran() { "F" } else { "C" })
    }
}

#[cfg(test)]
mod tests {
    use crate::{Bulk, NdArray, Order, ReadOptions, WriteOptions};
    use serde::{Deserialize, Serialize};

    fn rows(r: usize, c: usize) -> Vec<Vec<f64>> {
        (0..r)
            .map(|i| (0..c).map(|j| (i * 10 + j) as f64).collect())
            .collect()
    }

    /// Reads `bytes` through from_slice, from_reader and an npz member.
    fn all_ways<T: serde::de::DeserializeOwned + 'static + PartialEq + std::fmt::Debug>(
        bytes: &[u8],
    ) -> NdArray<T> {
        let a: NdArray<T> = crate::from_slice(bytes).unwrap();
        let b: NdArray<T> = crate::from_reader(bytes).unwrap();
        assert_eq!(a.shape(), b.shape());
        assert_eq!(a.order(), b.order());
        assert_eq!(a.data(), b.data());
        a
    }

    #[test]
    fn c_and_fortran_keep_their_layout() {
        let m = rows(3, 4);
        let c = crate::to_vec(&m).unwrap();
        let a: NdArray<f64> = all_ways(&c);
        assert_eq!(a.shape(), &[3, 4]);
        assert_eq!(a.order(), Order::C);
        assert_eq!(a.data(), m.concat());
        let f = WriteOptions::new().fortran_order(true).to_vec(&m).unwrap();
        let b: NdArray<f64> = all_ways(&f);
        assert_eq!(b.order(), Order::Fortran);
        assert_eq!(b.data()[..3], [0.0, 10.0, 20.0]);
        assert_eq!(a, b);
        assert_eq!(b.into_c_order().into_vec(), m.concat());
        // the general path (i64 into i32 is not the one-block path)
        let m: Vec<Vec<i64>> = vec![vec![0, 1, 2], vec![10, 11, 12]];
        let f = WriteOptions::new().fortran_order(true).to_vec(&m).unwrap();
        let ints: NdArray<i32> = all_ways(&f);
        assert_eq!(ints.order(), Order::Fortran);
        assert_eq!(ints.data()[..3], [0, 10, 1]);
    }

    #[test]
    fn element_arrays_absorb_trailing_axes() {
        let m = rows(5, 3);
        for opts in [WriteOptions::new(), WriteOptions::new().fortran_order(true)] {
            let bytes = opts.to_vec(&m).unwrap();
            let a: NdArray<[f64; 3]> = all_ways(&bytes);
            assert_eq!(a.shape(), &[5]);
            assert_eq!(a.order(), Order::C);
            assert_eq!(a.data()[1], [10.0, 11.0, 12.0]);
            // the one-block rows, either byte order, equal the serde path
            let be = opts
                .clone()
                .dtype(">f4".parse().unwrap())
                .to_vec(&m)
                .unwrap();
            let rows: Vec<[f32; 3]> = crate::from_slice(
                &WriteOptions::new()
                    .dtype(">f4".parse().unwrap())
                    .to_vec(&m)
                    .unwrap(),
            )
            .unwrap();
            let b: NdArray<[f32; 3]> = all_ways(&be);
            assert_eq!((b.shape(), b.data()), (&[5][..], &rows[..]));
            let px: Vec<Vec<u8>> = (0..4u8).map(|i| vec![i, i + 1, i + 2, 255]).collect();
            let p: NdArray<[u8; 4]> = all_ways(&opts.clone().to_vec(&px).unwrap());
            assert_eq!(p.data()[3], [3, 4, 5, 255]);
            let err = crate::from_slice::<NdArray<[f64; 4]>>(&bytes).unwrap_err();
            assert_eq!(
                err.to_string(),
                "expected an array whose last axes are (4,) (the element type's), found shape (5, 3)"
            );
        }
    }

    #[test]
    fn zero_d_and_empty_shapes() {
        let s = crate::to_vec(&2.5f32).unwrap();
        let a: NdArray<f32> = all_ways(&s);
        assert_eq!((a.shape(), a.data()), (&[][..], &[2.5][..]));
        let e = WriteOptions::new()
            .dtype("<f8".parse().unwrap())
            .to_vec(&vec![Vec::<f64>::new(); 5])
            .unwrap();
        let a: NdArray<f64> = all_ways(&e);
        assert_eq!(a.shape(), &[5, 0]);
        // (12345678, 0): refused as nested Vecs, held in O(1) here
        let mut big = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
        let dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (12345678, 0), }";
        big.extend(format!("{dict:<117}\n").bytes());
        let a: NdArray<f64> = all_ways(&big);
        assert_eq!(a.shape(), &[12345678, 0]);
        assert!(a.is_empty());
        assert!(crate::from_slice::<Vec<Vec<f64>>>(&big).is_err());
        assert!(crate::from_reader::<Vec<Vec<f64>>>(&big[..]).is_err());
        let opts = ReadOptions::new().max_elements(1 << 40);
        assert_eq!(
            opts.from_slice::<Vec<Vec<f64>>>(&big).unwrap().len(),
            12345678
        );
    }

    #[test]
    fn strings_and_records_read_through_serde() {
        let words = vec![
            vec!["a".to_string(), "bc".into()],
            vec!["d".into(), "".into()],
        ];
        let bytes = crate::to_vec(&words).unwrap();
        let a: NdArray<String> = all_ways(&bytes);
        assert_eq!(a.shape(), &[2, 2]);
        assert_eq!(a.data(), ["a", "bc", "d", ""]);
        let big_endian = WriteOptions::new()
            .dtype(">f8".parse().unwrap())
            .to_vec(&rows(2, 2))
            .unwrap();
        let b: NdArray<f64> = all_ways(&big_endian);
        assert_eq!(b.data(), [0.0, 1.0, 10.0, 11.0]);
        let bulk: Bulk<f64> = crate::from_slice(&crate::to_vec(&[1.0f64, 2.0]).unwrap()).unwrap();
        assert_eq!(*bulk, [1.0, 2.0]);
    }

    #[test]
    fn other_formats_see_a_struct() {
        let json = r#"{"shape": [2, 2], "order": "F", "data": [1, 3, 2, 4]}"#;
        let a: NdArray<i32> = serde_json::from_str(json).unwrap();
        assert_eq!(
            a,
            NdArray::from_shape_vec(vec![2, 2], vec![1, 2, 3, 4]).unwrap()
        );
        let bad = r#"{"shape": [2, 2], "order": "C", "data": [1]}"#;
        assert!(serde_json::from_str::<NdArray<i32>>(bad).is_err());
    }

    /// serde_json (human-readable) sees `{shape, order, data: [numbers]}`
    /// under the newtype, for every element type.
    #[test]
    fn json_sees_the_numbers() {
        let m = NdArray::from_shape_vec(vec![2], vec![num_complex::Complex::new(1.0f32, 2.0); 2]);
        assert_eq!(
            serde_json::to_string(&m.unwrap()).unwrap(),
            r#"{"shape":[2],"order":"C","data":[[1.0,2.0],[1.0,2.0]]}"#
        );
        let v = [1u16, 2, 3];
        let view = crate::NdView::new(vec![3], Order::C, &v).unwrap();
        let json = serde_json::to_string(&view).unwrap();
        assert_eq!(json, r#"{"shape":[3],"order":"C","data":[1,2,3]}"#);
        let back: NdArray<u16> = serde_json::from_str(&json).unwrap();
        assert_eq!(back.data(), v);
    }

    /// A binary format sees the numbers' little-endian bytes as one byte
    /// string, any other element type as a sequence, and both go back.
    #[test]
    fn binary_formats_see_bytes_and_round_trip() {
        let m = NdArray::from_shape_vec(vec![2, 2], vec![1.5f64, -2.0, 0.25, 8.0]).unwrap();
        let value = m.serialize(binary::Ser).unwrap();
        let binary::Value::Newtype(name, parts) = &value else {
            panic!("{value:?}")
        };
        assert_eq!(*name, "$npy_serde::ndarray:f8");
        let binary::Value::Struct(fields) = &**parts else {
            panic!("{parts:?}")
        };
        let want: Vec<u8> = m.data().iter().flat_map(|x| x.to_le_bytes()).collect();
        assert_eq!(fields[2], ("data", binary::Value::Bytes(want)));
        assert_eq!(NdArray::<f64>::deserialize(value).unwrap(), m);
        // a view too; complex numbers, bools
        let z = [
            num_complex::Complex::new(1.0f32, -1.0),
            num_complex::Complex::new(0.5, 2.0),
        ];
        let view = crate::NdView::new(vec![2], Order::C, &z).unwrap();
        let back =
            NdArray::<num_complex::Complex<f32>>::deserialize(view.serialize(binary::Ser).unwrap());
        assert_eq!(back.unwrap().data(), z);
        let b = NdArray::from_shape_vec(vec![3], vec![true, false, true]).unwrap();
        assert_eq!(
            NdArray::<bool>::deserialize(b.serialize(binary::Ser).unwrap()).unwrap(),
            b
        );
        // strings are a sequence
        let s = NdArray::from_shape_vec(vec![1], vec!["x".to_string()]).unwrap();
        let value = s.serialize(binary::Ser).unwrap();
        assert!(
            format!("{value:?}").contains(r#"("data", Seq([Str("x")]))"#),
            "{value:?}"
        );
        assert_eq!(NdArray::<String>::deserialize(value).unwrap(), s);
        // bytes that are not whole numbers
        let bad = binary::Value::Newtype(
            "",
            Box::new(binary::Value::Struct(vec![
                ("shape", binary::Value::Seq(vec![binary::Value::U64(1)])),
                ("order", binary::Value::Str("C".into())),
                ("data", binary::Value::Bytes(vec![0; 3])),
            ])),
        );
        let err = NdArray::<u16>::deserialize(bad).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid length 3, expected whole numbers of 2 bytes"
        );
    }

    /// A tiny binary serde format (`is_human_readable` false both ways):
    /// values as a tree.
    mod binary {
        use serde::de::value::{MapDeserializer, SeqDeserializer};
        use serde::de::{IntoDeserializer, Visitor};
        use serde::ser::{Impossible, SerializeSeq, SerializeStruct};

        type Error = serde::de::value::Error;

        #[derive(Debug, PartialEq)]
        pub enum Value {
            U64(u64),
            Str(String),
            Bytes(Vec<u8>),
            Seq(Vec<Value>),
            Struct(Vec<(&'static str, Value)>),
            Newtype(&'static str, Box<Value>),
        }

        pub struct Ser;

        pub struct Compound(Vec<(&'static str, Value)>);

        impl serde::Serializer for Ser {
            type Ok = Value;
            type Error = Error;
            type SerializeSeq = Compound;
            type SerializeTuple = Compound;
            type SerializeTupleStruct = Impossible<Value, Error>;
            type SerializeTupleVariant = Impossible<Value, Error>;
            type SerializeMap = Impossible<Value, Error>;
            type SerializeStruct = Compound;
            type SerializeStructVariant = Impossible<Value, Error>;

            fn is_human_readable(&self) -> bool {
                false
            }
            fn serialize_bool(self, v: bool) -> Result<Value, Error> {
                Ok(Value::U64(v.into()))
            }
            fn serialize_i8(self, _: i8) -> Result<Value, Error> {
                unimplemented!()
            }
            fn serialize_i16(self, _: i16) -> Result<Value, Error> {
                unimplemented!()
            }
            fn serialize_i32(self, _: i32) -> Result<Value, Error> {
                unimplemented!()
            }
            fn serialize_i64(self, _: i64) -> Result<Value, Error> {
                unimplemented!()
            }
            fn serialize_u8(self, v: u8) -> Result<Value, Error> {
                Ok(Value::U64(v.into()))
            }
            fn serialize_u16(self, v: u16) -> Result<Value, Error> {
                Ok(Value::U64(v.into()))
            }
            fn serialize_u32(self, v: u32) -> Result<Value, Error> {
                Ok(Value::U64(v.into()))
            }
            fn serialize_u64(self, v: u64) -> Result<Value, Error> {
                Ok(Value::U64(v))
            }
            fn serialize_f32(self, _: f32) -> Result<Value, Error> {
                unimplemented!()
            }
            fn serialize_f64(self, _: f64) -> Result<Value, Error> {
                unimplemented!()
            }
            fn serialize_char(self, _: char) -> Result<Value, Error> {
                unimplemented!()
            }
            fn serialize_str(self, v: &str) -> Result<Value, Error> {
                Ok(Value::Str(v.into()))
            }
            fn serialize_bytes(self, v: &[u8]) -> Result<Value, Error> {
                Ok(Value::Bytes(v.into()))
            }
            fn serialize_none(self) -> Result<Value, Error> {
                unimplemented!()
            }
            fn serialize_some<T: ?Sized + serde::Serialize>(self, _: &T) -> Result<Value, Error> {
                unimplemented!()
            }
            fn serialize_unit(self) -> Result<Value, Error> {
                unimplemented!()
            }
            fn serialize_unit_struct(self, _: &'static str) -> Result<Value, Error> {
                unimplemented!()
            }
            fn serialize_unit_variant(
                self,
                _: &'static str,
                _: u32,
                _: &'static str,
            ) -> Result<Value, Error> {
                unimplemented!()
            }
            fn serialize_newtype_struct<T: ?Sized + serde::Serialize>(
                self,
                name: &'static str,
                v: &T,
            ) -> Result<Value, Error> {
                Ok(Value::Newtype(name, Box::new(v.serialize(Ser)?)))
            }
            fn serialize_newtype_variant<T: ?Sized + serde::Serialize>(
                self,
                _: &'static str,
                _: u32,
                _: &'static str,
                _: &T,
            ) -> Result<Value, Error> {
                unimplemented!()
            }
            fn serialize_seq(self, _: Option<usize>) -> Result<Compound, Error> {
                Ok(Compound(Vec::new()))
            }
            fn serialize_tuple(self, _: usize) -> Result<Compound, Error> {
                Ok(Compound(Vec::new()))
            }
            fn serialize_tuple_struct(
                self,
                _: &'static str,
                _: usize,
            ) -> Result<Self::SerializeTupleStruct, Error> {
                unimplemented!()
            }
            fn serialize_tuple_variant(
                self,
                _: &'static str,
                _: u32,
                _: &'static str,
                _: usize,
            ) -> Result<Self::SerializeTupleVariant, Error> {
                unimplemented!()
            }
            fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Error> {
                unimplemented!()
            }
            fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound, Error> {
                Ok(Compound(Vec::new()))
            }
            fn serialize_struct_variant(
                self,
                _: &'static str,
                _: u32,
                _: &'static str,
                _: usize,
            ) -> Result<Self::SerializeStructVariant, Error> {
                unimplemented!()
            }
        }

        impl SerializeSeq for Compound {
            type Ok = Value;
            type Error = Error;
            fn serialize_element<T: ?Sized + serde::Serialize>(
                &mut self,
                v: &T,
            ) -> Result<(), Error> {
                self.0.push(("", v.serialize(Ser)?));
                Ok(())
            }
            fn end(self) -> Result<Value, Error> {
                Ok(Value::Seq(self.0.into_iter().map(|(_, v)| v).collect()))
            }
        }

        impl serde::ser::SerializeTuple for Compound {
            type Ok = Value;
            type Error = Error;
            fn serialize_element<T: ?Sized + serde::Serialize>(
                &mut self,
                v: &T,
            ) -> Result<(), Error> {
                SerializeSeq::serialize_element(self, v)
            }
            fn end(self) -> Result<Value, Error> {
                SerializeSeq::end(self)
            }
        }

        impl SerializeStruct for Compound {
            type Ok = Value;
            type Error = Error;
            fn serialize_field<T: ?Sized + serde::Serialize>(
                &mut self,
                key: &'static str,
                v: &T,
            ) -> Result<(), Error> {
                self.0.push((key, v.serialize(Ser)?));
                Ok(())
            }
            fn end(self) -> Result<Value, Error> {
                Ok(Value::Struct(self.0))
            }
        }

        impl<'de> serde::Deserializer<'de> for Value {
            type Error = Error;

            fn is_human_readable(&self) -> bool {
                false
            }
            fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
                match self {
                    Value::U64(v) => visitor.visit_u64(v),
                    Value::Str(v) => visitor.visit_string(v),
                    Value::Bytes(v) => visitor.visit_byte_buf(v),
                    Value::Seq(v) => visitor.visit_seq(SeqDeserializer::new(v.into_iter())),
                    Value::Struct(v) => visitor.visit_map(MapDeserializer::new(v.into_iter())),
                    Value::Newtype(_, v) => visitor.visit_newtype_struct(*v),
                }
            }
            fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
                match self {
                    Value::U64(v) => visitor.visit_bool(v != 0),
                    other => other.deserialize_any(visitor),
                }
            }
            serde::forward_to_deserialize_any! {
                i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
                bytes byte_buf option unit unit_struct newtype_struct seq tuple
                tuple_struct map struct enum identifier ignored_any
            }
        }

        impl IntoDeserializer<'_, Error> for Value {
            type Deserializer = Value;
            fn into_deserializer(self) -> Value {
                self
            }
        }
    }
}
