//! numpy's long doubles (`'<f16'`, `'<f12'`, `'<c32'`, `'<c24'`), read
//! rounded to `f64`/`f32` in the format the user names.
//!
//! The type code says only "long double": the bytes are x87 extended
//! precision when numpy ran on x86 (16 bytes on x86-64, 12 on 32-bit x86),
//! IEEE binary128 on aarch64 (and on ppc64le with an IEEE long double), and
//! IBM double-double on ppc64le with the older ABI. [`LongDouble`] names
//! which; the decoding here is type-independent (one non-generic function
//! per format and target), called from one spot of the scalar deserializer.

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
    /// The variant's name, for messages (`LongDouble::X87`).
    pub(crate) fn name(self) -> &'static str {
        match self {
            LongDouble::X87 => "LongDouble::X87",
            LongDouble::Binary128 => "LongDouble::Binary128",
            LongDouble::DoubleDouble => "LongDouble::DoubleDouble",
        }
    }

    /// Whether a long double of `size` bytes can be in this format.
    pub(crate) fn fits(self, size: usize) -> bool {
        match self {
            LongDouble::X87 => size == 12 || size == 16,
            LongDouble::Binary128 | LongDouble::DoubleDouble => size == 16,
        }
    }
}

/// A decoded long double: exact (`mant * 2^exp`, a zero when `mant` is 0),
/// or with a sticky bit below every rounding position (double-double only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wide {
    Finite {
        neg: bool,
        mant: u128,
        exp: i32,
    },
    Inf {
        neg: bool,
    },
    /// `frac`: the fraction bits left-aligned in 64 (top bit: quiet).
    Nan {
        neg: bool,
        frac: u64,
    },
}

/// An IEEE binary target format.
#[derive(Clone, Copy)]
struct Target {
    /// Significand bits, the hidden one included.
    p: u32,
    /// Exponent of the smallest normal.
    emin: i32,
    /// Exponent of the largest finite.
    emax: i32,
}

const F64: Target = Target {
    p: 53,
    emin: -1022,
    emax: 1023,
};
const F32: Target = Target {
    p: 24,
    emin: -126,
    emax: 127,
};

impl Target {
    /// Width of the exponent field (11, 8).
    fn exp_bits(self) -> u32 {
        // emax is 2^(w-1) - 1
        (self.emax as u32)
            .wrapping_add(1)
            .trailing_zeros()
            .wrapping_add(1)
    }

    fn inf_bits(self) -> u64 {
        ((1u64 << self.exp_bits()).wrapping_sub(1)) << (self.p - 1)
    }

    fn sign_bit(self) -> u64 {
        1u64 << (self.exp_bits() + self.p - 1)
    }

    /// The bits of `w` rounded to this format (nearest, ties to even).
    fn encode(self, w: Wide) -> u64 {
        let (neg, mag) = match w {
            Wide::Inf { neg } => (neg, self.inf_bits()),
            Wide::Nan { neg, frac } => {
                let f = self.p - 1;
                // the top f fraction bits, made quiet
                (
                    neg,
                    self.inf_bits() | (frac >> (64 - f)) | (1u64 << (f - 1)),
                )
            }
            Wide::Finite { neg, mant, exp } => (neg, self.round(mant, exp)),
        };
        if neg { mag | self.sign_bit() } else { mag }
    }

    /// The magnitude bits of `mant * 2^exp`, rounded.
    fn round(self, mant: u128, exp: i32) -> u64 {
        if mant == 0 {
            return 0;
        }
        let p = self.p as i32;
        // the value is in [2^top, 2^(top + 1)); |exp| < 2^15 and the bit
        // length at most 128, so nothing here overflows an i32
        let len = 128 - mant.leading_zeros() as i32;
        let top = exp + len - 1;
        if top > self.emax {
            return self.inf_bits();
        }
        // exponent of the last significand bit kept
        let q = top.max(self.emin) - (p - 1);
        let shift = q - exp;
        let mut m: u128 = if shift <= 0 {
            // exact: fewer than p bits, shifted up into place
            mant << (-shift) as u32
        } else if shift > 128 {
            // below half of the smallest step: rounds to zero
            0
        } else {
            let kept = mant.checked_shr(shift as u32).unwrap_or(0);
            let rem = if shift == 128 {
                mant
            } else {
                mant & ((1u128 << shift as u32) - 1)
            };
            let half = 1u128 << (shift - 1) as u32;
            if rem > half || (rem == half && kept & 1 == 1) {
                kept + 1
            } else {
                kept
            }
        };
        let mut q = q;
        if m >> self.p != 0 {
            // rounded up to 2^p: one bit longer
            m >>= 1;
            q += 1;
        }
        if m == 0 {
            return 0;
        }
        let hidden = 1u128 << (self.p - 1);
        if m < hidden {
            // subnormal (q is emin - (p - 1)): the exponent field is 0
            return m as u64;
        }
        let e = q + (p - 1);
        if e > self.emax {
            return self.inf_bits();
        }
        let bias = self.emax;
        (((e + bias) as u64) << (self.p - 1)) | (m - hidden) as u64
    }
}

/// `size` bytes (12 or 16) as an integer in the file's byte order.
fn word(bytes: &[u8], little_endian: bool) -> u128 {
    let mut a = [0u8; 16];
    // big-endian bytes reversed are the same number little-endian
    if little_endian {
        a.iter_mut().zip(bytes).for_each(|(d, s)| *d = *s);
    } else {
        a.iter_mut()
            .zip(bytes.iter().rev())
            .for_each(|(d, s)| *d = *s);
    }
    u128::from_le_bytes(a)
}

/// x87 extended precision: the low 80 bits of `w`.
fn x87(w: u128) -> Wide {
    let mant = w as u64;
    let se = (w >> 64) as u16;
    let neg = se >> 15 == 1;
    let e = i32::from(se & 0x7fff);
    let integer = mant >> 63 == 1;
    // the x87's default NaN ("real indefinite"), what it makes of the
    // encodings the 80387 and later refuse
    let indefinite = Wide::Nan { neg: true, frac: 0 };
    match e {
        // zeros, denormals and pseudo-denormals: exponent 1 - 16383, no
        // hidden bit
        0 => Wide::Finite {
            neg,
            mant: mant.into(),
            exp: 1 - 16383 - 63,
        },
        0x7fff if !integer => indefinite,
        0x7fff if mant << 1 == 0 => Wide::Inf { neg },
        0x7fff => Wide::Nan {
            neg,
            frac: mant << 1,
        },
        _ if !integer => indefinite,
        _ => Wide::Finite {
            neg,
            mant: mant.into(),
            exp: e - 16383 - 63,
        },
    }
}

/// IEEE binary128.
fn binary128(w: u128) -> Wide {
    let neg = w >> 127 == 1;
    let e = ((w >> 112) & 0x7fff) as i32;
    let frac = w & ((1u128 << 112) - 1);
    match e {
        0 => Wide::Finite {
            neg,
            mant: frac,
            exp: 1 - 16383 - 112,
        },
        0x7fff if frac == 0 => Wide::Inf { neg },
        0x7fff => Wide::Nan {
            neg,
            frac: (frac >> 48) as u64,
        },
        _ => Wide::Finite {
            neg,
            mant: frac | (1u128 << 112),
            exp: e - 16383 - 112,
        },
    }
}

/// An `f64` as `(negative, mantissa, exponent)`; `Err` with the [`Wide`]
/// of NaN and inf.
fn parts(x: f64) -> Result<(bool, u64, i32), Wide> {
    let b = x.to_bits();
    let e = ((b >> 52) & 0x7ff) as i32;
    let f = b & ((1u64 << 52) - 1);
    let neg = b >> 63 == 1;
    match e {
        0x7ff if f == 0 => Err(Wide::Inf { neg }),
        0x7ff => Err(Wide::Nan { neg, frac: f << 12 }),
        0 => Ok((neg, f, -1074)),
        _ => Ok((neg, f | (1u64 << 52), e - 1075)),
    }
}

/// IBM double-double: `hi + lo`, exactly or with a sticky bit.
fn double_double(hi: f64, lo: f64) -> Wide {
    let (hn, hm, he) = match parts(hi) {
        Ok(p) => p,
        Err(w) => return w,
    };
    // an infinite or NaN lo: what hi + lo gives in f64 arithmetic
    let (ln, lm, le) = match parts(lo) {
        Ok(p) => p,
        Err(w) => return w,
    };
    // a zero part leaves the other (a zero keeps the sign of hi)
    if lm == 0 || hm == 0 {
        let (neg, mant, exp) = if lm == 0 { (hn, hm, he) } else { (ln, lm, le) };
        return Wide::Finite {
            neg,
            mant: mant.into(),
            exp,
        };
    }
    // a: the part with the larger exponent
    let ((an, am, ae), (bn, bm, be)) = if he >= le {
        ((hn, hm, he), (ln, lm, le))
    } else {
        ((ln, lm, le), (hn, hm, he))
    };
    let signed = |neg: bool, m: i128| if neg { -m } else { m };
    let d = ae - be;
    if d <= 70 {
        // exact: am << d is below 2^123
        let sum = signed(an, i128::from(am) << d) + signed(bn, i128::from(bm));
        // x + (-x) is +0 when rounding to nearest
        return Wide::Finite {
            neg: sum < 0,
            mant: sum.unsigned_abs(),
            exp: be,
        };
    }
    // b is below 2^(ae - 17) while every rounding step of a result near a
    // is at least 2^(ae - 1): a, three bits lower, with b's sign as a sticky
    // unit lies strictly between the same rounding points as a + b
    let sum = signed(an, i128::from(am) << 3) + signed(bn, 1);
    Wide::Finite {
        neg: sum < 0,
        mant: sum.unsigned_abs(),
        exp: ae - 3,
    }
}

/// Decodes one long double of `bytes.len()` bytes (12 or 16); `None` if the
/// format has no value of that size.
fn decode(bytes: &[u8], format: LongDouble, little_endian: bool) -> Option<Wide> {
    if !format.fits(bytes.len()) {
        return None;
    }
    let w = word(bytes, little_endian);
    Some(match format {
        LongDouble::X87 => x87(w),
        LongDouble::Binary128 => binary128(w),
        LongDouble::DoubleDouble => {
            // hi is the first 8 bytes: the low half of a little-endian word
            let (first, second) = (w as u64, (w >> 64) as u64);
            let (hi, lo) = if little_endian {
                (first, second)
            } else {
                (second, first)
            };
            double_double(f64::from_bits(hi), f64::from_bits(lo))
        }
    })
}

/// One long double (`bytes`: its 12 or 16 bytes) rounded to `f64` and,
/// separately (not through the `f64`), to `f32`; `None` if `format` has no
/// value of this size (binary128 and double-double are 16 bytes).
pub(crate) fn long_double_to_f64_f32(
    bytes: &[u8],
    format: LongDouble,
    little_endian: bool,
) -> Option<(f64, f32)> {
    let w = decode(bytes, format, little_endian)?;
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
