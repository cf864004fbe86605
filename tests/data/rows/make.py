"""Generates the row-range references for tests/read/rows.rs and tests/npz/rows.rs.

Run with the project venv: /work/venv/bin/python tests/data/rows/make.py
(or bash tests/data/make_all.sh).

For each array <name>.npy (np.save of it) and each range a..b listed for it
in cases.json, <name>_<a>_<b>.npy is np.save of np.load(<name>.npy,
mmap_mode='r')[a:b]: what npy_serde::from_slice_rows(<name>.npy, a..b)
must read as (from_slice of that file). refuse.json lists the arrays whose
rows are refused (a 0-d array; Fortran order with two or more dimensions).
stored.npz (np.savez) and deflated.npz (np.savez_compressed) hold every
array under its name.
"""
import io
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def npy_bytes(arr):
    buf = io.BytesIO()
    np.save(buf, arr)
    return buf.getvalue()


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


record = np.dtype([("id", "<u2"), ("pos", "<f4", (2,)), ("big", ">i8"), ("tag", "<U3")])
recs = np.zeros(5, record)
recs["id"] = [10, 11, 12, 13, 14]
recs["pos"] = [[0.5, 1.5], [2.5, 3.5], [4.5, 5.5], [6.5, 7.5], [8.5, 9.5]]
recs["big"] = [-1, 2**40, 3, -(2**50), 5]
recs["tag"] = ["a", "bc", "def", "", "xyz"]

arrays = {
    # 1-d, little-endian floats
    "f8_1d": np.arange(10, dtype="<f8") * 1.5,
    # 2-d C order, big-endian ints
    "i4_be_2d": (np.arange(12).reshape(6, 2) - 5).astype(">i4"),
    # 3-d C order
    "f8_3d": np.arange(24, dtype="<f8").reshape(4, 3, 2) / 4,
    # records with a subarray field, both byte orders and a string field
    "records": recs,
    # strings
    "u3_1d": np.array(["a", "bc", "def", "", "é"], dtype="<U3"),
    # an empty first axis
    "empty_0x3": np.zeros((0, 3), "<f8"),
    # an empty inner axis: rows of no bytes
    "u1_4x0": np.zeros((4, 0), "|u1"),
    # refused: Fortran order, two dimensions
    "f4_2d_fortran": np.asfortranarray(np.arange(6, dtype="<f4").reshape(2, 3)),
    # refused: 0-d
    "zero_d": np.array(3.5, "<f8"),
}

cases = {}
for name, arr in arrays.items():
    write(name + ".npy", npy_bytes(arr))
    if arr.ndim == 0 or (arr.ndim >= 2 and np.isfortran(arr)):
        continue
    n = arr.shape[0]
    ranges = sorted({(0, 0), (0, n), (max(n - 1, 0), n), (n, n), (min(1, n), min(3, n))})
    cases[name] = [list(r) for r in ranges]
    loaded = np.load(os.path.join(HERE, name + ".npy"), mmap_mode="r")
    for a, b in ranges:
        write(f"{name}_{a}_{b}.npy", npy_bytes(np.array(loaded[a:b])))

# 1-d with fortran_order True: numpy never writes it (a 1-d array is C
# contiguous too), but reads it; the same bytes as C order. Hand-made from
# f8_1d's file, the header's length unchanged.
one_d = npy_bytes(arrays["f8_1d"]).replace(b"'fortran_order': False,", b"'fortran_order': True, ")
write("f8_1d_fortran.npy", one_d)
assert np.load(io.BytesIO(one_d)).tolist() == arrays["f8_1d"].tolist()
assert b"'fortran_order': True" in one_d
cases["f8_1d_fortran"] = [[0, 0], [1, 3], [9, 10], [0, 10]]
for a, b in cases["f8_1d_fortran"]:
    write(f"f8_1d_fortran_{a}_{b}.npy", npy_bytes(np.array(arrays["f8_1d"][a:b])))

with open(os.path.join(HERE, "cases.json"), "w") as f:
    json.dump(cases, f, indent=1, sort_keys=True)
    f.write("\n")
with open(os.path.join(HERE, "refuse.json"), "w") as f:
    json.dump({"f4_2d_fortran": [2, 3], "zero_d": []}, f, indent=1, sort_keys=True)
    f.write("\n")

buf = io.BytesIO()
np.savez(buf, **arrays)
write("stored.npz", buf.getvalue())
buf = io.BytesIO()
np.savez_compressed(buf, **arrays)
write("deflated.npz", buf.getvalue())

with open(os.path.join(HERE, "VERSION"), "w") as f:
    f.write("numpy " + np.__version__ + "\n")
