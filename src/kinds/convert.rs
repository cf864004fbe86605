//! Exact numeric conversions used when a value is written into a dtype of
//! another type: integers into floats, `f64` into `f32`/`f16`, datetime
//! units. Every function returns `None` when the value would change.
//!
//! NaNs are converted by their bits, never by the CPU (which quiets a
//! signalling NaN): widening keeps the payload, sign and signalling bit;
//! narrowing is exact when the payload's low bits that the narrower type
//! lacks are zero (every NaN widened from that type) and `None` otherwise.

use crate::error::{Error, Result};
use crate::format::dtype::DatetimeUnit;
use crate::kinds::ieee::{F16, F32, F64};
use crate::kinds::timeconv::Refusal;

/// `i64` as `f64` when exact. (`i64::MAX as f64` rounds up to 2^63, which
/// would saturate back to `i64::MAX`, so 2^63 is excluded explicitly.)
pub(crate) fn i64_to_f64_exact(v: i64) -> Option<f64> {
    let f = v as f64;
    (f != 9_223_372_036_854_775_808.0 && f as i64 == v).then_some(f)
}

/// `u64` as `f64` when exact.
pub(crate) fn u64_to_f64_exact(v: u64) -> Option<f64> {
    let f = v as f64;
    (f != 18_446_744_073_709_551_616.0 && f as u64 == v).then_some(f)
}

/// `f32` as `f64`, a NaN's payload, sign and signalling bit kept.
#[inline]
pub(crate) fn f32_to_f64(v: f32) -> f64 {
    if !v.is_nan() {
        return f64::from(v);
    }
    f64::from_bits(F64.encode(F32.decode(v.to_bits().into())))
}

/// `f64` as `f32` when exact (infinities stay; a NaN only when its payload
/// fits, see the module docs).
#[inline]
pub(crate) fn f64_to_f32_exact(v: f64) -> Option<f32> {
    let f = if v.is_nan() {
        // by its bits: the fraction's top 23 bits
        f32::from_bits(F32.encode(F64.decode(v.to_bits().into())) as u32)
    } else {
        v as f32
    };
    (f32_to_f64(f).to_bits() == v.to_bits()).then_some(f)
}

/// The bits of the IEEE binary16 equal to `v`, `None` if `v` is not
/// exactly representable (a NaN only when its payload fits, see the module
/// docs).
pub(crate) fn f64_to_f16_bits_exact(v: f64) -> Option<u16> {
    let h = F16.encode(F64.decode(v.to_bits().into())) as u16;
    (f16_bits_to_f64(h).to_bits() == v.to_bits()).then_some(h)
}

/// The value of IEEE binary16 bits (a NaN's payload kept).
pub(crate) fn f16_bits_to_f64(bits: u16) -> f64 {
    f64::from_bits(F64.encode(F16.decode(bits.into())))
}

/// [`timeconv::convert`](crate::kinds::timeconv::convert) with the write side's
/// messages (they name both units: the value's and the dtype's).
pub(crate) fn convert_time(
    count: i64,
    from: DatetimeUnit,
    to: DatetimeUnit,
    datetime: bool,
) -> Result<i64> {
    crate::kinds::timeconv::convert(count, from, to, datetime).map_err(|r| match r {
        Refusal::Generic => Error::mismatch(format!(
            "{count} cannot be converted from unit {from} to unit {to}: the generic unit holds only NaT"
        )),
        Refusal::NoFixedLength => Error::unsupported(format!(
            "conversion of {count} from unit {from} to unit {to} (a timedelta in years or months has no fixed length)"
        )),
        Refusal::Inexact => Error::mismatch(format!(
            "{count} in unit {from} is not a whole number of unit {to}"
        )),
        Refusal::Overflow => Error::mismatch(format!(
            "{count} in unit {from} overflows 64 bits in unit {to}"
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_exact() {
        assert_eq!(f64_to_f16_bits_exact(1.0), Some(0x3c00));
        assert_eq!(f64_to_f16_bits_exact(-2.0), Some(0xc000));
        assert_eq!(f64_to_f16_bits_exact(65504.0), Some(0x7bff));
        assert_eq!(f64_to_f16_bits_exact(65505.0), None);
        assert_eq!(f64_to_f16_bits_exact(0.1), None);
        assert_eq!(f64_to_f16_bits_exact(2f64.powi(-24)), Some(1));
        assert_eq!(f64_to_f16_bits_exact(2f64.powi(-25)), None);
        assert_eq!(f64_to_f16_bits_exact(-0.0), Some(0x8000));
        for bits in 0..=u16::MAX {
            let v = f16_bits_to_f64(bits);
            if !v.is_nan() {
                assert_eq!(f64_to_f16_bits_exact(v), Some(bits), "{bits:#x}");
            }
        }
    }

    #[test]
    fn nan_payloads_exact_or_refused() {
        // every f16 NaN survives f16 -> f64 -> f16, and f16 -> f32 -> f64 -> f16
        for bits in (0x7c01..=0x7fff_u16).chain(0xfc01..=0xffff) {
            let v = f16_bits_to_f64(bits);
            assert!(v.is_nan());
            assert_eq!(f64_to_f16_bits_exact(v), Some(bits), "{bits:#x}");
            let f = f64_to_f32_exact(v).unwrap();
            assert_eq!(
                f64_to_f16_bits_exact(f32_to_f64(f)),
                Some(bits),
                "{bits:#x}"
            );
        }
        // f32 NaNs, signalling included, survive f32 -> f64 -> f32
        for bits in [
            0x7f80_0001_u32,
            0xff80_0001,
            0x7fc0_0000,
            0x7fff_ffff,
            0x7fa0_1234,
        ] {
            let v = f32_to_f64(f32::from_bits(bits));
            assert!(v.is_nan());
            assert_eq!(
                f64_to_f32_exact(v).map(f32::to_bits),
                Some(bits),
                "{bits:#x}"
            );
        }
        // a payload the narrower type cannot hold is refused
        let sig = f64::from_bits(0x7ff0_0000_0000_0001);
        assert_eq!(f64_to_f32_exact(sig), None);
        assert_eq!(f64_to_f16_bits_exact(sig), None);
        assert_eq!(
            f64_to_f16_bits_exact(f32_to_f64(f32::from_bits(0x7f80_0001))),
            None
        );
        assert_eq!(f64_to_f16_bits_exact(f64::NAN), Some(0x7e00));
        assert_eq!(f64_to_f16_bits_exact(-f64::NAN), Some(0xfe00));
        assert_eq!(
            f64_to_f32_exact(f64::NAN).map(f32::to_bits),
            Some(0x7fc0_0000)
        );
    }

    #[test]
    fn int_to_float() {
        assert_eq!(i64_to_f64_exact(i64::MAX), None);
        assert_eq!(
            i64_to_f64_exact(i64::MIN),
            Some(-9_223_372_036_854_775_808.0)
        );
        assert_eq!(i64_to_f64_exact((1 << 53) + 1), None);
        assert_eq!(u64_to_f64_exact(u64::MAX), None);
        assert_eq!(u64_to_f64_exact(1 << 63), Some(9_223_372_036_854_775_808.0));
    }
}
