#!/usr/bin/env python3
"""Live interop, Rust -> numpy: check every file `tests/interop/to_numpy.rs` wrote.

Usage: python numpy_checks.py DIR   (or set NPY_SERDE_OUT_DIR)

For every `<case>.npy` in DIR, with its sidecar `<case>.json`
({"case", "descr", "shape", "fortran_order", "values"}):
  1. np.load(allow_pickle=False) must succeed;
  2. np.lib.format.dtype_to_descr(arr.dtype) must equal the sidecar descr
     (a Python literal: "[('x', '<f8')]" or "'<f8'");
  3. the shape and the memory order (fortran_order) must match;
  4. the values, exported like numpy_writes.py does (records as
     {"$record": pairs}, floats as bits, bytes as hex), must equal the sidecar;
  5. np.save of the loaded array must give byte-for-byte the file.
For every `<case>.npz` (sidecar {"case", "compressed", "members": [...]},
one entry per member like an .npy sidecar plus its "key") see `check_npz`:
the member list, each member checked as above, and the local headers
compared with np.savez of the loaded arrays.
Prints one line per file and "N passed, M failed"; exits non-zero on any
failure or when DIR holds no files.
"""

import ast
import io
import json
import os
import struct
import sys
import warnings
import zipfile

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from numpy_writes import export_array  # noqa: E402  (same tagged format both ways)


def first_diff(got, want, path="values"):
    """Path and both sides of the first difference between two JSON trees."""
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        for i, (g, w) in enumerate(zip(got, want)):
            d = first_diff(g, w, f"{path}[{i}]")
            if d:
                return d
        return None
    if isinstance(got, dict) and isinstance(want, dict) and got.keys() == want.keys():
        for k in got:
            d = first_diff(got[k], want[k], f"{path}.{k}")
            if d:
                return d
        return None
    if got == want and type(got) is type(want):
        return None
    return f"{path}: numpy has {json.dumps(got, ensure_ascii=False)}, Rust meant {json.dumps(want, ensure_ascii=False)}"


def header_of(data):
    """The header text of an .npy image, for error messages."""
    f = io.BytesIO(data)
    major, minor = np.lib.format.read_magic(f)
    size = int.from_bytes(f.read(2 if major == 1 else 4), "little")
    text = f.read(size).decode("latin1" if major < 3 else "utf8", "replace")
    return f"v{major}.{minor} {text.rstrip()!r}"


def check_npy(path):
    """Returns None when the file passes, else the reason."""
    with open(path, "rb") as f:
        data = f.read()
    with open(path[: -len(".npy")] + ".json", encoding="utf-8") as f:
        sidecar = json.load(f)
    try:
        arr = np.load(io.BytesIO(data), allow_pickle=False)
    except Exception as e:  # noqa: BLE001 - any failure to load is the finding
        return f"np.load failed: {type(e).__name__}: {e}"
    return check_array(arr, data, sidecar)


def check_array(arr, data, sidecar):
    """Checks a loaded array against its sidecar (descr, shape, order,
    values) and its file bytes against np.save; None when it passes."""
    want_descr = ast.literal_eval(sidecar["descr"])
    got_descr = np.lib.format.dtype_to_descr(arr.dtype)
    if got_descr != want_descr:
        return f"descr: numpy reads {got_descr!r}, Rust meant {want_descr!r}"
    if list(arr.shape) != sidecar["shape"]:
        return f"shape: numpy reads {arr.shape}, Rust meant {tuple(sidecar['shape'])}"
    fortran = bool(arr.flags.f_contiguous and not arr.flags.c_contiguous)
    if fortran != sidecar["fortran_order"]:
        return f"fortran_order: numpy reads {fortran}, Rust meant {sidecar['fortran_order']}"

    diff = first_diff(export_array(arr, arr.dtype), sidecar["values"])
    if diff:
        return diff

    return compare_with_np_save(arr, data)


def field_mask(dt, mask=None, base=0):
    """uint8 mask over one item of `dt`: 1 where a field's bytes are, 0 for padding."""
    if mask is None:
        mask = np.zeros(dt.itemsize, dtype=np.uint8)
    if dt.names is not None:
        for name in dt.names:
            fdt, off = dt.fields[name][:2]
            field_mask(fdt, mask, base + off)
    elif dt.subdtype is not None:
        sub, shape = dt.subdtype
        for k in range(int(np.prod(shape, dtype=np.int64))):
            field_mask(sub, mask, base + k * sub.itemsize)
    else:
        mask[base : base + dt.itemsize] = 1
    return mask


def compare_with_np_save(arr, data):
    """np.save of the loaded array must give the file's bytes.

    Padding bytes are the one exception: np.save writes whatever memory holds
    there (to a stream it copies through nditer buffers, which leave padding
    uninitialised), so numpy is not deterministic about them. They are masked
    in the comparison, and the file's own padding must be zero (our promise).
    """
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "Stored array in format 3.0"
        np.save(buf, arr, allow_pickle=False)
    expected = buf.getvalue()
    where = None
    if len(expected) != len(data):
        where = min(len(expected), len(data))
    else:
        start = len(expected) - arr.nbytes
        if expected[:start] != data[:start]:
            where = next(i for i, (a, b) in enumerate(zip(expected, data)) if a != b)
        elif arr.dtype.itemsize and arr.nbytes:
            mask = field_mask(arr.dtype)
            ours = np.frombuffer(data, dtype=np.uint8, offset=start).reshape(-1, arr.dtype.itemsize)
            theirs = np.frombuffer(expected, dtype=np.uint8, offset=start).reshape(-1, arr.dtype.itemsize)
            bad = np.argwhere((ours & mask) != (theirs & mask))
            if len(bad):
                where = start + int(bad[0][0]) * arr.dtype.itemsize + int(bad[0][1])
            else:
                nonzero = np.argwhere(ours & (1 - mask))
                if len(nonzero):
                    r, c = (int(x) for x in nonzero[0])
                    return f"padding byte {c} of item {r} is 0x{ours[r, c]:02x}, expected zero"
    if where is None:
        return None
    at = where
    return (
        f"bytes differ from np.save at offset {at} (np.save {len(expected)} bytes, file {len(data)} bytes)\n"
        f"      np.save: {header_of(expected)}\n"
        f"      file:    {header_of(data)}\n"
        f"      np.save[{at}:{at + 16}] = {expected[at:at + 16].hex(' ')}\n"
        f"      file[{at}:{at + 16}]    = {data[at:at + 16].hex(' ')}"
    )


def local_header(data, info):
    """The local header fields np.savez fixes: version needed, flags, method,
    time, date, and the id and size of the first extra field (zip64, id 1)."""
    off = info.header_offset
    if data[off : off + 4] != b"PK\x03\x04":
        raise ValueError(f"no local header at {off}")
    version, flags, method, time, date = struct.unpack("<HHHHH", data[off + 4 : off + 14])
    name_len, extra_len = struct.unpack("<HH", data[off + 26 : off + 30])
    extra = data[off + 30 + name_len : off + 30 + name_len + extra_len]
    extra_id, extra_size = struct.unpack("<HH", extra[:4]) if len(extra) >= 4 else (None, None)
    return dict(version_needed=version, flags=flags, method=method, time=time, date=date,
                extra_id=extra_id, extra_size=extra_size)


def check_npz(path):
    """An .npz the crate wrote, with its sidecar `<case>.json`
    ({"case", "compressed", "members": [{"key", "descr", "shape",
    "fortran_order", "values"}]}):
      1. np.load gives the members in the sidecar's order;
      2. each member is checked like an .npy (descr, shape, order, values) and
         its uncompressed bytes must equal np.save of the loaded array
         (padding masked as for .npy);
      3. np.savez / np.savez_compressed of the loaded arrays gives the same
         member names and the same local header fields (version needed,
         flags, method, time and date, zip64 extra). The compressed bytes
         are not compared: deflate output depends on the zlib build.
      4. stored members' array data starts at a multiple of 64 in the
         archive (NpzWriter aligns it for zero-copy views; np.savez does not);
      5. the central directory's fields are np.savez's too (versions made
         by and needed, system, flags, method, date, attributes, CRC-32,
         uncompressed size; stored: the compressed size).
    """
    with open(path, "rb") as f:
        data = f.read()
    with open(path[: -len(".npz")] + ".json", encoding="utf-8") as f:
        sidecar = json.load(f)
    try:
        z = np.load(io.BytesIO(data), allow_pickle=False)
        keys = list(z.files)
    except Exception as e:  # noqa: BLE001 - any failure to load is the finding
        return f"np.load failed: {type(e).__name__}: {e}"
    want_keys = [m["key"] for m in sidecar["members"]]
    if keys != want_keys:
        return f"members: numpy reads {keys}, Rust meant {want_keys}"
    ours = zipfile.ZipFile(io.BytesIO(data))
    arrays = {}
    for m in sidecar["members"]:
        key = m["key"]
        try:
            arr = z[key]
        except Exception as e:  # noqa: BLE001
            return f"member {key!r}: np.load failed: {type(e).__name__}: {e}"
        arrays[key] = arr
        reason = check_array(arr, ours.read(key + ".npy"), m)
        if reason:
            return f"member {key!r}: {reason}"

    buf = io.BytesIO()
    (np.savez_compressed if sidecar["compressed"] else np.savez)(buf, **arrays)
    ref_data = buf.getvalue()
    ref = zipfile.ZipFile(io.BytesIO(ref_data))
    if ours.namelist() != ref.namelist():
        return f"member names: {ours.namelist()} where np.savez writes {ref.namelist()}"
    for name in ref.namelist():
        got = local_header(data, ours.getinfo(name))
        want = local_header(ref_data, ref.getinfo(name))
        if got != want:
            return f"local header of {name!r}: {got} where np.savez writes {want}"
        info = ours.getinfo(name)
        central = lambda i: (i.create_system, i.create_version, i.extract_version, i.flag_bits,
                             i.compress_type, i.date_time, i.external_attr, i.CRC, i.file_size,
                             i.compress_size if i.compress_type == zipfile.ZIP_STORED else None)
        if central(info) != central(ref.getinfo(name)):
            return (f"central directory of {name!r}: {central(info)} where np.savez writes "
                    f"{central(ref.getinfo(name))}")
        if info.compress_type == zipfile.ZIP_STORED:
            off = info.header_offset
            name_len, extra_len = struct.unpack("<HH", data[off + 26 : off + 30])
            start = off + 30 + name_len + extra_len
            npy = data[start : start + info.file_size]
            major = npy[6]
            (hlen,) = struct.unpack("<H" if major == 1 else "<I", npy[8 : 10 if major == 1 else 12])
            array_start = start + (10 if major == 1 else 12) + hlen
            if array_start % 64:
                return f"member {name!r}: array data at byte {array_start}, not a multiple of 64"
    return None


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NPY_SERDE_OUT_DIR")
    if not out_dir:
        sys.exit("usage: numpy_checks.py DIR (or set NPY_SERDE_OUT_DIR)")
    names = sorted(n for n in os.listdir(out_dir) if n.endswith((".npy", ".npz")))
    print(f"numpy_checks: numpy {np.__version__}, {len(names)} files in {out_dir}")
    passed = failed = 0
    for name in names:
        path = os.path.join(out_dir, name)
        try:
            reason = check_npy(path) if name.endswith(".npy") else check_npz(path)
        except Exception as e:  # noqa: BLE001 - a crash in a check is a failure of that file
            reason = f"check crashed: {type(e).__name__}: {e}"
        if reason is None:
            passed += 1
            print(f"ok    {name}")
        else:
            failed += 1
            print(f"FAIL  {name}: {reason}")
    print(f"{passed} passed, {failed} failed")
    if failed or not passed:
        sys.exit(1)


if __name__ == "__main__":
    main()
