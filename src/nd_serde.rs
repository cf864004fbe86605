//! serde for [`NdArray`] and [`NdView`]: with this crate's format an n-d
//! array is the file's shape, order and flat data (see `de::nd` for the
//! reading protocol, `ser::nd` for writing); other formats see a struct
//! `{shape, order, data}` (`order`: `"C"` or `"F"`).
//!
//! Reading picks the one-block path ([`crate::Bulk`]) for the plain number
//! types, and for the common rows of them (`[f32; 2..=4]`, `[f64; 2..=4]`,
//! `[u8; 3]` and `[u8; 4]` pixels), with a `TypeId` check and a
//! `Box<dyn Any>` downcast; every other element type reads its flat data as
//! `Vec<T>`. An element type that is
//! itself an array (`[f32; 3]`, nested arrays, tuples) absorbs that many
//! trailing axes: it is found by asking the type to deserialize itself from
//! a probe that records the tuple lengths asked for and then fails.
//!
//! Writing, an `NdArray` of plain or complex numbers offers this crate's
//! writer its data as the bytes they are (`serialize_bytes` of the
//! little-endian elements, bytemuck's cast with the `view` feature), so
//! the writer copies one block and walks no element. serde has no way to
//! ask a value for that, so the writer says it wants bytes in a
//! thread-local flag ([`offering_bytes`]) just before it serializes the
//! array's parts, which read and clear it first; every other serializer,
//! and this crate's everywhere else, sees the elements.

use std::any::{Any, TypeId};
use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::de::nd::parse_offer_key;
use crate::dtype::ShapeRepr;
use crate::nd::{NdArray, NdView, Order};
use crate::special::{NDARRAY, NDDATA, nd_name};

/// The field names other formats see.
const FIELDS: &[&str] = &["shape", "order", "data"];

thread_local! {
    /// Whether this crate's writer asks the n-d array whose parts it
    /// serializes next for its data as bytes ([`offering_bytes`]).
    static BYTES_WANTED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `serialize`, which serializes an n-d array's parts (the inner
/// value of its newtype) and nothing before them, asking them for their
/// data as bytes; the request ends with it, even when it panics.
pub(crate) fn offering_bytes<R>(serialize: impl FnOnce() -> R) -> R {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            BYTES_WANTED.set(false);
        }
    }
    BYTES_WANTED.set(true);
    let _reset = Reset;
    serialize()
}

/// What an n-d array serializes as, inside its newtype: `{shape, order,
/// data}`, the data flat in `order` (this crate's writer takes its shape
/// and order from here, see `ser::nd`); `bytes`: the data as
/// little-endian bytes, when the array has them to offer.
struct Parts<'a, T> {
    shape: &'a [usize],
    order: Order,
    data: &'a [T],
    bytes: Option<&'a [u8]>,
}

impl<T: Serialize> Serialize for Parts<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // first: the request is for this serialization only
        let wanted = BYTES_WANTED.replace(false);
        let mut parts = serializer.serialize_struct("NdArray", FIELDS.len())?;
        parts.serialize_field("shape", self.shape)?;
        parts.serialize_field("order", &self.order)?;
        match self.bytes.filter(|_| wanted) {
            Some(bytes) => parts.serialize_field("data", serde_bytes::Bytes::new(bytes))?,
            None => parts.serialize_field("data", self.data)?,
        }
        parts.end()
    }
}

/// An n-d array as the newtype this crate's writer recognises; its name
/// carries the element's numpy type for plain numbers, so that an empty
/// array still has a dtype.
fn serialize_nd<T: Serialize + 'static, S: Serializer>(
    parts: Parts<'_, T>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_newtype_struct(nd_name::<T>(), &parts)
}

/// The data of `array` as numpy's little-endian bytes of its type, for
/// the plain and complex numbers (the types [`nd_name`] names) on a
/// little-endian machine; `None` otherwise.
#[cfg(all(feature = "view", target_endian = "little"))]
fn le_bytes<T: 'static>(array: &NdArray<T>) -> Option<&[u8]> {
    let array: &dyn Any = array;
    macro_rules! cast {
        ($($t:ty),*) => {$(
            if let Some(a) = array.downcast_ref::<NdArray<$t>>() {
                return Some(bytemuck::cast_slice(a.data()));
            }
        )*};
    }
    cast!(f64, f32, i64, i32, i16, i8, u64, u32, u16, u8, bool);
    cast!(num_complex::Complex<f32>, num_complex::Complex<f64>);
    #[cfg(feature = "half")]
    cast!(half::f16);
    None
}

#[cfg(not(all(feature = "view", target_endian = "little")))]
fn le_bytes<T: 'static>(_: &NdArray<T>) -> Option<&[u8]> {
    None
}

impl<T: Serialize + 'static> Serialize for NdArray<T> {
    /// This crate writes the array with its shape and in its own order
    /// (unless [`WriteOptions::fortran_order`](crate::WriteOptions::fortran_order)
    /// says otherwise); as a record's field it is a subarray field. Other
    /// formats see the struct `{shape, order, data}`.
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
        let parts = Parts {
            shape: self.shape(),
            order: self.order(),
            data: self.data(),
            bytes: le_bytes(self),
        };
        serialize_nd(parts, serializer)
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
        let parts = Parts {
            shape: self.shape(),
            order: self.order(),
            data: self.data(),
            // a borrowed `&[T]` cannot be downcast: its elements are written
            bytes: None,
        };
        serialize_nd(parts, serializer)
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
        let parts = dims
            .len()
            .checked_sub(absorbed.len())
            .and_then(|at| dims.split_at_checked(at));
        let lead = match parts {
            Some((lead, rest)) if rest.iter().copied().eq(absorbed.iter().map(|&n| n as u64)) => {
                lead
            }
            _ => {
                return Err(de::Error::custom(format_args!(
                    "expected an array whose last axes are {} (the element type's), found shape {}",
                    ShapeRepr(&absorbed),
                    ShapeRepr(&dims)
                )));
            }
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
        d.deserialize_tuple_struct(NDDATA, self.absorbed, DataVisitor(PhantomData))
    }
}

struct DataVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de> + 'static> Visitor<'de> for DataVisitor<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the flat data of an n-d array")
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Vec<T>, D::Error> {
        flat_vec(d)
    }
}

/// The elements of an array presented flat: in one block for the plain
/// number types (`Bulk`), as `Vec<T>` otherwise.
pub(crate) fn flat_vec<'de, T: Deserialize<'de> + 'static, D: Deserializer<'de>>(
    d: D,
) -> Result<Vec<T>, D::Error> {
    macro_rules! bulk {
        ($($t:ty),*) => {$(
            if TypeId::of::<T>() == TypeId::of::<$t>() {
                let v: Vec<$t> = crate::bulk::deserialize(d)?;
                return downcast(v);
            }
        )*};
    }
    bulk!(f64, f32, i64, i32, i16, i8, u64, u32, u16, u8, bool);
    #[cfg(feature = "half")]
    bulk!(half::f16);
    // the common rows: points and vectors, RGB(A) pixels
    bulk!(
        [f32; 2], [f32; 3], [f32; 4], [f64; 2], [f64; 3], [f64; 4], [u8; 3], [u8; 4]
    );
    Vec::<T>::deserialize(d)
}

/// `Vec<U>` as the `Vec<T>` it is (`TypeId` checked by the caller).
fn downcast<T: 'static, U: 'static, E: de::Error>(v: Vec<U>) -> Result<Vec<T>, E> {
    let boxed: Box<dyn Any> = Box::new(v);
    boxed
        .downcast::<Vec<T>>()
        .map(|b| *b)
        .map_err(|_| E::custom("internal error: element type mismatch"))
}

/// The sizes of the trailing axes an element type absorbs: the tuple
/// lengths it asks for, outermost first (`[[f32; 4]; 2]`: `[2, 4]`);
/// none for a complex number (numpy's `c8`/`c16` is one scalar).
fn absorbed_axes<'de, T: Deserialize<'de> + 'static>() -> Vec<usize> {
    let complex = [
        TypeId::of::<num_complex::Complex<f32>>(),
        TypeId::of::<num_complex::Complex<f64>>(),
    ];
    let mut lens = Vec::new();
    if !complex.contains(&TypeId::of::<T>()) {
        // the probe always ends in an error: only the lengths matter
        let _ = T::deserialize(Probe(&mut lens));
    }
    lens
}

/// Records `deserialize_tuple` lengths and fails on anything else.
struct Probe<'a>(&'a mut Vec<usize>);

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
        self.0.push(len);
        visitor.visit_seq(ProbeSeq(Some(self.0)))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple_struct
        map struct enum identifier ignored_any
    }
}

/// The probe's sequence: probes its first element, then fails.
struct ProbeSeq<'a>(Option<&'a mut Vec<usize>>);

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
                "data" => data = Some(map.next_value::<Vec<T>>()?),
                other => return Err(de::Error::unknown_field(other, FIELDS)),
            }
        }
        let shape = shape.ok_or_else(|| de::Error::missing_field("shape"))?;
        let data = data.ok_or_else(|| de::Error::missing_field("data"))?;
        NdArray::from_parts(shape, order.unwrap_or_default(), data).map_err(de::Error::custom)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<NdArray<T>, A::Error> {
        let shape: Vec<usize> = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let order: Order = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        let data: Vec<T> = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(2, &self))?;
        NdArray::from_parts(shape, order, data).map_err(de::Error::custom)
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
}
