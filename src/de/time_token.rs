//! Datetime tokens on the read side: which `"$npy_serde::M8[unit]"` /
//! `"$npy_serde::m8[unit]"` a type asks for, and the read side's wording of
//! a count that does not convert into that unit. The conversion rule itself
//! is shared with the write side: `crate::kinds::timeconv`.

use crate::format::dtype::DatetimeUnit;
use crate::kinds::special::{DATETIME_PREFIX, TIMEDELTA_PREFIX};
use crate::kinds::timeconv::Refusal;

/// `"$npy_serde::M8[25s]"` -> (is datetime, unit). `None` if not a token.
pub(crate) fn parse_token(name: &str) -> Option<(bool, DatetimeUnit)> {
    let (datetime, rest) = if let Some(r) = name.strip_prefix(DATETIME_PREFIX) {
        (true, r)
    } else {
        (false, name.strip_prefix(TIMEDELTA_PREFIX)?)
    };
    Some((datetime, DatetimeUnit::parse(rest).ok()?))
}

/// [`timeconv::convert`](crate::kinds::timeconv::convert) with the read side's
/// messages: a fragment the caller completes with the file's type
/// (`'<m8[us]' value 7 is not a whole number of [ms]`).
pub(crate) fn convert(
    count: i64,
    from: DatetimeUnit,
    to: DatetimeUnit,
    datetime: bool,
) -> Result<i64, String> {
    crate::kinds::timeconv::convert(count, from, to, datetime).map_err(|r| match r {
        Refusal::Generic => format!(
            "value {count} cannot be converted between the generic unit and {}",
            unit_name(to)
        ),
        Refusal::NoFixedLength => format!(
            "value {count} cannot be converted exactly: years and months have no fixed length"
        ),
        Refusal::Inexact => format!("value {count} is not a whole number of {}", unit_name(to)),
        Refusal::Overflow => format!("value {count} is out of range in {}", unit_name(to)),
    })
}

fn unit_name(u: DatetimeUnit) -> String {
    match u.to_string() {
        s if s.is_empty() => "the generic unit".into(),
        s => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::dtype::TimeUnit;
    use crate::kinds::timeconv::NAT;

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

    /// The read side once converted through attoseconds in an i128 and
    /// refused large counts whose result fits (1.1e15 weeks is 6.9e38
    /// attoseconds); it now shares the write side's rule, which reduces the
    /// ratio first: what one side converts, the other does too.
    #[test]
    fn large_counts_convert_as_on_the_write_side() {
        use TimeUnit::*;
        let w = -1_143_338_179_290_048i64;
        assert_eq!(convert(w, u(Weeks), u(Hours), true), Ok(w * 168));
        assert_eq!(
            convert(w, u(Weeks), u(Hours), true).ok(),
            crate::kinds::convert::convert_time(w, u(Weeks), u(Hours), true).ok()
        );
        assert!(convert(86_400_000_000_000, u(Years), u(Weeks), true).is_ok());
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
}
