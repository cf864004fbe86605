"""Plain-number arrays as np.save writes them, for the zero-copy views
(tests/read/view.rs) and npz data ranges (tests/npz/data_range.rs).

Every array holds np.arange(n) (cast to its type) in its shape, so the test
knows each value from its index: t_<code>.npy is (2, 3) of each viewable
type in little-endian order, fortran.npy a Fortran-order (3, 4) '<f8',
zero_d.npy a 0-d '<i4' holding 7, empty_0x5.npy a (0, 5) '<f4', v2/v3.npy
the (2, 3) '<f8' in format 2.0 and 3.0, big_endian.npy the (2, 3) as '>f8',
bool.npy [True, False, True, True], numpy.npz np.savez of the (2, 3) '<f8'
as a=, the Fortran one as f= (numpy does not align member data);
zeros_f8.npy np.zeros((1000, 3)) and zeros_record.npy np.zeros(4) of a
record dtype, the bytes write_zeroed must write (tests/write/zeroed.rs).

    python make.py   # writes the files above and VERSION
"""
import warnings

import numpy as np

CODES = ["i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16"]

for code in CODES:
    a = np.arange(6).astype("<" + code).reshape(2, 3)
    np.save(f"t_{code}.npy", a)

f = np.asfortranarray(np.arange(12, dtype="<f8").reshape(3, 4))
assert f.flags.f_contiguous and not f.flags.c_contiguous
np.save("fortran.npy", f)
np.save("zero_d.npy", np.array(7, dtype="<i4"))
np.save("empty_0x5.npy", np.zeros((0, 5), dtype="<f4"))
np.save("bool.npy", np.array([True, False, True, True]))

c = np.arange(6, dtype="<f8").reshape(2, 3)
np.save("big_endian.npy", c.astype(">f8"))
for version in [(2, 0), (3, 0)]:
    with open(f"v{version[0]}.npy", "wb") as out, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.lib.format.write_array(out, c, version=version)

np.savez("numpy.npz", a=c, f=f)

np.save("zeros_f8.npy", np.zeros((1000, 3)))
np.save("zeros_record.npy", np.zeros(4, dtype=[("id", "<u4"), ("pos", "<f8", (3,)), ("name", "<U5")]))

for name in ["t_f8.npy", "v2.npy", "v3.npy", "big_endian.npy"]:
    assert np.load(name).tolist() == c.tolist(), name
assert np.load("fortran.npy").tolist() == f.tolist()
with open("VERSION", "w") as out:
    out.write(f"numpy {np.__version__}\n")
