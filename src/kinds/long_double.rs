//! numpy's long doubles (`'<f16'`, `'<f12'`, `'<c32'`, `'<c24'`), read
//! rounded to `f64`/`f32` in the format the user names.
//!
//! The type code says only "long double": the bytes are x87 extended
//! precision when numpy ran on x86 (16 bytes on x86-64, 12 on 32-bit x86),
//! IEEE binary128 on aarch64 (and on ppc64le with an IEEE long double), and
//! IBM double-double on ppc64le with the older ABI. [`LongDouble`] names
//! which; the decoding here is type-independent (each format's bits to
//! their exact value, rounded by [`ieee`](crate::kinds::ieee)'s one
//! routine to `f64` and `f32`), called from one spot of the scalar
//! deserializer.

use crate::kinds::ieee::{F32, F64, F128, Format, Wide};

/// The format of numpy's long doubles (`'<f16'`, `'<c32'`, `'<f12'`,
/// `'<c24'`), which the file does not record: numpy writes `'<f16'` for
/// whatever `long double` is on the machine that saved it. Named with
/// [`ReadOptions::long_double`](crate::ReadOptions::long_double); together
/// with [`ReadOptions::lossy`](crate::ReadOptions::lossy) such values read
/// into `f64`, `f32`, `Complex<f64>`, `Complex<f32>` and self-describing
/// targets (as `f64`), rounded to nearest, ties to even. (On Windows and
/// on Apple silicon `long double` is `double`, and numpy writes `'<f8'`.)
///
/// ```
/// use npy_serde::{LongDouble, ReadOptions};
/// # fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
/// #     let dict = format!("{{'descr': {descr}, 'fortran_order': False, 'shape': {shape}, }}");
/// #     let mut v = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
/// #     v.extend(format!("{dict:<117}\n").bytes());
/// #     v.extend_from_slice(data);
/// #     v
/// # }
/// // 1/3 as numpy writes np.longdouble(1) / 3 on x86-64 Linux: the 10
/// // bytes of the x87 value, then 6 bytes of padding
/// let third = [0xab, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xfd, 0x3f, 0, 0, 0, 0, 0, 0];
/// let file = npy("'<f16'", "(1,)", &third);
/// // refused unless the format is named and rounding allowed
/// assert!(npy_serde::from_slice::<Vec<f64>>(&file).is_err());
/// let opts = ReadOptions::new().long_double(LongDouble::X87).lossy(true);
/// assert_eq!(opts.from_slice::<Vec<f64>>(&file)?, [1.0 / 3.0]);
/// assert_eq!(opts.from_slice::<Vec<f32>>(&file)?, [1.0f32 / 3.0]);
/// # Ok::<(), npy_serde::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LongDouble {
    /// x87 extended precision (1 sign, 15 exponent bits, an explicit integer
    /// bit and 63 fraction bits) in the first 10 bytes of 16 (`'<f16'`,
    /// x86-64) or 12 (`'<f12'`, 32-bit x86), the rest padding (ignored):
    /// what numpy writes on x86 Linux and macOS. In `'>f16'` (numpy's byte
    /// swap reverses all 16 bytes) the value is the last 10 bytes.
    ///
    /// Values read as numpy's `astype(np.float64)` gives them on x86-64:
    /// subnormals, ±0, ±inf, NaN (payload truncated, made quiet), values
    /// beyond `f64` overflow to ±inf. Pseudo-denormals read by their value
    /// (like denormals, far below `f64`'s range: ±0). Encodings that the
    /// 80387 and later refuse as operands (unnormals, pseudo-infinities,
    /// pseudo-NaNs) read as the NaN the x87 gives for them, the "real
    /// indefinite" (sign bit set), as numpy's cast does.
    X87,
    /// IEEE 754 binary128 (1 sign, 15 exponent, 112 fraction bits), 16
    /// bytes in the file's byte order: numpy on aarch64 Linux, and on
    /// ppc64le where `long double` is IEEE (e.g. Fedora 36 and later).
    Binary128,
    /// IBM double-double: two `f64`s `hi`, `lo` whose sum is the value,
    /// `hi` in the first 8 bytes, each in the file's byte order (numpy on
    /// ppc64le, older ABI, writes `'<f16'` this way, and ppc64 big-endian
    /// `'>f16'`). The exact sum `hi + lo` is rounded once (for normalized
    /// pairs this is `hi`). A zero keeps the sign of `hi` (so `-0.0` reads
    /// as `-0.0` whatever the sign of `lo`); an infinite or NaN `hi` is the
    /// value.
    DoubleDouble,
}

impl LongDouble {
    /// Whether a long double of `size` bytes can be in this format (12
    /// bytes only x87 extended precision, from 32-bit x86).
    pub(crate) fn fits(self, size: usize) -> bool {
        size == 16 || (size == 12 && self == LongDouble::X87)
    }
}

/// `size` bytes (8, 12 or 16) as an integer in the file's byte order.
fn word(bytes: &[u8], little_endian: bool) -> u128 {
    // most significant byte first: the last one of a little-endian number
    let push = |w: u128, b: &u8| w << 8 | u128::from(*b);
    if little_endian {
        bytes.iter().rev().fold(0, push)
    } else {
        bytes.iter().fold(0, push)
    }
}

/// x87 extended precision: the low 80 bits of `w`, IEEE-like with 63
/// fraction bits once its explicit integer bit is set aside.
fn x87(w: u128) -> Wide {
    const X87: Format = Format { p: 64, emax: 16383 };
    let mant = w as u64;
    let integer = mant >> 63 == 1;
    let without_integer = ((w >> 64) << 63) | u128::from(mant << 1 >> 1);
    match X87.decode(without_integer) {
        // zeros, denormals and pseudo-denormals: the integer bit counts
        // as any other (the exponent is that of the exponent field 1)
        Wide::Finite { neg, exp, .. } if (w >> 64) & 0x7fff == 0 => Wide::Finite {
            neg,
            mant: mant.into(),
            exp,
        },
        // the encodings the 80387 and later refuse (no integer bit with a
        // nonzero exponent) read as the x87's default NaN, the "real
        // indefinite"
        _ if !integer => Wide::Nan { neg: true, frac: 0 },
        v => v,
    }
}

/// IBM double-double: `hi + lo`, exactly or with a sticky bit.
fn double_double(hi: u64, lo: u64) -> Wide {
    let (hi, lo) = (F64.decode(hi.into()), F64.decode(lo.into()));
    // a finite part other than zero: its signed mantissa (below 2^53) and
    // its exponent
    let part = |w: Wide| match w {
        Wide::Finite { neg, mant, exp } if mant != 0 => {
            Some((if neg { -(mant as i128) } else { mant as i128 }, exp))
        }
        _ => None,
    };
    let (Some(h), Some(l)) = (part(hi), part(lo)) else {
        // an infinite or NaN part: what hi + lo gives in f64 arithmetic; a
        // zero part leaves the other (a zero keeps the sign of hi)
        let lo_zero = matches!(lo, Wide::Finite { mant: 0, .. });
        return if matches!(hi, Wide::Finite { .. }) && !lo_zero {
            lo
        } else {
            hi
        };
    };
    // a: the part with the larger exponent
    let ((am, ae), (bm, be)) = if h.1 >= l.1 { (h, l) } else { (l, h) };
    let d = ae - be;
    // exact when d <= 70 (am << d is below 2^123). Otherwise b is below
    // 2^(ae - 17) while every rounding step of a result near a is at least
    // 2^(ae - 1): a, three bits lower, with b's sign as a sticky unit lies
    // strictly between the same rounding points as a + b
    let (sum, exp) = if d <= 70 {
        ((am << d) + bm, be)
    } else {
        ((am << 3) + bm.signum(), ae - 3)
    };
    // x + (-x) is +0 when rounding to nearest
    Wide::Finite {
        neg: sum < 0,
        mant: sum.unsigned_abs(),
        exp,
    }
}

/// One long double (`bytes`: its 12 or 16 bytes) rounded to `f64` and,
/// separately (not through the `f64`), to `f32`; `None` if `format` has no
/// value of this size (binary128 and double-double are 16 bytes).
pub(crate) fn long_double_to_f64_f32(
    bytes: &[u8],
    format: LongDouble,
    little_endian: bool,
) -> Option<(f64, f32)> {
    if !format.fits(bytes.len()) {
        return None;
    }
    let w = match format {
        LongDouble::X87 => x87(word(bytes, little_endian)),
        LongDouble::Binary128 => F128.decode(word(bytes, little_endian)),
        LongDouble::DoubleDouble => {
            // hi is the first 8 bytes, lo the last 8, each in the file's order
            let (hi, lo) = bytes.split_at(8);
            double_double(
                word(hi, little_endian) as u64,
                word(lo, little_endian) as u64,
            )
        }
    };
    // NaNs are made quiet, as the CPU's conversion makes them
    let w = match w {
        Wide::Nan { neg, frac } => Wide::Nan {
            neg,
            frac: frac | 1 << 63,
        },
        w => w,
    };
    Some((
        f64::from_bits(F64.encode(w)),
        f32::from_bits(F32.encode(w) as u32),
    ))
}

/// One long double rounded to `f64` (see [`long_double_to_f64_f32`]).
#[cfg(test)]
pub(crate) fn long_double_to_f64(bytes: &[u8], format: LongDouble, little_endian: bool) -> f64 {
    long_double_to_f64_f32(bytes, format, little_endian).map_or(f64::NAN, |(d, _)| d)
}

#[cfg(test)]
mod tests;
