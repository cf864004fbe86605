"""Plain n-d arrays as numpy saves them, for NdArray (tests/read/nd.rs):
1-d to 4-d, C and Fortran order, both byte orders, every scalar kind the
crate reads, records, 0-d and empty shapes.

    python make.py   # writes <case>.npy and expected.json

expected.json maps each case to its shape, its order as stored ("C" or
"F", numpy's rule: C whenever both layouts coincide) and its values flat in
that stored order (complex as [re, im], S as lists of byte values,
datetimes as counts, records as objects).
"""
import json

import numpy as np

cases = {}


def flat_stored(a):
    """The elements in the order they are stored in the file."""
    order = "F" if (a.flags.f_contiguous and not a.flags.c_contiguous) else "C"
    return order, a.ravel(order="K" if order == "C" else "F")


def value(dt, x):
    if dt.subdtype is not None:
        return [value(dt.base, y) for y in np.asarray(x).ravel()]
    if dt.names:
        return {n: value(dt.fields[n][0], x[n]) for n in dt.names}
    if dt.kind == "c":
        return [float(x.real), float(x.imag)]
    if dt.kind == "S":
        return list(bytes(x))
    if dt.kind in "Mm":
        return int(x.view("<i8"))
    if dt.kind == "f":
        return float(x)
    if dt.kind == "b":
        return bool(x)
    if dt.kind in "iu":
        return int(x)
    return str(x)


def save(name, a):
    np.save(f"{name}.npy", a)
    back = np.load(f"{name}.npy")
    assert back.shape == a.shape and back.dtype == a.dtype
    order, flat = flat_stored(back)
    cases[name] = {
        "shape": list(a.shape),
        "order": order,
        "descr": a.dtype.str if not a.dtype.names else None,
        "values": [value(a.dtype, x) for x in flat],
    }


shapes = {1: (5,), 2: (3, 4), 3: (2, 3, 4), 4: (2, 3, 2, 2)}
for nd, shape in shapes.items():
    n = int(np.prod(shape))
    for order in "CF":
        for bo in "<>":
            a = np.asarray(np.arange(n, dtype="f8").reshape(shape) * 0.5 - 1.0, order=order)
            save(f"f8_{nd}d_{order}_{'le' if bo == '<' else 'be'}", a.astype(bo + "f8", order=order))
            ints = np.arange(n, dtype="i4").reshape(shape) - 3
            save(f"i4_{nd}d_{order}_{'le' if bo == '<' else 'be'}", np.asarray(ints, dtype=bo + "i4", order=order))

g = np.arange(12).reshape(3, 4)
for order in "CF":
    save(f"bool_{order}", np.asarray(g % 3 == 0, order=order))
    for t in ["|i1", "<i2", "<i8", "|u1", "<u2", "<u4", "<u8", ">u8", "<f4", ">f4", "<f2", ">f2"]:
        tag = t.replace("<", "le_").replace(">", "be_").replace("|", "")
        save(f"{tag}_{order}", np.asarray(g, dtype=t, order=order))
    save(f"c16_{order}", np.asarray(g + 1j * (g - 5), dtype="<c16", order=order))
    save(f"c8_be_{order}", np.asarray(g * 0.5 - 1j * g, dtype=">c8", order=order))
    save(f"strings_U_{order}", np.asarray(np.array(["a", "bc", "", "déf"] * 3).reshape(3, 4), order=order))
    save(f"strings_S_{order}", np.asarray(np.array([b"x", b"yz", b"", b"w"] * 3).reshape(3, 4), order=order))
    save(f"datetimes_{order}", np.asarray((np.arange(12) * 86400).astype("M8[s]").reshape(3, 4), order=order))

rec_dt = np.dtype([("id", "<u4"), ("pos", "<f4", (3,)), ("mass", ">f8")])
recs = np.zeros((20, 30), dtype=rec_dt)
recs["id"] = np.arange(600).reshape(20, 30)
recs["pos"] = np.arange(1800, dtype="f4").reshape(20, 30, 3) * 0.25
recs["mass"] = np.arange(600).reshape(20, 30) * 1.5
save("records_C", recs)
save("records_F", np.asfortranarray(recs))

points = np.arange(30, dtype="<f4").reshape(10, 3)
save("points_n3_C", points)
save("points_n3_F", np.asfortranarray(points))

save("zero_d", np.array(2.5, dtype="<f8"))
save("empty_0_5", np.zeros((0, 5), dtype="<f8"))
save("empty_5_0", np.zeros((5, 0), dtype="<f8"))
save("empty_12345678_0", np.zeros((12345678, 0), dtype="<f8"))

with open("expected.json", "w") as f:
    json.dump(cases, f, indent=0, sort_keys=True)
    f.write("\n")
with open("VERSION", "w") as f:
    f.write(f"numpy {np.__version__}\n")
