#!/usr/bin/env python3
"""numpy's side of bench/compare: np.save / np.load on the records of tests/benches/npy.rs,
and np.savez / np.savez_compressed / np.load on its npz archive (four arrays);
the files set (issue 35): a 64-MB (8000, 1000) '<f8' array through files, npz
members, rows by a memory map, and deflate levels 1 and 6.

Prints one JSON object: {set: {op: {"times": [seconds...], "bytes": n}}}.
Same record types and sizes as the Rust benches (NPY_BENCH_SCALE scales them).
Also checks that numpy loads the files the Rust benches wrote (same dtype,
same shape, same first record; for the npz archives every member equal)
so a fast wrong path cannot win.
"""
import io
import json
import os
import sys
import tempfile
import time
import zipfile

import numpy as np

SCALE = float(os.environ.get("NPY_BENCH_SCALE", "1"))
REPEAT = int(os.environ.get("NPY_BENCH_REPEAT", "5"))
DIR = os.path.join(tempfile.gettempdir(), "npy_serde_bench")


def n(x):
    return max(1, int(x * SCALE))


def particles(k):
    i = np.arange(k)
    a = np.zeros(k, dtype=[("id", "<u8"), ("pos", "<f8", (3,)), ("vel", "<f4", (3,)),
                           ("mass", "<f4"), ("charge", "i1")])
    a["id"] = i * 7919
    x = i.astype(np.float64)
    a["pos"] = np.stack([x * 0.25, -x, x + 0.5], axis=1)
    a["vel"] = np.stack([(i % 1000) * 0.5, np.full(k, 1.25), np.full(k, -2.0)], axis=1)
    a["mass"] = (i % 97) + 0.75
    a["charge"] = (i % 7) - 3
    return a


def narrows(k):
    i = np.arange(k)
    a = np.zeros(k, dtype=[("a", "u1"), ("b", "<i2")])
    a["a"] = i % 256
    a["b"] = (i * 31).astype(np.int16)
    return a


def wides(k):
    dt = [(f"f{j:02}", "<f8") for j in range(64)]
    a = np.zeros(k, dtype=dt)
    i = np.arange(k) * 0.5
    for j in range(64):
        a[f"f{j:02}"] = i + j + 1
    return a


def tagged(k):
    a = np.zeros(k, dtype=[("name", "<U16"), ("code", "S8"), ("t", "<M8[ns]")])
    i = np.arange(k)
    a["name"] = np.char.add("rec-", (i % 100000).astype(str))
    a["code"] = np.char.add("c", (i % 1000).astype(str)).astype("S8")
    a["t"] = (1_700_000_000_000_000_000 + i).astype("M8[ns]")
    a[0] = ("sixteen-chars-éé", b"ABCDEFGH", a["t"][0])
    return a


SETS = {
    "particle": lambda: particles(n(1_000_000)),
    "narrow": lambda: narrows(n(1_000_000)),
    "wide": lambda: wides(n(100_000)),
    "strings": lambda: tagged(n(1_000_000)),
    "f64": lambda: np.arange(n(8_000_000), dtype=np.float64) * 0.5,
    "f32x3": lambda: (lambda i: np.stack([i, i * 0.5, -i], axis=1))(
        np.arange(n(2_000_000), dtype=np.float32)),
    # the n-d set: 8M f64 as (2000, 4000), C order
    "nd": lambda: (np.arange(n(2000) * 4000, dtype=np.float64) * 0.5).reshape(n(2000), 4000),
}


def timed(fn, repeat=REPEAT):
    fn()  # warm-up
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def check_rust_file(name, a):
    p = os.path.join(DIR, f"{name}.npy")
    if not os.path.exists(p):
        return "missing"
    b = np.load(p)
    assert b.dtype == a.dtype, (name, b.dtype, a.dtype)
    assert b.shape == a.shape, (name, b.shape, a.shape)
    assert (b[:1000] == a[:1000]).all() if a.dtype.names is None else \
        all((b[f][:1000] == a[f][:1000]).all() for f in a.dtype.names), name
    return "ok"


def snapshot(k):
    """The npz set: the Particle columns id, pos, vel, mass (48 bytes a record)."""
    p = particles(k)
    return {"id": p["id"].copy(), "pos": p["pos"].copy(), "vel": p["vel"].copy(),
            "mass": p["mass"].copy()}


def load_all(src):
    """np.load of an archive, every member read (NpzFile is lazy)."""
    with np.load(src) as z:
        return {k: z[k] for k in z.files}


def check_rust_npz(name, members, file=None):
    p = os.path.join(DIR, file or f"npz_{name}.npz")
    if not os.path.exists(p):
        return "missing", 0
    got = load_all(p)
    assert list(got) == list(members), (name, list(got))
    for k, a in members.items():
        assert got[k].dtype == a.dtype and got[k].shape == a.shape, (name, k)
        assert (got[k] == a).all(), (name, k)
    return "ok", os.path.getsize(p)


def npz_set():
    members = snapshot(n(1_000_000))
    ops = {}
    raw = 0
    for a in members.values():
        f = io.BytesIO()
        np.save(f, a)
        raw += len(f.getvalue())
    path = os.path.join(DIR, "numpy.tmp.npz")
    for name, save in [("stored", np.savez), ("deflated", np.savez_compressed)]:
        ops[f"rust_{name}_loads"], ops[f"rust_{name}_size"] = check_rust_npz(name, members)

        def save_bytesio():
            f = io.BytesIO()
            save(f, **members)
            return f

        blob = save_bytesio().getvalue()
        ops[f"numpy_{name}_size"] = len(blob)
        ops[f"write_{name}"] = timed(save_bytesio)
        ops[f"read_{name}"] = timed(lambda: load_all(io.BytesIO(blob)))
        ops[f"write_{name}_file"] = timed(lambda: save(path, **members))
        ops[f"read_{name}_file"] = timed(lambda: load_all(path))
        os.remove(path)
    return {"bytes": raw, "ops": ops}


def files_set():
    """The files set (issue 35): np.save / np.load of a (8000, 1000) '<f8' file,
    np.load(npz)["a"] of a stored and a deflated archive, rows by a memory map,
    and a 2M '<i8' ramp (16 MB) deflated at levels 1 and 6; checks the files
    the Rust bench left (same values) and notes the archives' sizes."""
    rows = n(8000)
    a = (np.arange(rows * 1000, dtype=np.float64) * 0.5).reshape(rows, 1000)
    ramp = np.arange(n(2_000_000), dtype="<i8") // 7
    ops = {}
    ops["rust_file_loads"] = check_rust_file("files", a)
    for kind in ("stored", "deflated"):
        ops[f"rust_{kind}_loads"], ops[f"rust_{kind}_size"] = check_rust_npz(
            kind, {"a": a}, f"files_{kind}.npz")
    for level in (1, 6):
        ops[f"rust_level{level}_loads"], ops[f"rust_level{level}_size"] = check_rust_npz(
            f"level{level}", {"a": ramp}, f"files_level{level}.npz")
    path = os.path.join(DIR, "numpy.files.tmp.npy")
    ops["save_file"] = timed(lambda: np.save(path, a))

    def save_fsync():
        with open(path, "wb") as f:
            np.save(f, a)
            f.flush()
            os.fsync(f.fileno())

    ops["save_file_fsync"] = timed(save_fsync)
    ops["load_file"] = timed(lambda: np.load(path))
    r0, r1 = rows // 2, min(rows, rows // 2 + 100)
    part = np.array(np.load(path, mmap_mode="r")[r0:r1])
    assert (part == a[r0:r1]).all() and part.flags.owndata
    ops["rows_mmap"] = timed(lambda: np.array(np.load(path, mmap_mode="r")[r0:r1]))
    os.remove(path)

    def load_a(p):
        with np.load(p) as z:
            return z["a"]

    zpath = os.path.join(DIR, "numpy.files.tmp.npz")
    for kind, save in [("stored", np.savez), ("deflated", np.savez_compressed)]:
        save(zpath, a=a)
        ops[f"numpy_{kind}_size"] = os.path.getsize(zpath)
        assert (load_a(zpath) == a).all()
        ops[f"npz_{kind}_load"] = timed(lambda: load_a(zpath))

    def level1():
        # np.savez_compressed's way (numpy/lib/_npyio_impl.py _savez), at level 1
        with zipfile.ZipFile(zpath, "w", compression=zipfile.ZIP_DEFLATED,
                             compresslevel=1) as zf:
            with zf.open("a.npy", "w", force_zip64=True) as f:
                np.lib.format.write_array(f, ramp, allow_pickle=False)

    for level, write in [(1, level1), (6, lambda: np.savez_compressed(zpath, a=ramp))]:
        write()
        ops[f"numpy_level{level}_size"] = os.path.getsize(zpath)
        assert (load_a(zpath) == ramp).all()
        ops[f"npz_level{level}_write"] = timed(write)
    os.remove(zpath)
    return {"bytes": a.nbytes + 128, "ops": ops}


def main():
    only = set(sys.argv[1:])
    res = {}
    os.makedirs(DIR, exist_ok=True)
    path = os.path.join(DIR, "numpy.tmp.npy")
    for name, make in SETS.items():
        if only and name not in only:
            continue
        a = make()
        ops = {}
        ops["rust_file_loads"] = check_rust_file(name, a)

        def save_bytesio():
            f = io.BytesIO()
            np.save(f, a)
            return f

        blob = save_bytesio().getvalue()
        size = len(blob)
        ops["save_bytesio"] = timed(save_bytesio)
        ops["load_bytesio"] = timed(lambda: np.load(io.BytesIO(blob)))
        ops["save_file"] = timed(lambda: np.save(path, a))

        def save_fsync():
            with open(path, "wb") as f:
                np.save(f, a)
                f.flush()
                os.fsync(f.fileno())

        ops["save_file_fsync"] = timed(save_fsync)
        ops["load_file"] = timed(lambda: np.load(path))
        res[name] = {"bytes": size, "ops": ops}
        os.remove(path)
    if not only or "npz" in only:
        res["npz"] = npz_set()
    if not only or "files" in only:
        res["files"] = files_set()
    json.dump(res, sys.stdout)


if __name__ == "__main__":
    main()
