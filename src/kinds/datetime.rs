//! numpy's `datetime64` / `timedelta64` as Rust types: [`Datetime64<U>`] and
//! [`Timedelta64<U>`], an `i64` count of the unit `U` (a marker type from
//! [`unit`](mod@unit)). `i64::MIN` is NaT ("not a time"), as in numpy.
//!
//! They serialize as a newtype struct whose name carries the unit
//! (`"$npy_serde::M8[ns]"`), so this crate writes `'<M8[ns]'`; other formats
//! see the plain count.

#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, Visitor};
use serde::ser::{Serialize, Serializer};

use crate::format::dtype::{DatetimeUnit, TimeUnit};
use crate::kinds::timeconv::{NAT, Refusal, convert};

mod sealed {
    pub trait Sealed {}
}

/// A datetime unit known at compile time; implemented by the marker types in
/// [`unit`](mod@unit) only.
///
/// ```
/// use npy_serde::{TimeUnitMarker, unit};
/// fn descr<U: TimeUnitMarker>() -> String {
///     format!("<M8{}", U::UNIT)
/// }
/// assert_eq!(descr::<unit::ns>(), "<M8[ns]");
/// assert_eq!(descr::<unit::Generic>(), "<M8");
/// assert_eq!(unit::D::M8_TOKEN, "$npy_serde::M8[D]");
/// assert_eq!(unit::D::M8_TOKEN_TD, "$npy_serde::m8[D]");
/// ```
pub trait TimeUnitMarker: sealed::Sealed {
    /// The unit.
    const UNIT: DatetimeUnit;
    /// The newtype name [`Datetime64`] serializes with: `"$npy_serde::M8[ns]"`.
    const M8_TOKEN: &'static str;
    /// The newtype name [`Timedelta64`] serializes with: `"$npy_serde::m8[ns]"`.
    const M8_TOKEN_TD: &'static str;
}

/// Unit marker types for [`Datetime64`] and [`Timedelta64`], named by numpy's
/// unit codes: `Y M W D h m s ms us ns ps fs`, `as_` for attoseconds (`as`
/// is a Rust keyword) and `Generic` for the unitless `'<M8'` (which numpy
/// allows to hold NaT only).
///
/// ```
/// use npy_serde::{Datetime64, unit};
/// let t = Datetime64::<unit::s>::new(1_700_000_000);
/// assert_eq!(t.count(), 1_700_000_000);
/// ```
#[allow(non_camel_case_types)]
pub mod unit {
    use super::{TimeUnitMarker, sealed::Sealed};
    use crate::format::dtype::{DatetimeUnit, TimeUnit};

    macro_rules! units {
        ($($(#[$doc:meta])* $name:ident = $unit:ident, $code:literal;)*) => {$(
            $(#[$doc])*
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub struct $name;
            impl Sealed for $name {}
            impl TimeUnitMarker for $name {
                const UNIT: DatetimeUnit = DatetimeUnit::new(TimeUnit::$unit);
                const M8_TOKEN: &'static str = concat!("$npy_serde::M8", $code);
                const M8_TOKEN_TD: &'static str = concat!("$npy_serde::m8", $code);
            }
        )*};
    }

    units! {
        /// No unit: `'<M8'` (NaT only).
        Generic = Generic, "";
        /// Years, `[Y]`.
        Y = Years, "[Y]";
        /// Months, `[M]`.
        M = Months, "[M]";
        /// Weeks, `[W]`.
        W = Weeks, "[W]";
        /// Days, `[D]`.
        D = Days, "[D]";
        /// Hours, `[h]`.
        h = Hours, "[h]";
        /// Minutes, `[m]`.
        m = Minutes, "[m]";
        /// Seconds, `[s]`.
        s = Seconds, "[s]";
        /// Milliseconds, `[ms]`.
        ms = Milliseconds, "[ms]";
        /// Microseconds, `[us]`.
        us = Microseconds, "[us]";
        /// Nanoseconds, `[ns]`.
        ns = Nanoseconds, "[ns]";
        /// Picoseconds, `[ps]`.
        ps = Picoseconds, "[ps]";
        /// Femtoseconds, `[fs]`.
        fs = Femtoseconds, "[fs]";
        /// Attoseconds, `[as]`.
        as_ = Attoseconds, "[as]";
    }
}

macro_rules! time_type {
    ($(#[$doc:meta])* $name:ident, $token:ident, $what:literal, $show:ident, $parse:path) => {
        $(#[$doc])*
        pub struct $name<U> {
            count: i64,
            unit: PhantomData<U>,
        }

        impl<U: TimeUnitMarker> $name<U> {
            /// NaT, "not a time" (count `i64::MIN`).
            ///
            /// ```
            /// use npy_serde::{Datetime64, unit};
            /// assert!(Datetime64::<unit::s>::NAT.is_nat());
            /// assert_eq!(Datetime64::<unit::s>::NAT.count(), i64::MIN);
            /// ```
            pub const NAT: Self = Self::new(NAT);

            /// A value of `count` units.
            ///
            /// ```
            /// use npy_serde::{Timedelta64, unit};
            /// let d = Timedelta64::<unit::us>::new(-7);
            /// assert_eq!((d.count(), d.is_nat()), (-7, false));
            /// assert_eq!(d.unit().to_string(), "[us]");
            /// ```
            pub const fn new(count: i64) -> Self {
                $name { count, unit: PhantomData }
            }

            /// The count of units (`i64::MIN` for NaT).
            ///
            /// ```
            /// use npy_serde::{Datetime64, unit};
            /// let bytes = npy_serde::to_vec(&[Datetime64::<unit::s>::new(60)])?;
            /// // read in another unit: the count is converted exactly
            /// let back: Vec<Datetime64<unit::ms>> = npy_serde::from_slice(&bytes)?;
            /// assert_eq!(back[0].count(), 60_000);
            /// # Ok::<(), npy_serde::Error>(())
            /// ```
            pub const fn count(&self) -> i64 {
                self.count
            }

            /// Whether this is NaT.
            ///
            /// ```
            /// use npy_serde::{Datetime64, unit};
            /// let bytes = npy_serde::to_vec(&[Datetime64::<unit::s>::NAT, Datetime64::new(0)])?;
            /// let back: Vec<Datetime64<unit::ns>> = npy_serde::from_slice(&bytes)?;
            /// assert_eq!((back[0].is_nat(), back[1].is_nat()), (true, false));
            /// # Ok::<(), npy_serde::Error>(())
            /// ```
            pub const fn is_nat(&self) -> bool {
                self.count == NAT
            }

            /// The unit, `U::UNIT`.
            ///
            /// ```
            /// use npy_serde::{Datetime64, TimeUnit, unit};
            /// let t = Datetime64::<unit::us>::new(1);
            /// assert_eq!(t.unit().unit, TimeUnit::Microseconds);
            /// assert_eq!(t.unit().to_string(), "[us]");
            /// ```
            pub const fn unit(&self) -> DatetimeUnit {
                U::UNIT
            }
        }

        impl<U> Clone for $name<U> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<U> Copy for $name<U> {}
        impl<U> PartialEq for $name<U> {
            fn eq(&self, other: &Self) -> bool {
                self.count == other.count
            }
        }
        impl<U> Eq for $name<U> {}
        impl<U> Hash for $name<U> {
            fn hash<H: Hasher>(&self, state: &mut H) {
                self.count.hash(state);
            }
        }
        impl<U> PartialOrd for $name<U> {
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                Some(self.cmp(other))
            }
        }
        /// Orders by count; NaT (`i64::MIN`) sorts first.
        impl<U> Ord for $name<U> {
            fn cmp(&self, other: &Self) -> Ordering {
                self.count.cmp(&other.count)
            }
        }
        /// The `Display` text and the unit in brackets (none for the
        /// generic unit): see the type's docs.
        impl<U: TimeUnitMarker> fmt::Debug for $name<U> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let gap = if U::UNIT.unit == TimeUnit::Generic { "" } else { " " };
                write!(f, "{}({self}{gap}{})", stringify!($name), U::UNIT)
            }
        }

        /// numpy's `str()` of the value: see the type's docs.
        impl<U: TimeUnitMarker> fmt::Display for $name<U> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&U::UNIT.$show(self.count))
            }
        }

        /// Reads what `Display` prints (numpy's `str()`), converting the
        /// text's unit into `U` exactly or failing.
        impl<U: TimeUnitMarker> std::str::FromStr for $name<U> {
            type Err = crate::Error;
            fn from_str(s: &str) -> crate::Result<Self> {
                $parse(s, U::UNIT).map(Self::new).map_err(crate::Error::mismatch)
            }
        }

        impl<U: TimeUnitMarker> Serialize for $name<U> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_newtype_struct(U::$token, &self.count)
            }
        }

        impl<'de, U: TimeUnitMarker> Deserialize<'de> for $name<U> {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                deserializer
                    .deserialize_newtype_struct(U::$token, CountVisitor($what))
                    .map(Self::new)
            }
        }
    };
}

time_type!(
    /// A numpy `datetime64` in unit `U`: a count of units since
    /// 1970-01-01T00:00, written as `'<M8[unit]'`.
    ///
    /// ```
    /// use npy_serde::{Datetime64, unit};
    /// let bytes = npy_serde::to_vec(&vec![Datetime64::<unit::ns>::new(5), Datetime64::NAT]).unwrap();
    /// assert!(String::from_utf8_lossy(&bytes).contains("'descr': '<M8[ns]'"));
    /// assert_eq!(&bytes[128..136], &5i64.to_le_bytes());
    /// assert_eq!(&bytes[136..], &i64::MIN.to_le_bytes());
    /// ```
    ///
    /// `Display` prints what numpy's `str()` prints (ISO 8601 down to the
    /// unit, years before 1 and after 9999 as numpy writes them, `NaT`), and
    /// `FromStr` reads it back; [`SystemTime`](std::time::SystemTime)
    /// converts both ways, exactly or with an error.
    ///
    /// ```
    /// use npy_serde::{Datetime64, unit};
    /// let t = Datetime64::<unit::ms>::new(1_704_067_200_500);
    /// assert_eq!(t.to_string(), "2024-01-01T00:00:00.500");
    /// assert_eq!("2024-01-01T00:00:00.500".parse::<Datetime64<unit::ms>>()?, t);
    /// // a coarser text converts exactly; a finer one must be whole
    /// assert_eq!("2024-01-01".parse::<Datetime64<unit::s>>()?.count(), 1_704_067_200);
    /// assert!("2024-01-01T00:00:00.5".parse::<Datetime64<unit::s>>().is_err());
    /// assert_eq!(Datetime64::<unit::D>::NAT.to_string(), "NaT");
    /// let now = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_millis(1500);
    /// let t = Datetime64::<unit::ms>::try_from(now)?;
    /// assert_eq!(t.count(), 1500);
    /// assert_eq!(std::time::SystemTime::try_from(t)?, now);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    ///
    /// `Debug` prints the type, the `Display` text and the unit in
    /// brackets, `Datetime64(2004-08-19 [D])` (the count is
    /// [`count`](Self::count)):
    ///
    /// ```
    /// use npy_serde::{Datetime64, unit};
    /// let t = Datetime64::<unit::D>::new(12_649);
    /// assert_eq!(format!("{t:?}"), "Datetime64(2004-08-19 [D])");
    /// let t = Datetime64::<unit::ms>::new(1_704_067_200_500);
    /// assert_eq!(format!("{t:?}"), "Datetime64(2024-01-01T00:00:00.500 [ms])");
    /// assert_eq!(format!("{:?}", Datetime64::<unit::s>::NAT), "Datetime64(NaT [s])");
    /// ```
    ///
    /// Read into a plain `i64`, a `'<M8[unit]'` (or `'<m8[unit]'`) value
    /// gives its count of units, whatever the unit: the unit is not checked,
    /// as numpy's `.view('<i8')` does not check it.
    ///
    /// ```
    /// use npy_serde::{Datetime64, unit};
    /// let bytes = npy_serde::to_vec(&[Datetime64::<unit::ms>::new(1_500), Datetime64::NAT])?;
    /// let counts: Vec<i64> = npy_serde::from_slice(&bytes)?;
    /// assert_eq!(counts, [1_500, i64::MIN]);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    Datetime64,
    M8_TOKEN,
    "a datetime64 count",
    datetime_as_string,
    crate::kinds::timeconv::parse_datetime
);

time_type!(
    /// A numpy `timedelta64` in unit `U`: a signed count of units, written as
    /// `'<m8[unit]'`.
    ///
    /// ```
    /// use npy_serde::{Timedelta64, unit};
    /// let d = Timedelta64::<unit::ms>::new(-3);
    /// assert_eq!(serde_json::to_string(&d).unwrap(), "-3");
    /// ```
    ///
    /// `Display` prints what numpy's `str()` prints (`90 seconds`, `NaT`),
    /// `FromStr` reads it back; [`Duration`](std::time::Duration) converts
    /// both ways for non-negative values.
    ///
    /// ```
    /// use npy_serde::{Timedelta64, unit};
    /// let d = Timedelta64::<unit::s>::new(90);
    /// assert_eq!(d.to_string(), "90 seconds");
    /// assert_eq!("90 seconds".parse::<Timedelta64<unit::ms>>()?.count(), 90_000);
    /// let std = std::time::Duration::try_from(d)?;
    /// assert_eq!(Timedelta64::<unit::s>::try_from(std)?, d);
    /// # Ok::<(), npy_serde::Error>(())
    /// ```
    ///
    /// `Debug` prints the type, the `Display` text and the unit in
    /// brackets:
    ///
    /// ```
    /// use npy_serde::{Timedelta64, unit};
    /// let d = Timedelta64::<unit::s>::new(90);
    /// assert_eq!(format!("{d:?}"), "Timedelta64(90 seconds [s])");
    /// assert_eq!(format!("{:?}", Timedelta64::<unit::Generic>::new(3)), "Timedelta64(3 generic time units)");
    /// ```
    Timedelta64,
    M8_TOKEN_TD,
    "a timedelta64 count",
    timedelta_as_string,
    crate::kinds::timeconv::parse_timedelta
);

/// Seconds and the sub-second units, with how many of them make a second
/// and how many nanoseconds make one of them: the steps of the exact path
/// between numpy's units and other libraries' times (whole seconds first,
/// so that the count in the step stays small).
const STEPS: [(TimeUnit, i64, u32); 4] = [
    (TimeUnit::Seconds, 1, 1_000_000_000),
    (TimeUnit::Milliseconds, 1_000, 1_000_000),
    (TimeUnit::Microseconds, 1_000_000, 1_000),
    (TimeUnit::Nanoseconds, 1_000_000_000, 1),
];

/// The floor seconds and the nanoseconds (`0..1e9`) of a count of `unit`,
/// through the coarsest of [`STEPS`] that holds it exactly (NaT, counts
/// finer than nanoseconds and counts too large for every step refused).
/// `target` names the other side in NaT's refusal.
fn to_secs_nanos(
    count: i64,
    unit: DatetimeUnit,
    datetime: bool,
    target: &str,
) -> crate::Result<(i64, u32)> {
    if count == NAT {
        return Err(crate::Error::mismatch(format!("NaT has no {target}")));
    }
    let mut refusal = Refusal::Inexact;
    for (step, per, ns) in STEPS {
        match convert(count, unit, DatetimeUnit::new(step), datetime) {
            // per >= 1; the remainder is below 1e9 and times ns below 1e9
            Ok(n) => {
                let frac = u32::try_from(n.rem_euclid(per)).unwrap_or(0);
                return Ok((n.div_euclid(per), frac.saturating_mul(ns)));
            }
            Err(r) => refusal = r,
        }
    }
    let why = match refusal {
        Refusal::Generic => "the generic unit holds no time",
        Refusal::NoFixedLength => "years and months have no fixed length",
        _ => "not a whole number of nanoseconds within 64 bits",
    };
    Err(crate::Error::mismatch(format!(
        "{count} in unit {unit}: {why}"
    )))
}

/// A count of `unit` from nanoseconds since 1970-01-01 (or of a duration),
/// `|ns| < 2^100`: from its floor seconds and nanoseconds (`0..1e9`),
/// through the coarsest of [`STEPS`] that holds the nanoseconds, exactly or
/// refused.
fn from_nanos(ns: i128, unit: DatetimeUnit, datetime: bool) -> crate::Result<i64> {
    // nonzero divisors
    let (secs, nanos) = (ns.div_euclid(1_000_000_000), ns.rem_euclid(1_000_000_000));
    let nanos = u32::try_from(nanos).unwrap_or(0);
    let msg =
        |r: &str| crate::Error::mismatch(format!("{secs} s + {nanos} ns in unit {unit}: {r}"));
    let why = |r: Refusal| match r {
        Refusal::Inexact => "not a whole number of the unit",
        Refusal::Overflow => "overflows 64 bits",
        _ => "no such conversion",
    };
    let (step, per, ns) = STEPS
        .into_iter()
        .find(|&(_, _, ns)| nanos.checked_rem(ns) == Some(0))
        .unwrap_or(STEPS[3]);
    // |secs| * 1e9 + 1e9 is far inside an i128
    let n = secs
        .saturating_mul(i128::from(per))
        .saturating_add(i128::from(nanos.checked_div(ns).unwrap_or(nanos)));
    let step = DatetimeUnit::new(step);
    let n = i64::try_from(n).map_err(|_| msg(&format!("overflows 64 bits in unit {step}")))?;
    convert(n, step, unit, datetime).map_err(|r| msg(why(r)))
}

impl<U: TimeUnitMarker> TryFrom<Datetime64<U>> for std::time::SystemTime {
    type Error = crate::Error;
    /// The time, exactly; NaT and times the platform cannot hold fail.
    fn try_from(t: Datetime64<U>) -> crate::Result<Self> {
        let (secs, nanos) = to_secs_nanos(t.count(), U::UNIT, true, "std time")?;
        let epoch = std::time::SystemTime::UNIX_EPOCH;
        let out = if secs >= 0 {
            epoch.checked_add(std::time::Duration::new(secs.unsigned_abs(), nanos))
        } else {
            epoch
                .checked_sub(std::time::Duration::from_secs(secs.unsigned_abs()))
                .and_then(|t| t.checked_add(std::time::Duration::from_nanos(nanos.into())))
        };
        out.ok_or_else(|| crate::Error::mismatch(format!("{t} is out of the range of SystemTime")))
    }
}

impl<U: TimeUnitMarker> TryFrom<std::time::SystemTime> for Datetime64<U> {
    type Error = crate::Error;
    /// The count of `U` since 1970-01-01, exactly (a time finer than `U`
    /// fails, as a write into a coarser unit does).
    fn try_from(t: std::time::SystemTime) -> crate::Result<Self> {
        // a Duration's nanoseconds are below 2^95
        let ns = match t.duration_since(std::time::SystemTime::UNIX_EPOCH) {
            Ok(d) => d.as_nanos() as i128,
            Err(e) => (e.duration().as_nanos() as i128).wrapping_neg(),
        };
        // floor seconds within 64 bits, NaT's count left out
        if i64::try_from(ns.div_euclid(1_000_000_000)).is_ok_and(|s| s != NAT) {
            return from_nanos(ns, U::UNIT, true).map(Self::new);
        }
        Err(crate::Error::mismatch(
            "SystemTime overflows 64-bit seconds",
        ))
    }
}

impl<U: TimeUnitMarker> TryFrom<Timedelta64<U>> for std::time::Duration {
    type Error = crate::Error;
    /// The duration, exactly; NaT and negative values fail.
    fn try_from(d: Timedelta64<U>) -> crate::Result<Self> {
        let (secs, nanos) = to_secs_nanos(d.count(), U::UNIT, false, "std time")?;
        let secs = u64::try_from(secs)
            .map_err(|_| crate::Error::mismatch(format!("{d} is negative; a Duration is not")))?;
        Ok(std::time::Duration::new(secs, nanos))
    }
}

impl<U: TimeUnitMarker> TryFrom<std::time::Duration> for Timedelta64<U> {
    type Error = crate::Error;
    /// The count of `U`, exactly.
    fn try_from(d: std::time::Duration) -> crate::Result<Self> {
        if i64::try_from(d.as_secs()).is_err() {
            return Err(crate::Error::mismatch("Duration overflows 64-bit seconds"));
        }
        from_nanos(d.as_nanos() as i128, U::UNIT, false).map(Self::new)
    }
}

/// With the `chrono` feature: chrono's `NaiveDateTime` (a datetime in UTC,
/// as numpy's are) and `TimeDelta`, both ways through the same exact path
/// as std's times.
///
/// chrono's `NaiveDate` converts both ways with a datetime64 that is a whole
/// number of days since 1970-01-01, in any unit: `[D]`, and `[W]`, `[M]`,
/// `[Y]` or a finer unit when the value is such a day (a week, month or year
/// start; midnight); a time within a day is refused, not truncated.
#[cfg(feature = "chrono")]
mod with_chrono {
    use super::{Datetime64, TimeUnitMarker, Timedelta64, from_nanos, to_secs_nanos};
    use crate::format::dtype::{DatetimeUnit, TimeUnit};
    use crate::kinds::timeconv::{NAT, Refusal, convert};
    use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, TimeDelta};

    /// `NaiveDate::num_days_from_ce` of 1970-01-01.
    const EPOCH_DAYS_FROM_CE: i32 = 719_163;

    /// The date `count` of `unit` since 1970-01-01 is, when a whole day.
    fn date_of(count: i64, unit: DatetimeUnit) -> crate::Result<NaiveDate> {
        if count == NAT {
            return Err(crate::Error::mismatch("NaT has no chrono date"));
        }
        let fail = |why: &str| {
            let shown = unit.datetime_as_string(count);
            crate::Error::mismatch(format!("{shown} in unit {unit} {why}"))
        };
        let days = match convert(count, unit, DatetimeUnit::new(TimeUnit::Days), true) {
            Ok(days) => i32::try_from(days).ok(),
            Err(Refusal::Overflow) => None,
            Err(Refusal::Generic) => {
                let why = format!("{count} in the generic unit holds no date");
                return Err(crate::Error::mismatch(why));
            }
            Err(_) => {
                return Err(fail(
                    "is not a whole day, which a NaiveDate is; hint: convert to NaiveDateTime",
                ));
            }
        };
        days.and_then(|d| d.checked_add(EPOCH_DAYS_FROM_CE))
            .and_then(NaiveDate::from_num_days_from_ce_opt)
            .ok_or_else(|| fail("is out of the range of NaiveDate"))
    }

    /// The count of `unit` of the midnight starting `date`, exactly.
    fn count_of(date: NaiveDate, unit: DatetimeUnit) -> crate::Result<i64> {
        let days = i64::from(date.num_days_from_ce()).wrapping_sub(i64::from(EPOCH_DAYS_FROM_CE));
        convert(days, DatetimeUnit::new(TimeUnit::Days), unit, true).map_err(|r| {
            crate::Error::mismatch(match r {
                Refusal::Generic => format!("{date}: the generic unit holds no date"),
                Refusal::Overflow => format!("{date} overflows 64 bits in unit {unit}"),
                _ => format!("{date} is not a whole number of unit {unit} since 1970-01-01"),
            })
        })
    }

    impl<U: TimeUnitMarker> TryFrom<Datetime64<U>> for NaiveDate {
        type Error = crate::Error;
        /// The date, when the value is a whole number of days since
        /// 1970-01-01 (any unit; a time within a day is refused, not
        /// truncated); NaT and dates beyond chrono's years (±262,142) fail.
        ///
        /// ```
        /// use chrono::NaiveDate;
        /// use npy_serde::{Datetime64, unit};
        /// let t = Datetime64::<unit::D>::new(12_649);
        /// let d = NaiveDate::try_from(t)?;
        /// assert_eq!(d, NaiveDate::from_ymd_opt(2004, 8, 19).unwrap());
        /// assert_eq!(Datetime64::<unit::D>::try_from(d)?, t);
        /// // a finer unit at midnight is a date; any other time is not
        /// assert_eq!(NaiveDate::try_from(Datetime64::<unit::h>::new(12_649 * 24))?, d);
        /// let e = NaiveDate::try_from(Datetime64::<unit::h>::new(12_649 * 24 + 1)).unwrap_err();
        /// assert_eq!(
        ///     e.to_string(),
        ///     "2004-08-19T01 in unit [h] is not a whole day, which a NaiveDate is; \
        ///      hint: convert to NaiveDateTime"
        /// );
        /// assert!(NaiveDate::try_from(Datetime64::<unit::D>::NAT).is_err());
        /// # Ok::<(), npy_serde::Error>(())
        /// ```
        fn try_from(t: Datetime64<U>) -> crate::Result<Self> {
            date_of(t.count(), U::UNIT)
        }
    }

    impl<U: TimeUnitMarker> TryFrom<NaiveDate> for Datetime64<U> {
        type Error = crate::Error;
        /// The count of `U` of the date's midnight, exactly: any unit
        /// from days down (within 64 bits), and weeks, months or years
        /// when the date starts one (a Thursday for weeks, which numpy
        /// counts from Thursday 1970-01-01).
        ///
        /// ```
        /// use chrono::NaiveDate;
        /// use npy_serde::{Datetime64, unit};
        /// let d = NaiveDate::from_ymd_opt(2024, 3, 1).unwrap();
        /// assert_eq!(Datetime64::<unit::s>::try_from(d)?.count(), 1_709_251_200);
        /// assert_eq!(Datetime64::<unit::M>::try_from(d)?.to_string(), "2024-03");
        /// let e = Datetime64::<unit::M>::try_from(d.succ_opt().unwrap()).unwrap_err();
        /// assert_eq!(
        ///     e.to_string(),
        ///     "2024-03-02 is not a whole number of unit [M] since 1970-01-01"
        /// );
        /// # Ok::<(), npy_serde::Error>(())
        /// ```
        fn try_from(d: NaiveDate) -> crate::Result<Self> {
            count_of(d, U::UNIT).map(Self::new)
        }
    }

    impl<U: TimeUnitMarker> TryFrom<Datetime64<U>> for NaiveDateTime {
        type Error = crate::Error;
        /// The time, exactly; NaT, counts finer than nanoseconds and times
        /// beyond chrono's years (±262,142) fail.
        ///
        /// ```
        /// use chrono::NaiveDateTime;
        /// use npy_serde::{Datetime64, unit};
        /// let t = Datetime64::<unit::ms>::new(1_704_067_200_500);
        /// let c = NaiveDateTime::try_from(t)?;
        /// assert_eq!(c.to_string(), "2024-01-01 00:00:00.500");
        /// assert_eq!(Datetime64::<unit::ms>::try_from(c)?, t);
        /// // a time finer than the unit is refused, as a write would be
        /// assert!(Datetime64::<unit::s>::try_from(c).is_err());
        /// assert!(NaiveDateTime::try_from(Datetime64::<unit::s>::NAT).is_err());
        /// # Ok::<(), npy_serde::Error>(())
        /// ```
        fn try_from(t: Datetime64<U>) -> crate::Result<Self> {
            let (secs, nanos) = to_secs_nanos(t.count(), U::UNIT, true, "chrono time")?;
            DateTime::from_timestamp(secs, nanos)
                .map(|utc| utc.naive_utc())
                .ok_or_else(|| {
                    crate::Error::mismatch(format!("{t} is out of the range of NaiveDateTime"))
                })
        }
    }

    impl<U: TimeUnitMarker> TryFrom<NaiveDateTime> for Datetime64<U> {
        type Error = crate::Error;
        /// The count of `U` since 1970-01-01T00:00, exactly (a time finer
        /// than `U` fails; so does a leap second, which numpy cannot count).
        fn try_from(t: NaiveDateTime) -> crate::Result<Self> {
            let utc = t.and_utc();
            let nanos = utc.timestamp_subsec_nanos();
            if nanos >= 1_000_000_000 {
                return Err(crate::Error::mismatch(format!(
                    "{t} is a leap second, which a datetime64 cannot hold"
                )));
            }
            // |secs| < 2^43
            let ns = i128::from(utc.timestamp()).wrapping_mul(1_000_000_000);
            from_nanos(ns.wrapping_add(nanos.into()), U::UNIT, true).map(Self::new)
        }
    }

    impl<U: TimeUnitMarker> TryFrom<Timedelta64<U>> for TimeDelta {
        type Error = crate::Error;
        /// The duration, exactly; NaT, counts finer than nanoseconds and
        /// durations beyond chrono's (±2^63 ms) fail.
        ///
        /// ```
        /// use chrono::TimeDelta;
        /// use npy_serde::{Timedelta64, unit};
        /// let d = Timedelta64::<unit::us>::new(-1_500_001);
        /// let c = TimeDelta::try_from(d)?;
        /// assert_eq!(c, TimeDelta::microseconds(-1_500_001));
        /// assert_eq!(Timedelta64::<unit::us>::try_from(c)?, d);
        /// assert!(Timedelta64::<unit::ms>::try_from(c).is_err());
        /// # Ok::<(), npy_serde::Error>(())
        /// ```
        fn try_from(d: Timedelta64<U>) -> crate::Result<Self> {
            let (secs, nanos) = to_secs_nanos(d.count(), U::UNIT, false, "chrono time")?;
            TimeDelta::new(secs, nanos).ok_or_else(|| {
                crate::Error::mismatch(format!("{d} is out of the range of TimeDelta"))
            })
        }
    }

    impl<U: TimeUnitMarker> TryFrom<TimeDelta> for Timedelta64<U> {
        type Error = crate::Error;
        /// The count of `U`, exactly.
        fn try_from(d: TimeDelta) -> crate::Result<Self> {
            // chrono gives the nanoseconds the sign of the whole; its
            // seconds are within ±2^54, so neither step can wrap
            let ns = i128::from(d.num_seconds()).wrapping_mul(1_000_000_000);
            from_nanos(ns.wrapping_add(d.subsec_nanos().into()), U::UNIT, false).map(Self::new)
        }
    }
}

/// Reads the `i64` count: from our deserializer through
/// `visit_newtype_struct`, from others as a plain integer.
struct CountVisitor(&'static str);

impl<'de> Visitor<'de> for CountVisitor {
    type Value = i64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<i64, D::Error> {
        i64::deserialize(d)
    }
    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<i64, E> {
        Ok(v)
    }
    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<i64, E> {
        i64::try_from(v).map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        assert_eq!(unit::ns::M8_TOKEN, "$npy_serde::M8[ns]");
        assert_eq!(unit::Generic::M8_TOKEN, "$npy_serde::M8");
        assert_eq!(unit::as_::M8_TOKEN_TD, "$npy_serde::m8[as]");
        assert!(unit::s::M8_TOKEN.starts_with(crate::kinds::special::DATETIME_PREFIX));
    }

    #[test]
    fn nat_and_json() {
        let t = Datetime64::<unit::D>::NAT;
        assert!(t.is_nat());
        assert_eq!(format!("{t:?}"), "Datetime64(NaT [D])");
        assert_eq!(
            format!("{:?}", Datetime64::<unit::D>::new(3)),
            "Datetime64(1970-01-04 [D])"
        );
        assert_eq!(
            format!("{:?}", Timedelta64::<unit::Generic>::NAT),
            "Timedelta64(NaT)"
        );
        let back: Datetime64<unit::D> = serde_json::from_str("17").unwrap();
        assert_eq!(back.count(), 17);
        let back: Timedelta64<unit::D> = serde_json::from_str("-17").unwrap();
        assert_eq!(back.count(), -17);
    }
}
