//! IEEE 754 binary floats of any width, taken apart and put together by
//! their bits: a [`Format`] decodes its bits into the value they hold
//! ([`Wide`], exactly) and encodes a value back, rounded to nearest, ties to
//! even. One routine for every width: the long doubles' reading rounds
//! through it, and the exact narrowings of `f64` into `f32`/`f16` check
//! their result with it.

/// A float's value: `mant * 2^exp` (a zero when `mant` is 0; the
/// double-double's reading may put a sticky bit below every rounding
/// position), an infinity, or a NaN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wide {
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

/// An IEEE binary format: a sign bit, the exponent field, the fraction.
#[derive(Clone, Copy)]
pub(crate) struct Format {
    /// Significand bits, the hidden one included.
    pub(crate) p: u32,
    /// Exponent of the largest finite (also the exponent field's bias;
    /// the smallest normal's is `1 - emax`).
    pub(crate) emax: i32,
}

pub(crate) const F128: Format = Format {
    p: 113,
    emax: 16383,
};
pub(crate) const F64: Format = Format { p: 53, emax: 1023 };
pub(crate) const F32: Format = Format { p: 24, emax: 127 };
pub(crate) const F16: Format = Format { p: 11, emax: 15 };

impl Format {
    /// Width of the exponent field (15, 11, 8, 5).
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

    /// The value of the format's bits (the low bits of `bits`).
    pub(crate) fn decode(self, bits: u128) -> Wide {
        let f = self.p - 1;
        let w = self.exp_bits();
        let frac = bits & ((1u128 << f) - 1);
        let e = ((bits >> f) & ((1u128 << w) - 1)) as i32;
        let neg = (bits >> (f + w)) & 1 == 1;
        if e > 2 * self.emax {
            return match frac {
                0 => Wide::Inf { neg },
                _ => Wide::Nan {
                    neg,
                    frac: ((frac << (128 - f)) >> 64) as u64,
                },
            };
        }
        // zeros and subnormals: the exponent of field 1, no hidden bit
        Wide::Finite {
            neg,
            mant: frac | u128::from(e != 0) << f,
            exp: e.max(1) - self.emax - f as i32,
        }
    }

    /// The bits of `w` rounded to this format (nearest, ties to even; a
    /// NaN's fraction truncated to the format's). For formats of at most
    /// 64 bits ([`F64`], [`F32`], [`F16`]): [`F128`] is only decoded.
    pub(crate) fn encode(self, w: Wide) -> u64 {
        let (neg, mag) = match w {
            Wide::Inf { neg } => (neg, self.inf_bits()),
            // the top p - 1 fraction bits
            Wide::Nan { neg, frac } => (neg, self.inf_bits() | (frac >> (65 - self.p))),
            Wide::Finite { neg, mant, exp } => (neg, self.round(mant, exp)),
        };
        if neg { mag | self.sign_bit() } else { mag }
    }

    /// The magnitude bits of `mant * 2^exp`, rounded. The significand `m`
    /// is rounded at the exponent `q` of its last bit; `m` plus the
    /// exponent field just below `q`'s, shifted into place, is the
    /// encoding: a rounding carry to `2^p` steps the field up, and a
    /// subnormal (field 0) becomes the smallest normal at `2^(p - 1)`.
    fn round(self, mant: u128, exp: i32) -> u64 {
        if mant == 0 {
            return 0;
        }
        let p = self.p as i32;
        // the value is in [2^top, 2^(top + 1)); |exp| < 2^15 and the bit
        // length at most 128, so nothing here overflows an i32
        let top = exp + 127 - mant.leading_zeros() as i32;
        if top > self.emax {
            return self.inf_bits();
        }
        // exponent of the last significand bit kept (no lower than a
        // subnormal's, where the field below is 0)
        let q = top.max(1 - self.emax) - (p - 1);
        let m = match q - exp {
            // exact: fewer than p bits, shifted up into place
            s if s <= 0 => mant << -s,
            // below half of the smallest step: rounds to zero
            s if s > 128 => 0,
            s => {
                let half = 1u128 << (s - 1);
                let kept = mant.checked_shr(s as u32).unwrap_or(0);
                let rem = mant & (half | (half - 1));
                kept + u128::from(rem > half || (rem == half && kept & 1 == 1))
            }
        };
        // at most the infinity's bits: the largest finite plus a carry
        let field = (q + p + self.emax - 2) as u64;
        (field << (self.p - 1)) + m as u64
    }
}
