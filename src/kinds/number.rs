//! The kinds table: the one place where a Rust element type is matched to
//! the numpy number it is.
//!
//! [`Number`] is implemented here once per plain or complex number type
//! (`bool`, `i8`..`u64`, `f32`, `f64`, `half::f16` with feature `half`,
//! `Complex<f32>`, `Complex<f64>`): its numpy type, its size, its bytes
//! both ways, its in-place casts. It is public as
//! [`view::ViewElement`](crate::view::ViewElement), and the same list says
//! which of them are [`bulk::Element`](crate::bulk::Element)s (all but the
//! complex ones). The n-d arrays ([`crate::NdArray`], [`crate::NdView`])
//! are generic over any element type, which serde's traits cannot ask what
//! it is; the functions below answer for them, and only they compare
//! `TypeId`s (a type is one of the table's, then its values are taken as
//! that type through `Any`, no `unsafe`). Nothing else in the crate looks
//! at a type's identity.
//!
//! With feature `view` on a little-endian machine an owned array's numbers
//! are their bytes in place (bytemuck's cast); otherwise they are copied
//! into bytes, one number at a time.

use std::any::{Any, TypeId};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::format::dtype::ScalarType;
use crate::kinds::special::NDARRAY;

/// numpy's `c8` and `c16`, one token each for the table's macros.
type C8 = num_complex::Complex<f32>;
type C16 = num_complex::Complex<f64>;
#[cfg(feature = "half")]
use half::f16;

mod sealed {
    /// Closes the table (the byte layout is this crate's promise); with
    /// feature `view`, bytemuck's casts of the bytes in place.
    #[cfg(feature = "view")]
    pub trait Sealed: bytemuck::NoUninit + bytemuck::CheckedBitPattern {}
    #[cfg(not(feature = "view"))]
    pub trait Sealed {}
}

/// A number type that [`view`](crate::view()) and
/// [`view_mut`](crate::view_mut) can borrow in place: `bool`,
/// `i8`..`i64`, `u8`..`u64`, `f32`, `f64`, `half::f16` (feature `half`)
/// and `num_complex::Complex<f32>` / `Complex<f64>` (numpy's `c8` /
/// `c16`).
///
/// Sealed: each type is bound to the numpy type it is stored as.
///
/// ```
/// # #[cfg(feature = "view")] {
/// use npy_serde::{ScalarType, view::ViewElement};
/// assert_eq!(<u16 as ViewElement>::TYPE, ScalarType::UInt(2));
/// assert_eq!(<num_complex::Complex<f64> as ViewElement>::NAME, "Complex<f64>");
/// # }
/// ```
pub trait Number:
    sealed::Sealed + Copy + Send + Sync + Serialize + DeserializeOwned + 'static
{
    /// The numpy type the values are stored as (in this machine's byte order).
    const TYPE: ScalarType;
    /// The Rust name, for messages.
    const NAME: &'static str;
    /// numpy's type code without its byte order: `"f8"`, `"c16"`, `"b1"`.
    #[doc(hidden)]
    const CODE: &'static str;
    /// The name an n-d array of it is written under: [`NDARRAY`], `":"`,
    /// [`CODE`](Self::CODE) (see [`nd_name`]).
    #[doc(hidden)]
    const ND_NAME: &'static str;
    /// Bytes of one number.
    #[doc(hidden)]
    const SIZE: usize = size_of::<Self>();

    /// One number from its `SIZE` little-endian bytes (zeros for a shorter
    /// slice, which the callers never pass); any nonzero byte is `true`.
    #[doc(hidden)]
    fn read_le(bytes: &[u8]) -> Self;
    /// The same from big-endian bytes.
    #[doc(hidden)]
    fn read_be(bytes: &[u8]) -> Self;
    /// Its little-endian bytes into exactly `SIZE` bytes (nothing into a
    /// slice of another length, which the callers never pass).
    #[doc(hidden)]
    fn write_le(self, out: &mut [u8]);

    /// The numbers as their little-endian bytes in place: `Some` with
    /// feature `view` on a little-endian machine.
    #[doc(hidden)]
    #[inline]
    fn le_in_place(data: &[Self]) -> Option<&[u8]> {
        #[cfg(all(feature = "view", target_endian = "little"))]
        return Some(bytemuck::cast_slice(data));
        #[cfg(not(all(feature = "view", target_endian = "little")))]
        {
            let _ = data;
            None
        }
    }

    /// The bytes as values; `None` when bytemuck refuses the cast (the
    /// length, the alignment and `bool`'s bytes are checked before, with
    /// messages, so this is bytemuck's own guard).
    #[cfg(feature = "view")]
    #[doc(hidden)]
    #[inline]
    fn cast(bytes: &[u8]) -> Option<&[Self]> {
        bytemuck::checked::try_cast_slice(bytes).ok()
    }

    /// The bytes as values to write; `None` as for [`cast`](Self::cast).
    #[cfg(feature = "view")]
    #[doc(hidden)]
    #[inline]
    fn cast_mut(bytes: &mut [u8]) -> Option<&mut [Self]> {
        bytemuck::checked::try_cast_slice_mut(bytes).ok()
    }
}

/// The table's plain numbers: their code and numpy type; each is also a
/// [`bulk::Element`](crate::bulk::Element).
macro_rules! numbers {
    ($($(#[$cfg:meta])* $t:ident, $code:literal, $ty:expr;)*) => {$(
        $(#[$cfg])*
        impl sealed::Sealed for $t {}
        $(#[$cfg])*
        impl Number for $t {
            const TYPE: ScalarType = $ty;
            const NAME: &'static str = stringify!($t);
            const CODE: &'static str = $code;
            const ND_NAME: &'static str = concat!("$npy_serde::ndarray:", $code);
            #[inline(always)]
            fn read_le(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.first_chunk().copied().unwrap_or_default())
            }
            #[inline(always)]
            fn read_be(bytes: &[u8]) -> Self {
                <$t>::from_be_bytes(bytes.first_chunk().copied().unwrap_or_default())
            }
            #[inline(always)]
            fn write_le(self, out: &mut [u8]) {
                if let Some(out) = out.first_chunk_mut() {
                    *out = self.to_le_bytes();
                }
            }
        }
        $(#[$cfg])*
        impl crate::array::bulk::Element for $t {}
    )*};
}

numbers! {
    i8, "i1", ScalarType::Int(1);
    i16, "i2", ScalarType::Int(2);
    i32, "i4", ScalarType::Int(4);
    i64, "i8", ScalarType::Int(8);
    u8, "u1", ScalarType::UInt(1);
    u16, "u2", ScalarType::UInt(2);
    u32, "u4", ScalarType::UInt(4);
    u64, "u8", ScalarType::UInt(8);
    f32, "f4", ScalarType::Float(4);
    f64, "f8", ScalarType::Float(8);
    /// The bits unchanged (NaN payloads included).
    #[cfg(feature = "half")]
    f16, "f2", ScalarType::Float(2);
}

impl sealed::Sealed for bool {}
/// One byte; any nonzero byte is `true`, as numpy reads `b1`. Not `Pod`
/// (only the bytes 0 and 1 are values): bytemuck's checked casts look at
/// every byte, so a view of `bool` costs a pass over the data, and a file
/// holding other bytes is refused.
impl Number for bool {
    const TYPE: ScalarType = ScalarType::Bool;
    const NAME: &'static str = "bool";
    const CODE: &'static str = "b1";
    const ND_NAME: &'static str = "$npy_serde::ndarray:b1";
    #[inline(always)]
    fn read_le(bytes: &[u8]) -> Self {
        bytes.first().is_some_and(|&b| b != 0)
    }
    #[inline(always)]
    fn read_be(bytes: &[u8]) -> Self {
        Self::read_le(bytes)
    }
    #[inline(always)]
    fn write_le(self, out: &mut [u8]) {
        u8::from(self).write_le(out);
    }
}
impl crate::array::bulk::Element for bool {}

/// numpy's complex numbers: the real part's bytes, then the imaginary's
/// (not [`bulk::Element`](crate::bulk::Element)s).
macro_rules! complex {
    ($($t:ident, $code:literal, $n:literal;)*) => {$(
        impl sealed::Sealed for num_complex::Complex<$t> {}
        impl Number for num_complex::Complex<$t> {
            const TYPE: ScalarType = ScalarType::Complex(2 * $n);
            const NAME: &'static str = concat!("Complex<", stringify!($t), ">");
            const CODE: &'static str = $code;
            const ND_NAME: &'static str = concat!("$npy_serde::ndarray:", $code);
            #[inline(always)]
            fn read_le(bytes: &[u8]) -> Self {
                let (re, im) = bytes.split_at_checked($n).unwrap_or_default();
                num_complex::Complex::new(<$t>::read_le(re), <$t>::read_le(im))
            }
            #[inline(always)]
            fn read_be(bytes: &[u8]) -> Self {
                let (re, im) = bytes.split_at_checked($n).unwrap_or_default();
                num_complex::Complex::new(<$t>::read_be(re), <$t>::read_be(im))
            }
            #[inline(always)]
            fn write_le(self, out: &mut [u8]) {
                if let Some((re, im)) = out.split_at_mut_checked($n) {
                    self.re.write_le(re);
                    self.im.write_le(im);
                }
            }
        }
    )*};
}

complex! {
    f32, "c8", 4;
    f64, "c16", 8;
}

/// Runs `body` with `E` the number type of the table that `T` is
/// (`dispatch!(T, E => body)`), or whose numpy code is `code`
/// (`dispatch!(code == code, E => body)`); nothing when there is none.
macro_rules! dispatch {
    (@ [code == $code:ident, $e:ident => $body:expr] $($n:ident)*) => {$(
        if $code == <$n as Number>::CODE {
            type $e = $n;
            $body;
        }
    )*};
    (@ [$t:ty, $e:ident => $body:expr] $($n:ident)*) => {$(
        if TypeId::of::<$t>() == TypeId::of::<$n>() {
            type $e = $n;
            $body;
        }
    )*};
    ($($how:tt)*) => {
        dispatch!(@ [$($how)*] bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 C8 C16);
        #[cfg(feature = "half")]
        dispatch!(@ [$($how)*] f16);
    };
}

/// `Vec<U>` as the `Vec<T>` it is (`None` if it is not: the callers
/// compared the `TypeId`s).
fn cast_vec<U: 'static, T: 'static>(v: Vec<U>) -> Option<Vec<T>> {
    let mut v = Some(v);
    (&mut v as &mut dyn Any)
        .downcast_mut::<Option<Vec<T>>>()
        .and_then(Option::take)
}

/// The numpy type of a code of the table (`"f8"`): the element an n-d
/// array's or a bulk's name carries.
pub(crate) fn code_type(code: &str) -> Option<ScalarType> {
    dispatch!(code == code, E => return Some(<E as Number>::TYPE));
    None
}

/// `T`'s numpy type code when it is a number of the table: the end of
/// its [`nd_name`].
pub(crate) fn code<T: 'static>() -> Option<&'static str> {
    nd_name::<T>().strip_prefix(NDARRAY)?.strip_prefix(':')
}

/// The name an n-d array of `T` is written under: [`NDARRAY`], followed
/// by `":"` and the numpy type (`f8`, `i4`, `b1`, `c16`...) when `T` is a
/// number of the table.
pub(crate) fn nd_name<T: 'static>() -> &'static str {
    dispatch!(T, E => return <E as Number>::ND_NAME);
    NDARRAY
}

/// An owned array's data as the little-endian bytes of its numbers, in
/// place ([`Number::le_in_place`]); `None` for any other `T` or where the
/// bytes are not in place. `&Vec`: a borrowed slice cannot be looked at
/// through `Any`.
#[allow(clippy::ptr_arg)]
pub(crate) fn le_in_place<T: 'static>(data: &Vec<T>) -> Option<&[u8]> {
    dispatch!(T, E => {
        let data: &Vec<E> = (data as &dyn Any).downcast_ref()?;
        return E::le_in_place(data);
    });
    None
}

/// The data's numbers copied into their little-endian bytes; `None` for
/// any other `T`.
pub(crate) fn le_copy<T: 'static>(data: &[T]) -> Option<Vec<u8>> {
    dispatch!(T, E => {
        let mut out = vec![0; data.len().saturating_mul(E::SIZE)];
        crate::huge_pages::advise(&mut out);
        // one loop of stores (the downcast is the same every time)
        for (bytes, x) in out.chunks_exact_mut(E::SIZE).zip(data) {
            let x: &E = (x as &dyn Any).downcast_ref()?;
            x.write_le(bytes);
        }
        return Some(out);
    });
    None
}

/// Little-endian bytes as `T`'s numbers: `None` for any other `T`,
/// `Some(Err(size))` when the bytes are not whole numbers of `size` bytes.
pub(crate) fn from_le<T: 'static>(bytes: &[u8]) -> Option<Result<Vec<T>, usize>> {
    dispatch!(T, E => {
        let size = E::SIZE;
        if bytes.len() % size != 0 {
            return Some(Err(size));
        }
        let v: Vec<E> = bytes.chunks_exact(size).map(E::read_le).collect();
        return cast_vec(v).map(Ok);
    });
    None
}

/// Serializes little-endian bytes of the numbers of numpy type `code` (an
/// n-d array's data as a binary serializer receives it) as the sequence
/// of those numbers, exactly as a `&[E]` of them serializes; `None` when
/// `code` is not a number of the table (nothing was serialized).
pub(crate) fn serialize_le<S: Serializer>(
    code: &str,
    bytes: &[u8],
    serializer: S,
) -> Option<Result<S::Ok, S::Error>> {
    dispatch!(code == code, E => {
        let numbers = bytes.chunks_exact(E::SIZE).map(E::read_le);
        return Some(serializer.collect_seq(numbers));
    });
    None
}

/// The flat data of an n-d array from this crate's deserializer: in one
/// block ([`crate::Bulk`]'s read) for the numbers of the table and the
/// common rows of them (`[f32; 2..=4]`, `[f64; 2..=4]`, `[u8; 3]` and
/// `[u8; 4]` pixels), as `Vec<T>` otherwise.
pub(crate) fn flat_vec<'de, T: Deserialize<'de> + 'static, D: Deserializer<'de>>(
    d: D,
) -> Result<Vec<T>, D::Error> {
    macro_rules! bulk {
        ($($e:ty),*) => {$(
            if TypeId::of::<T>() == TypeId::of::<$e>() {
                let v: Vec<$e> = crate::array::bulk::deserialize(d)?;
                return cast_vec(v).ok_or_else(|| {
                    serde::de::Error::custom("internal error: element type mismatch")
                });
            }
        )*};
    }
    bulk!(f64, f32, i64, i32, i16, i8, u64, u32, u16, u8, bool);
    #[cfg(feature = "half")]
    bulk!(f16);
    // the common rows: points and vectors, RGB(A) pixels
    bulk!(
        [f32; 2], [f32; 3], [f32; 4], [f64; 2], [f64; 3], [f64; 4], [u8; 3], [u8; 4]
    );
    Vec::<T>::deserialize(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_complex::Complex;

    #[test]
    fn the_table_knows_its_numbers() {
        assert_eq!(code::<f64>(), Some("f8"));
        assert_eq!(code::<Complex<f32>>(), Some("c8"));
        assert_eq!(code::<bool>(), Some("b1"));
        assert_eq!(code::<String>(), None);
        assert_eq!(code::<[f32; 3]>(), None);
        assert_eq!(nd_name::<u16>(), "$npy_serde::ndarray:u2");
        assert_eq!(nd_name::<String>(), NDARRAY);
    }

    #[test]
    fn bytes_both_ways() {
        let z = [Complex::new(1.5f64, -2.0), Complex::new(0.0, 3.0)];
        let bytes = le_copy(&z).unwrap();
        assert_eq!(bytes.len(), 32);
        assert_eq!(bytes[..8], 1.5f64.to_le_bytes());
        assert_eq!(from_le::<Complex<f64>>(&bytes), Some(Ok(z.to_vec())));
        assert_eq!(from_le::<u16>(&[1, 0, 2]), Some(Err(2)));
        assert_eq!(from_le::<String>(&[]), None);
        assert_eq!(le_copy(&["x"]), None);
        let v = vec![1i32, -2];
        if let Some(in_place) = le_in_place(&v) {
            assert_eq!(in_place, le_copy(&v).unwrap());
        }
        assert_eq!(from_le::<bool>(&[0, 2]), Some(Ok(vec![false, true])));
    }

    #[test]
    fn bytes_serialize_as_their_numbers() {
        let bytes = le_copy(&[1.0f32, 2.5]).unwrap();
        let json = serialize_le("f4", &bytes, serde_json::value::Serializer).unwrap();
        assert_eq!(json.unwrap(), serde_json::json!([1.0, 2.5]));
        let bytes = le_copy(&[Complex::new(1.0f32, 2.0)]).unwrap();
        let json = serialize_le("c8", &bytes, serde_json::value::Serializer).unwrap();
        assert_eq!(json.unwrap(), serde_json::json!([[1.0, 2.0]]));
        assert!(serialize_le("U3", &[], serde_json::value::Serializer).is_none());
    }
}
