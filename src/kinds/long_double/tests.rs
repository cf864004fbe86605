//! Hand-encoded long doubles with their values worked out in the comments.
//! (The numpy-made x87 fixture and the Python-computed binary128 and
//! double-double tables are read by tests/read/long_double.rs.)

use super::*;

fn x87_bytes(se: u16, mant: u64) -> [u8; 16] {
    let mut b = [0xee; 16]; // padding: ignored
    b[..8].copy_from_slice(&mant.to_le_bytes());
    b[8..10].copy_from_slice(&se.to_le_bytes());
    b
}

fn x87_f64(se: u16, mant: u64) -> f64 {
    let le = x87_bytes(se, mant);
    let d = long_double_to_f64(&le, LongDouble::X87, true);
    // '>f16': numpy's byte swap reverses all 16 bytes
    let mut be = le;
    be.reverse();
    let e = long_double_to_f64(&be, LongDouble::X87, false);
    assert_eq!(d.to_bits(), e.to_bits());
    // '<f12': the same 10 bytes, 2 of padding
    let d12 = long_double_to_f64(&le[..12], LongDouble::X87, true);
    assert_eq!(d.to_bits(), d12.to_bits());
    d
}

fn q_f64(bits: u128) -> f64 {
    let d = long_double_to_f64(&bits.to_le_bytes(), LongDouble::Binary128, true);
    let e = long_double_to_f64(&bits.to_be_bytes(), LongDouble::Binary128, false);
    assert_eq!(d.to_bits(), e.to_bits());
    d
}

fn dd(hi: f64, lo: f64) -> (f64, f32) {
    let mut le = [0u8; 16];
    le[..8].copy_from_slice(&hi.to_le_bytes());
    le[8..].copy_from_slice(&lo.to_le_bytes());
    let mut be = [0u8; 16];
    be[..8].copy_from_slice(&hi.to_be_bytes());
    be[8..].copy_from_slice(&lo.to_be_bytes());
    let a = long_double_to_f64_f32(&le, LongDouble::DoubleDouble, true).unwrap();
    let b = long_double_to_f64_f32(&be, LongDouble::DoubleDouble, false).unwrap();
    assert_eq!(
        (a.0.to_bits(), a.1.to_bits()),
        (b.0.to_bits(), b.1.to_bits())
    );
    a
}

const J: u64 = 1 << 63; // the x87 integer bit

#[test]
fn x87_values() {
    // 1.0: exponent 16383, mantissa 1.000...
    assert_eq!(x87_f64(0x3fff, J), 1.0);
    // -2.5 = -1.25 * 2^1
    assert_eq!(x87_f64(0xc000, J | (1 << 61)), -2.5);
    // 1/3 = 0xaaaa_aaaa_aaaa_aaab * 2^(16381 - 16383 - 63): rounding the
    // 64-bit mantissa to 53 drops 0x2ab < 0x400 (half): down
    assert_eq!(x87_f64(0x3ffd, 0xaaaa_aaaa_aaaa_aaab), 1.0 / 3.0);
    // 1 + 2^-53: halfway between 1 and 1 + 2^-52, ties to even: 1
    assert_eq!(x87_f64(0x3fff, J | (1 << 10)), 1.0);
    // 1 + 3 * 2^-53: halfway, the even neighbour is 1 + 2^-51
    assert_eq!(x87_f64(0x3fff, J | (3 << 10)), 1.0 + 2f64.powi(-51));
    // 1 + 2^-53 + 2^-63: above halfway: up
    assert_eq!(x87_f64(0x3fff, J | (1 << 10) | 1), 1.0 + f64::EPSILON);
    // f64::MAX exactly, and plus half an ulp (a tie whose even side is
    // 2^1024: overflow), and just below that
    let max = 0xffff_ffff_ffff_f800; // 53 ones: (2 - 2^-52) * 2^1023
    assert_eq!(x87_f64(0x43fe, max), f64::MAX);
    assert_eq!(x87_f64(0x43fe, max | (1 << 10)), f64::INFINITY);
    assert_eq!(x87_f64(0x43fe, max | ((1 << 10) - 1)), f64::MAX);
    assert_eq!(x87_f64(0xc3ff, J), f64::NEG_INFINITY); // -2^1024
    // 2^-1074 (the smallest subnormal): exponent 16383 - 1074
    assert_eq!(x87_f64(0x3fff - 1074, J).to_bits(), 1);
    // 1.5 * 2^-1074: a tie between 1 and 2 units: 2
    assert_eq!(x87_f64(0x3fff - 1074, J | (1 << 62)).to_bits(), 2);
    // 2^-1075: a tie between 0 and 1 unit: 0; a hair above it: 1 unit
    assert_eq!(x87_f64(0x3fff - 1075, J).to_bits(), 0);
    assert_eq!(x87_f64(0x3fff - 1075, J | 1).to_bits(), 1);
    assert_eq!(
        x87_f64(0xbfff - 1075, J | 1).to_bits(),
        0x8000_0000_0000_0001
    );
    // 2^-1022 - 2^-1086 (64 ones * 2^-1086) rounds up to the smallest normal
    assert_eq!(
        x87_f64(0x3fff - 1023, u64::MAX).to_bits(),
        0x0010_0000_0000_0000
    );
    // zeros, a denormal and a pseudo-denormal (both far below f64: 0)
    assert_eq!(x87_f64(0, 0).to_bits(), 0);
    assert_eq!(x87_f64(0x8000, 0).to_bits(), 0x8000_0000_0000_0000);
    assert_eq!(x87_f64(0x8000, 1).to_bits(), 0x8000_0000_0000_0000);
    assert_eq!(x87_f64(0, J | 1).to_bits(), 0);
    // infinities, NaNs (payload's top 52 bits, quiet), the invalid encodings
    assert_eq!(x87_f64(0x7fff, J), f64::INFINITY);
    assert_eq!(x87_f64(0xffff, J), f64::NEG_INFINITY);
    assert_eq!(
        x87_f64(0x7fff, J | (1 << 62)).to_bits(),
        0x7ff8_0000_0000_0000
    );
    assert_eq!(
        x87_f64(0xffff, J | (1 << 62) | (1 << 11)).to_bits(),
        0xfff8_0000_0000_0001
    );
    assert_eq!(x87_f64(0x7fff, J | 1).to_bits(), 0x7ff8_0000_0000_0000); // signalling
    for (se, mant) in [
        (0x7fff, 0),
        (0x7fff, 1 << 62),
        (0x3fff, 1 << 62),
        (0x3fff, 0),
    ] {
        assert_eq!(x87_f64(se, mant).to_bits(), 0xfff8_0000_0000_0000);
    }
}

#[test]
fn binary128_values() {
    const E: u32 = 112; // fraction bits
    let one = 0x3fffu128 << E;
    assert_eq!(q_f64(one), 1.0);
    // -2.5 = -1.25 * 2^1
    assert_eq!(q_f64((0xc000u128 << E) | (1u128 << (E - 2))), -2.5);
    // 1/3 rounded to 113 bits: 1.0101...01 * 2^-2, the fraction 0x5555...5
    // (112 bits: the bit after is 0, so rounding to 113 bits truncates)
    let third = (0x3ffdu128 << E) | (((1u128 << E) - 1) / 3);
    assert_eq!(q_f64(third), 1.0 / 3.0);
    // ties: 1 + 2^-53 -> 1; 1 + 3 * 2^-53 -> 1 + 2^-51; a hair above -> up
    assert_eq!(q_f64(one | (1u128 << (E - 53))), 1.0);
    assert_eq!(q_f64(one | (3u128 << (E - 53))), 1.0 + 2f64.powi(-51));
    assert_eq!(q_f64(one | (1u128 << (E - 53)) | 1), 1.0 + f64::EPSILON);
    // the smallest binary128 subnormal (2^-16494), the largest finite
    // (about 1.19e4932), infinities, NaN
    assert_eq!(q_f64(1).to_bits(), 0);
    assert_eq!(
        q_f64(0x7ffe_ffff_ffff_ffff_ffff_ffff_ffff_ffff),
        f64::INFINITY
    );
    assert_eq!(q_f64(0x7fffu128 << E), f64::INFINITY);
    assert_eq!(q_f64(0xffffu128 << E), f64::NEG_INFINITY);
    assert!(q_f64((0x7fffu128 << E) | 1).is_nan());
    assert_eq!(q_f64(1u128 << 127).to_bits(), 0x8000_0000_0000_0000);
    // 2^-1074 and 3 * 2^-1075 (a tie between 1 and 2 units: 2)
    assert_eq!(q_f64((0x3fffu128 - 1074) << E).to_bits(), 1);
    assert_eq!(
        q_f64(((0x3fffu128 - 1074) << E) | (1u128 << (E - 1))).to_bits(),
        2
    );
}

#[test]
fn double_double_values() {
    assert_eq!(dd(1.0, 0.0), (1.0, 1.0));
    assert_eq!(dd(-2.5, 0.0), (-2.5, -2.5));
    // 1/3 as a double-double: hi = 1/3 rounded, lo the rest rounded
    let lo = -(1.0 / 3.0) / 3.0 * f64::EPSILON / 4.0; // below ulp(hi) / 2
    assert_eq!(dd(1.0 / 3.0, lo).0, 1.0 / 3.0);
    // 1 + 2^-24 is halfway between two f32s (ties to even: 1.0); a tiny
    // lo decides the direction, which rounding through f64 would lose
    let mid = 1.0 + 2f64.powi(-24);
    assert_eq!(dd(mid, 0.0), (mid, 1.0));
    assert_eq!(dd(mid, 1e-300), (mid, 1.0 + f32::EPSILON));
    assert_eq!(dd(mid, -1e-300), (mid, 1.0));
    // a tie in f64 too: hi = 1, lo = 2^-53 (not normalized) -> 1; plus a
    // hair -> up
    assert_eq!(dd(1.0, 2f64.powi(-53)).0, 1.0);
    assert_eq!(
        dd(1.0, 2f64.powi(-53) + 2f64.powi(-100)).0,
        1.0 + f64::EPSILON
    );
    // 1 - 2^-54 - 2^-100: just below the tie between 1 - 2^-53 and 1
    assert_eq!(
        dd(1.0, -2f64.powi(-54) - 2f64.powi(-100)).0,
        1.0 - f64::EPSILON / 2.0
    );
    assert_eq!(dd(1.0, -2f64.powi(-54)).0, 1.0);
    // zeros keep hi's sign; x + (-x) is +0
    assert_eq!(dd(-0.0, 0.0).0.to_bits(), 0x8000_0000_0000_0000);
    assert_eq!(dd(0.0, -0.0).0.to_bits(), 0);
    assert_eq!(dd(2.0, -2.0).0.to_bits(), 0);
    // specials: hi decides
    assert_eq!(dd(f64::INFINITY, 0.0).0, f64::INFINITY);
    assert_eq!(dd(f64::NEG_INFINITY, 1.0).0, f64::NEG_INFINITY);
    assert!(dd(f64::NAN, 0.0).0.is_nan() && dd(f64::NAN, 0.0).1.is_nan());
    // f64::MAX + its half ulp as lo (a tie, even side 2^1024): inf
    let half_ulp = 2f64.powi(970);
    assert_eq!(dd(f64::MAX, half_ulp).0, f64::INFINITY);
    assert_eq!(dd(f64::MAX, half_ulp / 2.0).0, f64::MAX);
    // subnormal sums
    let tiny = f64::from_bits(1);
    assert_eq!(dd(tiny, tiny).0.to_bits(), 2);
    assert_eq!(dd(tiny, 0.0).1.to_bits(), 0);
}

#[test]
fn sizes_that_do_not_fit_the_format() {
    assert!(long_double_to_f64_f32(&[0; 12], LongDouble::Binary128, true).is_none());
    assert!(long_double_to_f64_f32(&[0; 12], LongDouble::DoubleDouble, true).is_none());
    assert!(long_double_to_f64_f32(&[0; 8], LongDouble::X87, true).is_none());
    assert!(long_double_to_f64_f32(&[0; 12], LongDouble::X87, true).is_some());
}

/// Against Rust's own rounding of integers and f64 -> f32 (both correct):
/// every integer of up to 64 bits, as x87 and binary128.
#[test]
fn rounding_matches_rust_casts() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..20_000 {
        // xorshift
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let m = x >> (x % 64);
        if m == 0 {
            continue;
        }
        let lz = m.leading_zeros();
        // m = (m << lz) * 2^-lz: exponent 63 - lz
        let se = 0x3fff + 63 - lz as u16;
        let want = m as f64;
        assert_eq!(x87_f64(se, m << lz), want, "{m}");
        let frac = (u128::from(m << lz) << 49) & ((1u128 << 112) - 1);
        assert_eq!(q_f64((u128::from(se) << 112) | frac), want, "{m}");
        let (_, f) =
            long_double_to_f64_f32(&x87_bytes(se, m << lz), LongDouble::X87, true).unwrap();
        assert_eq!(f, m as f32, "{m}");
        // as double-double: hi = m rounded, lo = the exact rest
        let hi = m as f64;
        let rest = i128::from(m) - hi as i128;
        let lo = rest as f64;
        assert_eq!(lo as i128, rest);
        assert_eq!(dd(hi, lo), (hi, m as f32), "{m}");
    }
}
