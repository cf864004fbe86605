//! Exact numeric conversions used when a value is written into a dtype of
//! another type: integers into floats, `f64` into `f32`/`f16`, datetime
//! units. Every function returns `None` when the value would change.

use crate::dtype::{DatetimeUnit, TimeUnit};
use crate::error::{Error, Result};

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

/// `f64` as `f32` when exact (NaN stays NaN, infinities stay).
#[inline]
pub(crate) fn f64_to_f32_exact(v: f64) -> Option<f32> {
    let f = v as f32;
    (f64::from(f) == v || v.is_nan()).then_some(f)
}

/// The bits of the IEEE binary16 equal to `v`, `None` if `v` is not
/// exactly representable. NaN becomes the quiet NaN `0x7e00` with `v`'s sign.
pub(crate) fn f64_to_f16_bits_exact(v: f64) -> Option<u16> {
    let sign: u16 = if v.is_sign_negative() { 0x8000 } else { 0 };
    if v.is_nan() {
        return Some(sign | 0x7e00);
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

/// The value of IEEE binary16 bits.
pub(crate) fn f16_bits_to_f64(bits: u16) -> f64 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((bits >> 10) & 0x1f);
    let frac = f64::from(bits & 0x3ff);
    match exp {
        0 => sign * frac * 2f64.powi(-24),
        31 if frac == 0.0 => sign * f64::INFINITY,
        31 => f64::NAN.copysign(sign),
        // exp is 1..=30 here
        _ => sign * (1024.0 + frac) * 2f64.powi(exp.wrapping_sub(25)),
    }
}

/// The count of NaT.
pub(crate) const NAT: i64 = i64::MIN;

/// Length of one base unit: attoseconds for the linear units, months for
/// years and months (which have no fixed length in seconds).
fn unit_size(u: TimeUnit) -> Option<(bool, i128)> {
    const E3: i128 = 1_000;
    Some(match u {
        TimeUnit::Generic => return None,
        TimeUnit::Years => (true, 12),
        TimeUnit::Months => (true, 1),
        TimeUnit::Attoseconds => (false, 1),
        TimeUnit::Femtoseconds => (false, E3),
        TimeUnit::Picoseconds => (false, E3 * E3),
        TimeUnit::Nanoseconds => (false, E3 * E3 * E3),
        TimeUnit::Microseconds => (false, E3 * E3 * E3 * E3),
        TimeUnit::Milliseconds => (false, E3 * E3 * E3 * E3 * E3),
        TimeUnit::Seconds => (false, E3 * E3 * E3 * E3 * E3 * E3),
        TimeUnit::Minutes => (false, 60 * E3 * E3 * E3 * E3 * E3 * E3),
        TimeUnit::Hours => (false, 3_600 * E3 * E3 * E3 * E3 * E3 * E3),
        TimeUnit::Days => (false, 86_400 * E3 * E3 * E3 * E3 * E3 * E3),
        TimeUnit::Weeks => (false, 7 * 86_400 * E3 * E3 * E3 * E3 * E3 * E3),
    })
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    // checked_rem stops at b == 0 (and at i128::MIN % -1, which the
    // positive unit sizes never reach)
    while let Some(t) = a.checked_rem(b) {
        a = b;
        b = t;
    }
    a
}

/// Converts a count from one unit to another exactly. NaT stays NaT; the
/// generic unit holds only NaT. For datetimes (`datetime: true`), years and
/// months convert to and from days and shorter units through the proleptic
/// Gregorian calendar, as numpy does (exact only on the first of a month or
/// year); timedeltas in years or months do not convert into fixed-length
/// units (numpy refuses that too).
pub(crate) fn convert_time(
    count: i64,
    from: DatetimeUnit,
    to: DatetimeUnit,
    datetime: bool,
) -> Result<i64> {
    let cal = |u: DatetimeUnit| matches!(u.unit, TimeUnit::Years | TimeUnit::Months);
    let generic = |u: DatetimeUnit| u.unit == TimeUnit::Generic;
    if !datetime
        || count == NAT
        || from == to
        || generic(from)
        || generic(to)
        || cal(from) == cal(to)
    {
        return convert_linear(count, from, to);
    }
    let months = DatetimeUnit::new(TimeUnit::Months);
    let days = DatetimeUnit::new(TimeUnit::Days);
    let inexact = || {
        Error::mismatch(format!(
            "{count} in unit {from} is not a whole number of unit {to}"
        ))
    };
    if cal(from) {
        // months since 1970-01 -> days since 1970-01-01
        let m = convert_linear(count, from, months)?;
        // |m / 12| < 2^60 and the remainder is 0..12: no overflow
        let year = m.div_euclid(12).wrapping_add(1970);
        let month = m.rem_euclid(12).wrapping_add(1);
        let d = days_from_civil(year, month, 1).ok_or_else(inexact)?;
        convert_linear(d, days, to)
    } else {
        let d = convert_linear(count, from, days).map_err(|_| inexact())?;
        let (y, m, day) = civil_from_days(d);
        if day != 1 {
            return Err(inexact());
        }
        let months_since = y
            .checked_sub(1970)
            .and_then(|v| v.checked_mul(12))
            .and_then(|v| v.checked_add(m.checked_sub(1)?))
            .ok_or_else(inexact)?;
        convert_linear(months_since, months, to)
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
/// `days_from_civil`).
///
/// Bounds: callers pass `1 <= m <= 12` and `1 <= d <= 31`; `y` may be any
/// `i64` (its steps are checked). Then `mp` is `0..12`, `doy` is `0..397`,
/// `yoe` is `0..400`, `doe` is `0..146_097`: the unchecked steps stay far
/// inside `i64`.
#[allow(clippy::arithmetic_side_effects)]
fn days_from_civil(y: i64, m: i64, d: i64) -> Option<i64> {
    let y = if m <= 2 { y.checked_sub(1)? } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era.checked_mul(146_097)?.checked_add(doe - 719_468)
}

/// The proleptic Gregorian date of a day count since 1970-01-01.
///
/// Bounds: in `i128`, `z + 719_468` cannot overflow for an `i64` `z`;
/// `|era| < 2^47`, `doe` is `0..146_097`, `yoe` `0..400`, `doy` `0..366`,
/// `mp` `0..12`, and `era * 400 < 2^56`: nothing here can overflow (the
/// divisors are nonzero constants).
#[allow(clippy::arithmetic_side_effects)]
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = i128::from(z) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i128::from(m <= 2);
    (i64::try_from(y).unwrap_or(i64::MAX), m as i64, d as i64)
}

/// Converts between units of the same kind (both fixed-length, or both
/// years/months) by their ratio.
fn convert_linear(count: i64, from: DatetimeUnit, to: DatetimeUnit) -> Result<i64> {
    if count == NAT || from == to {
        return Ok(count);
    }
    if count == NAT || from == to {
        return Ok(count);
    }
    let (Some((cal_from, size_from)), Some((cal_to, size_to))) =
        (unit_size(from.unit), unit_size(to.unit))
    else {
        return Err(Error::mismatch(format!(
            "{count} cannot be converted from unit {from} to unit {to}: the generic unit holds only NaT"
        )));
    };
    if cal_from != cal_to {
        return Err(Error::unsupported(format!(
            "conversion of {count} from unit {from} to unit {to} (a timedelta in years or months has no fixed length)"
        )));
    }
    // sizes are below 2^80 and multipliers below 2^32: the products fit
    // an i128 with room to spare
    let num = size_from.wrapping_mul(i128::from(from.multiplier));
    let den = size_to.wrapping_mul(i128::from(to.multiplier));
    let g = gcd(num, den).max(1);
    let c = i128::from(count);
    let inexact = || {
        Error::mismatch(format!(
            "{count} in unit {from} is not a whole number of unit {to}"
        ))
    };
    // g >= 1 divides both: these never fail
    let (Some(num), Some(den)) = (num.checked_div(g), den.checked_div(g)) else {
        return Err(inexact());
    };
    // None for den == 0, which cannot hold the count either
    if c.checked_rem(den) != Some(0) {
        return Err(inexact());
    }
    c.checked_div(den)
        .and_then(|q| q.checked_mul(num))
        .and_then(|v| i64::try_from(v).ok())
        .filter(|&v| v != NAT)
        .ok_or_else(|| {
            Error::mismatch(format!(
                "{count} in unit {from} overflows 64 bits in unit {to}"
            ))
        })
}

/// Parses the unit part of a datetime token after its prefix: `""` (generic),
/// `"[ns]"`, `"[25s]"`.
pub(crate) fn parse_token_unit(rest: &str) -> Option<DatetimeUnit> {
    if rest.is_empty() {
        return Some(DatetimeUnit::new(TimeUnit::Generic));
    }
    let inner = rest.strip_prefix('[')?.strip_suffix(']')?;
    let digits = inner.bytes().take_while(u8::is_ascii_digit).count();
    let (num, code) = inner.split_at(digits);
    let multiplier = if num.is_empty() { 1 } else { num.parse().ok()? };
    if multiplier == 0 {
        return None;
    }
    Some(DatetimeUnit {
        unit: TimeUnit::from_code(code)?,
        multiplier,
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

    #[test]
    fn time_units() {
        let u = |s: &str| parse_token_unit(s).unwrap();
        let convert_time = |c, a, b| super::convert_time(c, a, b, false);
        assert_eq!(convert_time(3, u("[s]"), u("[ms]")).unwrap(), 3000);
        assert_eq!(convert_time(3000, u("[ms]"), u("[s]")).unwrap(), 3);
        assert!(convert_time(3001, u("[ms]"), u("[s]")).is_err());
        assert_eq!(convert_time(2, u("[Y]"), u("[M]")).unwrap(), 24);
        assert!(convert_time(2, u("[Y]"), u("[D]")).is_err());
        assert_eq!(convert_time(NAT, u("[Y]"), u("[D]")).unwrap(), NAT);
        assert_eq!(convert_time(4, u("[25s]"), u("[s]")).unwrap(), 100);
        assert!(convert_time(i64::MAX, u("[W]"), u("[as]")).is_err());
        assert_eq!(convert_time(1, u("[W]"), u("[D]")).unwrap(), 7);
        assert!(convert_time(1, u(""), u("[D]")).is_err());
        assert_eq!(parse_token_unit("[x]"), None);
    }
}

#[cfg(test)]
mod calendar_tests {
    use super::*;

    fn u(s: &str) -> DatetimeUnit {
        parse_token_unit(s).unwrap()
    }

    #[test]
    fn datetime_years_and_months_use_the_calendar() {
        // numpy: np.datetime64(1, 'Y').astype('M8[D]') == 365
        assert_eq!(convert_time(1, u("[Y]"), u("[D]"), true).unwrap(), 365);
        assert_eq!(convert_time(2, u("[Y]"), u("[D]"), true).unwrap(), 730);
        assert_eq!(convert_time(3, u("[Y]"), u("[D]"), true).unwrap(), 1096);
        assert_eq!(convert_time(-1, u("[M]"), u("[D]"), true).unwrap(), -31);
        assert_eq!(convert_time(1096, u("[D]"), u("[Y]"), true).unwrap(), 3);
        assert!(convert_time(1097, u("[D]"), u("[Y]"), true).is_err());
        assert_eq!(convert_time(59, u("[D]"), u("[M]"), true).unwrap(), 2);
        assert_eq!(
            convert_time(59 * 86400, u("[s]"), u("[M]"), true).unwrap(),
            2
        );
        assert!(convert_time(59 * 86400 + 1, u("[s]"), u("[M]"), true).is_err());
        assert!(convert_time(1, u("[Y]"), u("[D]"), false).is_err());
        for d in [-800_000i64, -1, 0, 1, 365, 11_000, 2_932_896] {
            let (y, m, day) = civil_from_days(d);
            assert_eq!(days_from_civil(y, m, day), Some(d));
        }
    }

    /// The extremes of count and multiplier between every pair of units:
    /// an error or a value, never an overflow (tests run with overflow
    /// checks on, so a wrapped intermediate would panic here).
    #[test]
    fn extremes_never_overflow() {
        let counts = [i64::MIN + 1, -1, 0, 1, i64::MAX];
        for from in TimeUnit::ALL {
            for to in TimeUnit::ALL {
                for fm in [1, 7, u32::MAX] {
                    for tm in [1, 7, u32::MAX] {
                        for count in counts {
                            for datetime in [true, false] {
                                let f = DatetimeUnit {
                                    unit: from,
                                    multiplier: fm,
                                };
                                let t = DatetimeUnit {
                                    unit: to,
                                    multiplier: tm,
                                };
                                let _ = convert_time(count, f, t, datetime);
                            }
                        }
                    }
                }
            }
        }
        for d in [i64::MIN, i64::MAX] {
            let _ = civil_from_days(d);
        }
        assert!(convert_time(i64::MAX, u("[M]"), u("[D]"), true).is_err());
        assert!(convert_time(i64::MIN + 1, u("[D]"), u("[Y]"), true).is_err());
    }
}
