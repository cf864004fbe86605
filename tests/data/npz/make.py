"""Generates the .npz fixtures for tests/npz/archives.rs with numpy and zipfile.

Run with the project venv: /work/venv/bin/python tests/data/npz/make.py
Every archive is written from scratch next to this script; the Rust tests
know the values (see the comment on each case). The `bad_*` archives are
damaged on purpose, for the reader's refusals.
"""
import io
import os
import struct
import sys
import zipfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def path(name):
    return os.path.join(HERE, name)


def write(name, data):
    with open(path(name), "wb") as f:
        f.write(data)


def savez(fname, *args, compress=False, **kw):
    buf = io.BytesIO()
    (np.savez_compressed if compress else np.savez)(buf, *args, **kw)
    write(fname, buf.getvalue())
    return buf.getvalue()


def npy(arr):
    buf = io.BytesIO()
    np.save(buf, arr)
    return buf.getvalue()


# x: arange(5) int64; y: [[1.5, 2.5], [3.5, 4.5]]; s: 0-d 2.5; name: 0-d '<U5' 'héllo'
BASIC = dict(
    x=np.arange(5, dtype="<i8"),
    y=np.array([[1.5, 2.5], [3.5, 4.5]]),
    s=np.float64(2.5),
    name=np.array("héllo"),
)
savez("savez.npz", **BASIC)
savez("savez_compressed.npz", compress=True, **BASIC)

# positional: arr_0 = [0, 1, 2] int32, arr_1 = [1.0, 2.0]; keyword k=7 first
savez("positional.npz", np.arange(3, dtype="<i4"), np.array([1.0, 2.0]), k=np.int16(7))

# a columnar record set: one member per field of 3 particles
savez(
    "columnar.npz",
    id=np.array([1, 2, 3], dtype="<u4"),
    pos=np.array([[0.0, 0.5, 1.0], [1.0, 1.5, 2.0], [2.0, 2.5, 3.0]]),
    mass=np.array([0.25, 0.5, 0.75], dtype="<f4"),
    tag=np.array([b"a", b"bb", b"ccc"]),
)

# the same columns, one of them Fortran order (transposed copy)
savez(
    "columnar_fortran.npz",
    id=np.array([1, 2], dtype="<u4"),
    pos=np.asfortranarray(np.array([[0.0, 0.5, 1.0], [1.0, 1.5, 2.0]])),
)

# columns of different lengths
savez("columns_differ.npz", a=np.arange(3), b=np.arange(4))

# odd keys: dots, slashes, non-ASCII, a key that already ends in .npy
savez(
    "odd_keys.npz",
    **{"a.b": np.array([1], "<i8"), "dir/sub": np.array([2], "<i8"),
       "整形": np.array([3], "<i8"), "a.npy": np.array([4], "<i8")},
)


class Pipe:
    """A write-only stream without tell/seek: zipfile writes data descriptors."""

    def __init__(self):
        self.buf = io.BytesIO()

    def write(self, b):
        return self.buf.write(b)

    def flush(self):
        pass

    def read(self, n=-1):  # np.savez wants a file-like object with read
        raise OSError("not readable")


# a non-seekable writer: x = arange(4) float64, y = [1, 2] uint8 (stored and deflated)
for name, fn in (("stream.npz", np.savez), ("stream_compressed.npz", np.savez_compressed)):
    p = Pipe()
    fn(p, x=np.arange(4, dtype="<f8"), y=np.array([1, 2], dtype="u1"))
    write(name, p.buf.getvalue())

# zip64 everywhere: central directory extras and zip64 end records, made
# by lowering zipfile's limits; member a = [1, 2, 3] int64
old = zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT
zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT = 0, 0
try:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED, allowZip64=True) as zf:
        with zf.open("a.npy", "w", force_zip64=True) as f:
            f.write(npy(np.array([1, 2, 3], "<i8")))
    write("zip64.npz", buf.getvalue())
finally:
    zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT = old

# a non-npy member next to an array: x = [1.0], readme.txt = b"hello npz\n"
data = savez("with_readme.npz", x=np.array([1.0]))
buf = io.BytesIO(data)
with zipfile.ZipFile(buf, "a") as zf:
    zf.writestr(zipfile.ZipInfo("readme.txt"), b"hello npz\n")  # 1980-01-01: reproducible
write("with_readme.npz", buf.getvalue())

# an empty archive (22 bytes)
savez("empty.npz")

# ---- damaged archives -------------------------------------------------

def local_data_offset(data, name):
    zf = zipfile.ZipFile(io.BytesIO(data))
    info = zf.getinfo(name)
    off = info.header_offset
    n, m = struct.unpack("<HH", data[off + 26 : off + 30])
    return off + 30 + n + m, info


# bad CRC: the last data byte of x.npy flipped (x = arange(5) int64, stored)
data = bytearray(savez("bad_crc.npz", x=np.arange(5, dtype="<i8")))
start, info = local_data_offset(bytes(data), "x.npy")
data[start + info.compress_size - 1] ^= 0xFF
write("bad_crc.npz", bytes(data))

# deflate bomb: the npy header says 10 bytes ('|u1', (10,)) but the
# deflated member inflates to 10 + 64 MiB of zeros
head = npy(np.zeros(10, "u1"))
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
    with zf.open("x.npy", "w", force_zip64=True) as f:
        f.write(head)
        zero = bytes(1 << 20)
        for _ in range(64):
            f.write(zero)
write("bad_bomb.npz", buf.getvalue())

# encrypted: the encryption flag set on a stored member (local and central)
data = bytearray(savez("bad_encrypted.npz", x=np.arange(2)))
zf = zipfile.ZipFile(io.BytesIO(bytes(data)))
info = zf.getinfo("x.npy")
data[info.header_offset + 6] |= 1
cd = bytes(data).rfind(b"PK\x01\x02")
data[cd + 8] |= 1
write("bad_encrypted.npz", bytes(data))

# bzip2 and lzma members (numpy reads them, savez never writes them): x = [1, 2] int64
for name, method in (("bad_bzip2.npz", zipfile.ZIP_BZIP2), ("bad_lzma.npz", zipfile.ZIP_LZMA)):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as zf:
        zf.writestr(zipfile.ZipInfo("x.npy"), npy(np.array([1, 2], "<i8")), method)
    write(name, buf.getvalue())

# an npy header promising more data than the member holds: '<i8' (100,), 16 bytes
trunc = npy(np.arange(2, dtype="<i8")).replace(b"(2,)", b"(100,)")
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
    zf.writestr(zipfile.ZipInfo("x.npy"), trunc, zipfile.ZIP_DEFLATED)
write("bad_short.npz", buf.getvalue())

# size claims in the central directory: x = arange(5) int64, deflated;
# "big" claims ~4 GiB uncompressed (harmless: numpy reads what the npy
# header needs), "small" claims 100 bytes (the stream ends early)
for name, claim in (("size_claim_big.npz", 0xFFFFFFFE), ("bad_size_claim_small.npz", 100)):
    buf = io.BytesIO()
    np.savez_compressed(buf, x=np.arange(5, dtype="<i8"))
    data = bytearray(buf.getvalue())
    cd = bytes(data).rfind(b"PK\x01\x02")
    data[cd + 24 : cd + 28] = struct.pack("<I", claim)
    write(name, bytes(data))

with open(path("VERSION"), "w") as f:
    f.write(f"numpy {np.__version__}, python {sys.version.split()[0]}\n")
