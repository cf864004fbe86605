"""Files numpy's np.lib.format.open_memmap(mode='w+') makes, for
npy_serde::memmap (tests/write/memmap.rs).

w_plus_<name>.npy: open_memmap(mode='w+') of each dtype and shape below,
left as created (zeros): memmap::create must write the same bytes, header
(numpy's padding for growth of the shape included) and data. filled_i4.npy:
a (6, 4) '<i4' made the same way and filled with np.arange(24) through the
map, for memmap::open_mut to write in place. fortran_f8.npy: open_memmap
with fortran_order=True, a (3, 4) '<f8' filled with np.arange(12) in its
logical (C) order. big_endian_f8.npy: a (2, 3) '>f8' (not viewable on a
little-endian machine).

    python make.py   # writes the files above and VERSION
"""
import numpy as np

open_memmap = np.lib.format.open_memmap

CASES = {
    "f8_100x7": ("<f8", (100, 7)),
    "c8_2x3x4": ("<c8", (2, 3, 4)),
    "b1_5": ("|b1", (5,)),
    "i8_0d": ("<i8", ()),
    "u2_0x3": ("<u2", (0, 3)),
    "f4_1234567x0": ("<f4", (1234567, 0)),  # a long first axis, no data
}

for name, (dtype, shape) in CASES.items():
    m = open_memmap(f"w_plus_{name}.npy", mode="w+", dtype=dtype, shape=shape)
    m.flush()
    del m

m = open_memmap("filled_i4.npy", mode="w+", dtype="<i4", shape=(6, 4))
m[...] = np.arange(24, dtype="<i4").reshape(6, 4)
m.flush()
del m

m = open_memmap("fortran_f8.npy", mode="w+", dtype="<f8", shape=(3, 4), fortran_order=True)
m[...] = np.arange(12, dtype="<f8").reshape(3, 4)
m.flush()
del m

np.save("big_endian_f8.npy", np.arange(6, dtype=">f8").reshape(2, 3))

assert np.load("filled_i4.npy").tolist() == np.arange(24).reshape(6, 4).tolist()
f = np.load("fortran_f8.npy")
assert f.flags.f_contiguous and not f.flags.c_contiguous
with open("VERSION", "w") as out:
    out.write(f"numpy {np.__version__}\n")
