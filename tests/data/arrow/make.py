"""Fixtures for tests/arrow: numpy-written files of every kind in the
Arrow mapping (src/arrow/mod.rs). Run with numpy 2.x: python make.py"""
import os
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))


def save(name, arr):
    np.save(os.path.join(here, name), arr)


nat = np.datetime64("NaT")

records = np.zeros(3, dtype=[
    ("id", "<i8"), ("pos", "<f8", (3,)), ("flag", "?"), ("name", "S6"),
    ("label", "<U5"), ("day", "<M8[D]"), ("t", "<M8[ns]"), ("dt", "<m8[ms]"),
    ("c", "<c16"), ("z", "<c8"), ("sub", [("a", "<i2"), ("b", "<u4")]),
    ("h", "<f2"), ("raw", "V3"), ("grid", "<i4", (2, 3)),
    ("i1", "i1"), ("u1", "u1"), ("u2", "<u2"), ("u8", "<u8"), ("f4", "<f4"),
])
records["id"] = [1, -2, 3]
records["pos"] = [[0.5, 1.5, 2.5], [-1, np.nan, np.inf], [1e300, -0.0, 7]]
records["flag"] = [True, False, True]
records["name"] = [b"ab", b"", b"abcdef"]
records["label"] = ["xy", "", "h\u00e9llo"]
records["day"] = ["2024-01-31", "NaT", "1969-12-31"]
records["t"] = ["2024-01-31T12:00:00.000000001", "1970-01-01", "NaT"]
records["dt"] = [np.timedelta64(1500, "ms"), np.timedelta64("NaT"), np.timedelta64(-3, "ms")]
records["c"] = [1 + 2j, -3.5j, 0]
records["z"] = [1.5 - 1j, 0, 2]
records["sub"]["a"] = [7, -8, 9]
records["sub"]["b"] = [4000000000, 0, 1]
records["h"] = [0.5, -2, 65504]
records["raw"] = [b"\x01\x02\x03", b"\x00\x00\x00", b"\xff\x00\x7f"]
records["grid"] = np.arange(18).reshape(3, 2, 3)
records["i1"] = [-128, 0, 127]
records["u1"] = [0, 255, 1]
records["u2"] = [65535, 0, 2]
records["u8"] = [2**64 - 1, 0, 3]
records["f4"] = [0.1, -1.25, 3e38]
save("records.npy", records)

# padding between and after fields: numpy writes ('', '|V4') entries
padded = np.zeros(2, dtype={"names": ["a", "b"], "formats": ["<i4", "<f8"],
                            "offsets": [0, 8], "itemsize": 24})
padded["a"] = [1, 2]
padded["b"] = [0.25, -0.5]
save("padded.npy", padded)

# big-endian fields
big = np.zeros(2, dtype=[("x", ">f8"), ("n", ">i4"), ("s", ">U3"), ("t", ">M8[s]")])
big["x"] = [1.5, -2.25]
big["n"] = [-7, 70000]
big["s"] = ["ab", "xyz"]
big["t"] = ["2001-02-03T04:05:06", "NaT"]
save("big.npy", big)

save("plain_f8.npy", np.array([1.5, -0.0, np.nan, 1e-300]))
save("plain_be.npy", np.array([1, -2, 3], dtype=">i4"))
save("plain_2d.npy", np.arange(6, dtype="<f4").reshape(2, 3) / 4)
save("plain_3d.npy", np.arange(24, dtype="<i2").reshape(2, 3, 4))
save("fortran.npy", np.asfortranarray(np.arange(6, dtype="<i8").reshape(2, 3)))
save("zero_d.npy", np.array(42.5))
save("empty.npy", np.zeros(0, dtype=[("a", "<i4"), ("b", "S2")]))
save("bools.npy", np.array([True, False, True, True, False, False, False, True, True]))
save("strings.npy", np.array(["", "a", "\u00fcber", "\U0001F600x"]))
save("bytes.npy", np.array([b"", b"a\x00b", b"xyz"]))

# datetime units, converted exactly into Arrow's
times = np.zeros(2, dtype=[
    ("Y", "<M8[Y]"), ("M", "<M8[M]"), ("W", "<M8[W]"), ("h", "<M8[h]"),
    ("m", "<M8[m]"), ("s5", "<M8[5s]"), ("ms", "<M8[ms]"), ("us", "<M8[us]"),
    ("ps", "<M8[ps]"), ("mD", "<m8[D]"), ("mus", "<m8[us]"), ("mns", "<m8[ns]"),
])
times["Y"] = ["2024", "NaT"]
times["M"] = ["1969-12", "2024-02"]
times["W"] = [np.datetime64(3, "W"), np.datetime64(-1, "W")]
times["h"] = [np.datetime64(5, "h"), nat]
times["m"] = [np.datetime64(-90, "m"), np.datetime64(0, "m")]
times["s5"] = [np.datetime64(2, "5s"), np.datetime64(-1, "5s")]
times["ms"] = ["2024-01-01T00:00:00.123", "NaT"]
times["us"] = ["1900-01-01T00:00:00.000001", "2262-04-11"]
times["ps"] = [np.datetime64(5000, "ps"), np.datetime64(-1000, "ps")]
times["mD"] = [np.timedelta64(2, "D"), np.timedelta64("NaT")]
times["mus"] = [np.timedelta64(-1, "us"), np.timedelta64(10**12, "us")]
times["mns"] = [np.timedelta64(1, "ns"), np.timedelta64(0, "ns")]
save("times.npy", times)

# refused: picoseconds that are no whole nanoseconds; timedelta in months
save("ps_inexact.npy", np.array([np.datetime64(1500, "ps")]))
save("months_delta.npy", np.array([np.timedelta64(1, "M")]))

# bfloat16 as ml_dtypes writes it
bf = np.zeros(3, dtype=[("w", "|V2"), ("i", "<u1")])
bf["w"] = [b"\x80\x3f", b"\x00\x40", b"\x00\x00"]
bf["i"] = [1, 2, 3]
save("bf16.npy", bf)

# an archive whose members make one batch, and one whose do not
np.savez(os.path.join(here, "columns.npz"), x=np.array([1.0, 2.0, 3.0]),
         ids=np.array([7, 8, 9], dtype="<i4"),
         pts=np.zeros(3, dtype=[("a", "<f4"), ("b", "<u1")]),
         grid=np.arange(6, dtype="<i2").reshape(3, 2))
np.savez(os.path.join(here, "ragged.npz"), x=np.zeros(3), y=np.zeros(4))

# what np.save writes for the structured array of a batch built elsewhere
# (tests/arrow: `foreign_batch_equals_numpy`): columns id Int32, name Utf8,
# score Float64, tag Binary, when Timestamp(ms) with a null, ok Boolean,
# xy FixedSizeList(2) of Float32
foreign = np.zeros(3, dtype=[("id", "<i4"), ("name", "<U4"), ("score", "<f8"),
                             ("tag", "S3"), ("when", "<M8[ms]"), ("ok", "?"),
                             ("xy", "<f4", (2,))])
foreign["id"] = [1, 2, 3]
foreign["name"] = ["a", "\u00e9t\u00e9s", ""]
foreign["score"] = [0.5, -1.0, 2.0]
foreign["tag"] = [b"x", b"", b"abc"]
foreign["when"] = [np.datetime64(1000, "ms"), nat, np.datetime64(-1, "ms")]
foreign["ok"] = [True, False, True]
foreign["xy"] = [[1, 2], [3, 4], [5, 6]]
save("foreign.npy", foreign)

with open(os.path.join(here, "VERSION"), "w") as f:
    f.write(f"numpy {np.__version__}\n")
