//! Datetime64/Timedelta64 text against numpy's `str()` (tests/fixtures/
//! times.txt, made by tools/gen_time_fixtures.py): Display prints the same
//! for every unit and multiplier, FromStr reads it back to the same count.

use npy_serde::{Datetime64, Dtype, ScalarType, Timedelta64, unit};

fn cases() -> Vec<(bool, npy_serde::DatetimeUnit, String, i64, String)> {
    let text = include_str!("../fixtures/times.txt");
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.splitn(3, ' ');
            let code = parts.next().unwrap();
            let count: i64 = parts.next().unwrap().parse().unwrap();
            let want = parts.next().unwrap().to_owned();
            let dt: Dtype = format!("<{code}").parse().unwrap();
            let (datetime, u) = match dt.as_scalar().unwrap().ty() {
                ScalarType::Datetime(u) => (true, u),
                ScalarType::Timedelta(u) => (false, u),
                other => panic!("{other:?}"),
            };
            let bracket = code[3..code.len() - 1].to_owned();
            (datetime, u, bracket, count, want)
        })
        .collect()
}

#[test]
fn display_is_numpys_str_for_every_unit_and_multiplier() {
    let cases = cases();
    assert!(cases.len() > 1000);
    for (datetime, u, code, count, want) in cases {
        let got = if datetime {
            u.datetime_as_string(count)
        } else {
            u.timedelta_as_string(count)
        };
        assert_eq!(
            got,
            want,
            "{} [{code}] {count}",
            if datetime { "M8" } else { "m8" }
        );
    }
}

/// Display and FromStr of the marker type named `code`, for one case.
fn check<T>(count: i64, want: &str, make: fn(i64) -> T, get: fn(&T) -> i64)
where
    T: std::fmt::Display + std::str::FromStr<Err = npy_serde::Error>,
{
    let v = make(count);
    assert_eq!(v.to_string(), want);
    let back: T = want.parse().unwrap_or_else(|e| panic!("{want}: {e}"));
    assert_eq!(get(&back), count, "{want}");
}

macro_rules! by_unit {
    ($datetime:expr, $code:expr, $count:expr, $want:expr; $($u:ident),*) => {
        match ($datetime, $code) {
            $(
                (true, stringify!($u)) => check::<Datetime64<unit::$u>>($count, $want, Datetime64::new, Datetime64::count),
                (false, stringify!($u)) => check::<Timedelta64<unit::$u>>($count, $want, Timedelta64::new, Timedelta64::count),
            )*
            _ => return false,
        }
    };
}

fn check_marker(datetime: bool, code: &str, count: i64, want: &str) -> bool {
    let code = if code == "as" { "as_" } else { code };
    by_unit!(datetime, code, count, want; Y, M, W, D, h, m, s, ms, us, ns, ps, fs, as_);
    true
}

#[test]
fn from_str_reads_numpys_str_back() {
    let mut checked = 0;
    for (datetime, _, code, count, want) in cases() {
        if check_marker(datetime, &code, count, &want) {
            checked += 1;
        }
    }
    assert!(checked > 300, "{checked}");
}

#[test]
fn text_in_another_unit_converts_exactly_or_fails() {
    insta::with_settings!({snapshot_path => "../../snapshots/npy_serde", prepend_module_to_snapshot => false}, {
        let errs = [
            "2024-01-01T00:00:00.5".parse::<Datetime64<unit::s>>().unwrap_err(),
            "2024-13-01".parse::<Datetime64<unit::s>>().unwrap_err(),
            "2023-02-29".parse::<Datetime64<unit::D>>().unwrap_err(),
            "yesterday".parse::<Datetime64<unit::D>>().unwrap_err(),
            "2024-01-02".parse::<Datetime64<unit::M>>().unwrap_err(),
            "3 months".parse::<Timedelta64<unit::D>>().unwrap_err(),
            "90 parsecs".parse::<Timedelta64<unit::s>>().unwrap_err(),
            std::time::SystemTime::try_from(Datetime64::<unit::s>::NAT).unwrap_err(),
            Datetime64::<unit::s>::try_from(
                std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_millis(1),
            )
            .unwrap_err(),
            std::time::Duration::try_from(Timedelta64::<unit::s>::new(-1)).unwrap_err(),
        ];
        insta::assert_snapshot!(
            "datetime_text_errors",
            errs.map(|e| e.to_string()).join("\n")
        );
    });
    assert_eq!(
        "2024-01-01"
            .parse::<Datetime64<unit::ms>>()
            .unwrap()
            .count(),
        1_704_067_200_000
    );
    assert_eq!(
        "1 minutes"
            .parse::<Timedelta64<unit::ms>>()
            .unwrap()
            .count(),
        60_000
    );
    assert_eq!(
        "2024-02"
            .parse::<Datetime64<unit::D>>()
            .unwrap()
            .to_string(),
        "2024-02-01"
    );
}

#[test]
fn system_time_round_trips() {
    use std::time::{Duration, SystemTime};
    for ns in [
        0i64,
        1,
        -1,
        1_500_000_000,
        -1_500_000_001,
        1_704_067_200_500_000_000,
    ] {
        let t = Datetime64::<unit::ns>::new(ns);
        let st = SystemTime::try_from(t).unwrap();
        assert_eq!(Datetime64::<unit::ns>::try_from(st).unwrap(), t, "{ns}");
    }
    // a coarse unit far from the epoch goes through whole seconds
    let t = Datetime64::<unit::D>::new(100_000);
    let st = SystemTime::try_from(t).unwrap();
    assert_eq!(
        st.duration_since(SystemTime::UNIX_EPOCH).unwrap(),
        Duration::from_secs(8_640_000_000)
    );
    assert_eq!(Datetime64::<unit::D>::try_from(st).unwrap(), t);
    let d = Timedelta64::<unit::us>::new(2_500_001);
    assert_eq!(
        Duration::try_from(d).unwrap(),
        Duration::new(2, 500_001_000)
    );
    assert_eq!(
        Timedelta64::<unit::us>::try_from(Duration::new(2, 500_001_000)).unwrap(),
        d
    );
}
