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
    ($(#[$doc:meta])* $name:ident, $token:ident, $what:literal) => {
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
    Datetime64,
    M8_TOKEN,
    "a datetime64 count"
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
    Timedelta64,
    M8_TOKEN_TD,
    "a timedelta64 count"
);

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
