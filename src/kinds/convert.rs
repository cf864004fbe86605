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
    let b = u64::from(v.to_bits());
    f64::from_bits(((b & 0x8000_0000) << 32) | (0x7ff << 52) | ((b & 0x007f_ffff) << 29))
}

/// A NaN's sign bit and mantissa bits (payload including the quiet bit),
/// narrowed to a mantissa of `bits` bits; `None` when a dropped bit is set.
fn nan_narrowed(v: f64, bits: u32) -> Option<(bool, u64)> {
    let man = v.to_bits() & ((1 << 52) - 1);
    // bits is 10 or 23: the shift is 42 or 29
    let drop = 52_u32.wrapping_sub(bits);
    (man & ((1_u64 << drop).wrapping_sub(1)) == 0).then_some((v.is_sign_negative(), man >> drop))
}

/// `f64` as `f32` when exact (infinities stay; a NaN only when its payload
/// fits, see the module docs).
#[inline]
pub(crate) fn f64_to_f32_exact(v: f64) -> Option<f32> {
    if v.is_nan() {
        let (neg, man) = nan_narrowed(v, 23)?;
        let sign = if neg { 0x8000_0000 } else { 0 };
        // man < 2^23
        return Some(f32::from_bits(sign | 0x7f80_0000 | man as u32));
    }
    let f = v as f32;
    (f64::from(f) == v).then_some(f)
}

/// The bits of the IEEE binary16 equal to `v`, `None` if `v` is not
/// exactly representable (a NaN only when its payload fits, see the module
/// docs).
pub(crate) fn f64_to_f16_bits_exact(v: f64) -> Option<u16> {
    let sign: u16 = if v.is_sign_negative() { 0x8000 } else { 0 };
    if v.is_nan() {
        let (_, man) = nan_narrowed(v, 10)?;
        // man < 2^10
        return Some(sign | 0x7c00 | man as u16);
    }
    if v.is_infinite() {
        return Some(sign | 0x7c00);
    }
    let a = v.abs();
    if a == 0.0 {
        return Some(sign);
    }
    if a > 65504.0 {
        return None;
    }
    // Unbiased binary exponent of a (a is finite and non-zero here).
    let bits = a.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    if biased == 0 {
        return None; // f64 subnormal: far below the f16 range
    }
    // biased is 1..=2047 and a <= 65504: e is -1022..=15, and the
    // exponent arithmetic below stays within -1022..=1032
    let e = biased.wrapping_sub(1023);
    if e >= -14 {
        // normal f16: a = q * 2^(e-10), q in [1024, 2047]
        let q = a * 2f64.powi(10_i32.wrapping_sub(e));
        if q.fract() != 0.0 {
            return None;
        }
        let q = q as u16;
        let exp = u16::try_from(e.wrapping_add(15)).ok()?;
        Some(sign | (exp << 10) | q.checked_sub(1024)?)
    } else {
        // subnormal f16: a = q * 2^-24, q < 1024
        let q = a * 2f64.powi(24);
        if q.fract() != 0.0 || q >= 1024.0 {
            return None;
        }
        Some(sign | q as u16)
    }
}

/// The value of IEEE binary16 bits (a NaN's payload kept).
pub(crate) fn f16_bits_to_f64(bits: u16) -> f64 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((bits >> 10) & 0x1f);
    let frac = f64::from(bits & 0x3ff);
    match exp {
        0 => sign * frac * 2f64.powi(-24),
        31 if frac == 0.0 => sign * f64::INFINITY,
        31 => f64::from_bits(
            (u64::from(bits & 0x8000) << 48) | (0x7ff << 52) | (u64::from(bits & 0x3ff) << 42),
        ),
        // exp is 1..=30 here
        _ => sign * (1024.0 + frac) * 2f64.powi(exp.wrapping_sub(25)),
    }
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
