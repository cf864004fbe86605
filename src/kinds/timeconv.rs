//! Exact conversion of datetime64/timedelta64 counts between units: the one
//! rule behind writing (a `Datetime64<U>` into the dtype's unit) and reading
//! (the file's unit into the `"$npy_serde::M8[unit]"` a type asks for).
//!
//! Units of the same kind convert by their ratio, reduced by its gcd so
//! that no intermediate overflows before the result would (fixed-length
//! units in attoseconds, years and months in months). A datetime in years
//! or months converts to and from the fixed units through the proleptic
//! Gregorian calendar, as numpy does (exact only on the first of a month or
//! year); a timedelta in years or months has no fixed length and does not
//! (numpy refuses that too). Anything inexact is refused; NaT stays NaT; the
//! generic unit holds only NaT. Each side words a [`Refusal`] itself.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use crate::format::dtype::{DatetimeUnit, TimeUnit};

// In this module rather than dtype.rs: the calendar is here, and dtype.rs
// then needs nothing of it (no import cycle).
impl DatetimeUnit {
    /// A `datetime64` count of this unit as numpy's `np.datetime_as_string`
    /// writes it: ISO 8601 down to the unit, weeks as days, `NaT` for
    /// `i64::MIN`. The generic unit (which numpy lets hold NaT only) and a
    /// date beyond a 64-bit day count give the bare count.
    ///
    /// ```
    /// use npy_serde::{DatetimeUnit, TimeUnit};
    /// let s = DatetimeUnit::new(TimeUnit::Seconds);
    /// assert_eq!(s.datetime_as_string(12_345), "1970-01-01T03:25:45");
    /// assert_eq!(s.datetime_as_string(-1), "1969-12-31T23:59:59");
    /// let ms = DatetimeUnit::new(TimeUnit::Milliseconds);
    /// assert_eq!(ms.datetime_as_string(1_700_000_000_250), "2023-11-14T22:13:20.250");
    /// assert_eq!(DatetimeUnit::new(TimeUnit::Months).datetime_as_string(12_345), "2998-10");
    /// assert_eq!(s.datetime_as_string(i64::MIN), "NaT");
    /// ```
    // Bounds: `|count * multiplier| < 2^95` in `i128`; every divisor is a
    // nonzero constant or a unit's length (at least 1); a year is at most
    // `2^95 / 12` from 1970; the time of day is below a day in attoseconds.
    #[allow(clippy::arithmetic_side_effects)]
    pub fn datetime_as_string(self, count: i64) -> String {
        if count == NAT {
            return "NaT".to_owned();
        }
        let n = i128::from(count) * i128::from(self.multiplier);
        let (n, base) = match self.unit {
            TimeUnit::Years => return format!("{:04}", 1970 + n),
            TimeUnit::Months => {
                return format!("{:04}-{:02}", 1970 + n.div_euclid(12), n.rem_euclid(12) + 1);
            }
            TimeUnit::Weeks => (n * 7, TimeUnit::Days),
            other => (n, other),
        };
        let (_, Some(size), Some((parts, digits))) = row(base) else {
            return count.to_string();
        };
        let per_day = DAY / size;
        let Ok(days) = i64::try_from(n.div_euclid(per_day)) else {
            return count.to_string();
        };
        let (y, m, d) = civil_from_days(days);
        let mut out = format!("{y:04}-{m:02}-{d:02}");
        // the time of day in attoseconds: its hours (below 24), minutes,
        // seconds and fraction
        let t = n.rem_euclid(per_day) * size;
        let hms = [3_600, 60, 1].map(|per| t / (per * SECOND) % 60);
        for (i, v) in hms.into_iter().take(parts).enumerate() {
            out.push_str(&format!("{}{v:02}", if i == 0 { 'T' } else { ':' }));
        }
        if digits > 0 {
            out.push_str(&format!(".{:0digits$}", t % SECOND / size));
        }
        out
    }

    /// A `timedelta64` count of this unit as numpy's `str()` writes it:
    /// the count times the multiplier and the unit's name, `NaT` for
    /// `i64::MIN`.
    ///
    /// ```
    /// use npy_serde::{DatetimeUnit, TimeUnit};
    /// let unit = DatetimeUnit { unit: TimeUnit::Seconds, multiplier: 25 };
    /// assert_eq!(unit.timedelta_as_string(5), "125 seconds");
    /// assert_eq!(unit.timedelta_as_string(i64::MIN), "NaT");
    /// ```
    // Bounds: `|count * multiplier| < 2^95` in `i128`.
    #[allow(clippy::arithmetic_side_effects)]
    pub fn timedelta_as_string(self, count: i64) -> String {
        if count == NAT {
            return "NaT".to_owned();
        }
        let n = i128::from(count) * i128::from(self.multiplier);
        format!("{n} {}", row(self.unit).0)
    }
}

/// The count of NaT.
pub(crate) const NAT: i64 = i64::MIN;

/// Why a count does not convert.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// A count other than NaT to or from the generic unit.
    Generic,
    /// A timedelta between years or months and the fixed-length units.
    NoFixedLength,
    /// Not a whole number of the target unit (for a datetime in years or
    /// months: not the first of a month or year).
    Inexact,
    /// The result does not fit 64 bits (or would be NaT's count).
    Overflow,
}

/// A second in attoseconds, the finest unit.
const SECOND: i128 = 1_000_000_000_000_000_000;
/// A day in attoseconds.
const DAY: i128 = 86_400 * SECOND;

/// What [`TimeUnit`] is to the conversions, indexed by its discriminant
/// (the order of [`TimeUnit::ALL`]): the name numpy's `str()` of a
/// timedelta gives it; its length (attoseconds for the linear units, months
/// for years and months, which have no fixed length in seconds; `None` for
/// the generic unit); and how numpy writes a time of it after the date: how
/// many time parts (hours, minutes, seconds) and how many digits of the
/// seconds' fraction (3 ms .. 18 as), `None` for the units not written as a
/// day and a time. The one table of both directions: what
/// [`DatetimeUnit::datetime_as_string`] writes, [`parse_datetime`] reads back.
type UnitRow = (&'static str, Option<i128>, Option<(usize, usize)>);
const UNITS: [UnitRow; 14] = [
    ("generic time units", None, None),
    ("years", Some(12), None),
    ("months", Some(1), None),
    ("weeks", Some(7 * DAY), None),
    ("days", Some(DAY), Some((0, 0))),
    ("hours", Some(3_600 * SECOND), Some((1, 0))),
    ("minutes", Some(60 * SECOND), Some((2, 0))),
    ("seconds", Some(SECOND), Some((3, 0))),
    ("milliseconds", Some(SECOND / 1_000), Some((3, 3))),
    ("microseconds", Some(SECOND / 1_000_000), Some((3, 6))),
    ("nanoseconds", Some(1_000_000_000), Some((3, 9))),
    ("picoseconds", Some(1_000_000), Some((3, 12))),
    ("femtoseconds", Some(1_000), Some((3, 15))),
    ("attoseconds", Some(1), Some((3, 18))),
];

/// The row of [`UNITS`] for `u`.
fn row(u: TimeUnit) -> UnitRow {
    UNITS.get(u as usize).copied().unwrap_or(("", None, None))
}

/// Whether a unit is one of the calendar's, years or months.
fn cal(u: DatetimeUnit) -> bool {
    matches!(u.unit, TimeUnit::Years | TimeUnit::Months)
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

/// Converts `count` from unit `from` to unit `to` exactly; `datetime`
/// selects the calendar conversion of years and months (see the module).
pub(crate) fn convert(
    count: i64,
    from: DatetimeUnit,
    to: DatetimeUnit,
    datetime: bool,
) -> Result<i64, Refusal> {
    let linear = !datetime || count == NAT || from == to || cal(from) == cal(to);
    if linear || from.unit == TimeUnit::Generic || to.unit == TimeUnit::Generic {
        return convert_linear(count, from, to);
    }
    let months = DatetimeUnit::new(TimeUnit::Months);
    let days = DatetimeUnit::new(TimeUnit::Days);
    if cal(from) {
        // months since 1970-01 -> days since 1970-01-01
        let m = convert_linear(count, from, months)?;
        // |m / 12| < 2^60 and the remainder is 0..12: no overflow
        let year = m.div_euclid(12).wrapping_add(1970);
        let month = m.rem_euclid(12).wrapping_add(1);
        let d = days_from_civil(year, month, 1).ok_or(Refusal::Overflow)?;
        convert_linear(d, days, to)
    } else {
        // a count that is no whole number of days is no month start either
        let d = convert_linear(count, from, days).map_err(|_| Refusal::Inexact)?;
        let (y, m, day) = civil_from_days(d);
        if day != 1 {
            return Err(Refusal::Inexact);
        }
        let months_since = y
            .checked_sub(1970)
            .and_then(|v| v.checked_mul(12))
            .and_then(|v| v.checked_add(m.checked_sub(1)?))
            .ok_or(Refusal::Overflow)?;
        convert_linear(months_since, months, to)
    }
}

/// Converts between units of the same kind (both fixed-length, or both
/// years/months) by their ratio.
fn convert_linear(count: i64, from: DatetimeUnit, to: DatetimeUnit) -> Result<i64, Refusal> {
    if count == NAT || from == to {
        return Ok(count);
    }
    let (Some(size_from), Some(size_to)) = (row(from.unit).1, row(to.unit).1) else {
        return Err(Refusal::Generic);
    };
    if cal(from) != cal(to) {
        return Err(Refusal::NoFixedLength);
    }
    // sizes are below 2^80 and multipliers below 2^32: the products fit
    // an i128 with room to spare
    let num = size_from.wrapping_mul(i128::from(from.multiplier));
    let den = size_to.wrapping_mul(i128::from(to.multiplier));
    let g = gcd(num, den).max(1);
    let c = i128::from(count);
    // g >= 1 divides both: these never fail
    let (Some(num), Some(den)) = (num.checked_div(g), den.checked_div(g)) else {
        return Err(Refusal::Inexact);
    };
    // None for den == 0, which cannot hold the count either
    if c.checked_rem(den) != Some(0) {
        return Err(Refusal::Inexact);
    }
    c.checked_div(den)
        .and_then(|q| q.checked_mul(num))
        .and_then(|v| i64::try_from(v).ok())
        .filter(|&v| v != NAT)
        .ok_or(Refusal::Overflow)
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

/// Digits only (no sign), as an `i64`.
fn digits(s: &str) -> Option<i64> {
    // an empty text fails the parse; a sign, which it takes, fails the test
    s.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| s.parse().ok())?
}

/// Reads what [`DatetimeUnit::datetime_as_string`] writes (`NaT`, `2024-01-01T00:00:00.500`,
/// `-005`, `10183-09-21`) as a count of `unit`: the text's own unit is
/// converted exactly, as a write would, or refused with a message.
///
/// Bounds: the calendar steps are checked; the time of day is below
/// `86_400 * 10^18`, far inside `i128`.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) fn parse_datetime(text: &str, unit: DatetimeUnit) -> Result<i64, String> {
    let bad = || format!("'{text}' is not a numpy datetime (like 2024-01-01T12:00:00.500 or NaT)");
    if text == "NaT" {
        return Ok(NAT);
    }
    let (date, time) = text
        .split_once('T')
        .map_or((text, None), |(d, t)| (d, Some(t)));
    let (neg, date) = date
        .strip_prefix('-')
        .map_or((false, date), |rest| (true, rest));
    let mut parts = date.split('-');
    let year = digits(parts.next().ok_or_else(bad)?).ok_or_else(bad)?;
    let year = if neg { -year } else { year };
    let month = parts
        .next()
        .map(|m| digits(m).filter(|m| (1..=12).contains(m)));
    let day = parts.next().map(digits);
    if parts.next().is_some() {
        return Err(bad());
    }
    let (count, from): (i128, TimeUnit) = match (month, day, time) {
        (None, None, None) => (i128::from(year) - 1970, TimeUnit::Years),
        (Some(Some(m)), None, None) => (
            (i128::from(year) - 1970) * 12 + i128::from(m - 1),
            TimeUnit::Months,
        ),
        (Some(Some(m)), Some(Some(d)), time) => {
            let days = days_from_civil(year, m, d.clamp(1, 31)).ok_or_else(bad)?;
            if d < 1 || civil_from_days(days) != (year, m, d) {
                return Err(bad());
            }
            // the seconds' fraction follows the third time part
            let (time, frac) = match time.and_then(|t| t.split_once('.')) {
                Some((t, frac)) if t.split(':').count() == 3 => (Some(t), frac),
                _ => (time, ""),
            };
            let fields: Vec<&str> = time.map_or_else(Vec::new, |t| t.split(':').collect());
            // the text's unit (none for more than three parts): as many
            // time parts, and the sub-second unit of as many fraction
            // digits or a few more
            let width = frac.len().div_ceil(3).saturating_mul(3);
            let from = TimeUnit::ALL
                .into_iter()
                .find(|&u| row(u).2 == Some((fields.len(), width)))
                .ok_or_else(bad)?;
            let mut n = i128::from(days);
            // hours of a day, minutes of an hour, seconds of a minute
            for (f, per) in fields.iter().zip([24, 60, 60]) {
                let v = digits(f).filter(|v| *v < per).ok_or_else(bad)?;
                n = n * i128::from(per) + i128::from(v);
            }
            if !frac.is_empty() {
                let v = digits(frac).ok_or_else(bad)?;
                let scale = 10i128.pow((width - frac.len()) as u32);
                n = n * 10i128.pow(width as u32) + i128::from(v) * scale;
            }
            (n, from)
        }
        _ => return Err(bad()),
    };
    let from = DatetimeUnit::new(from);
    let count = i64::try_from(count)
        .ok()
        .filter(|&c| c != NAT)
        .ok_or_else(|| format!("'{text}' overflows 64 bits in unit {from}"))?;
    convert(count, from, unit, true).map_err(|r| refusal_text(text, r, from, unit))
}

/// Reads what [`DatetimeUnit::timedelta_as_string`] writes (`125 seconds`, `NaT`) as a count
/// of `unit`, converted exactly or refused with a message.
pub(crate) fn parse_timedelta(text: &str, unit: DatetimeUnit) -> Result<i64, String> {
    let bad = || format!("'{text}' is not a numpy timedelta (like '90 seconds' or NaT)");
    if text == "NaT" {
        return Ok(NAT);
    }
    let (num, name) = text.split_once(' ').ok_or_else(bad)?;
    let from = TimeUnit::ALL
        .into_iter()
        .find(|&u| row(u).0 == name)
        .ok_or_else(bad)?;
    let neg = num.starts_with('-');
    let n = digits(num.strip_prefix('-').unwrap_or(num)).ok_or_else(bad)?;
    // at most i64::MAX: the negation is exact
    let n = if neg { n.wrapping_neg() } else { n };
    let from = DatetimeUnit::new(from);
    convert(n, from, unit, false).map_err(|r| refusal_text(text, r, from, unit))
}

/// A parse's conversion refusal in words.
fn refusal_text(text: &str, r: Refusal, from: DatetimeUnit, to: DatetimeUnit) -> String {
    match r {
        Refusal::Generic => {
            format!("'{text}' cannot be held in unit {to}: the generic unit holds only NaT")
        }
        Refusal::NoFixedLength => format!(
            "'{text}' cannot be converted from unit {from} to unit {to} (years and months have no fixed length)"
        ),
        Refusal::Inexact => format!("'{text}' is not a whole number of unit {to}"),
        Refusal::Overflow => format!("'{text}' overflows 64 bits in unit {to}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn datetime_string(count: i64, unit: DatetimeUnit) -> String {
        unit.datetime_as_string(count)
    }

    fn timedelta_string(count: i64, unit: DatetimeUnit) -> String {
        unit.timedelta_as_string(count)
    }

    fn u(s: &str) -> DatetimeUnit {
        DatetimeUnit::parse(s).unwrap()
    }

    #[test]
    fn unit_rows_follow_the_order_of_time_unit() {
        for (i, u) in TimeUnit::ALL.into_iter().enumerate() {
            assert_eq!(u as usize, i, "{u:?}");
        }
        assert_eq!(row(TimeUnit::Hours).0, "hours");
    }

    #[test]
    fn ratio_units() {
        let lin = |c, a, b| convert(c, a, b, false);
        assert_eq!(lin(3, u("[s]"), u("[ms]")), Ok(3000));
        assert_eq!(lin(3000, u("[ms]"), u("[s]")), Ok(3));
        assert_eq!(lin(3001, u("[ms]"), u("[s]")), Err(Refusal::Inexact));
        assert_eq!(lin(2, u("[Y]"), u("[M]")), Ok(24));
        assert_eq!(lin(-3, u("[Y]"), u("[M]")), Ok(-36));
        assert_eq!(lin(2, u("[Y]"), u("[D]")), Err(Refusal::NoFixedLength));
        assert_eq!(lin(NAT, u("[Y]"), u("[D]")), Ok(NAT));
        assert_eq!(lin(4, u("[25s]"), u("[s]")), Ok(100));
        assert_eq!(lin(50, u("[s]"), u("[25s]")), Ok(2));
        assert_eq!(lin(i64::MAX, u("[W]"), u("[as]")), Err(Refusal::Overflow));
        assert_eq!(lin(1, u("[W]"), u("[D]")), Ok(7));
        assert_eq!(lin(1, u(""), u("[D]")), Err(Refusal::Generic));
        assert_eq!(lin(NAT, u(""), u("[D]")), Ok(NAT));
        assert_eq!(DatetimeUnit::parse("[x]").ok(), None);
        assert_eq!(DatetimeUnit::parse("[0s]").ok(), None);
    }

    /// Large counts convert whenever the result fits: the ratio is reduced
    /// first, never taken through attoseconds (1.1e15 weeks is 6.9e38
    /// attoseconds, past an i128, and 1.9e17 hours).
    #[test]
    fn large_counts_convert_when_the_result_fits() {
        let w = -1_143_338_179_290_048i64;
        assert_eq!(convert(w, u("[W]"), u("[h]"), true), Ok(w * 168));
        assert_eq!(convert(w * 168, u("[h]"), u("[W]"), true), Ok(w));
        let y = 86_400_000_000_000i64;
        assert!(convert(y, u("[Y]"), u("[W]"), true).is_ok());
    }

    #[test]
    fn datetime_years_and_months_use_the_calendar() {
        let cal = |c, a, b| convert(c, a, b, true);
        // numpy: np.datetime64(1, 'Y').astype('M8[D]') == 365
        assert_eq!(cal(1, u("[Y]"), u("[D]")), Ok(365));
        assert_eq!(cal(2, u("[Y]"), u("[D]")), Ok(730));
        assert_eq!(cal(3, u("[Y]"), u("[D]")), Ok(1096));
        // 2000 is 30 years after 1970; 2000-03-01 is day 11017
        assert_eq!(cal(30, u("[Y]"), u("[D]")), Ok(10957));
        assert_eq!(cal(362, u("[M]"), u("[D]")), Ok(11017));
        assert_eq!(cal(11017, u("[D]"), u("[M]")), Ok(362));
        assert_eq!(cal(11018, u("[D]"), u("[M]")), Err(Refusal::Inexact));
        assert_eq!(cal(-1, u("[M]"), u("[D]")), Ok(-31));
        assert_eq!(cal(1096, u("[D]"), u("[Y]")), Ok(3));
        assert_eq!(cal(1097, u("[D]"), u("[Y]")), Err(Refusal::Inexact));
        assert_eq!(cal(59, u("[D]"), u("[M]")), Ok(2));
        assert_eq!(cal(59 * 86400, u("[s]"), u("[M]")), Ok(2));
        assert_eq!(
            cal(59 * 86400 + 1, u("[s]"), u("[M]")),
            Err(Refusal::Inexact)
        );
        assert_eq!(cal(5, u(""), u("[D]")), Err(Refusal::Generic));
    }

    #[test]
    fn datetime_strings_are_numpys() {
        // np.datetime_as_string / str() of numpy 2.4 for these counts
        let cases = [
            ("Y", 12_345, "14315"),
            ("Y", -1_975, "-005"),
            ("M", 12_345, "2998-10"),
            ("M", -1, "1969-12"),
            ("W", 12_345, "2206-08-07"),
            ("W", -1, "1969-12-25"),
            ("D", 12_345, "2003-10-20"),
            ("D", -719_893 * 2, "-1972-01-01"),
            ("D", 3_000_000, "10183-09-21"),
            ("h", 12_345, "1971-05-30T09"),
            ("m", 12_345, "1970-01-09T13:45"),
            ("m", -1, "1969-12-31T23:59"),
            ("s", 12_345, "1970-01-01T03:25:45"),
            ("s", -1_000_000_000_000_000, "-31686769-06-29T22:13:20"),
            ("ms", 12_345, "1970-01-01T00:00:12.345"),
            ("us", -1, "1969-12-31T23:59:59.999999"),
            ("ns", 12_345, "1970-01-01T00:00:00.000012345"),
            ("ps", -1, "1969-12-31T23:59:59.999999999999"),
            ("fs", 12_345, "1970-01-01T00:00:00.000000000012345"),
            ("as", -1, "1969-12-31T23:59:59.999999999999999999"),
            ("25s", 12_345, "1970-01-04T13:43:45"),
            ("3M", 12_345, "5056-04"),
        ];
        for (code, count, want) in cases {
            assert_eq!(
                datetime_string(count, u(&format!("[{code}]"))),
                want,
                "{count} [{code}]"
            );
        }
        assert_eq!(datetime_string(NAT, u("[s]")), "NaT");
        assert_eq!(timedelta_string(5, u("[25s]")), "125 seconds");
        assert_eq!(timedelta_string(5, u("[3M]")), "15 months");
        assert_eq!(timedelta_string(1, u("[s]")), "1 seconds");
        let generic = DatetimeUnit::new(TimeUnit::Generic);
        assert_eq!(timedelta_string(5, generic), "5 generic time units");
        assert_eq!(timedelta_string(NAT, generic), "NaT");
        // every unit at the extremes: no overflow, no panic
        for unit in TimeUnit::ALL {
            for multiplier in [1, u32::MAX] {
                for count in [i64::MIN + 1, i64::MAX, 0] {
                    let unit = DatetimeUnit { unit, multiplier };
                    assert!(!datetime_string(count, unit).is_empty());
                    assert!(!timedelta_string(count, unit).is_empty());
                }
            }
        }
    }

    #[test]
    fn civil_round_trip() {
        for d in (-800_000i64..800_000).chain([2_932_896, -2_932_896]) {
            let (y, m, day) = civil_from_days(d);
            assert_eq!(days_from_civil(y, m, day), Some(d));
        }
    }

    /// The extremes of count and multiplier between every pair of units:
    /// a refusal or a value, never an overflow (tests run with overflow
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
                                let _ = convert(count, f, t, datetime);
                            }
                        }
                    }
                }
            }
        }
        for d in [i64::MIN, i64::MAX] {
            let _ = civil_from_days(d);
        }
        assert!(convert(i64::MAX, u("[M]"), u("[D]"), true).is_err());
        assert!(convert(i64::MIN + 1, u("[D]"), u("[Y]"), true).is_err());
    }
}
