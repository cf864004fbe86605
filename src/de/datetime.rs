//! Exact conversion of datetime64/timedelta64 counts between units, for the
//! `"$npy_serde::M8[unit]"` / `"$npy_serde::m8[unit]"` tokens.
//!
//! Fixed-length units (weeks down to attoseconds) convert by ratio; years
//! and months convert into each other by 12; a datetime in years or months
//! converts to and from the fixed units through the calendar (the instant is
//! the start of that month). A timedelta in years or months has no fixed
//! length and converts only to years or months. Anything inexact is an
//! error; NaT stays NaT.

use crate::dtype::{DatetimeUnit, TimeUnit};
use crate::special::{DATETIME_PREFIX, TIMEDELTA_PREFIX};

const NAT: i64 = i64::MIN;
/// Attoseconds per day.
const DAY_AS: i128 = 86_400 * 1_000_000_000_000_000_000;

/// `"$npy_serde::M8[25s]"` -> (is datetime, unit). `None` if not a token.
pub(crate) fn parse_token(name: &str) -> Option<(bool, DatetimeUnit)> {
    let (datetime, rest) = if let Some(r) = name.strip_prefix(DATETIME_PREFIX) {
        (true, r)
    } else {
        (false, name.strip_prefix(TIMEDELTA_PREFIX)?)
    };
    if rest.is_empty() {
        return Some((datetime, DatetimeUnit::new(TimeUnit::Generic)));
    }
    let inner = rest.strip_prefix('[')?.strip_suffix(']')?;
    let digits = inner.bytes().take_while(u8::is_ascii_digit).count();
    let (num, code) = inner.split_at_checked(digits)?;
    let multiplier = if num.is_empty() { 1 } else { num.parse().ok()? };
    let unit = TimeUnit::from_code(code)?;
    (multiplier > 0).then_some((datetime, DatetimeUnit { unit, multiplier }))
}

/// Attoseconds per unit, or months per unit for `Y`/`M` (the bool says
/// which). `None` for the generic unit.
fn factor(unit: TimeUnit) -> Option<(bool, i128)> {
    const S: i128 = 1_000_000_000_000_000_000;
    Some(match unit {
        TimeUnit::Generic => return None,
        TimeUnit::Years => (true, 12),
        TimeUnit::Months => (true, 1),
        TimeUnit::Weeks => (false, 7 * 86_400 * S),
        TimeUnit::Days => (false, 86_400 * S),
        TimeUnit::Hours => (false, 3_600 * S),
        TimeUnit::Minutes => (false, 60 * S),
        TimeUnit::Seconds => (false, S),
        TimeUnit::Milliseconds => (false, S / 1_000),
        TimeUnit::Microseconds => (false, S / 1_000_000),
        TimeUnit::Nanoseconds => (false, S / 1_000_000_000),
        TimeUnit::Picoseconds => (false, 1_000_000),
        TimeUnit::Femtoseconds => (false, 1_000),
        TimeUnit::Attoseconds => (false, 1),
    })
}

/// Days since 1970-01-01 of the first day of month `m` (0-based) of year `y`.
///
/// Bounds: callers pass `|y| < 2^96` (a month count of at most
/// `2^63 * u32::MAX * 12 < 2^99`, divided by 12) and `0 <= m0 < 12`. Then
/// `|era| < 2^88`, `0 <= yoe < 400`, `0 <= mp < 12`, `doe < 146_097`, and
/// the largest intermediate, `era * 146_097`, stays below `2^106`: nothing
/// here can overflow an `i128` (divisors are nonzero constants).
#[allow(clippy::arithmetic_side_effects)]
fn days_from_civil(y: i128, m0: i128) -> i128 {
    // Howard Hinnant's algorithm, day = 1.
    let m = m0 + 1;
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// (year, 0-based month, 1-based day) of a day count since 1970-01-01.
///
/// Bounds: callers pass `|z| < 2^52` (any `i128` of attoseconds divided by
/// the attoseconds of a day, `> 2^76`). Then `|era| < 2^36`, `doe` lies in
/// `0..146_097`, `yoe` in `0..400`, `doy` in `0..366`, `mp` in `0..12`, and the
/// largest intermediate, `era * 146_097`, stays below `2^54`: nothing here
/// can overflow an `i128` (divisors are nonzero constants).
#[allow(clippy::arithmetic_side_effects)]
fn civil_from_days(z: i128) -> (i128, i128, i128) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m - 1, d)
}

/// Converts `count` in `from` units exactly into `to` units. The error is a
/// message fragment completed by the caller with the file's type.
pub(crate) fn convert(
    count: i64,
    from: DatetimeUnit,
    to: DatetimeUnit,
    datetime: bool,
) -> Result<i64, String> {
    if count == NAT || from == to {
        return Ok(count);
    }
    let inexact = || format!("value {count} is not a whole number of {}", unit_name(to));
    let out_of_range = || format!("value {count} is out of range in {}", unit_name(to));
    let (Some((from_months, ff)), Some((to_months, tf))) = (factor(from.unit), factor(to.unit))
    else {
        return Err(format!(
            "value {count} cannot be converted between the generic unit and {}",
            unit_name(to)
        ));
    };
    let base = i128::from(count)
        .checked_mul(i128::from(from.multiplier))
        .and_then(|v| v.checked_mul(ff))
        .ok_or_else(out_of_range)?;
    // `base` is in months or attoseconds; bring it to the target's base.
    let base = match (from_months, to_months) {
        (true, true) | (false, false) => base,
        _ if !datetime => {
            return Err(format!(
                "value {count} cannot be converted exactly: years and months have no fixed length"
            ));
        }
        (true, false) => {
            // |base| < 2^99 months (count * u32 multiplier * 12, checked
            // above), so the year is within days_from_civil's bounds
            let year = base
                .div_euclid(12)
                .checked_add(1970)
                .ok_or_else(out_of_range)?;
            let days = days_from_civil(year, base.rem_euclid(12));
            days.checked_mul(DAY_AS).ok_or_else(out_of_range)?
        }
        (false, true) => {
            if base.rem_euclid(DAY_AS) != 0 {
                return Err(inexact());
            }
            let (y, m, d) = civil_from_days(base.div_euclid(DAY_AS));
            if d != 1 {
                return Err(inexact());
            }
            y.checked_sub(1970)
                .and_then(|y| y.checked_mul(12))
                .and_then(|months| months.checked_add(m))
                .ok_or_else(out_of_range)?
        }
    };
    let div = i128::from(to.multiplier)
        .checked_mul(tf)
        .ok_or_else(out_of_range)?;
    if div == 0 || base.rem_euclid(div) != 0 {
        return Err(inexact());
    }
    match i64::try_from(base.div_euclid(div)) {
        Ok(v) if v != NAT => Ok(v),
        _ => Err(out_of_range()),
    }
}

fn unit_name(u: DatetimeUnit) -> String {
    let s = u.to_string();
    if s.is_empty() {
        "the generic unit".into()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(unit: TimeUnit) -> DatetimeUnit {
        DatetimeUnit::new(unit)
    }

    #[test]
    fn tokens() {
        assert_eq!(
            parse_token("$npy_serde::M8[ns]"),
            Some((true, u(TimeUnit::Nanoseconds)))
        );
        assert_eq!(
            parse_token("$npy_serde::m8[25s]"),
            Some((
                false,
                DatetimeUnit {
                    unit: TimeUnit::Seconds,
                    multiplier: 25
                }
            ))
        );
        assert_eq!(
            parse_token("$npy_serde::M8"),
            Some((true, u(TimeUnit::Generic)))
        );
        assert_eq!(parse_token("$npy_serde::M8[x]"), None);
        assert_eq!(parse_token("$npy_serde::complex"), None);
    }

    #[test]
    fn ratio_units() {
        use TimeUnit::*;
        assert_eq!(convert(3, u(Seconds), u(Milliseconds), true), Ok(3000));
        assert_eq!(convert(3000, u(Milliseconds), u(Seconds), true), Ok(3));
        assert!(convert(3001, u(Milliseconds), u(Seconds), true).is_err());
        assert_eq!(convert(2, u(Weeks), u(Days), false), Ok(14));
        assert_eq!(convert(NAT, u(Seconds), u(Days), true), Ok(NAT));
        assert!(convert(i64::MAX, u(Seconds), u(Nanoseconds), true).is_err());
        let s25 = DatetimeUnit {
            unit: Seconds,
            multiplier: 25,
        };
        assert_eq!(convert(2, s25, u(Seconds), false), Ok(50));
        assert_eq!(convert(50, u(Seconds), s25, false), Ok(2));
        assert_eq!(convert(-3, u(Years), u(Months), false), Ok(-36));
    }

    #[test]
    fn calendar_units() {
        use TimeUnit::*;
        // 2000-03-01 is day 11017; 2000 is 30 years after 1970
        assert_eq!(convert(30, u(Years), u(Days), true), Ok(10957));
        assert_eq!(convert(362, u(Months), u(Days), true), Ok(11017));
        assert_eq!(convert(11017, u(Days), u(Months), true), Ok(362));
        assert!(convert(11018, u(Days), u(Months), true).is_err());
        assert_eq!(convert(-1, u(Months), u(Days), true), Ok(-31));
        assert!(convert(1, u(Months), u(Days), false).is_err());
        assert!(convert(5, u(Generic), u(Days), true).is_err());
    }

    /// The extremes of count and multiplier between every pair of units:
    /// an error or a value, never an overflow (tests run with overflow
    /// checks on, so a wrapped intermediate would panic here).
    #[test]
    fn extremes_never_overflow() {
        let counts = [i64::MIN + 1, -1, 0, 1, i64::MAX];
        let mults = [1, 7, u32::MAX];
        for from in TimeUnit::ALL {
            for to in TimeUnit::ALL {
                for &fm in &mults {
                    for &tm in &mults {
                        for &count in &counts {
                            for datetime in [true, false] {
                                let f = DatetimeUnit {
                                    unit: from,
                                    multiplier: fm,
                                };
                                let t = DatetimeUnit {
                                    unit: to,
                                    multiplier: tm,
                                };
                                let _ = convert(count, f, t, datetime);
                            }
                        }
                    }
                }
            }
        }
        // the largest month count there is, converted through the calendar
        let months = DatetimeUnit {
            unit: TimeUnit::Years,
            multiplier: u32::MAX,
        };
        assert!(convert(i64::MAX, months, u(TimeUnit::Days), true).is_err());
        assert!(convert(i64::MIN + 1, months, u(TimeUnit::Attoseconds), true).is_err());
        assert!(convert(i64::MAX, u(TimeUnit::Attoseconds), u(TimeUnit::Years), true).is_err());
    }

    #[test]
    fn civil_round_trip() {
        for days in -800_000..800_000i128 {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m) + d - 1, days);
        }
    }
}
