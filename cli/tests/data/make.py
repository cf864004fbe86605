"""Fixtures for the npy tool's tests (cli/tests/cli.rs).

Run from this folder with numpy installed:  python make.py
Every file is small and written by numpy itself (the broken ones are numpy
files damaged on purpose, as described below).
"""
import shutil
import zipfile

import numpy as np

# A record array with every kind of value the tool prints specially.
rec = np.dtype([
    ("id", "<u8"),
    ("pos", "<f8", (2,)),
    ("mass", "<f4"),
    ("name", "S5"),
    ("tag", "<U3"),
    ("t", "<M8[s]"),
    ("dt", "<m8[ms]"),
    ("z", "<c16"),
    ("ok", "?"),
    ("sub", [("x", "i1"), ("h", "<f2")]),
])
records = np.array([
    (1, (0.5, -1.0), 0.001, b"ab", "x", "2024-01-02T03:04:05", 1500, 1 + 2j, True, (-1, 0.1)),
    (2**64 - 1, (np.nan, np.inf), -np.inf, b"it's", "\u00e9\u4e2d", "NaT", -2, -0.5j, False, (127, 65504)),
    (2**53 + 1, (1e-5, 1e16), 1e6, b"\xff\x00z", "", "1969-12-31T23:59:59", 0, np.nan + 0j, True, (0, -0.0)),
], dtype=rec)
np.save("records.npy", records)

np.save("plain_2d.npy", np.arange(12, dtype="<i4").reshape(3, 4))
np.save("plain_3d.npy", (np.arange(12, dtype="<f4") / 4).reshape(2, 2, 3))
np.save("fortran.npy", np.asfortranarray(np.arange(6, dtype=">f8").reshape(2, 3)))
np.save("zero_d.npy", np.float32(0.1))
np.save("plain_1d.npy", np.array([0, 2**53 + 1, 2**64 - 1], dtype="<u8"))

np.savez("archive.npz", records=records, counts=np.arange(3, dtype="<i2"))
np.savez_compressed("one.npz", values=np.array([1.5, 2.5]))

# Broken files.
# truncated.npy: records.npy without its last 10 bytes.
with open("records.npy", "rb") as f:
    data = f.read()
with open("truncated.npy", "wb") as f:
    f.write(data[:-10])
# trailing.npy: plain_1d.npy and three bytes more.
with open("plain_1d.npy", "rb") as f:
    data = f.read()
with open("trailing.npy", "wb") as f:
    f.write(data + b"\x01\x02\x03")
# object.npy: pickled Python objects, which the library refuses.
np.save("object.npy", np.array([{"a": 1}, None], dtype=object), allow_pickle=True)
# not_npy.npy: text.
with open("not_npy.npy", "wb") as f:
    f.write(b"id,x\n1,2\n")
# bad_crc.npz: a stored archive whose member data has one byte changed.
np.savez("bad_crc.npz", values=np.arange(4, dtype="<i8"))
with zipfile.ZipFile("bad_crc.npz") as z:
    info = z.getinfo("values.npy")
    offset = info.header_offset
with open("bad_crc.npz", "r+b") as f:
    f.seek(offset)
    local = f.read(30)
    name_len = int.from_bytes(local[26:28], "little")
    extra_len = int.from_bytes(local[28:30], "little")
    data_start = offset + 30 + name_len + extra_len
    f.seek(data_start + 128 + 8)  # the second value, after the 128-byte npy header
    f.write(b"\x07")
# with_text.npz: an archive with a member that is not .npy (numpy loads it as bytes).
shutil.copy("one.npz", "with_text.npz")
with zipfile.ZipFile("with_text.npz", "a") as z:
    # a fixed date, so that the file does not change from run to run
    z.writestr(zipfile.ZipInfo("readme.txt", date_time=(2026, 1, 1, 0, 0, 0)), "made by make.py\n")

# floats.npy / floats.csv: floats of every width and numpy's str() of each,
# as CSV (what `npy csv floats.npy` must print): random bit patterns (every
# binade, subnormals, NaN, infinities) and short decimals.
rng = np.random.default_rng(16)
n = 1000
f2 = rng.integers(0, 2**16, n, dtype=np.uint64).astype(np.uint16).view(np.float16)
f4 = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(np.float32)
f8 = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True).view(np.float64)
dec = np.array([
    round(x, int(d))
    for x, d in zip(rng.random(n) * 10.0 ** rng.integers(-6, 20, n), rng.integers(0, 8, n))
])
half = n // 2
f2[:half] = dec[:half].astype(np.float16)
f4[:half] = dec[:half].astype(np.float32)
f8[:half] = dec[:half]
floats = np.zeros(n, dtype=[("f2", "<f2"), ("f4", "<f4"), ("f8", "<f8")])
floats["f2"], floats["f4"], floats["f8"] = f2, f4, f8
np.save("floats.npy", floats)
with open("floats.csv", "w", newline="") as f:
    f.write("f2,f4,f8\n")
    for row in floats:
        f.write(",".join(str(row[k]) for k in ("f2", "f4", "f8")) + "\n")

# nans.npy: numbers with NaNs and every numeric kind, for npy stats and npy
# diff; nans_stats.json: numpy's nanmin/nanmax/nanmean/nanstd (ddof 0) and
# NaN count of each column, which `npy stats nans.npy` must print.
nan = np.nan
nans = np.array([
    (1, 250, 0.5, (1.0, -2.0), True, 1 + 1j, b"a", "2024-01-01"),
    (-7, 3, nan, (2.5, nan), False, nan + 0j, b"b", "NaT"),
    (3, 18446744073709551615, 2.25, (nan, nan), True, 2 - 3j, b"c", "2024-01-03"),
    (10, 0, -1.75, (1e-3, 4.0), True, -1j, b"d", "2024-01-04"),
    (2, 7, 1e10, (0.1, 0.2), False, 0.5 + 0.5j, b"e", "2024-01-05"),
], dtype=[("i", "<i4"), ("u", "<u8"), ("x", "<f8"), ("v", "<f4", (2,)), ("ok", "?"),
          ("z", "<c16"), ("s", "S1"), ("t", "<M8[D]")])
np.save("nans.npy", nans)
expected = {}
def column(name, values):
    values = np.asarray(values, dtype=np.float64)
    expected[name] = {
        "nan": int(np.isnan(values).sum()),
        "min": float(np.nanmin(values)), "max": float(np.nanmax(values)),
        "mean": float(np.nanmean(values)), "std": float(np.nanstd(values)),
    }
column("i", nans["i"])
column("u", nans["u"])
column("x", nans["x"])
column("v[0]", nans["v"][:, 0])
column("v[1]", nans["v"][:, 1])
column("ok", nans["ok"])
column("z.real", nans["z"].real)
column("z.imag", nans["z"].imag)
import json
with open("nans_stats.json", "w") as f:
    json.dump(expected, f, indent=1, sort_keys=True)
    f.write("\n")

# close_a.npy / close_b.npy / close_c.npy: a record array and two copies,
# close_b.npy differing within rtol 1e-5 (x at rows 1 and 3, NaN at the
# same places), close_c.npy differing for good (x, a NaN for a number, a
# string, more than 5 rows of v); shape_b.npy and fields_b.npy differ in
# shape and field names.
n = 8
close_a = np.zeros(n, dtype=[("id", "<i8"), ("x", "<f8"), ("v", "<f4", (2,)), ("name", "U4")])
close_a["id"] = np.arange(n)
close_a["x"] = np.linspace(0.0, 7.0, n)
close_a["x"][5] = np.nan
close_a["v"] = np.arange(2 * n, dtype="<f4").reshape(n, 2) / 4
close_a["name"] = [f"r{i}" for i in range(n)]
np.save("close_a.npy", close_a)
close_b = close_a.copy()
close_b["x"][1] *= 1 + 2e-6
close_b["x"][3] *= 1 - 3e-6
np.save("close_b.npy", close_b)
np.testing.assert_allclose(close_b["x"], close_a["x"], rtol=1e-5)
close_c = close_a.copy()
close_c["x"][2] = 2.5
close_c["x"][4] = np.nan
close_c["v"][:, 1] += 1
close_c["name"][6] = "r66"
np.save("close_c.npy", close_c)
np.save("shape_b.npy", close_a[:5])
np.save("fields_b.npy", close_a.astype([("id", "<i8"), ("y", "<f8"), ("v", "<f4", (2,)), ("name", "U4")]))

# counts_f8.npy: archive.npz's member counts as '<f8' (a dtype difference).
np.save("counts_f8.npy", np.arange(3, dtype="<f8"))

# long_rows.npy: 4 rows of 1500 f4 (an embedding each); long.npy: 2000
# rows of 3 (6000 elements); numpy's repr summarizes both (threshold 1000).
np.save("long_rows.npy", (np.arange(4 * 1500, dtype="<f4") / 8).reshape(4, 1500))
np.save("long.npy", np.arange(2000 * 3, dtype="<i2").reshape(2000, 3))
# objects.npz: a member of pickled objects beside a plain one.
np.savez("objects.npz", plain=np.arange(3, dtype="<i2"), objects=np.array([None, 1], dtype=object))
# many.npz: 14 members, more than show lists in full (10): the first and
# last 3 in full, the 8 between a line each.
np.savez("many.npz", **{f"m{i:02d}": np.arange(i + 1, dtype="<i4") for i in range(14)})
