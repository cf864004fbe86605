//! Round trips over generated values: whatever `to_vec` accepts,
//! `from_slice` gives back unchanged.

mod common;

use derive_tests::*;
use half::f16;
use npy_serde::{Datetime64, Timedelta64};
use num_complex::Complex;
use proptest::num::{f32 as pf32, f64 as pf64};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

fn finite64() -> impl Strategy<Value = f64> {
    pf64::NORMAL | pf64::SUBNORMAL | pf64::ZERO | pf64::INFINITE
}
fn finite32() -> impl Strategy<Value = f32> {
    pf32::NORMAL | pf32::SUBNORMAL | pf32::ZERO | pf32::INFINITE
}
/// Strings that do not end in NUL (numpy strips trailing NULs).
fn text() -> impl Strategy<Value = String> {
    "[^\\x00]{0,6}|[\\x00-\\x{10FFFF}]{0,4}[^\\x00]"
}
fn color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::Red), Just(Color::Green), Just(Color::Blue)]
}

prop_compose! {
    fn particle()(id in any::<u32>(), pos in [finite64(), finite64(), finite64()],
                  vel in [finite32(), finite32(), finite32()], charge in any::<i8>(),
                  alive in any::<bool>()) -> Particle {
        Particle { id, pos, vel, charge, alive }
    }
}

prop_compose! {
    fn mixed()(id in any::<i64>(), name in text(), pos in [finite64(), finite64()],
               x in finite64(), y in finite64(), pair in (any::<u8>(), finite32()),
               color in color(), re in finite64(), im in finite64()) -> Mixed {
        Mixed { id, name, pos, inner: Inner { x, y }, pair, color, z: Complex::new(re, im) }
    }
}

prop_compose! {
    fn ints()(a in any::<i8>(), b in any::<i16>(), c in any::<i32>(), d in any::<i64>()) -> Ints {
        Ints { a, b, c, d }
    }
}

prop_compose! {
    fn half()(bits in any::<u16>().prop_filter("not NaN", |b| !f16::from_bits(*b).is_nan())) -> Half {
        Half { h: f16::from_bits(bits) }
    }
}

prop_compose! {
    fn times()(at in any::<i64>(), took in any::<i64>()) -> Times {
        Times { at: Datetime64::new(at), took: Timedelta64::new(took) }
    }
}

prop_compose! {
    fn raw_bytes()(mut raw in proptest::collection::vec(any::<u8>(), 0..8), last in 1u8..) -> Bytes {
        raw.push(last);
        Bytes { raw }
    }
}

fn roundtrip<T>(samples: &Vec<T>) -> Result<(), TestCaseError>
where
    T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
{
    let bytes = npy_serde::to_vec(samples).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let back: Vec<T> =
        npy_serde::from_slice(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&back, samples);
    Ok(())
}

proptest! {
    #[test]
    fn particles(v in proptest::collection::vec(particle(), 1..6)) {
        roundtrip(&v)?;
    }

    #[test]
    fn mixed_records(v in proptest::collection::vec(mixed(), 1..6)) {
        roundtrip(&v)?;
    }

    #[test]
    fn integers(v in proptest::collection::vec(ints(), 1..6)) {
        roundtrip(&v)?;
    }

    #[test]
    fn half_floats_are_bit_exact(v in proptest::collection::vec(half(), 1..6)) {
        roundtrip(&v)?;
    }

    #[test]
    fn datetimes(v in proptest::collection::vec(times(), 1..6)) {
        roundtrip(&v)?;
    }

    #[test]
    fn byte_strings(v in proptest::collection::vec(raw_bytes(), 1..6)) {
        roundtrip(&v)?;
    }

    #[test]
    fn equal_length_vecs(len in 1usize..4, n in 1usize..5, seed in any::<u32>()) {
        let v: Vec<VecField> = (0..n)
            .map(|i| VecField { samples: (0..len).map(|j| (seed as f32) + (i * 10 + j) as f32).collect() })
            .collect();
        roundtrip(&v)?;
    }
}
