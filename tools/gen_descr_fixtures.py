#!/usr/bin/env python3
"""Prints the descrs numpy's test_format.py exercises, one per line, as numpy
writes them into a header: repr(np.lib.format.dtype_to_descr(dt)).

Used to generate tests/fixtures/descrs.txt (run with /work/venv/bin/python,
numpy 2.4.6): every line must parse and Display back to the same text.
"""
import sys
import types
import warnings

import numpy as np


class _Mark:
    """Just enough of pytest.mark to import test_format.py without pytest."""

    def __init__(self, name):
        self.name = name

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]
        mark = types.SimpleNamespace(name=self.name, args=args, kwargs=kwargs)

        def deco(f):
            f.pytestmark = getattr(f, "pytestmark", []) + [mark]
            return f

        return deco


class _Marks:
    def __getattr__(self, name):
        return _Mark(name)


if "pytest" not in sys.modules:
    fake = types.ModuleType("pytest")
    fake.mark = _Marks()
    fake.fixture = lambda *a, **k: (a[0] if a and callable(a[0]) else (lambda f: f))
    fake.param = lambda *a, **k: a[0] if len(a) == 1 else a
    fake.skip = fake.xfail = fake.importorskip = lambda *a, **k: None
    fake.raises = fake.warns = lambda *a, **k: None
    sys.modules["pytest"] = fake
from numpy.lib import format as F
from numpy.lib.tests import test_format as T

warnings.simplefilter("ignore")
dtypes = []
dtypes += [a.dtype for a in T.basic_arrays]
dtypes += [a.dtype for a in T.record_arrays]
dtypes += [T.dt1, T.dt2, T.dt3, T.dt4, T.dt5, T.dt6]
for name in ("test_descr_to_dtype", "test_load_padded_dtype"):
    for mark in getattr(getattr(T, name), "pytestmark", []):
        if mark.name == "parametrize":
            dtypes += list(mark.args[1])
# test_version_2_0 / test_huge_header / test_unicode_field_names / growth axis
dtypes.append(np.dtype([(str(i) * 5, float) for i in range(20)]))
dtypes.append(np.dtype("i," * 50 + "i"))
dtypes.append(np.dtype([("整形", "<i4")]))
dtypes.append(np.dtype([(" " * 22, int)]))
# FORMAT-NOTES section 2 examples
dtypes += [np.dtype(x) for x in ["?", "<f2", "<f16", "<c32", "S5", "<U4", ">U4", "V3",
                                 "<M8[ns]", "<M8[D]", "<M8", "<M8[25s]", ">m8[s]"]]
dtypes.append(np.dtype([("big", ">i4"), ("little", "<i4")]))
dtypes.append(np.dtype({"names": ["a", "b"], "formats": ["i4", "i4"], "offsets": [1, 6]}))
dtypes.append(np.dtype([(("title", "name"), "<i4")]))
dtypes.append(np.dtype([("x", "<i4", (2,)), ("data", ">f8", (16, 4)), ("one", "<i2", (1,))]))
dtypes.append(np.dtype([("s", [("x", "|i1"), ("y", "<f4")], (2,))]))
dtypes.append(np.dtype([("it's", "<i4"), ("both'\"q", "<i4"), ("a\\b\n\t", "<i4"),
                        ("\u200b", "<i4"), ("é", "<i4"), ("\x07", "<i4")]))
seen = set()
for dt in dtypes:
    text = repr(F.dtype_to_descr(dt))
    if text not in seen:
        seen.add(text)
        print(text)
