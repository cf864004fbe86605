//! Feature `chrono`: `Datetime64` <-> `NaiveDateTime` / `NaiveDate` and
//! `Timedelta64` <-> `TimeDelta`, exact or an error, checked against
//! chrono's own calendar.

use chrono::{Datelike, NaiveDate, NaiveDateTime, TimeDelta, Timelike};
use npy_serde::{Datetime64, Timedelta64, unit};

#[test]
fn datetimes_round_trip_exactly() {
    for ns in [
        0i64,
        1,
        -1,
        1_500_000_000,
        -1_500_000_001,
        1_704_067_200_500_000_001,
        i64::MAX,
        i64::MIN + 1,
    ] {
        let t = Datetime64::<unit::ns>::new(ns);
        let c = NaiveDateTime::try_from(t).unwrap();
        let utc = c.and_utc();
        let back =
            i128::from(utc.timestamp()) * 1_000_000_000 + i128::from(utc.timestamp_subsec_nanos());
        assert_eq!(back, i128::from(ns));
        assert_eq!(Datetime64::<unit::ns>::try_from(c).unwrap(), t, "{ns}");
    }
    // calendar units go through the calendar: month 649 since 1970 is 2024-02
    let m = Datetime64::<unit::M>::new(649);
    let c = NaiveDateTime::try_from(m).unwrap();
    assert_eq!(
        c,
        NaiveDate::from_ymd_opt(2024, 2, 1)
            .unwrap()
            .and_hms_opt(0, 0, 0)
            .unwrap()
    );
    assert_eq!(Datetime64::<unit::M>::try_from(c).unwrap(), m);
    // far from the epoch in a coarse unit: whole seconds, no nanosecond step
    let y = Datetime64::<unit::Y>::new(200_000);
    let c = NaiveDateTime::try_from(y).unwrap();
    assert_eq!(c.and_utc().timestamp(), {
        let d = NaiveDate::from_ymd_opt(201_970, 1, 1).unwrap();
        d.and_hms_opt(0, 0, 0).unwrap().and_utc().timestamp()
    });
    assert_eq!(Datetime64::<unit::Y>::try_from(c).unwrap(), y);
}

/// numpy's text of a datetime (this crate's `Display`) and chrono's agree
/// on the calendar, day by day over 16,000 years and second by second
/// around the epoch.
#[test]
fn calendar_agrees_with_chrono() {
    let ymd = |c: NaiveDateTime| format!("{:04}-{:02}-{:02}", c.year(), c.month(), c.day());
    for day in (-3_000_000i64..3_000_000).step_by(367) {
        let t = Datetime64::<unit::D>::new(day);
        let c = NaiveDateTime::try_from(t).unwrap();
        assert_eq!(t.to_string(), ymd(c), "day {day}");
    }
    for s in (-200_000i64..200_000).step_by(7) {
        let t = Datetime64::<unit::s>::new(s);
        let c = NaiveDateTime::try_from(t).unwrap();
        let hms = format!("{:02}:{:02}:{:02}", c.hour(), c.minute(), c.second());
        assert_eq!(t.to_string(), format!("{}T{hms}", ymd(c)), "second {s}");
    }
}

#[test]
fn timedeltas_round_trip_exactly() {
    for us in [0i64, 1, -1, 2_500_001, -2_500_001, 86_400_000_000] {
        let d = Timedelta64::<unit::us>::new(us);
        let c = TimeDelta::try_from(d).unwrap();
        assert_eq!(c, TimeDelta::microseconds(us));
        assert_eq!(Timedelta64::<unit::us>::try_from(c).unwrap(), d);
    }
    let w = Timedelta64::<unit::W>::new(-3);
    assert_eq!(TimeDelta::try_from(w).unwrap(), TimeDelta::weeks(-3));
    assert_eq!(
        Timedelta64::<unit::h>::try_from(TimeDelta::weeks(-3))
            .unwrap()
            .count(),
        -504
    );
    // the ends of chrono's range (±(2^63 - 1) ms) convert
    for c in [TimeDelta::MAX, TimeDelta::MIN] {
        let d = Timedelta64::<unit::ms>::try_from(c).unwrap();
        assert_eq!(TimeDelta::try_from(d).unwrap(), c);
    }
}

#[test]
fn inexact_conversions_are_errors() {
    let leap = NaiveDate::from_ymd_opt(2016, 12, 31)
        .unwrap()
        .and_hms_milli_opt(23, 59, 59, 1_500)
        .unwrap();
    let half_second = NaiveDateTime::try_from(Datetime64::<unit::ms>::new(500)).unwrap();
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        let errs = [
            NaiveDateTime::try_from(Datetime64::<unit::s>::NAT).unwrap_err(),
            NaiveDateTime::try_from(Datetime64::<unit::s>::new(i64::MAX)).unwrap_err(),
            NaiveDateTime::try_from(Datetime64::<unit::ps>::new(1)).unwrap_err(),
            Datetime64::<unit::s>::try_from(half_second).unwrap_err(),
            Datetime64::<unit::D>::try_from(leap).unwrap_err(),
            Datetime64::<unit::M>::try_from(
                NaiveDateTime::try_from(Datetime64::<unit::D>::new(1)).unwrap(),
            )
            .unwrap_err(),
            Datetime64::<unit::ns>::try_from(
                NaiveDateTime::try_from(Datetime64::<unit::D>::new(1_000_000)).unwrap(),
            )
            .unwrap_err(),
            TimeDelta::try_from(Timedelta64::<unit::ms>::NAT).unwrap_err(),
            TimeDelta::try_from(Timedelta64::<unit::s>::new(i64::MAX)).unwrap_err(),
            TimeDelta::try_from(Timedelta64::<unit::M>::new(1)).unwrap_err(),
            Timedelta64::<unit::s>::try_from(TimeDelta::milliseconds(-1)).unwrap_err(),
            Timedelta64::<unit::ns>::try_from(TimeDelta::MAX).unwrap_err(),
        ];
        insta::assert_snapshot!(
            "chrono_conversion_errors",
            errs.map(|e| e.to_string()).join("\n")
        );
    });
}

/// `NaiveDate` from and to a datetime64 of whole days, in every unit that
/// can hold the day, against chrono's own day count.
#[test]
fn dates_round_trip_exactly() {
    let epoch = NaiveDate::from_ymd_opt(1970, 1, 1).unwrap();
    for day in (-3_000_000i64..3_000_000)
        .step_by(367)
        .chain([0, -1, 1, 12_649])
    {
        let d = epoch + TimeDelta::days(day);
        let t = Datetime64::<unit::D>::new(day);
        assert_eq!(NaiveDate::try_from(t).unwrap(), d, "day {day}");
        assert_eq!(Datetime64::<unit::D>::try_from(d).unwrap(), t, "day {day}");
        // finer units: the date's midnight, both ways
        let h = Datetime64::<unit::h>::new(day * 24);
        assert_eq!(NaiveDate::try_from(h).unwrap(), d, "day {day}");
        assert_eq!(Datetime64::<unit::h>::try_from(d).unwrap(), h, "day {day}");
        let s = Datetime64::<unit::s>::new(day * 86_400);
        assert_eq!(NaiveDate::try_from(s).unwrap(), d, "day {day}");
        assert_eq!(Datetime64::<unit::s>::try_from(d).unwrap(), s, "day {day}");
        // the same date as NaiveDateTime's midnight
        assert_eq!(
            NaiveDateTime::try_from(t).unwrap(),
            d.and_hms_opt(0, 0, 0).unwrap()
        );
    }
    // ns holds ±292 years around 1970
    let d = NaiveDate::from_ymd_opt(2262, 4, 11).unwrap();
    let t = Datetime64::<unit::ns>::try_from(d).unwrap();
    assert_eq!(NaiveDate::try_from(t).unwrap(), d);
    // calendar units: a month or year start; weeks from Thursday 1970-01-01
    let m = Datetime64::<unit::M>::new(649);
    let d = NaiveDate::try_from(m).unwrap();
    assert_eq!(d, NaiveDate::from_ymd_opt(2024, 2, 1).unwrap());
    assert_eq!(Datetime64::<unit::M>::try_from(d).unwrap(), m);
    let y = Datetime64::<unit::Y>::new(-3_970);
    let d = NaiveDate::try_from(y).unwrap();
    assert_eq!(d, NaiveDate::from_ymd_opt(-2000, 1, 1).unwrap());
    assert_eq!(Datetime64::<unit::Y>::try_from(d).unwrap(), y);
    let w = Datetime64::<unit::W>::new(-5);
    let d = NaiveDate::try_from(w).unwrap();
    assert_eq!(d, epoch - TimeDelta::days(35));
    assert_eq!(d.weekday(), chrono::Weekday::Thu);
    assert_eq!(Datetime64::<unit::W>::try_from(d).unwrap(), w);
    // chrono's own ends
    for d in [NaiveDate::MIN, NaiveDate::MAX] {
        let t = Datetime64::<unit::D>::try_from(d).unwrap();
        assert_eq!(NaiveDate::try_from(t).unwrap(), d);
    }
}

#[test]
fn inexact_dates_are_errors() {
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        let errs = [
            NaiveDate::try_from(Datetime64::<unit::D>::NAT).unwrap_err(),
            NaiveDate::try_from(Datetime64::<unit::D>::new(i64::MAX)).unwrap_err(),
            NaiveDate::try_from(Datetime64::<unit::h>::new(12_649 * 24 + 13)).unwrap_err(),
            NaiveDate::try_from(Datetime64::<unit::ms>::new(-1)).unwrap_err(),
            NaiveDate::try_from(Datetime64::<unit::Generic>::new(5)).unwrap_err(),
            Datetime64::<unit::M>::try_from(NaiveDate::from_ymd_opt(2024, 2, 2).unwrap())
                .unwrap_err(),
            Datetime64::<unit::W>::try_from(NaiveDate::from_ymd_opt(1970, 1, 2).unwrap())
                .unwrap_err(),
            Datetime64::<unit::ns>::try_from(NaiveDate::from_ymd_opt(2263, 1, 1).unwrap())
                .unwrap_err(),
            Datetime64::<unit::Generic>::try_from(NaiveDate::from_ymd_opt(1970, 1, 1).unwrap())
                .unwrap_err(),
        ];
        insta::assert_snapshot!(
            "chrono_date_errors",
            errs.map(|e| e.to_string()).join("\n")
        );
    });
}
