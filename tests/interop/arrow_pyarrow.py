"""npy convert against pyarrow (issue 37), run by .ci/run:

1. numpy-written files (tests/data/arrow) converted by `npy convert` to
   Parquet and Arrow IPC are read by pyarrow and compared with np.load,
   field by field;
2. tables pyarrow writes as Parquet and IPC, converted by `npy convert` to
   .npy, load in numpy with the expected dtype and values.

usage: python arrow_pyarrow.py NPY_BINARY WORK_DIR"""
import os
import subprocess
import sys

import numpy as np
import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

npy, work = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
fixtures = os.path.join(here, "..", "data", "arrow")
os.makedirs(work, exist_ok=True)
checked = 0


def convert(src, dst, *extra):
    subprocess.run([npy, "convert", src, dst, *extra], check=True)


def expected(values, dtype):
    """What pyarrow should hold for numpy `values` of `dtype`, as a list."""
    if dtype.names:
        return [dict((n, expected_one(v[n], dtype[n])) for n in dtype.names) for v in values]
    return [expected_one(v, dtype) for v in values]


def expected_one(v, dtype):
    if dtype.subdtype is not None:
        base, shape = dtype.subdtype
        return [expected_one(x, base if len(shape) == 1 else np.dtype((base, shape[1:]))) for x in v]
    if dtype.names:
        return {n: expected_one(v[n], dtype[n]) for n in dtype.names}
    k = dtype.kind
    if k in "Mm":
        if np.isnat(v):
            return None
        unit = np.datetime_data(dtype)[0]
        if k == "M" and unit in ("Y", "M", "W", "D"):
            return v.astype("M8[D]").astype(object)
        target = {"h": "s", "m": "s", "s": "s", "ms": "ms", "us": "us"}.get(unit, "ns")
        if k == "m" and unit in ("W", "D"):
            target = "s"
        return int(v.astype(f"{k}8[{target}]").astype("i8"))
    if k == "c":
        return {"re": float(v.real), "im": float(v.imag)}
    if k == "V":
        return bytes(v)
    if k == "f":
        return float(v)
    return v.item()


def actual(col):
    t = col.type
    if pa.types.is_timestamp(t) or pa.types.is_duration(t):
        return [None if x is None else x for x in col.cast(pa.int64()).to_pylist()]
    if pa.types.is_struct(t) or pa.types.is_fixed_size_list(t):
        return nested(col)
    return col.to_pylist()


def nested(col):
    out = []
    for x in col.to_pylist():
        out.append(x)
    return out


def same(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return (a != a and b != b) or a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b


def timeish_fields(dtype):
    return {n for n in (dtype.names or ()) if dtype[n].kind in "Mm"}


# 1. numpy files -> Parquet / Arrow IPC -> pyarrow == np.load
for name in ["records", "times", "big", "padded", "plain_f8", "plain_be", "plain_2d",
             "plain_3d", "fortran", "zero_d", "bools", "strings", "bytes", "bf16", "foreign"]:
    arr = np.load(os.path.join(fixtures, name + ".npy"))
    for ext, read in [("parquet", pq.read_table), ("arrow", lambda p: ipc.open_file(p).read_all())]:
        out = os.path.join(work, f"{name}.{ext}")
        convert(os.path.join(fixtures, name + ".npy"), out)
        table = read(out)
        rows = arr.reshape(1) if arr.ndim == 0 else arr
        if arr.dtype.names:
            assert table.column_names == list(arr.dtype.names), (name, table.column_names)
            for field in arr.dtype.names:
                want = [expected_one(v, arr.dtype[field]) for v in rows[field]]
                col = table.column(field).combine_chunks()
                got = actual(col)
                if arr.dtype[field].kind == "M" and pa.types.is_date32(col.type):
                    got = col.to_pylist()
                assert same(got, want), (name, ext, field, got, want)
        else:
            assert table.column_names == ["values"], (name, table.column_names)
            sub = np.dtype((arr.dtype, arr.shape[1:])) if arr.ndim > 1 else arr.dtype
            want = [expected_one(v, sub) for v in rows]
            got = actual(table.column("values").combine_chunks())
            assert same(got, want), (name, ext, got, want)
        md = table.schema.metadata
        assert md[b"numpy.shape"].decode() == str(arr.shape), (name, md)
        checked += 1

# 2. pyarrow writes -> npy convert -> numpy
table = pa.table({
    "id": pa.array([1, 2, 3], pa.int32()),
    "x": pa.array([0.5, -1.5, float("nan")], pa.float64()),
    "name": pa.array(["a", "\u00e9t\u00e9", ""], pa.string()),
    "tag": pa.array([b"xy", b"", b"abc"], pa.binary()),
    "ok": pa.array([True, False, True]),
    "when": pa.array([1_000_000, None, -1], pa.timestamp("us")),
    "day": pa.array([0, 19_000, None], pa.date32()),
    "took": pa.array([5, None, 7], pa.duration("ms")),
    "xy": pa.array([[1, 2], [3, 4], [5, 6]], pa.list_(pa.float32(), 2)),
    "small": pa.array([1, -2, 3], pa.int8()),
})
want = np.zeros(3, dtype=[("id", "<i4"), ("x", "<f8"), ("name", "<U3"), ("tag", "S3"),
                          ("ok", "?"), ("when", "<M8[us]"), ("day", "<M8[D]"),
                          ("took", "<m8[ms]"), ("xy", "<f4", (2,)), ("small", "i1")])
want["id"] = [1, 2, 3]
want["x"] = [0.5, -1.5, np.nan]
want["name"] = ["a", "\u00e9t\u00e9", ""]
want["tag"] = [b"xy", b"", b"abc"]
want["ok"] = [True, False, True]
want["when"] = [np.datetime64(1_000_000, "us"), np.datetime64("NaT"), np.datetime64(-1, "us")]
want["day"] = [np.datetime64(0, "D"), np.datetime64(19_000, "D"), np.datetime64("NaT")]
want["took"] = [np.timedelta64(5, "ms"), np.timedelta64("NaT"), np.timedelta64(7, "ms")]
want["xy"] = [[1, 2], [3, 4], [5, 6]]
want["small"] = [1, -2, 3]
pq.write_table(table, os.path.join(work, "py.parquet"))
with ipc.new_file(os.path.join(work, "py.arrow"), table.schema) as w:
    w.write_table(table)
for src in ["py.parquet", "py.arrow"]:
    out = os.path.join(work, src + ".npy")
    convert(os.path.join(work, src), out)
    got = np.load(out)
    assert got.dtype == want.dtype, (src, got.dtype, want.dtype)
    for f in want.dtype.names:
        assert np.array_equal(got[f], want[f], equal_nan=want.dtype[f].kind in "fc") or (
            want.dtype[f].kind in "Mm" and np.array_equal(np.isnat(got[f]), np.isnat(want[f]))
            and np.array_equal(got[f][~np.isnat(got[f])], want[f][~np.isnat(want[f])])), (src, f)
    # and byte for byte what np.save writes of that structured array
    ref = os.path.join(work, src + ".ref.npy")
    np.save(ref, want)
    assert open(out, "rb").read() == open(ref, "rb").read(), src
    checked += 1

# a table of one number type as a plain array
plain = pa.table({"a": pa.array([1.0, 2.0]), "b": pa.array([3.0, 4.0]), "c": pa.array([5.0, 6.0])})
pq.write_table(plain, os.path.join(work, "plain.parquet"))
convert(os.path.join(work, "plain.parquet"), os.path.join(work, "plain.npy"), "--array")
got = np.load(os.path.join(work, "plain.npy"))
assert got.dtype == np.float64 and got.shape == (2, 3), got
assert np.array_equal(got, [[1, 3, 5], [2, 4, 6]])
checked += 1

print(f"arrow/pyarrow: {checked} checks passed")
