#!/usr/bin/env python3
"""Live interop, numpy -> Rust: write a FRESH set of .npy files plus JSON sidecars.

Usage: NPY_SERDE_INTEROP_DIR=/some/dir python numpy_writes.py
       (or pass the directory as the only argument)
       python numpy_writes.py --check-memmap DIR   (after from_numpy.rs:
       numpy reads the open_memmap file that Rust wrote in place, see
       `write_memmap`)

Every run draws new random values, new string widths, new shapes and new
field orders (records are shuffled at every nesting level), so the Rust side
(`tests/interop/from_numpy.rs`) must match record fields by name. The seed is
printed and stored in every sidecar; rerun a failure with
NPY_SERDE_INTEROP_SEED=<seed>.

Sidecar `<case>.json` next to `<case>.npy`:
  case           the case name; the Rust test picks its derived type by it
  seed, numpy    how the file was made
  descr          repr(np.lib.format.dtype_to_descr(dtype)), for humans
  shape          the array shape (logical)
  fortran_order  whether numpy wrote the data column-major
  names          top-level field names in file order (null for plain arrays)
  has_bytes      whether an S field occurs (serde_json::Value cannot hold bytes)
  values         the array as numpy reads it, in logical C order, tagged so
                 nothing is lost:
                   record      {"$record": [[name, value], ...]} in file order
                   f2, f4      {"f32": "0x%08x"}   bits of the value as float32
                                                  (f2 widened, exact)
                   f8          {"f64": "0x%016x"}  bits of the float64
                   c8, c16     [re, im], each tagged as above
                   S           {"bytes": hex}      trailing NULs stripped
                   U           string              trailing NULs stripped
                   M8, m8      int                 the int64 count, NaT = -2**63
                   b1          bool; i*, u*: int
"""

import io
import json
import os
import sys
import time
import warnings

import numpy as np

I64_MIN = -(2**63)


def field_list(descr):
    """Normalise a list descr into [(name, fmt_or_list, shape_or_None), ...]."""
    out = []
    for entry in descr:
        name, fmt = entry[0], entry[1]
        shape = entry[2] if len(entry) > 2 else None
        out.append((name, fmt, shape))
    return out


def shuffled(descr, rng):
    """Shuffle record fields at every level; the top level never keeps its written order."""
    fields = []
    for name, fmt, shape in field_list(descr):
        if isinstance(fmt, list):
            fmt = shuffled(fmt, rng)
        fields.append((name, fmt) if shape is None else (name, fmt, shape))
    if len(fields) > 1:
        original = [f[0] for f in fields]
        while True:
            order = rng.permutation(len(fields))
            candidate = [fields[i] for i in order]
            if [f[0] for f in candidate] != original:
                return candidate
    return fields


def special_floats(kind_size):
    finfo = np.finfo(np.dtype(f"f{kind_size}"))
    return [
        0.0,
        -0.0,
        np.inf,
        -np.inf,
        np.nan,
        float(finfo.max),
        -float(finfo.max),
        float(finfo.smallest_subnormal),
        float(finfo.tiny),
        1.0,
        0.1,
    ]


def random_floats(rng, size, count):
    specials = special_floats(size)
    out = []
    for _ in range(count):
        if rng.random() < 0.25:
            out.append(specials[rng.integers(len(specials))])
        else:
            exp = {2: 4, 4: 30, 8: 300}[size]
            out.append(rng.standard_normal() * 10.0 ** rng.integers(-exp, exp + 1))
    with np.errstate(over="ignore"):
        return np.array(out, dtype=f"f{size}")


ALPHABET = list("abcXYZ019 _-\n\t\\'\"") + ["é", "ß", "Ω", "漢", "字", "😀", "\u200b", "\x7f"]


def random_values(rng, dt, count):
    """A flat array of `count` random values of scalar dtype `dt`."""
    kind = dt.kind
    if kind == "b":
        return rng.integers(0, 2, size=count).astype(dt)
    if kind in "iu":
        info = np.iinfo(dt)
        vals = rng.integers(int(info.min), int(info.max), size=count, endpoint=True, dtype=dt.newbyteorder("="))
        # make the extremes likely
        for i in range(count):
            r = rng.random()
            if r < 0.1:
                vals[i] = info.min
            elif r < 0.2:
                vals[i] = info.max
        return vals.astype(dt)
    if kind == "f":
        return random_floats(rng, dt.itemsize, count).astype(dt)
    if kind == "c":
        half = dt.itemsize // 2
        re = random_floats(rng, half, count)
        im = random_floats(rng, half, count)
        out = np.empty(count, dtype=dt)
        out.real = re
        out.imag = im
        return out
    if kind == "S":
        width = dt.itemsize
        vals = [bytes(rng.integers(0, 256, size=rng.integers(0, width + 1)).astype(np.uint8)) for _ in range(count)]
        return np.array(vals, dtype=dt)
    if kind == "U":
        width = dt.itemsize // 4
        vals = ["".join(ALPHABET[j] for j in rng.integers(0, len(ALPHABET), size=rng.integers(0, width + 1))) for _ in range(count)]
        return np.array(vals, dtype=dt)
    if kind in "Mm":
        ints = rng.integers(-(2**62), 2**62, size=count, dtype=np.int64)
        for i in range(count):
            r = rng.random()
            if r < 0.15:
                ints[i] = I64_MIN  # NaT
            elif r < 0.25:
                ints[i] = 0
        return ints.view(dt.newbyteorder("=")).astype(dt)
    raise ValueError(f"no generator for {dt}")


def generate(rng, dt, shape):
    """A random array of dtype `dt` and shape `shape` (padding bytes stay zero)."""
    if dt.subdtype is not None:
        base, sub = dt.subdtype
        return generate(rng, base, tuple(shape) + tuple(sub))
    out = np.zeros(shape, dtype=dt)
    if dt.names is not None:
        for name in dt.names:
            out[name] = generate(rng, dt.fields[name][0], shape)
        return out
    count = int(np.prod(shape, dtype=np.int64))
    out[...] = random_values(rng, dt, count).reshape(shape)
    return out


def float_tag(x, size):
    if size in (2, 4):
        bits = np.array(x, dtype=f"f{size}").astype("<f4").view("<u4").item()
        return {"f32": f"0x{bits:08x}"}
    bits = np.array(x, dtype="<f8").view("<u8").item()
    return {"f64": f"0x{bits:016x}"}


def export_value(x, dt):
    """One element (numpy scalar, np.void or subarray) as tagged JSON."""
    if dt.subdtype is not None:
        base, _ = dt.subdtype
        return export_array(np.asarray(x), base)
    if dt.names is not None:
        return {"$record": [[name, export_value(x[name], dt.fields[name][0])] for name in dt.names]}
    kind = dt.kind
    if kind == "b":
        return bool(x)
    if kind in "iu":
        return int(x)
    if kind == "f":
        return float_tag(x, dt.itemsize)
    if kind == "c":
        half = dt.itemsize // 2
        c = complex(x)
        return [float_tag(c.real, half), float_tag(c.imag, half)]
    if kind == "S":
        return {"bytes": bytes(x).hex()}
    if kind == "U":
        return str(x)
    if kind in "Mm":
        return int(np.array(x, dtype=dt.newbyteorder("=")).view(np.int64).item())
    raise ValueError(f"cannot export {dt}")


def export_array(a, dt):
    """Nested lists in logical C order; a 0-d array is the bare element."""
    a = np.asarray(a)
    if a.ndim == 0:
        return export_value(a[()], dt)
    return [export_array(a[i], dt) for i in range(a.shape[0])]


def has_kind(dt, kinds):
    if dt.subdtype is not None:
        return has_kind(dt.subdtype[0], kinds)
    if dt.names is not None:
        return any(has_kind(dt.fields[n][0], kinds) for n in dt.names)
    return dt.kind in kinds


def scalar_fields(e, rng):
    """Every scalar kind numpy saves without pickle, in byte order `e` where it matters."""
    s = int(rng.integers(1, 13))
    u = int(rng.integers(1, 13))
    return [
        ("b", "|b1"),
        ("i1", "|i1"),
        ("i2", e + "i2"),
        ("i4", e + "i4"),
        ("i8", e + "i8"),
        ("u1", "|u1"),
        ("u2", e + "u2"),
        ("u4", e + "u4"),
        ("u8", e + "u8"),
        ("f2", e + "f2"),
        ("f4", e + "f4"),
        ("f8", e + "f8"),
        ("c8", e + "c8"),
        ("c16", e + "c16"),
        ("s", f"|S{s}"),
        ("u", f"{e}U{u}"),
        ("t", e + "M8[ns]"),
        ("d", e + "m8[s]"),
    ]


def cases(rng):
    """(case, dtype, shape, fortran) for this run. Names are the contract with interop_numpy.rs."""
    n = lambda: int(rng.integers(1, 9))  # noqa: E731
    dim = lambda: int(rng.integers(2, 6))  # noqa: E731
    rec = lambda d, align=False: np.dtype(shuffled(d, rng), align=align)  # noqa: E731
    yield "scalars_le", rec(scalar_fields("<", rng)), (n(),), False
    yield "scalars_be", rec(scalar_fields(">", rng)), (n(),), False
    yield "subarrays", rec(
        [
            ("pos", "<f8", (3,)),
            ("grid", ">i4", (2, 3)),
            ("flags", "|b1", (4,)),
            ("tags", "<U3", (2,)),
            ("one", "<u2", (1,)),
            ("z", "<c16", (2,)),
            ("when", "<M8[ns]", (2,)),
        ]
    ), (n(),), False
    yield "nested", rec(
        [
            ("id", "<u4"),
            ("inner", [("a", "<f4"), ("deep", [("x", ">i2"), ("y", "<f8")]), ("v", "<i8", (2,))]),
            ("pair", [("p", "<f8"), ("q", "|u1")], (2,)),
        ]
    ), (n(),), False
    yield "aligned", rec(
        [
            ("a", "|i1"),
            ("b", "<i4"),
            ("c", "|i1"),
            ("d", "<f8"),
            ("e", "<u2"),
            ("sub", [("x", "|u1"), ("y", "<f8"), ("z", "|b1")]),
        ],
        align=True,
    ), (n(),), False
    yield "plain_n3", np.dtype("<f8"), (n(), 3), False
    yield "plain_n3_i4_be", np.dtype(">i4"), (n(), 3), False
    yield "fortran_2d", np.dtype("<f8"), (dim(), dim()), True
    yield "fortran_2d_i8_be", np.dtype(">i8"), (dim(), dim()), True
    yield "fortran_records", rec([("a", "<i4"), ("b", "<f8"), ("c", "<U2")]), (dim(), dim()), True
    yield "scalar_0d", np.dtype("<f8"), (), False
    yield "record_0d", rec([("x", "<f8"), ("y", "<i2"), ("name", "<U4")]), (), False
    # a printable non-latin1 name makes numpy write format 3.0 (UTF-8 header)
    yield "unicode_names", rec([("温度", "<f8"), ("café", "<i4"), ("plain", "|u1")]), (n(),), False
    # latin1-only names stay format 1.0, written as raw latin1 bytes (0xE9 for é)
    yield "latin1_names", rec([("café", "<i4"), ("naïve", "<f4"), ("plain", "|u1")]), (n(),), False
    yield "empty", rec([("x", "<f8"), ("y", "<i2"), ("name", "<U4")]), (0,), False
    # n-d arrays of plain dtypes, C and Fortran (NdArray in from_numpy.rs): the case
    # name says the dtype ("nd_<kind><size><le|be>_<k>d_<C|F>"); every axis has at
    # least 2 elements, so a Fortran file's layout differs from C order
    for fmt, k, fortran in [("<f8", 3, False), (">f8", 3, True), ("<f4", 2, True),
                            (">i2", 4, False), ("<i4", 4, True), (">u8", 2, True),
                            ("|u1", 1, False), ("|b1", 3, True), ("<c16", 2, True),
                            (">c8", 3, False), ("<U3", 2, True), ("<M8[us]", 2, True)]:
        dt = np.dtype(fmt)
        end = {"<": "le", ">": "be", "|": ""}[fmt[0]]
        name = f"nd_{dt.kind}{dt.itemsize}{end}_{k}d_{'F' if fortran else 'C'}"
        yield name, dt, tuple(dim() for _ in range(k)), fortran


def write_memmap(rng, out_dir):
    """numpy's np.lib.format.open_memmap(mode='w+') file, for
    npy_serde::memmap::open_mut (from_numpy.rs `numpy_open_memmap_written_in_place`):
    DIR/memmap/open_memmap.npy holds random '<f8' values, filled through
    numpy's map, and original.npy a copy of them. The Rust test writes
    2 * x + 1 over each value in place; `--check-memmap DIR` then checks
    what numpy sees. A folder of its own: from_numpy.rs reads every .npy of
    DIR, and must not read this one while it is written."""
    d = os.path.join(out_dir, "memmap")
    os.makedirs(d, exist_ok=True)
    shape = (int(rng.integers(1, 60)), 4)
    values = rng.standard_normal(shape)
    m = np.lib.format.open_memmap(os.path.join(d, "open_memmap.npy"), mode="w+", dtype="<f8", shape=shape)
    m[...] = values
    m.flush()
    del m
    np.save(os.path.join(d, "original.npy"), values)
    print(f"  memmap/open_memmap.npy  shape {shape}  (open_memmap mode='w+', for memmap::open_mut)")


def check_memmap(out_dir):
    """After from_numpy.rs wrote 2 * x + 1 through memmap::open_mut: numpy
    reads those values (through its own map), and the file is byte for byte
    what np.save writes for them (the header untouched)."""
    d = os.path.join(out_dir, "memmap")
    path = os.path.join(d, "open_memmap.npy")
    orig = np.load(os.path.join(d, "original.npy"))
    want = orig * 2 + 1
    m = np.load(path, mmap_mode="r")
    if m.dtype != np.dtype("<f8") or m.shape != orig.shape:
        sys.exit(f"check_memmap: {path} is {m.dtype} {m.shape}, expected <f8 {orig.shape}")
    if not np.array_equal(m, want):
        if np.array_equal(m, orig):
            sys.exit(f"check_memmap: {path} still holds numpy's values: the Rust step did not write it")
        bad = np.argwhere(m != want)[0]
        sys.exit(f"check_memmap: {path}{tuple(bad)} is {m[tuple(bad)]!r}, expected {want[tuple(bad)]!r}")
    del m
    buf = io.BytesIO()
    np.save(buf, want)
    with open(path, "rb") as f:
        data = f.read()
    if data != buf.getvalue():
        sys.exit(f"check_memmap: {path} differs from np.save of its values")
    print(f"check_memmap: numpy reads the {orig.shape} values memmap::open_mut wrote into {path}")


def main():
    if sys.argv[1:2] == ["--check-memmap"]:
        if len(sys.argv) != 3:
            sys.exit("usage: numpy_writes.py --check-memmap DIR")
        check_memmap(sys.argv[2])
        return
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NPY_SERDE_INTEROP_DIR")
    if not out_dir:
        sys.exit("usage: numpy_writes.py DIR (or set NPY_SERDE_INTEROP_DIR)")
    os.makedirs(out_dir, exist_ok=True)
    seed_text = os.environ.get("NPY_SERDE_INTEROP_SEED") or os.environ.get("GITHUB_RUN_ID") or str(time.time_ns())
    seed = int(seed_text) % 2**63
    print(f"numpy_writes: numpy {np.__version__}, seed {seed} (reproduce with NPY_SERDE_INTEROP_SEED={seed})")
    rng = np.random.default_rng(seed)
    count = 0
    for case, dt, shape, fortran in cases(rng):
        arr = generate(rng, dt, shape)
        if fortran:
            arr = np.asfortranarray(arr)
            assert arr.flags.f_contiguous and not arr.flags.c_contiguous, case
        path = os.path.join(out_dir, case + ".npy")
        with warnings.catch_warnings():
            # "Stored array in format 3.0": expected for unicode_names
            warnings.simplefilter("ignore", UserWarning)
            np.save(path, arr, allow_pickle=False)
        # What numpy itself reads back is the reference, not what we meant to write.
        back = np.load(path, allow_pickle=False)
        assert back.dtype == arr.dtype and back.shape == arr.shape, case
        sidecar = {
            "case": case,
            "seed": seed,
            "numpy": np.__version__,
            "descr": repr(np.lib.format.dtype_to_descr(back.dtype)),
            "shape": list(back.shape),
            "fortran_order": bool(fortran),
            "names": list(back.dtype.names) if back.dtype.names is not None else None,
            "has_bytes": has_kind(back.dtype, "S"),
            "values": export_array(back, back.dtype),
        }
        with open(os.path.join(out_dir, case + ".json"), "w", encoding="utf-8") as f:
            json.dump(sidecar, f, ensure_ascii=False)
            f.write("\n")
        print(f"  {case}.npy  shape {back.shape}  descr {sidecar['descr']}")
        count += 1
    write_memmap(rng, out_dir)
    print(f"numpy_writes: wrote {count} files and memmap/ to {out_dir}")


if __name__ == "__main__":
    main()
