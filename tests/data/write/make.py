"""Generates the expected .npy bytes for tests/write/byte_exact.rs with numpy.

Run with the project venv: /work/venv/bin/python tests/data/write/make.py
Each case is written with np.save into <name>.npy; the Rust test builds the
same values with serde types and compares the bytes exactly.
"""
import io
import os
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def save(name, arr, **kw):
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.save(buf, arr, **kw)
    with open(os.path.join(HERE, name + ".npy"), "wb") as f:
        f.write(buf.getvalue())


# plain 1-d scalars
save("f64_1d", np.array([1.0, 2.5, -3.0]))
save("bool_1d", np.array([True, False, True]))

# every integer and float type in one record
ints = np.dtype([("b", "?"), ("i1", "i1"), ("i2", "<i2"), ("i4", "<i4"), ("i8", "<i8"),
                 ("u1", "u1"), ("u2", "<u2"), ("u4", "<u4"), ("u8", "<u8"),
                 ("f4", "<f4"), ("f8", "<f8"), ("h", "<f2")])
a = np.zeros(2, ints)
a[0] = (True, -1, -300, -70000, -(2**40), 255, 65535, 2**32 - 1, 2**64 - 1, 1.5, -2.25, 0.5)
a[1] = (False, 127, 32767, 2**31 - 1, 2**63 - 1, 0, 1, 2, 3, -0.0, 1e300, -65504.0)
save("all_numbers", a)

# strings: U (max width in chars), S (bytes), char, unit enum
s = np.zeros(2, [("name", "<U5"), ("raw", "|S3"), ("c", "<U1"), ("color", "<U5")])
s[0] = ("héllo", b"ab", "x", "Red")
s[1] = ("z", b"abc", "\u00e9", "Green")
save("strings", s)

# complex with the `with` module
c = np.zeros(2, [("z8", "<c8"), ("z16", "<c16")])
c[0] = (1 + 2j, -3.5 + 0.25j)
c[1] = (0j, 1e-300 - 1e300j)
save("complex", c)

# datetimes
d = np.zeros(2, [("t", "<M8[ns]"), ("dt", "<m8[s]"), ("g", "<M8")])
d["t"] = np.array([1_700_000_000_000_000_000, "NaT"], "M8[ns]")
d["dt"] = np.array([-5, 86400], "m8[s]")
d["g"] = np.array(["NaT", "NaT"], "M8")
save("datetime", d)

# explicit padding
p = np.zeros(2, np.dtype({"names": ["a", "b"], "formats": ["u1", "<u4"], "offsets": [0, 4], "itemsize": 10}))
p["a"] = [1, 2]
p["b"] = [3, 4]
save("padding", p)

# nested record with subarrays
inner = np.dtype([("x", "<f4", (3,)), ("flag", "?")])
n = np.zeros(2, [("id", "<u8"), ("m", "<f8", (2, 4)), ("sub", inner)])
n["id"] = [7, 8]
n["m"] = np.arange(16, dtype="f8").reshape(2, 2, 4)
n["sub"]["x"] = [[1, 2, 3], [4, 5, 6]]
n["sub"]["flag"] = [True, False]
save("nested", n)

# align=True
al = np.zeros(2, np.dtype([("a", "i1"), ("b", "<i4"), ("c", "i1"), ("s", [("x", "i1"), ("y", "<f8")])], align=True))
al["a"] = [1, 2]
al["b"] = [3, 4]
al["c"] = [5, 6]
al["s"]["x"] = [7, 8]
al["s"]["y"] = [9.5, 10.5]
save("aligned", al)

# titles via an explicit dtype
t = np.zeros(2, np.dtype({"names": ["a", "b"], "formats": ["<i4", "<f8"], "titles": ["Title A", None]}))
t["a"] = [1, 2]
t["b"] = [0.5, 0.25]
save("titles", t)

# mixed endianness via an explicit dtype
me = np.zeros(2, [("big", ">i4"), ("little", "<i4"), ("f", ">f8"), ("u", ">U3"), ("c", ">c16"), ("t", ">M8[ms]")])
me["big"] = [1, -2]
me["little"] = [3, -4]
me["f"] = [0.5, -1.0]
me["u"] = ["ab", "xyz"]
me["c"] = [1 + 1j, 2 - 3j]
me["t"] = np.array([5000, -1000], "M8[ms]")
save("mixed_endian", me)

# Fortran order
save("fortran_2d", np.asfortranarray(np.arange(6, dtype="<i8").reshape(2, 3)))
save("fortran_3d", np.asfortranarray(np.arange(24, dtype="<i4").reshape(2, 3, 4)))

# 0-d scalar and 0-d record
save("scalar_0d", np.array(3.5))
r = np.zeros((), [("id", "<u4"), ("x", "<f8")])
r["id"] = 9
r["x"] = -1.25
save("record_0d", r)

# sequence of arrays -> 2-d
save("vec_of_arrays", np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))

# non-ASCII field names -> version 3.0
na = np.zeros(2, [("整形", "<i4"), ("é", "<f8")])
na["整形"] = [1, 2]
na["é"] = [0.5, 1.5]
save("unicode_names", na)

# header longer than 65535 characters -> version 2.0
lg = np.zeros(1, [("x" * 65536, "u1")])
lg[0] = 5
save("long_header_v2", lg)

# heterogeneous tuple and tuple struct -> fields f0, f1
tu = np.zeros(2, [("f0", "<i4"), ("f1", "<f8"), ("f2", "<U2")])
tu[0] = (1, 0.5, "a")
tu[1] = (2, 1.5, "bc")
save("tuples", tu)

# unit structs -> zero-field records
save("unit", np.zeros(3, np.dtype([])))

# string-keyed maps with the same keys -> record
m = np.zeros(2, [("alpha", "<f8"), ("beta", "<f8")])
m[0] = (1.0, 2.0)
m[1] = (3.0, 4.0)
save("map_records", m)

# empty array with a given dtype
save("empty_with_dtype", np.zeros(0, [("a", "<i4"), ("b", "<f8")]))

# conversions into a given dtype
cv = np.zeros(2, [("i", "<i2"), ("f", "<f4"), ("g", "<f8"), ("s", "|S4"), ("t", "<M8[ms]"), ("h", "<f2")])
cv[0] = (-300, 0.5, 7, b"ab", np.datetime64(3, "s"), 0.25)
cv[1] = (12, -1.0, -(2**53), b"abcd", np.datetime64(-2, "s"), 2.0)
save("converted", cv)

# datetimes converted through the calendar (years/months into days)
save("datetime_calendar", np.array([np.datetime64(3, "Y"), np.datetime64(-1, "M"), "NaT"], "M8[D]"))

# complex values given as [re, im] pairs with an explicit complex dtype
save("complex_pairs", np.array([1 + 2j, 3 - 4j], "<c16"))

# ---- the examples of numpy's array interface spec (array-interface.txt) ----

# RGB pixel: three u1 fields
rgb = np.zeros(3, [("r", "|u1"), ("g", "|u1"), ("b", "|u1")])
rgb[0] = (255, 0, 0)
rgb[1] = (0, 128, 0)
rgb[2] = (1, 2, 255)
save("ai_rgb", rgb)

# nested structure {ival <i4, sub {sval <u2, bval u1, cval u1}}
ns = np.zeros(2, [("ival", "<i4"), ("sub", [("sval", "<u2"), ("bval", "|u1"), ("cval", "|u1")])])
ns[0] = (-7, (65535, 1, 2))
ns[1] = (123456, (300, 254, 0))
save("ai_nested", ns)

# nested array {ival, data f8 (16, 4)}: big-endian as in the spec, and little-endian
for tag, o in (("be", ">"), ("le", "<")):
    na = np.zeros(2, [("ival", o + "i4"), ("data", o + "f8", (16, 4))])
    na["ival"] = [1, -1]
    na["data"] = np.arange(128, dtype="f8").reshape(2, 16, 4) / 8 - 3
    save("ai_nested_array_" + tag, na)

# padded structure {ival, ('', V4), dval f8}, both byte orders
for tag, o in (("be", ">"), ("le", "<")):
    # (a list entry ('', 'V4') would become a field 'f1': the gap comes from offsets)
    pd = np.zeros(2, np.dtype({"names": ["ival", "dval"], "formats": [o + "i4", o + "f8"],
                               "offsets": [0, 8], "itemsize": 16}))
    assert pd.dtype.descr == [("ival", o + "i4"), ("", "|V4"), ("dval", o + "f8")]
    pd["ival"] = [5, -6]
    pd["dval"] = [0.5, -1e10]
    save("ai_padded_" + tag, pd)

# mixed endian {big >i4, little <i4}
mx = np.zeros(2, [("big", ">i4"), ("little", "<i4")])
mx["big"] = [1, -2]
mx["little"] = [0x01020304, -3]
save("ai_mixed_endian", mx)

# align=True with nested records that need inner and trailing padding,
# two levels deep, and a subarray
al2 = np.zeros(2, np.dtype([("x", "i1"), ("s", [("a", "<i4"), ("b", "i1")]), ("y", "<i2"),
                            ("arr", "<i2", (3,)),
                            ("t", [("c", "i1"), ("u", [("h", "<i2"), ("k", "i1")])]),
                            ("z", "<f8")], align=True))
assert al2.dtype.itemsize == 40 and al2.dtype["s"].itemsize == 8
al2["x"] = [1, -1]
al2["s"]["a"] = [2, -2]
al2["s"]["b"] = [3, -3]
al2["y"] = [4, -4]
al2["arr"] = [[5, 6, 7], [-5, -6, -7]]
al2["t"]["c"] = [8, -8]
al2["t"]["u"]["h"] = [9, -9]
al2["t"]["u"]["k"] = [10, -10]
al2["z"] = [11.5, -11.5]
save("aligned_nested", al2)

# every datetime unit, datetime64 and timedelta64 (second record all NaT)
units = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as"]
du = np.zeros(2, [("M8_" + u, "<M8[%s]" % u) for u in units] + [("m8_" + u, "<m8[%s]" % u) for u in units])
for i, u in enumerate(units):
    du["M8_" + u] = np.array([i + 1, "NaT"], "M8[%s]" % u)
    du["m8_" + u] = np.array([-(i + 1), "NaT"], "m8[%s]" % u)
save("datetime_units", du)

# multiplier units through an explicit dtype: 50 s -> 2 x [25s], 14 D -> 2 x [7D]
mu = np.zeros(2, [("t", "<M8[25s]"), ("d", "<m8[7D]")])
mu["t"] = np.array([2, "NaT"], "M8[25s]")
mu["d"] = np.array([2, -1], "m8[7D]")
save("datetime_multiplier", mu)

# align=True with a subarray of records (each element padded) and trailing padding
asr = np.zeros(2, np.dtype([("a", "i1"), ("s", [("a", "<i4"), ("b", "i1")], (2,)), ("c", "i1")], align=True))
asr["a"] = [1, 2]
asr["s"]["a"] = [[3, 4], [5, 6]]
asr["s"]["b"] = [[7, 8], [9, 10]]
asr["c"] = [11, 12]
save("aligned_subarray_records", asr)
# the same without align: packed
save("packed_subarray_records", asr.astype([("a", "i1"), ("s", [("a", "<i4"), ("b", "i1")], (2,)), ("c", "i1")]))

# the nested-structure example in big-endian through an explicit dtype, with a
# subarray of big-endian records
nbe = np.zeros(2, [("ival", ">i4"), ("sub", [("sval", ">u2"), ("bval", "|u1"), ("cval", "|u1")], (2,))])
nbe["ival"] = [-7, 8]
nbe["sub"]["sval"] = [[1, 2], [65535, 256]]
nbe["sub"]["bval"] = [[3, 4], [5, 6]]
nbe["sub"]["cval"] = [[7, 8], [9, 10]]
save("nested_be_dtype", nbe)

# 2-d arrays of records, C and Fortran order
rc = np.zeros((2, 3), [("a", "i1"), ("b", "<f8")])
rc["a"] = np.arange(6).reshape(2, 3)
rc["b"] = np.arange(6).reshape(2, 3) * 0.5
save("records_2d", rc)
save("records_2d_fortran", np.asfortranarray(rc))

# zero-size parts: an empty inner axis, V0 / (0,) / (2, 0) / [] fields
save("empty_inner_axis", np.zeros((3, 0), "<f8"))
zs = np.zeros(2, [("a", "<i4"), ("e", "V0"), ("x", "<f8", (0,)), ("y", "<u2", (2, 0)), ("r", [])])
zs["a"] = [1, -1]
save("zero_size_fields", zs)

# field names Python's repr quotes or escapes (Python 3.11 tables)
en = np.zeros(1, [("tab\there", "<i2"), ("it's", "<i2"), ("a'b\"c", "<i2"), ("back\\slash", "<i2"),
                  ("\u200b", "<i2"), ('q"d', "<i2"), ("\x7f\xa0\xad\xe9", "<i2")])
en[0] = (1, 2, 3, 4, 5, 6, 7)
save("escaped_names", en)
# printable astral and non-printable astral characters: version 3.0
ea = np.zeros(1, [("\U0001f600", "<i2"), ("\U000e0001x", "<i2")])
ea[0] = (1, 2)
save("astral_names", ea)

# table rows without a fixture so far: Vec<T> of one length and homogeneous
# tuples as subarrays, num_complex without `with` as a (2,) float subarray,
# a unit enum whose width comes from its type (longest variant) via Dtype::of
tr = np.zeros(2, [("v", "<f4", (3,)), ("t", "<i8", (2,)), ("z", "<f8", (2,)), ("e", "<U6")])
tr["v"] = [[1, 2, 3], [4, 5, 6]]
tr["t"] = [[7, -8], [9, 10]]
tr["z"] = [[0.5, -1.5], [2.0, 0.0]]
tr["e"] = ["Low", "Mid"]
save("table_rows", tr)

# Fortran-ordered arrays that are also C-contiguous (at most one axis longer
# than 1, or empty): numpy writes 'fortran_order': False for them
for tag, shape in (("2x1", (2, 1)), ("1x3", (1, 3)), ("0x3", (0, 3)), ("2x1x3", (2, 1, 3))):
    fa = np.asfortranarray(np.arange(int(np.prod(shape)), dtype="<i4").reshape(shape))
    save("fortran_" + tag, fa)
# empty sequences with a subarray dtype: the subarray dims become the inner axes
save("empty_0x3", np.zeros(0, ("<i4", (3,))))
save("empty_2x0x3", np.zeros((2, 0), ("<i4", (3,))))

# align=True over every kind's alignment (c16 aligns to 8, U to 4, S/V/b1 to 1),
# with a title and a big-endian field: given as a dtype plus align(true)
ak = np.zeros(2, np.dtype({"names": ["a", "c", "m", "h", "s", "v", "z", "u", "b"],
                           "formats": ["i1", "<c16", "<M8[s]", "<f2", "S3", "V5", "?", "<U2", ">f8"],
                           "titles": ["Title A", None, None, None, None, None, None, None, None]}, align=True))
ak["a"] = [1, -1]
ak["c"] = [1 + 2j, -3j]
ak["m"] = np.array([10, "NaT"], "M8[s]")
ak["h"] = [0.5, -2.0]
ak["s"] = [b"ab", b"xyz"]
ak["v"] = [b"\x01\x02\x03\x04\x05", b"\x00\x00\x00\x00\x09"]
ak["z"] = [True, False]
ak["u"] = ["q", "rs"]
ak["b"] = [1.5, -2.5]
save("aligned_kinds", ak)

with open(os.path.join(HERE, "VERSION"), "w") as f:
    f.write(np.__version__ + "\n")
