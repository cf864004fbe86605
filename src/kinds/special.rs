//! Newtype-struct names that mark the crate's special types.
//!
//! serde has no data model for complex numbers, datetimes, half floats or
//! padding, so those types serialize as a newtype struct with a reserved name
//! (the trick serde_json's `RawValue` uses). The serializer and deserializer
//! recognise the names and map them to numpy's `c`, `M8`/`m8`, `f2` and `V`
//! types (`V2` for bfloat16, as ml_dtypes writes it). Other formats see an ordinary newtype and stay unaffected.

// Constants only; the lint keeps it that way.
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use crate::format::dtype::{DatetimeUnit, ScalarType};
use crate::kinds::convert::{f16_bits_to_f64, f32_to_f64};

/// `#[serde(with = "npy_serde::complex")]`: newtype over `(re, im)`.
pub(crate) const COMPLEX: &str = "$npy_serde::complex";
/// [`crate::Padding<N>`]: newtype over `N as u64`.
pub(crate) const PADDING: &str = "$npy_serde::padding";
/// `half::f16`'s own newtype name; the inner value is the `u16` bit pattern.
pub(crate) const F16: &str = "f16";
/// `half::bf16`'s own newtype name; the inner value is the `u16` bit
/// pattern. numpy has no bfloat16: ml_dtypes saves it as `'|V2'`, the two
/// bytes little-endian, and so does this crate.
pub(crate) const BF16: &str = "bf16";

/// A scalar kind given as its bits: a newtype struct of its own name over
/// an unsigned integer of its size. The one description of such a kind:
/// the write side (inference, encoding), the read side and `Dtype::of`
/// all take it from [`BITS`]. A new one (a float8 as ml_dtypes saves it,
/// `'|V1'`) is one more entry there.
#[derive(Debug)]
pub(crate) struct Bits {
    /// The newtype struct's name.
    pub(crate) name: &'static str,
    /// The numpy type its bits are stored in as they are: a float type in
    /// the file's byte order, a `V` type little-endian (as ml_dtypes).
    pub(crate) own: ScalarType,
    /// What it is, in messages: "half float".
    pub(crate) what: &'static str,
    /// Its value, for a dtype other than its own (converted exactly there,
    /// or refused).
    pub(crate) value: fn(u64) -> f64,
    /// Read from a dtype other than its own: whether its `Deserialize` is
    /// handed the number (`half::f16` takes floats), or the field as its
    /// bits (`half::bf16` from an integer field).
    pub(crate) reads_value: bool,
}

/// One kind, one name: two entries are equal when their names are.
impl PartialEq for Bits {
    fn eq(&self, other: &Bits) -> bool {
        self.name == other.name
    }
}
impl Eq for Bits {}

/// The kinds given as bits.
pub(crate) const BITS: &[Bits] = &[
    Bits {
        name: F16,
        own: ScalarType::Float(2),
        what: "half float",
        value: |bits| f16_bits_to_f64(bits as u16),
        reads_value: true,
    },
    Bits {
        name: BF16,
        own: ScalarType::Void(2),
        what: "bfloat16",
        // the upper half of an f32's bits
        value: |bits| f32_to_f64(f32::from_bits((bits as u32) << 16)),
        reads_value: false,
    },
];

/// The kind given as bits that a newtype struct's name marks.
#[inline]
pub(crate) fn bits(name: &str) -> Option<&'static Bits> {
    BITS.iter().find(|k| k.name == name)
}

/// Prefix of datetime64 tokens: `"$npy_serde::M8[ns]"`, `"$npy_serde::M8"` (generic).
pub(crate) const DATETIME_PREFIX: &str = "$npy_serde::M8";
/// Prefix of timedelta64 tokens: `"$npy_serde::m8[s]"`.
pub(crate) const TIMEDELTA_PREFIX: &str = "$npy_serde::m8";
/// [`crate::Bulk<T>`] and `#[serde(with = "npy_serde::bulk")]`: newtype over
/// the sequence of elements. No leading `$`: the write side passes it
/// through like any newtype (the bytes of `Vec<T>`); `::` keeps it apart
/// from every Rust type name.
pub(crate) const BULK: &str = "npy_serde::bulk";
/// The name [`crate::Bulk<T>`] and `#[serde(with = "npy_serde::bulk")]`
/// are written under: this prefix, then the element's numpy type and its
/// dims (`"f4,3"` for `[f32; 3]`, see [`bulk_elem`]), so that an empty one
/// still has a dtype. Transparent like [`BULK`].
pub(crate) const BULK_TYPED: &str = "npy_serde::bulk:";

/// The element a typed bulk name ([`BULK_TYPED`]) carries: its numpy type
/// code (`"f4"`) and the dims after the first axis (`[3]` for `[f32; 3]`).
/// `None` for any other name.
pub(crate) fn bulk_elem(name: &str) -> Option<(&str, Vec<u64>)> {
    let mut parts = name.strip_prefix(BULK_TYPED)?.split(',');
    let code = parts.next()?;
    let dims = parts
        .map(|d| d.parse().ok())
        .collect::<Option<Vec<u64>>>()?;
    Some((code, dims))
}

/// [`crate::NdArray`] and [`crate::NdView`]: an n-d array, newtype over
/// `{shape, order, data}`. This crate's reader answers it with the shape,
/// the order and the flat data (see `de::nd`). Written, the name may end in
/// the element's numpy type when it is a plain number (`":f8"`, see
/// [`nd_name`](crate::kinds::number::nd_name)): an empty array still has a dtype.
pub(crate) const NDARRAY: &str = "$npy_serde::ndarray";

/// The request for an n-d array's flat data, asked of the value the reader
/// offers for [`NDARRAY`]: a tuple struct whose length is the number of
/// trailing axes the element type absorbs (`[f32; 3]`: 1).
pub(crate) const NDDATA: &str = "$npy_serde::ndarray::data";

/// The struct name of ndarray's own serde form of an array (its feature
/// `serde`): `Array {v, dim, data}`, a version byte, the shape and the
/// flat data. No numpy array: refused on both sides ([`ndarray_form`]).
pub(crate) const NDARRAY_FORM: &str = "Array";
/// The fields of [`NDARRAY_FORM`], in ndarray's order.
pub(crate) const NDARRAY_FORM_FIELDS: [&str; 3] = ["v", "dim", "data"];

/// Refuses a read asking for ndarray's own serde form of an array (a
/// struct of this name and these fields): every deserializer's
/// `deserialize_struct` asks this first. The field count is compared
/// first: one compare for most structs, as a record's read checks it.
#[inline(always)]
pub(crate) fn refuse_ndarray_form(name: &str, fields: &[&str]) -> crate::Result<()> {
    if fields.len() == NDARRAY_FORM_FIELDS.len()
        && name == NDARRAY_FORM
        && fields == NDARRAY_FORM_FIELDS
    {
        return Err(ndarray_form(false));
    }
    Ok(())
}

/// The refusal of ndarray's own serde form of an array, written
/// (`writing`) or read: it would be a record `{v, dim, data}` of shape
/// `()`, not the array.
#[cold]
pub(crate) fn ndarray_form(writing: bool) -> crate::Error {
    let (what, fix) = if writing {
        (
            "is not written as a numpy array (it would be one record of fields v, dim and data)",
            "write NdArray::from(array) instead, or mark an Array field \
             #[serde(with = \"npy_serde::ndarray\")]",
        )
    } else {
        (
            "does not read numpy arrays",
            "read an NdArray<T> and convert it with into_ndarray() (NdArray::from converts \
             back), or mark an Array field #[serde(with = \"npy_serde::ndarray\")]",
        )
    };
    crate::Error::unsupported(format!(
        "ndarray's own serde form of an array (struct Array {{v, dim, data}}, from ndarray's \
         feature `serde`) {what}; {fix}"
    ))
}

/// What a newtype struct's name marks: the one reading of the names above
/// for every serializer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Special<'n> {
    /// [`COMPLEX`].
    Complex,
    /// [`PADDING`].
    Padding,
    /// A kind given as its bits ([`BITS`]).
    Bits(&'static Bits),
    /// A datetime64 token; the text after [`DATETIME_PREFIX`] (`"[ns]"`).
    Datetime(&'n str),
    /// A timedelta64 token; the text after [`TIMEDELTA_PREFIX`].
    Timedelta(&'n str),
    /// [`NDARRAY`]: an n-d array; the element's numpy type when the name
    /// carries one ([`nd_name`](crate::kinds::number::nd_name): `"f8"`), else `""`.
    NdArray(&'n str),
    /// Another name of this crate's (`"$npy_serde::..."`), unknown here.
    Unknown,
    /// Another crate's reserved name (`$` first, serde_json's `RawValue`).
    /// The walkers take it as an element, the encoders look through it.
    Foreign,
}

impl Special<'_> {
    /// The special type a newtype struct's name marks; `None` for an
    /// ordinary (transparent) newtype.
    pub(crate) fn of(name: &str) -> Option<Special<'_>> {
        match name {
            COMPLEX => Some(Special::Complex),
            PADDING => Some(Special::Padding),
            _ => (bits(name).map(Special::Bits))
                .or_else(|| {
                    name.strip_prefix(NDARRAY)
                        .and_then(nd_hint)
                        .map(Special::NdArray)
                })
                .or_else(|| name.strip_prefix(DATETIME_PREFIX).map(Special::Datetime))
                .or_else(|| name.strip_prefix(TIMEDELTA_PREFIX).map(Special::Timedelta))
                .or_else(|| name.starts_with("$npy_serde::").then_some(Special::Unknown))
                .or_else(|| name.starts_with('$').then_some(Special::Foreign)),
        }
    }

    /// The scalar type of an element newtype (a bit-pattern float, a
    /// datetime or a timedelta; an error for a time unit that does not
    /// parse), `None` for the other specials.
    pub(crate) fn scalar(self) -> Option<Result<ScalarType, &'static str>> {
        Some(match self {
            Special::Bits(kind) => Ok(kind.own),
            Special::Datetime(unit) => DatetimeUnit::parse(unit).map(ScalarType::Datetime),
            Special::Timedelta(unit) => DatetimeUnit::parse(unit).map(ScalarType::Timedelta),
            _ => return None,
        })
    }
}

/// Whether a newtype name marks one of this crate's special types (see
/// [`Special::of`]; not another crate's `$` name): the read side hands
/// these its own way, never as an ordinary newtype, and the serializer's
/// probe stops at them. The one test of it, so that every deserializer
/// knows the same names.
pub(crate) fn is_token(name: &str) -> bool {
    matches!(Special::of(name), Some(s) if !matches!(s, Special::Foreign))
}

/// The element type an n-d array's name carries after [`NDARRAY`]: `""`
/// or `":f8"` (as `"f8"`); `None` for any other name of that prefix.
fn nd_hint(rest: &str) -> Option<&str> {
    match rest.strip_prefix(':') {
        None if rest.is_empty() => Some(""),
        Some(code) if !code.is_empty() && code.bytes().all(|b| b.is_ascii_alphanumeric()) => {
            Some(code)
        }
        _ => None,
    }
}

/// Whether an n-d array's element code ([`nd_name`](crate::kinds::number::nd_name)) names complex numbers
/// (`c8`, `c16`): they serialize as `(re, im)` pairs, which only the exact
/// path writes as numpy's complex type, not the speculative pass.
pub(crate) fn nd_pairs(code: &str) -> bool {
    code.starts_with('c')
}

/// Whether a newtype of this name is one element to the walkers of the
/// outer axes (a special scalar, padding, or a reserved name), not a
/// transparent wrapper around more axes: `Special::of(name).is_some()`,
/// without the compares.
#[inline]
pub(crate) fn is_element(name: &str) -> bool {
    name.starts_with('$') || bits(name).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_classify() {
        assert_eq!(Special::of(COMPLEX), Some(Special::Complex));
        assert_eq!(Special::of(PADDING), Some(Special::Padding));
        assert!(
            matches!(Special::of(F16), Some(Special::Bits(k)) if k.own == ScalarType::Float(2))
        );
        assert!(
            matches!(Special::of(BF16), Some(Special::Bits(k)) if k.own == ScalarType::Void(2))
        );
        assert_eq!(
            Special::of("$npy_serde::M8[ns]"),
            Some(Special::Datetime("[ns]"))
        );
        assert_eq!(Special::of("$npy_serde::m8"), Some(Special::Timedelta("")));
        assert_eq!(Special::of("$npy_serde::x"), Some(Special::Unknown));
        assert_eq!(Special::of(NDARRAY), Some(Special::NdArray("")));
        assert_eq!(
            Special::of(crate::kinds::number::nd_name::<f64>()),
            Some(Special::NdArray("f8"))
        );
        assert_eq!(
            Special::of(crate::kinds::number::nd_name::<String>()),
            Some(Special::NdArray(""))
        );
        assert_eq!(Special::of(NDDATA), Some(Special::Unknown));
        assert_eq!(
            Special::of("$serde_json::private::RawValue"),
            Some(Special::Foreign)
        );
        assert_eq!(Special::of(BULK), None);
        assert_eq!(Special::of("npy_serde::bulk:f4,3"), None);
        assert!(!is_element("npy_serde::bulk:f4,3"));
        assert_eq!(bulk_elem("npy_serde::bulk:f4"), Some(("f4", vec![])));
        assert_eq!(
            bulk_elem("npy_serde::bulk:b1,3,4"),
            Some(("b1", vec![3, 4]))
        );
        assert_eq!(bulk_elem(BULK), None);
        assert_eq!(bulk_elem("npy_serde::bulk:f4,x"), None);
        assert_eq!(Special::of("Meters"), None);
        for name in [COMPLEX, F16, "$x", "$npy_serde::m8[s]"] {
            assert!(is_element(name));
        }
        for name in [
            COMPLEX,
            PADDING,
            F16,
            BF16,
            "$x",
            "$npy_serde::M8",
            "Meters",
            BULK,
            "",
        ] {
            assert_eq!(is_element(name), Special::of(name).is_some());
        }
        assert!(!is_element("Meters") && !is_element(BULK));
        assert!(is_token(F16) && is_token("$npy_serde::x"));
        assert!(!is_token("$x") && !is_token("Meters"));
    }
}
