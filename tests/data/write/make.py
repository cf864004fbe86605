"""Generates the expected .npy bytes for tests/write.rs with numpy.

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

with open(os.path.join(HERE, "VERSION"), "w") as f:
    f.write(np.__version__ + "\n")
