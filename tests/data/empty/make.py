"""Generates the typed-empty references for tests/write/typed_empty.rs with numpy.

Run with the project venv: /work/venv/bin/python tests/data/empty/make.py
Each <name>.npy is np.save of an empty array of one element type: what an
empty Bulk<T>, `#[serde(with = "npy_serde::bulk")]` field or NdArray<T>
must write byte for byte. columns.npz is np.savez of two empty members (a
'<f4' (0,) and a '<f4' (0, 3)), the members an npz struct with empty bulk
fields must write.
"""
import io
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def save(name, arr):
    buf = io.BytesIO()
    np.save(buf, arr)
    with open(os.path.join(HERE, name + ".npy"), "wb") as f:
        f.write(buf.getvalue())


# one element type each, shape (0,): Bulk<T> of that T
for code in ["|b1", "|u1", "|i1", "<i2", "<u2", "<i4", "<u4", "<i8", "<u8", "<f2", "<f4", "<f8",
             "<c8", "<c16"]:
    save("empty_" + np.dtype(code).str.strip("<|"), np.zeros(0, code))

# arrays as elements: [f32; 3] is a row of (0, 3); [[f64; 4]; 2] of (0, 2, 4); [u8; 0] of (0, 0)
save("empty_f4_0x3", np.zeros((0, 3), "<f4"))
save("empty_f8_0x2x4", np.zeros((0, 2, 4), "<f8"))
save("empty_u1_0x0", np.zeros((0, 0), "|u1"))
# an empty n-d array of another shape (NdArray<i64>::from_shape_vec([2, 0, 3], []))
save("empty_i8_2x0x3", np.zeros((2, 0, 3), "<i8"))

buf = io.BytesIO()
np.savez(buf, a=np.zeros(0, "<f4"), b=np.zeros((0, 3), "<f4"))
with open(os.path.join(HERE, "columns.npz"), "wb") as f:
    f.write(buf.getvalue())

with open(os.path.join(HERE, "VERSION"), "w") as f:
    f.write(np.__version__ + "\n")
