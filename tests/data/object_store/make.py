"""Generates the fixtures of tests/object_store (the object_store feature's
reads by ranged GETs) with numpy.

Run from this folder with the project venv (tests/data/make_all.sh does).
Each array is seeded and its values are known to the Rust tests through
the formulas in the comments. The files are over 64 KiB where the request
counts need data beyond the first GET.

  records.npy   3000 records [('id', '<u4'), ('pos', '<f8', (3,)), ('tag', 'S4')]:
                id = i, pos = [i, i + 0.5, -i], tag = b'r%03d' % (i % 1000)  (94 KiB)
  grid.npy      float32 (3000, 8), C order: grid[i, j] = i * 8 + j       (94 KiB)
  fortran.npy   int16 (4, 3), Fortran order: f[i, j] = 10 * i + j
  small.npy     uint8 (10,): 0..10 (under 64 KiB: one GET in all)
  stored.npz    np.savez: records (as records.npy), grid (as grid.npy),
                small (as small.npy)
  deflated.npz  np.savez_compressed of the same members
"""
import io
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

REC = np.dtype([("id", "<u4"), ("pos", "<f8", (3,)), ("tag", "S4")])


def records():
    i = np.arange(3000)
    a = np.zeros(3000, dtype=REC)
    a["id"] = i
    a["pos"] = np.stack([i, i + 0.5, -i], axis=1)
    a["tag"] = [b"r%03d" % (k % 1000) for k in i]
    return a


ARRAYS = {
    "records": records(),
    "grid": np.arange(3000 * 8, dtype="<f4").reshape(3000, 8),
    "small": np.arange(10, dtype="u1"),
}


def save(name, arr):
    np.save(os.path.join(HERE, name), arr)


save("records.npy", ARRAYS["records"])
save("grid.npy", ARRAYS["grid"])
save("fortran.npy", np.asfortranarray(np.add.outer(10 * np.arange(4), np.arange(3)).astype("<i2")))
save("small.npy", ARRAYS["small"])
np.savez(os.path.join(HERE, "stored.npz"), **ARRAYS)
np.savez_compressed(os.path.join(HERE, "deflated.npz"), **ARRAYS)

with open(os.path.join(HERE, "VERSION"), "w") as f:
    import sys
    f.write(f"numpy {np.__version__}, python {sys.version.split()[0]}\n")

for name in ["records.npy", "grid.npy", "fortran.npy", "small.npy"]:
    a = np.load(os.path.join(HERE, name))
    print(name, a.dtype, a.shape, "fortran" if a.flags.f_contiguous and a.ndim > 1 else "")
