#!/usr/bin/env python3
"""The live S3 check's numpy side (.ci/run runs it against a moto server).

Usage:
  python s3_moto.py upload ENDPOINT BUCKET
      creates BUCKET and puts every tests/data/object_store/*.npy and *.npz
      (numpy-written fixtures, see make.py there) under `numpy/`, for
      tests/object_store/s3.rs to read through object_store's AmazonS3;
  python s3_moto.py check ENDPOINT BUCKET PREFIX
      after s3.rs wrote under PREFIX: downloads every object there with
      boto3 and rebuilds each array by the formulas of s3.rs (`written`,
      keep the two in sync). PREFIX must hold exactly the expected objects;
      each .npy must be byte-identical to np.save of the rebuilt array, each
      .npz must hold the members in order, each member's bytes those of
      np.save of its array, and the archive must pass numpy_checks.py's
      `check_npz` (sidecars written here from the rebuilt arrays).

ENDPOINT is the server's URL (http://127.0.0.1:PORT); the credentials are
moto's dummy ones, never the environment's.
"""

import io
import json
import os
import sys
import tempfile
import zipfile

import boto3
import botocore.config
import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from numpy_checks import check_npz  # noqa: E402
from numpy_writes import export_array  # noqa: E402

FIXTURES = os.path.join(HERE, "..", "data", "object_store")
FIXTURE_PREFIX = "numpy/"  # s3.rs: FIXTURES


def client(endpoint):
    # moto's dummy credentials only: no profile or config file of this machine
    for var in ("AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_SESSION_TOKEN"):
        os.environ.pop(var, None)
    os.environ["AWS_CONFIG_FILE"] = os.environ["AWS_SHARED_CREDENTIALS_FILE"] = os.devnull
    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
        config=botocore.config.Config(s3={"addressing_style": "path"}, retries={"max_attempts": 3}),
    )


# ---- the arrays s3.rs writes (`written` there) -------------------------------

HIT = np.dtype([("id", "<u4"), ("x", "<f8"), ("flag", "|b1"), ("tag", "<U12")])


def hits(n):
    """s3.rs `hits(n)`: id = i, x = i * 0.25, flag = i % 3 == 0,
    tag = 't%d' % (i % 1000) but 'the last one' for the last record."""
    i = np.arange(n, dtype=np.int64)
    a = np.zeros(n, dtype=HIT)
    a["id"] = i
    a["x"] = i * 0.25
    a["flag"] = i % 3 == 0
    a["tag"] = np.char.add("t", (i % 1000).astype(str))
    a["tag"][-1] = "the last one"
    return a


def grid():
    return np.arange(60, dtype="<f8").reshape(3, 4, 5) * 1.5 - 7


def bundle():
    """The members of stored.npz and deflated.npz, in order."""
    return {
        "records": hits(5000),
        "grid": grid(),
        "counts": np.arange(100, dtype="<i8") ** 2 - 50,
        "scale": np.float64(2.5),
    }


def expected():
    """name -> array (.npy) or (compressed, {member: array}) (.npz)."""
    return {
        "records.npy": hits(300_000),
        "ramp.npy": np.arange(4_500_000, dtype="<u4") * 3,
        "grid.npy": grid(),
        "fortran.npy": np.asfortranarray(np.arange(24, dtype="<i4").reshape(4, 3, 2) - 5),
        "stored.npz": (False, bundle()),
        "deflated.npz": (True, bundle()),
    }


def np_save(arr):
    buf = io.BytesIO()
    np.save(buf, arr, allow_pickle=False)
    return buf.getvalue()


def first_difference(got, want):
    if len(got) != len(want):
        return f"{len(got)} bytes where np.save writes {len(want)}"
    at = next(i for i, (a, b) in enumerate(zip(got, want)) if a != b)
    return (f"bytes differ from np.save at offset {at}: "
            f"{got[at:at + 16].hex(' ')} where np.save writes {want[at:at + 16].hex(' ')}")


def sidecar_member(key, arr):
    """A member entry of numpy_checks.py's npz sidecar, from the rebuilt array."""
    arr = np.asarray(arr)
    return {
        "key": key,
        "descr": repr(np.lib.format.dtype_to_descr(arr.dtype)),
        "shape": list(arr.shape),
        "fortran_order": bool(arr.flags.f_contiguous and not arr.flags.c_contiguous),
        "values": export_array(arr, arr.dtype),
    }


def check_npy_object(data, arr):
    want = np_save(arr)
    if data != want:
        return first_difference(data, want)
    got = np.load(io.BytesIO(data), allow_pickle=False)
    if got.dtype != arr.dtype or got.shape != arr.shape or not np.array_equal(got, arr):
        return f"np.load gives {got.dtype} {got.shape}, expected {arr.dtype} {arr.shape}"
    return None


def check_npz_object(data, compressed, members, scratch, name):
    z = zipfile.ZipFile(io.BytesIO(data))
    names = [k + ".npy" for k in members]
    if z.namelist() != names:
        return f"members {z.namelist()}, expected {names}"
    want_type = zipfile.ZIP_DEFLATED if compressed else zipfile.ZIP_STORED
    for key, arr in members.items():
        info = z.getinfo(key + ".npy")
        if info.compress_type != want_type:
            return f"member {key!r}: compression method {info.compress_type}, expected {want_type}"
        reason = check_npy_object(z.read(info), np.asarray(arr))
        if reason:
            return f"member {key!r}: {reason}"
    loaded = np.load(io.BytesIO(data), allow_pickle=False)
    if list(loaded.files) != list(members):
        return f"np.load lists {loaded.files}, expected {list(members)}"
    # numpy_checks.py's archive checks, with a sidecar of the rebuilt arrays
    path = os.path.join(scratch, name)
    with open(path, "wb") as f:
        f.write(data)
    sidecar = {"case": name, "compressed": compressed,
               "members": [sidecar_member(k, a) for k, a in members.items()]}
    with open(path[: -len(".npz")] + ".json", "w", encoding="utf-8") as f:
        json.dump(sidecar, f)
    reason = check_npz(path)
    return f"numpy_checks.check_npz: {reason}" if reason else None


def list_keys(s3, bucket, prefix):
    keys = []
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
        keys += [o["Key"] for o in page.get("Contents", [])]
    return keys


def upload(endpoint, bucket):
    s3 = client(endpoint)
    s3.create_bucket(Bucket=bucket)
    names = sorted(n for n in os.listdir(FIXTURES) if n.endswith((".npy", ".npz")))
    if not names:
        sys.exit(f"no fixtures in {FIXTURES}")
    for name in names:
        with open(os.path.join(FIXTURES, name), "rb") as f:
            data = f.read()
        s3.put_object(Bucket=bucket, Key=FIXTURE_PREFIX + name, Body=data)
        print(f"uploaded {FIXTURE_PREFIX}{name} ({len(data)} bytes)")
    # what the bucket holds is what was sent
    for name in names:
        got = s3.get_object(Bucket=bucket, Key=FIXTURE_PREFIX + name)["Body"].read()
        with open(os.path.join(FIXTURES, name), "rb") as f:
            assert got == f.read(), f"{name}: the server returns other bytes"
    print(f"s3_moto upload: {len(names)} fixtures in s3://{bucket}/{FIXTURE_PREFIX}")


def check(endpoint, bucket, prefix):
    s3 = client(endpoint)
    prefix = prefix.strip("/") + "/"
    want = expected()
    keys = list_keys(s3, bucket, prefix)
    found = sorted(k[len(prefix):] for k in keys)
    if found != sorted(want):
        sys.exit(f"s3://{bucket}/{prefix} holds {found}, expected {sorted(want)}")
    print(f"s3_moto check: numpy {np.__version__}, boto3 {boto3.__version__}, "
          f"{len(found)} objects in s3://{bucket}/{prefix}")
    failed = 0
    with tempfile.TemporaryDirectory() as scratch:
        for name, spec in want.items():
            data = s3.get_object(Bucket=bucket, Key=prefix + name)["Body"].read()
            try:
                if name.endswith(".npy"):
                    reason = check_npy_object(data, spec)
                else:
                    reason = check_npz_object(data, spec[0], spec[1], scratch, name)
            except Exception as e:  # noqa: BLE001 - a crash in a check is a failure of that object
                reason = f"check crashed: {type(e).__name__}: {e}"
            if reason is None:
                print(f"ok    {prefix}{name} ({len(data)} bytes)")
            else:
                failed += 1
                print(f"FAIL  {prefix}{name}: {reason}")
    print(f"{len(want) - failed} passed, {failed} failed")
    if failed:
        sys.exit(1)


def main():
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "upload":
        upload(*args[1:])
    elif len(args) == 4 and args[0] == "check":
        check(*args[1:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
