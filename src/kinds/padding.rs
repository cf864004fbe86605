//! [`Padding<N>`]: explicit gap bytes in a record.
//!
//! numpy records may have unnamed gaps (`('', '|V4')`), for example to match a
//! C struct. A `Padding<N>` field in a Rust struct becomes such a gap when
//! written, and reading skips the gap (or accepts that the field is missing).
//! Other serde formats see a newtype over the number `N`.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::fmt;

use serde::de::{Deserialize, Deserializer, IgnoredAny, SeqAccess, Visitor};
use serde::ser::{Serialize, Serializer};

use crate::kinds::special::PADDING;

/// `N` bytes of padding inside a record: written as zero bytes and shown by
/// numpy as `('', '|VN')`, not as a field.
///
/// ```
/// use npy_serde::Padding;
/// #[derive(serde::Serialize)]
/// struct Rec {
///     a: u8,
///     _pad: Padding<3>,
///     b: u32,
/// }
/// let bytes = npy_serde::to_vec(&vec![Rec { a: 1, _pad: Padding, b: 2 }]).unwrap();
/// let text = String::from_utf8_lossy(&bytes[10..128]);
/// assert!(text.contains("[('a', '|u1'), ('', '|V3'), ('b', '<u4')]"));
/// assert_eq!(&bytes[128..], &[1, 0, 0, 0, 2, 0, 0, 0]);
/// ```
#[derive(Default, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Padding<const N: usize>;

impl<const N: usize> Serialize for Padding<N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_newtype_struct(PADDING, &(N as u64))
    }
}

impl<'de, const N: usize> Deserialize<'de> for Padding<N> {
    /// Accepts anything through `deserialize_option`: a missing field (serde
    /// derive asks for an option and gets none), none, unit or any value.
    /// Inside `visit_some` it asks for the `$npy_serde::padding` newtype and
    /// takes exactly `N` elements if answered with a sequence: that is how
    /// `Dtype::of` measures `N` (see the tracer's padding protocol).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_option(PaddingVisitor::<N>)
    }
}

/// Any padding value: none, unit, a number or bytes, or inside `visit_some`
/// the `$npy_serde::padding` newtype, whatever it holds ignored; a sequence
/// gives up exactly `N` elements (the tracer counts them).
struct PaddingVisitor<const N: usize>;

/// The visits of a value that is padding whatever it holds.
macro_rules! ignore_value {
    ($($visit:ident($($ty:ty)?))*) => {$(
        fn $visit<E: serde::de::Error>(self, $(_: $ty)?) -> Result<Self::Value, E> {
            Ok(Padding)
        }
    )*};
}

impl<'de, const N: usize> Visitor<'de> for PaddingVisitor<N> {
    type Value = Padding<N>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{N} bytes of padding")
    }
    ignore_value!(visit_none() visit_unit() visit_u64(u64) visit_i64(i64) visit_bytes(&[u8]));
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_newtype_struct(PADDING, self)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        IgnoredAny::deserialize(d)?;
        Ok(Padding)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        for _ in 0..N {
            if seq.next_element::<IgnoredAny>()?.is_none() {
                break;
            }
        }
        Ok(Padding)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_roundtrip() {
        let s = serde_json::to_string(&Padding::<4>).unwrap();
        assert_eq!(s, "4");
        let p: Padding<4> = serde_json::from_str("4").unwrap();
        assert_eq!(p, Padding);
        let p: Padding<4> = serde_json::from_str("null").unwrap();
        assert_eq!(p, Padding);
        let p: Padding<2> = serde_json::from_str("[0, 0]").unwrap();
        assert_eq!(p, Padding);
    }
}
