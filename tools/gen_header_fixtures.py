#!/usr/bin/env python3
"""Generates tests/fixtures/headers.txt: complete header sections written by
numpy (np.lib.format.write_array_header_*), one JSON line each:
[hex of the header bytes, repr(descr), fortran_order, shape, [major, minor]].

Run with /work/venv/bin/python (numpy 2.4.6):
    python tools/gen_header_fixtures.py > tests/fixtures/headers.txt
"""
import io
import json
import warnings

import numpy as np
from numpy.lib import _format_impl as F

warnings.simplefilter("ignore")

cases = []
dtypes = ["<i4", ">f8", "|b1", "<U7", "|S3", "<M8[ns]", ">m8[25s]", "<c16", "<f2",
          np.dtype([("x", "<f8", (3,)), ("id", "<u4")]),
          np.dtype("i1, i4, i1", align=True),
          np.dtype([("整形", "<i4")]),
          np.dtype([("é", "<i4"), ("it's", "|u1")]),
          ]
shapes = [(), (0,), (3,), (2, 3), (10**15, 0)]
for dt in dtypes:
    dt = np.dtype(dt)
    for shape in shapes:
        for fortran in (False, True):
            if fortran and len(shape) < 2:
                continue
            d = {"descr": F.dtype_to_descr(dt), "fortran_order": fortran, "shape": shape}
            for version in (None, (1, 0), (2, 0), (3, 0)):
                buf = io.BytesIO()
                try:
                    F._write_array_header(buf, d, version)
                except ValueError:
                    continue
                b = buf.getvalue()
                cases.append([b.hex(), repr(d["descr"]), fortran, list(shape), list(b[6:8])])
for c in cases:
    print(json.dumps(c, ensure_ascii=False))
