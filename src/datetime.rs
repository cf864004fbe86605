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

use crate::dtype::{DatetimeUnit, TimeUnit};

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
    use crate::dtype::{DatetimeUnit, TimeUnit};

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

// the count numpy uses for NaT
use crate::timeconv::NAT;

macro_rules! time_type {
    ($(#[$doc:meta])* $name:ident, $token:ident, $what:literal, $show:path, $parse:path) => {
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
        impl<U: TimeUnitMarker> fmt::Debug for $name<U> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                if self.is_nat() {
                    write!(f, "{}(NaT)", stringify!($name))
                } else if U::UNIT.unit == TimeUnit::Generic {
                    write!(f, "{}({})", stringify!($name), self.count)
                } else {
                    write!(f, "{}({} {})", stringify!($name), self.count, U::UNIT.unit.code())
                }
            }
        }

        /// numpy's `str()` of the value: see the type's docs.
        impl<U: TimeUnitMarker> fmt::Display for $name<U> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&$show(self.count, U::UNIT))
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
    Datetime64,
    M8_TOKEN,
    "a datetime64 count",
    crate::timeconv::datetime_string,
    crate::timeconv::parse_datetime
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
    Timedelta64,
    M8_TOKEN_TD,
    "a timedelta64 count",
    crate::timeconv::timedelta_string,
    crate::timeconv::parse_timedelta
);

/// The whole seconds and the nanoseconds of a count of `unit` (NaT and
/// counts that do not fit refused): the exact path between numpy's units
/// and std's times.
fn to_secs_nanos(count: i64, unit: DatetimeUnit, datetime: bool) -> crate::Result<(i64, u32)> {
    let what = || format!("{count} in unit {unit}");
    if count == NAT {
        return Err(crate::Error::mismatch("NaT has no std time"));
    }
    let s = DatetimeUnit::new(TimeUnit::Seconds);
    let ns = DatetimeUnit::new(TimeUnit::Nanoseconds);
    if let Ok(secs) = crate::timeconv::convert(count, unit, s, datetime) {
        return Ok((secs, 0));
    }
    let n = crate::timeconv::convert(count, unit, ns, datetime).map_err(|_| {
        crate::Error::mismatch(format!(
            "{} is not a whole number of nanoseconds within 64 bits",
            what()
        ))
    })?;
    let nanos = u32::try_from(n.rem_euclid(1_000_000_000)).unwrap_or(0);
    Ok((n.div_euclid(1_000_000_000), nanos))
}

/// A count of `unit` from whole seconds and nanoseconds, exactly or refused.
fn from_secs_nanos(
    secs: i64,
    nanos: u32,
    unit: DatetimeUnit,
    datetime: bool,
) -> crate::Result<i64> {
    let msg = |r| crate::Error::mismatch(format!("{secs} s + {nanos} ns in unit {unit}: {r}"));
    let why = |r: crate::timeconv::Refusal| match r {
        crate::timeconv::Refusal::Inexact => "not a whole number of the unit",
        crate::timeconv::Refusal::Overflow => "overflows 64 bits",
        _ => "no such conversion",
    };
    if nanos == 0 {
        return crate::timeconv::convert(
            secs,
            DatetimeUnit::new(TimeUnit::Seconds),
            unit,
            datetime,
        )
        .map_err(|r| msg(why(r)));
    }
    let n = secs
        .checked_mul(1_000_000_000)
        .and_then(|n| n.checked_add(i64::from(nanos)))
        .ok_or_else(|| msg("overflows 64 bits in nanoseconds"))?;
    crate::timeconv::convert(n, DatetimeUnit::new(TimeUnit::Nanoseconds), unit, datetime)
        .map_err(|r| msg(why(r)))
}

impl<U: TimeUnitMarker> TryFrom<Datetime64<U>> for std::time::SystemTime {
    type Error = crate::Error;
    /// The time, exactly; NaT and times the platform cannot hold fail.
    fn try_from(t: Datetime64<U>) -> crate::Result<Self> {
        let (secs, nanos) = to_secs_nanos(t.count(), U::UNIT, true)?;
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
        let (secs, nanos) = match t.duration_since(std::time::SystemTime::UNIX_EPOCH) {
            Ok(d) => (i64::try_from(d.as_secs()).ok(), d.subsec_nanos()),
            Err(e) => {
                let d = e.duration();
                // before the epoch: -(s + n) = -(s + 1) + (1e9 - n)
                match d.subsec_nanos() {
                    0 => (i64::try_from(d.as_secs()).ok().map(|s| s.wrapping_neg()), 0),
                    n => (
                        i64::try_from(d.as_secs())
                            .ok()
                            .and_then(|s| s.checked_add(1))
                            .map(|s| s.wrapping_neg()),
                        1_000_000_000_u32.saturating_sub(n),
                    ),
                }
            }
        };
        let secs =
            secs.ok_or_else(|| crate::Error::mismatch("SystemTime overflows 64-bit seconds"))?;
        from_secs_nanos(secs, nanos, U::UNIT, true).map(Self::new)
    }
}

impl<U: TimeUnitMarker> TryFrom<Timedelta64<U>> for std::time::Duration {
    type Error = crate::Error;
    /// The duration, exactly; NaT and negative values fail.
    fn try_from(d: Timedelta64<U>) -> crate::Result<Self> {
        let (secs, nanos) = to_secs_nanos(d.count(), U::UNIT, false)?;
        let secs = u64::try_from(secs)
            .map_err(|_| crate::Error::mismatch(format!("{d} is negative; a Duration is not")))?;
        Ok(std::time::Duration::new(secs, nanos))
    }
}

impl<U: TimeUnitMarker> TryFrom<std::time::Duration> for Timedelta64<U> {
    type Error = crate::Error;
    /// The count of `U`, exactly.
    fn try_from(d: std::time::Duration) -> crate::Result<Self> {
        let secs = i64::try_from(d.as_secs())
            .map_err(|_| crate::Error::mismatch("Duration overflows 64-bit seconds"))?;
        from_secs_nanos(secs, d.subsec_nanos(), U::UNIT, false).map(Self::new)
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
        assert!(unit::s::M8_TOKEN.starts_with(crate::special::DATETIME_PREFIX));
    }

    #[test]
    fn nat_and_json() {
        let t = Datetime64::<unit::D>::NAT;
        assert!(t.is_nat());
        assert_eq!(format!("{t:?}"), "Datetime64(NaT)");
        assert_eq!(
            format!("{:?}", Datetime64::<unit::D>::new(3)),
            "Datetime64(3 D)"
        );
        let back: Datetime64<unit::D> = serde_json::from_str("17").unwrap();
        assert_eq!(back.count(), 17);
        let back: Timedelta64<unit::D> = serde_json::from_str("-17").unwrap();
        assert_eq!(back.count(), -17);
    }
}
