//! Newtype-struct names that mark the crate's special types.
//!
//! serde has no data model for complex numbers, datetimes, half floats or
//! padding, so those types serialize as a newtype struct with a reserved name
//! (the trick serde_json's `RawValue` uses). The serializer and deserializer
//! recognise the names and map them to numpy's `c`, `M8`/`m8`, `f2` and `V`
//! types (`V2` for bfloat16, as ml_dtypes writes it). Other formats see an ordinary newtype and stay unaffected.

// Constants only; the lint keeps it that way.
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

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
/// Prefix of datetime64 tokens: `"$npy_serde::M8[ns]"`, `"$npy_serde::M8"` (generic).
pub(crate) const DATETIME_PREFIX: &str = "$npy_serde::M8";
/// Prefix of timedelta64 tokens: `"$npy_serde::m8[s]"`.
pub(crate) const TIMEDELTA_PREFIX: &str = "$npy_serde::m8";
/// [`crate::Bulk<T>`] and `#[serde(with = "npy_serde::bulk")]`: newtype over
/// the sequence of elements. No leading `$`: the write side passes it
/// through like any newtype (the bytes of `Vec<T>`); `::` keeps it apart
/// from every Rust type name.
pub(crate) const BULK: &str = "npy_serde::bulk";
