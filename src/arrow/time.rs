//! The one rule between numpy's datetime units and Arrow's temporal
//! types, both directions: `M8[D]` (and the calendar units, weeks and
//! multiples of a day) is `Date32`; the units down to seconds are
//! `Timestamp(Second)`/`Duration(Second)`; `ms`, `us`, `ns` their own;
//! finer units become nanoseconds when the value is a whole number of them.

use arrow_schema::{DataType, TimeUnit as ArrowUnit};

use crate::error::{Error, Result};
use crate::format::dtype::{DatetimeUnit, TimeUnit};
use crate::kinds::timeconv::{Refusal, convert};

/// numpy's NaT: Arrow's null.
pub(super) const NAT: i64 = i64::MIN;

/// The Arrow type a `M8[unit]` (`datetime`) or `m8[unit]` column becomes.
pub(super) fn arrow_type(unit: DatetimeUnit, datetime: bool) -> Result<DataType> {
    let secondish = |u: ArrowUnit| {
        if datetime {
            DataType::Timestamp(u, None)
        } else {
            DataType::Duration(u)
        }
    };
    Ok(match unit.unit {
        TimeUnit::Years | TimeUnit::Months if !datetime => {
            return Err(Error::unsupported(format!(
                "'m8{unit}': a timedelta in years or months has no fixed length, and Arrow's \
                 Duration needs one"
            )));
        }
        TimeUnit::Years | TimeUnit::Months | TimeUnit::Weeks | TimeUnit::Days if datetime => {
            DataType::Date32
        }
        TimeUnit::Generic
        | TimeUnit::Weeks
        | TimeUnit::Days
        | TimeUnit::Hours
        | TimeUnit::Minutes
        | TimeUnit::Seconds => secondish(ArrowUnit::Second),
        TimeUnit::Milliseconds => secondish(ArrowUnit::Millisecond),
        TimeUnit::Microseconds => secondish(ArrowUnit::Microsecond),
        _ => secondish(ArrowUnit::Nanosecond),
    })
}

/// The numpy unit an Arrow temporal type counts in (`Date32` counts days,
/// `Date64` milliseconds); `None` for other types.
pub(super) fn numpy_unit(dt: &DataType) -> Option<(DatetimeUnit, bool)> {
    let unit = |u: &ArrowUnit| match u {
        ArrowUnit::Second => TimeUnit::Seconds,
        ArrowUnit::Millisecond => TimeUnit::Milliseconds,
        ArrowUnit::Microsecond => TimeUnit::Microseconds,
        ArrowUnit::Nanosecond => TimeUnit::Nanoseconds,
    };
    let (u, datetime) = match dt {
        DataType::Date32 => (TimeUnit::Days, true),
        DataType::Date64 => (TimeUnit::Milliseconds, true),
        DataType::Timestamp(u, _) => (unit(u), true),
        DataType::Duration(u) => (unit(u), false),
        _ => return None,
    };
    Some((DatetimeUnit::new(u), datetime))
}

/// `count` from unit `from` to unit `to`, exactly, or a message in numpy's
/// words (`value 1500 of '<M8[ps]' is no whole number of ns`).
pub(super) fn to_unit(
    count: i64,
    from: DatetimeUnit,
    to: DatetimeUnit,
    datetime: bool,
) -> Result<i64> {
    convert(count, from, to, datetime).map_err(|refusal| {
        let kind = if datetime { "M8" } else { "m8" };
        let what = format!("value {count} of '{kind}{from}'");
        Error::data(match refusal {
            Refusal::Generic => {
                format!("{what}: the generic unit holds only NaT")
            }
            Refusal::NoFixedLength => format!(
                "{what}: years and months have no fixed length in {}",
                unit_code(to)
            ),
            Refusal::Inexact => format!("{what} is no whole number of {}", unit_code(to)),
            Refusal::Overflow => format!("{what} does not fit 64 bits of {}", unit_code(to)),
        })
    })
}

/// `ms`, `5s`, `D`: the unit as [`DatetimeUnit`]'s `Display` writes it,
/// without the brackets.
fn unit_code(unit: DatetimeUnit) -> String {
    unit.to_string()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_owned()
}

/// The unit an Arrow type of [`arrow_type`] counts in.
pub(super) fn counted_in(dt: &DataType) -> DatetimeUnit {
    numpy_unit(dt).map_or(DatetimeUnit::new(TimeUnit::Seconds), |(u, _)| u)
}
