"""Long doubles for tests/read/long_double.rs.

x87.npz: what numpy writes on x86-64 Linux (np.longdouble is x87 extended
precision, '<f16'), like scipy's fftw_longdouble_ref.npz: several '<f16'
members, a '>f16' one, a '<c32' one, a 2-d one, and a record with a long
double field; next to each, numpy's own astype(np.float64) ('<f8') and
astype(np.float32) ('<f4') of it, the values the reader must give bit for
bit. Hard values: 1/3, pi, ties between two f64s, subnormals, overflow,
-0.0, inf, NaN, and the x87 encodings the 80387 refuses (written as bytes).

ieee_dd.json: IEEE binary128 and IBM double-double cases, which numpy on
this machine cannot make: each value encoded by hand from an exact
Fraction, with the f64 and f32 it rounds to computed here with Fractions
(round half to even), independently of the Rust code.

    python make.py   # writes x87.npz, ieee_dd.json, VERSION
"""
import json
import platform
import sys
from fractions import Fraction

import numpy as np

assert np.dtype(np.longdouble).str == "<f16" and np.finfo(np.longdouble).nmant == 63, \
    "x87.npz must be made by numpy on x86-64 (long double = x87 extended precision)"

L = np.longdouble
ONE = L(1)


def raw(se, mant, pad=b"\xab" * 6):
    """An x87 value from its sign+exponent and 64-bit mantissa, with padding."""
    return np.frombuffer(mant.to_bytes(8, "little") + se.to_bytes(2, "little") + pad, "<f16")[0]


def pad(a, byte=0):
    """Sets the 6 padding bytes of each x87 value (numpy leaves whatever
    memory held there) to `byte`, so that make.py reproduces its output;
    the reader ignores them, as the nonzero padding of `hard` checks."""
    b = a.reshape(-1).view(np.uint8).reshape(-1, 16)
    if a.dtype.byteorder == ">":
        b[:, :6] = byte
    else:
        b[:, 10:] = byte
    return a


J = 1 << 63
hard = [
    ONE / 3, -ONE / 3, L("3.14159265358979323846264338327950288"), ONE / 7, L(2) / 3,
    L("0.1"), L("1e300"), L("-1e-300"),
    # ties between two f64s (to even) and a hair either side
    ONE + L(2) ** -53, ONE + 3 * L(2) ** -53, ONE + L(2) ** -53 + L(2) ** -63,
    ONE + L(2) ** -53 - L(2) ** -63, -(ONE + L(2) ** -53),
    # subnormals of f64 (in x87's normal range) and ties among them
    L("1e-310"), L("-4.9e-324"), L(2) ** -1074, L(2) ** -1075, -L(2) ** -1075,
    L(2) ** -1075 * (1 + L(2) ** -60), 3 * L(2) ** -1075, 5 * L(2) ** -1075,
    L(2) ** -1022 - L(2) ** -1080, L(2) ** -1076, L("1e-4000"), -L("1e-4000"),
    # the largest f64, the tie above it (overflows), beyond
    L(np.finfo(np.float64).max), L(np.finfo(np.float64).max) + L(2) ** 970,
    L(np.finfo(np.float64).max) + L(2) ** 970 - L(2) ** 950, L("1e400"), -L("1e400"),
    L(np.finfo(np.longdouble).max), L(np.finfo(np.longdouble).smallest_subnormal),
    # zeros, infinities, NaN
    L(0.0), L(-0.0), L(np.inf), L(-np.inf), L(np.nan), -L(np.nan),
    # ties of f32 that are not ties of f64 (f32 = one rounding, not two)
    ONE + L(2) ** -24 + L(2) ** -60, ONE + L(2) ** -24,
    # encodings written as bytes: a denormal, a pseudo-denormal, NaNs with
    # payloads (quiet, signalling), and the x87's invalid operands
    # (pseudo-infinity, pseudo-NaN, unnormals), which numpy casts to NaN
    raw(0x0000, 1), raw(0x8000, J | 5), raw(0x7FFF, J | (1 << 62) | (1 << 11)),
    raw(0xFFFF, J | 1), raw(0x7FFF, 0), raw(0xFFFF, 1 << 62), raw(0x3FFF, 1 << 62),
    raw(0x3FFF, 0), raw(0x43FE, J, pad=b"\x00" * 6),
]
hard = pad(np.array(hard, dtype="<f16"), 0xAB)

rng = np.random.default_rng(20261204)
# random 64-bit mantissas with exponents across f64's range and past it
n = 2000
mant = rng.integers(0, 2**63, n, dtype=np.uint64) | np.uint64(J)
exps = rng.integers(16383 - 1100, 16383 + 1030, n)
signs = rng.integers(0, 2, n) << 15
rnd = np.frombuffer(b"".join(
    int(m).to_bytes(8, "little") + int(s | e).to_bytes(2, "little") + b"\0" * 6
    for m, e, s in zip(mant, exps, signs)), "<f16").copy()
# f64 ties: a random double plus half its ulp (exact in x87's 64 bits)
d = rng.standard_normal(500) * 10.0 ** rng.integers(-300, 300, 500)
ties = pad(d.astype("<f16") + np.spacing(d).astype("<f16") / 2)

members = {}






def put(name, a, f8="<f8", f4="<f4"):
    with np.errstate(invalid="ignore", over="ignore"):
        members[name] = a
        members[name + "_f8"] = a.astype(f8)
        members[name + "_f4"] = a.astype(f4)


put("hard", hard)
put("random", rnd)
put("ties", ties)
put("big_endian", pad(hard.astype(">f16"), 0xCD))
put("grid", pad((np.arange(12, dtype="<f16").reshape(3, 4) + 1) / 3))
z = np.zeros(20, "<c32")
z.real = hard[:20]
z.imag = hard[20:40]
pad(z.view("<f16"))
put("complex", z, "<c16", "<c8")
rec = np.zeros(3, dtype=[("x", "<f8"), ("ld", "<f16")])
rec["x"] = [1.0, 2.0, 3.0]
rec["ld"] = [ONE / 3, -L(2) ** -1075, L("1e400")]
rec.view(np.uint8).reshape(3, 24)[:, 18:] = 0
members["record"] = rec
with np.errstate(over="ignore"):
    members["record_ld_f8"] = rec["ld"].astype("<f8")
assert members["big_endian"].dtype.str == ">f16"
# numpy's byte swap of a long double reverses all 16 bytes: the value is
# the last 10 (the reader relies on this)
assert members["big_endian"].tobytes()[6:16] == hard.tobytes()[:10][::-1]
assert all(members[k].dtype.str in ("<f16", ">f16", "<c32") for k in ["hard", "random", "ties", "grid", "complex"])
np.savez("x87.npz", **members)


# ---- binary128 and double-double, from exact Fractions ----

def round_to(q, p, emin, emax):
    """Fraction q rounded to the binary format with p significand bits:
    (Fraction value, or +-inf as a float); round half to even."""
    if q == 0:
        return Fraction(0)
    sign = -1 if q < 0 else 1
    a = abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    assert Fraction(2) ** e <= a < Fraction(2) ** (e + 1)
    quantum = Fraction(2) ** (max(e, emin) - (p - 1))
    m = round(a / quantum)  # Fraction.__round__: half to even
    v = m * quantum
    if v >= Fraction(2) ** (emax + 1):
        return sign * float("inf")
    return sign * v


def f64_bits(v, neg_zero=False):
    if isinstance(v, float):
        x = v
    else:
        x = float(v)  # exact: v is an f64 value
        assert Fraction(x) == v
    if x == 0 and neg_zero:
        x = -0.0
    return "%016x" % np.array([x], "<f8").view("<u8")[0]


def f32_bits(v, neg_zero=False):
    x = np.float32(float(v)) if not isinstance(v, float) else np.float32(v)
    if not isinstance(v, float):
        assert Fraction(float(x)) == v  # exact: v is an f32 value
    if x == 0 and neg_zero:
        x = np.float32(-0.0)
    return "%08x" % np.array([x], "<f4").view("<u4")[0]


def expect(q):
    """The f64 and f32 bits q rounds to (a negative q that underflows: -0)."""
    neg_zero = q < 0
    return {"f64": f64_bits(round_to(q, 53, -1022, 1023), neg_zero),
            "f32": f32_bits(round_to(q, 24, -126, 127), neg_zero)}


def binary128(q):
    """The bits of q rounded to binary128 (q exact there or rounded), and the
    exact Fraction they stand for."""
    v = round_to(q, 113, -16382, 16383)
    assert not isinstance(v, float)
    if v == 0:
        return (1 << 127 if q < 0 else 0), v
    sign = 1 if v < 0 else 0
    a = abs(v)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    if e < -16382:  # subnormal
        frac = a / Fraction(2) ** (-16382 - 112)
        assert frac.denominator == 1
        return (sign << 127) | int(frac), v
    frac = a / Fraction(2) ** (e - 112) - 2 ** 112
    assert frac.denominator == 1
    return (sign << 127) | ((e + 16383) << 112) | int(frac), v


def note(q):
    try:
        return repr(float(q))
    except OverflowError:
        return "beyond f64"


q_cases = []
values = [Fraction(1), Fraction(-5, 2), Fraction(1, 3), Fraction(-2, 3), Fraction(1, 10),
          Fraction(314159265358979323846264338327950288, 10 ** 35),
          1 + Fraction(1, 2 ** 53), 1 + Fraction(3, 2 ** 53), 1 + Fraction(1, 2 ** 53) + Fraction(1, 2 ** 112),
          1 - Fraction(1, 2 ** 54), 1 - Fraction(1, 2 ** 54) - Fraction(1, 2 ** 112),
          1 + Fraction(1, 2 ** 24), 1 + Fraction(1, 2 ** 24) + Fraction(1, 2 ** 112),
          Fraction(1, 2 ** 1074), Fraction(1, 2 ** 1075), Fraction(3, 2 ** 1075),
          Fraction(1, 2 ** 1075) + Fraction(1, 2 ** 1180), Fraction(-10 ** 310), Fraction(1, 10 ** 310),
          Fraction(2 ** 1024 - 2 ** 970), Fraction(2 ** 1024 - 2 ** 970) - Fraction(1, 2 ** 10),
          Fraction(2 ** 1024), Fraction(1, 2 ** 149), Fraction(1, 2 ** 150), Fraction(3, 2 ** 150),
          Fraction(2 ** 128 - 2 ** 103), Fraction(2 ** 128 - 2 ** 104)]
rng2 = np.random.default_rng(7)
for _ in range(300):
    num = int(rng2.integers(1, 2 ** 62)) * 2 ** 51 + int(rng2.integers(0, 2 ** 51))
    e = int(rng2.integers(-1200, 1100))
    values.append((-1) ** int(rng2.integers(0, 2)) * Fraction(num) * Fraction(2) ** (e - 113))
for q in values:
    bits, v = binary128(q)
    q_cases.append({"bits": "%032x" % bits, "note": note(q), **expect(q if v == 0 else v)})
# the smallest subnormal and largest finite binary128, -0, infinities, NaN
for bits, f64, f32 in [(1, "0000000000000000", "00000000"),
                       ((0x7FFE << 112) | ((1 << 112) - 1), "7ff0000000000000", "7f800000"),
                       (1 << 127, "8000000000000000", "80000000"),
                       (0x7FFF << 112, "7ff0000000000000", "7f800000"),
                       (0xFFFF << 112, "fff0000000000000", "ff800000"),
                       ((0x7FFF << 112) | (1 << 111), "7ff8000000000000", "7fc00000")]:
    q_cases.append({"bits": "%032x" % bits, "note": "special", "f64": f64, "f32": f32})


def dd_split(q):
    """A normalized double-double of q: hi = q rounded, lo = the rest rounded."""
    hi = round_to(q, 53, -1022, 1023)
    lo = round_to(q - hi, 53, -1022, 1023)
    return float(hi), float(lo)


dd_cases = []
pairs = []
for q in values[:40] + values[-200:]:
    if abs(q) >= 2 ** 1023 or (q != 0 and abs(q) < Fraction(1, 2 ** 1000)):
        continue
    pairs.append(dd_split(q))
# not normalized, and lo deciding f32 ties that the f64 hi alone hides
pairs += [(1.0, 2.0 ** -53), (1.0, 2.0 ** -53 + 2.0 ** -100), (1.0, -(2.0 ** -54)),
          (1.0, -(2.0 ** -54) - 2.0 ** -100), (1 + 2.0 ** -24, 1e-300), (1 + 2.0 ** -24, -1e-300),
          (1 + 2.0 ** -24, 0.0), (2.0 ** -1074, 2.0 ** -1074), (3.0, -3.0), (1e-300, 1.0),
          (np.finfo(np.float64).max, 2.0 ** 970), (np.finfo(np.float64).max, 2.0 ** 969)]
for hi, lo in pairs:
    dd_cases.append({"hi": "%016x" % np.array([hi], "<f8").view("<u8")[0],
                     "lo": "%016x" % np.array([lo], "<f8").view("<u8")[0],
                     **expect(Fraction(hi) + Fraction(lo))})
for hi, lo, f64, f32 in [(-0.0, 0.0, "8000000000000000", "80000000"),
                         (0.0, -0.0, "0000000000000000", "00000000"),
                         (float("inf"), 0.0, "7ff0000000000000", "7f800000"),
                         (float("-inf"), 1.0, "fff0000000000000", "ff800000"),
                         (float("nan"), 0.0, "7ff8000000000000", "7fc00000")]:
    dd_cases.append({"hi": "%016x" % np.array([hi], "<f8").view("<u8")[0],
                     "lo": "%016x" % np.array([lo], "<f8").view("<u8")[0], "f64": f64, "f32": f32})

with open("ieee_dd.json", "w") as f:
    json.dump({"binary128": q_cases, "double_double": dd_cases}, f, indent=0)
    f.write("\n")
with open("VERSION", "w") as f:
    f.write(f"numpy {np.__version__} on python {sys.version.split()[0]}, {platform.machine()}\n")
