//! Numbers as numpy prints them (`str()` of a numpy scalar): the shortest
//! digits that read back as the same value *of the stored width* (an `f4`
//! `0.001` prints `0.001`, not the widened `0.0010000000474974513`),
//! positional between `1e-4` and `1e3`/`1e6`/`1e16` for `f2`/`f4`/`f8`,
//! scientific (`1e-05`, `1.5e+16`) outside; `nan`, `inf`, `-inf`; complex
//! numbers as `1+2j` (without numpy's parentheses).

use crate::value::Float;

/// numpy's text for a float.
pub fn float(x: Float) -> String {
    let (v, max_positional) = match x {
        Float::F16(v) => (f64::from(v), 1e3),
        Float::F32(v) => (f64::from(v), 1e6),
        Float::F64(v) => (v, 1e16),
    };
    if v.is_nan() {
        return "nan".to_owned();
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf" } else { "inf" }.to_owned();
    }
    let (digits, exp) = shortest(x);
    let sign = if v.is_sign_negative() { "-" } else { "" };
    let abs = v.abs();
    if abs == 0.0 || (1e-4..max_positional).contains(&abs) {
        format!("{sign}{}", positional(&digits, exp))
    } else {
        let (first, rest) = digits.split_at(1);
        let dot = if rest.is_empty() { "" } else { "." };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{first}{dot}{rest}e{esign}{:02}", exp.unsigned_abs())
    }
}

/// numpy's text for a complex number: `1+2j`, `1.5-0.5j`, `2j` (a real
/// part of +0 is left out), `nan+infj`; parts without a trailing `.0`.
pub fn complex(re: Float, im: Float) -> String {
    let part = |x| {
        let s = float(x);
        match s.strip_suffix(".0") {
            Some(t) => t.to_owned(),
            None => s,
        }
    };
    let (r, i) = (as_f64(re), as_f64(im));
    if r == 0.0 && !r.is_sign_negative() {
        return format!("{}j", part(im));
    }
    let sign = if i.is_sign_negative() && !i.is_nan() {
        '-'
    } else {
        '+'
    };
    let im_text = part(im);
    format!("{}{sign}{}j", part(re), im_text.trim_start_matches('-'))
}

fn as_f64(x: Float) -> f64 {
    match x {
        Float::F16(v) | Float::F32(v) => f64::from(v),
        Float::F64(v) => v,
    }
}

/// The shortest significant digits (no leading zeros, no trailing zeros
/// but one) and the decimal exponent of the first, for a finite value:
/// Rust's `{:e}` is the shortest round trip for `f32` and `f64`; an `f16`
/// takes the fewest digits (at most 5) whose value rounds to it.
fn shortest(x: Float) -> (String, i32) {
    let text = match x {
        Float::F32(v) => format!("{:e}", v.abs()),
        Float::F64(v) => format!("{:e}", v.abs()),
        Float::F16(v) => {
            let v = f64::from(v).abs();
            (0..5)
                .map(|p| format!("{v:.p$e}"))
                .find(|t| t.parse::<f64>().is_ok_and(|y| round_f16(y) == v))
                .unwrap_or_else(|| format!("{v:e}"))
        }
    };
    let (mut digits, exp) = split_exp(&text);
    if let Some(even) = even_on_tie(x, &digits, exp) {
        digits = even;
    }
    (digits, exp)
}

/// The significant digits (trailing zeros dropped, at least one) and the
/// exponent of `{:e}` text.
fn split_exp(text: &str) -> (String, i32) {
    let (mantissa, exp) = text.split_once('e').unwrap_or((text, "0"));
    let mut digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    while digits.len() > 1 && digits.ends_with('0') {
        digits.pop();
    }
    (digits, exp.parse().unwrap_or(0))
}

/// numpy (Dragon4) breaks an exact tie between two shortest candidates
/// towards an even last digit; Rust's shortest rounds it up. A tie needs
/// the exact value to lie halfway, on `lower5` (checked in integers), and
/// the candidate with the last digit one lower to read back as the value.
fn even_on_tie(x: Float, digits: &str, exp: i32) -> Option<String> {
    let last = digits.bytes().last()?;
    if last % 2 == 0 || digits.len() < 2 && last == b'1' {
        return None;
    }
    let mut lower = digits[..digits.len() - 1].to_owned();
    lower.push(char::from(last - 1));
    let v = match x {
        Float::F16(v) | Float::F32(v) => f64::from(v.abs()),
        Float::F64(v) => v.abs(),
    };
    // the midpoint lower5 × 10^q, q the exponent of its last digit
    let mid: u64 = format!("{lower}5").parse().ok()?;
    let q = exp - i32::try_from(lower.len()).ok()?;
    if !equals_decimal(v, mid, q) {
        return None;
    }
    let text = format!("{}.{}e{exp}", &lower[..1], &lower[1..]);
    let reads_back = match x {
        Float::F16(v) => text
            .parse()
            .is_ok_and(|y| round_f16(y) == f64::from(v.abs())),
        Float::F32(v) => text.parse::<f32>() == Ok(v.abs()),
        Float::F64(v) => text.parse::<f64>() == Ok(v.abs()),
    };
    reads_back.then_some(lower)
}

/// Whether the finite, positive `v` is exactly `d × 10^q`: with
/// `v = m × 2^e`, both sides split into an odd part and a power of two,
/// `10^q` into `2^q × 5^q`; the odd parts (at most 64 bits times a power of
/// 5 that fits 128) and the powers of two must be equal.
fn equals_decimal(v: f64, d: u64, q: i32) -> bool {
    let bits = v.to_bits();
    let biased = i32::try_from(bits >> 52).unwrap_or(0);
    let frac = bits & ((1 << 52) - 1);
    let (m, e) = if biased == 0 {
        (frac, -1074)
    } else {
        (frac | 1 << 52, biased - 1075)
    };
    if m == 0 || d == 0 {
        return m == d;
    }
    let (m_odd, m_twos) = (m >> m.trailing_zeros(), e + m.trailing_zeros() as i32);
    let (d_odd, d_twos) = (d >> d.trailing_zeros(), q + d.trailing_zeros() as i32);
    let five = |k: i32| 5u128.checked_pow(k.unsigned_abs());
    let odd_equal = if q >= 0 {
        five(q).and_then(|p| p.checked_mul(u128::from(d_odd))) == Some(u128::from(m_odd))
    } else {
        five(q).and_then(|p| p.checked_mul(u128::from(m_odd))) == Some(u128::from(d_odd))
    };
    odd_equal && m_twos == d_twos
}

/// `y` rounded to the nearest `f16` (ties to even), as an `f64`; infinity
/// past the largest.
fn round_f16(y: f64) -> f64 {
    if y == 0.0 || !y.is_finite() {
        return y;
    }
    let biased = i32::try_from((y.abs().to_bits() >> 52) & 0x7ff).unwrap_or(0);
    // f16 has 10 fraction bits; below 2^-14 its spacing stays 2^-24
    let ulp = 2f64.powi((biased - 1023).max(-14) - 10);
    let r = (y / ulp).round_ties_even() * ulp;
    if r.abs() > 65504.0 {
        f64::INFINITY.copysign(y)
    } else {
        r
    }
}

/// `digits` × 10^(`exp` + 1 - len) written out: `1234`/2 is `123.4`,
/// `5`/-3 is `0.005`, `5`/2 is `500.0`.
fn positional(digits: &str, exp: i32) -> String {
    let len = i32::try_from(digits.len()).unwrap_or(i32::MAX);
    if exp < 0 {
        let zeros = "0".repeat(usize::try_from(-exp - 1).unwrap_or(0));
        return format!("0.{zeros}{digits}");
    }
    if exp + 1 >= len {
        let zeros = "0".repeat(usize::try_from(exp + 1 - len).unwrap_or(0));
        return format!("{digits}{zeros}.0");
    }
    let (int, frac) = digits.split_at(usize::try_from(exp + 1).unwrap_or(0));
    format!("{int}.{frac}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairs from numpy 2.4: `str(np.float16(x))`, `str(np.float32(x))`,
    /// `str(np.float64(x))` and `str(np.complex128(z))`.
    #[test]
    fn floats_print_as_numpy() {
        let f16 = |x: f32| float(Float::F16(x));
        let f32_ = |x: f32| float(Float::F32(x));
        let f64_ = |x: f64| float(Float::F64(x));
        // f16 values are exact in f32: 0.1 is stored as 0.0999755859375
        assert_eq!(f16(0.099_975_586), "0.1");
        assert_eq!(f16(999.0), "999.0");
        assert_eq!(f16(1000.0), "1e+03");
        assert_eq!(f16(1024.0), "1.024e+03");
        assert_eq!(f16(65504.0), "6.55e+04");
        assert_eq!(f16(0.000_100_016_594), "0.0001");
        assert_eq!(f16(-0.0), "-0.0");
        assert_eq!(f32_(0.001), "0.001");
        assert_eq!(f32_(1e-4), "1e-04");
        assert_eq!(f32_(1.5e-5), "1.5e-05");
        assert_eq!(f32_(999_999.0), "999999.0");
        assert_eq!(f32_(1e6), "1e+06");
        assert_eq!(f32_(123_456.5), "123456.5");
        assert_eq!(f32_(123_456_789.0), "1.2345679e+08");
        assert_eq!(f32_(3e38), "3e+38");
        assert_eq!(f64_(0.1), "0.1");
        assert_eq!(f64_(1e-4), "0.0001");
        assert_eq!(f64_(1e15), "1000000000000000.0");
        assert_eq!(f64_(1e16), "1e+16");
        assert_eq!(f64_(9_999_999_999_999_998.0), "9999999999999998.0");
        assert_eq!(f64_(5e-324), "5e-324");
        assert_eq!(f64_(f64::MAX), "1.7976931348623157e+308");
        assert_eq!(f64_(f64::NAN), "nan");
        assert_eq!(f64_(f64::NEG_INFINITY), "-inf");
        assert_eq!(f64_(65504.0), "65504.0");
        let c = |re, im| complex(Float::F64(re), Float::F64(im));
        assert_eq!(c(1.0, 2.0), "1+2j");
        assert_eq!(c(0.0, 0.0), "0j");
        assert_eq!(c(0.0, -2.0), "-2j");
        assert_eq!(c(1.5, -0.5), "1.5-0.5j");
        assert_eq!(c(f64::NAN, 1.0), "nan+1j");
        assert_eq!(c(1.0, f64::INFINITY), "1+infj");
        assert_eq!(c(1e-5, 1e20), "1e-05+1e+20j");
        assert_eq!(complex(Float::F32(0.1), Float::F32(-2.0)), "0.1-2j");
        // ties between two shortest candidates go to the even digit
        assert_eq!(f32_(246_307.0 + 0.125), "246307.12");
        assert_eq!(f64_(1_173_068_851_645_764.0 + 0.25), "1173068851645764.2");
    }

    #[test]
    fn exact_decimal_comparison() {
        assert!(equals_decimal(246_307.0 + 0.125, 246_307_125, -3));
        assert!(!equals_decimal(0.1, 1, -1));
        assert!(equals_decimal(1.5, 15, -1));
        assert!(equals_decimal(1e22, 1, 22));
        assert!(!equals_decimal(1e23, 1, 23));
        assert!(!equals_decimal(5e-324, 5, -324));
        assert!(equals_decimal(65504.0, 65504, 0));
        assert!(equals_decimal(0.5f64.powi(20), 95_367_431_640_625, -20));
    }
}
