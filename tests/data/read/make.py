"""Makes the .npy fixtures of tests/read/numpy_files.rs and expected.json, the values
each fixture must read as (the read side's presentation: records as objects
in field order, subarrays and shapes as nested lists, S and V as lists of
byte values, U as strings, complex as [re, im], datetimes as int64 counts).

Run with the numpy named in VERSION:  python make.py
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = {}


def conv(a):
    """The expected JSON value of an ndarray (any ndim, any dtype)."""
    a = np.asarray(a)
    if a.ndim > 0:
        return [conv(a[i, ...]) for i in range(a.shape[0])]
    dt = a.dtype
    if dt.names is not None:
        return {n: conv(a[n]) for n in dt.names}
    k = dt.kind
    if k in "Mm":
        return int(a.astype(a.dtype.newbyteorder("=")).view("i8"))
    if k == "S":
        return list(a.item())
    if k == "U":
        return a.item()
    if k == "V":
        return list(a.tobytes())
    if k == "c":
        return [float(a.real), float(a.imag)]
    if k == "f":
        return float(a)
    if k == "b":
        return bool(a)
    if k in "iu":
        return int(a)
    raise TypeError(dt)


def save(name, a, expected=True, **kw):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Stored array in format 2.0/3.0"
        np.save(os.path.join(HERE, name + ".npy"), a, **kw)
    if expected:
        OUT[name] = conv(np.load(os.path.join(HERE, name + ".npy"), allow_pickle=True))


def write_raw(name, raw, want, python2=False):
    """Writes hand-built bytes, checks that np.load reads them as `want`
    (same dtype and values), and exports the expected values. With
    `python2`, also checks that np.load needed its Python 2 header filter."""
    import warnings
    path = os.path.join(HERE, name + ".npy")
    with open(path, "wb") as f:
        f.write(raw)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = np.load(path)
    py2 = any("created on Python 2" in str(w.message) for w in caught)
    assert py2 == python2, (name, [str(w.message) for w in caught])
    assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
    assert got.shape == want.shape, (name, got.shape, want.shape)
    assert got.tobytes() == want.tobytes(), name
    OUT[name] = conv(got)


def write_version(name, a, version):
    """np.lib.format.write_array with an explicit format version."""
    import warnings
    path = os.path.join(HERE, name + ".npy")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with open(path, "wb") as f:
            np.lib.format.write_array(f, a, version=version)
    with open(path, "rb") as f:
        assert tuple(f.read(8)[6:8]) == version, name
    OUT[name] = conv(np.load(path))


def old_file(text, data, version=1, align=16):
    """A file as numpy 1.x wrote it: the header text as given, padded with
    spaces and a final newline so that magic + length + header end on a
    multiple of `align` (16 before numpy 1.14, as in numpy's
    _write_array_header of that time: topad = 16 - (len % 16), never 0).
    Version 1.0/2.0 headers are latin-1."""
    body = text.encode("latin1")
    prefix = 8 + (2 if version == 1 else 4)
    pad = align - (prefix + len(body) + 1) % align
    hlen = len(body) + pad + 1
    head = b"\x93NUMPY" + bytes([version, 0])
    head += hlen.to_bytes(2 if version == 1 else 4, "little")
    out = head + body + b" " * pad + b"\n"
    assert len(out) % align == 0
    return out + data


def every_scalar(order):
    o = order
    fields = [
        ("b1", "?"), ("i1", "i1"), ("i2", o + "i2"), ("i4", o + "i4"), ("i8", o + "i8"),
        ("u1", "u1"), ("u2", o + "u2"), ("u4", o + "u4"), ("u8", o + "u8"),
        ("f2", o + "f2"), ("f4", o + "f4"), ("f8", o + "f8"),
        ("c8", o + "c8"), ("c16", o + "c16"),
        ("S5", "S5"), ("U4", o + "U4"), ("V3", "V3"),
        ("M8", o + "M8[s]"), ("m8", o + "m8[ms]"),
    ]
    a = np.zeros(3, fields)
    a["b1"] = [True, False, True]
    a["i1"] = [-128, 0, 127]
    a["i2"] = [-32768, 1, 32767]
    a["i4"] = [-2**31, 2, 2**31 - 1]
    a["i8"] = [-2**63, 3, 2**63 - 1]
    a["u1"] = [0, 1, 255]
    a["u2"] = [0, 2, 65535]
    a["u4"] = [0, 3, 2**32 - 1]
    a["u8"] = [0, 4, 2**64 - 1]
    a["f2"] = [1.5, -0.25, 65504.0]
    a["f4"] = [0.5, -2.75, 1048576.0]
    a["f8"] = [0.125, -1e300, 3.0]
    a["c8"] = [1 + 2j, -0.5j, 3]
    a["c16"] = [1.25 - 2j, 0, -1e200 + 1e-200j]
    a["S5"] = [b"abc", b"", b"hello"]
    a["U4"] = ["xyz", "", "\u00e9\u4e2d\U0001f600!"]
    a["V3"] = [b"\x01\x02\x03", b"\x00\x00\x00", b"\xff\x00\x01"]
    a["M8"] = np.array(["2000-01-01T00:00:00", "NaT", "1969-12-31T23:59:59"], "M8[s]")
    a["m8"] = np.array([1500, -1, "NaT"], "m8[ms]")
    return a


def main():
    for order, tag in (("<", "le"), (">", "be")):
        save("scalars_" + tag, every_scalar(order))
        for ty in ("i2", "u4", "i8", "f4", "f8", "c16"):
            save("plain_%s_%s" % (ty, tag), np.arange(5).astype(order + ty))
    save("plain_bool", np.array([True, False, True]))

    # align=True, padding inside nested aligned structs
    inner = np.dtype([("a", "i1"), ("b", "f8")], align=True)
    aligned = np.dtype([("x", "i1"), ("s", inner), ("y", "i4"), ("z", "i1")], align=True)
    a = np.zeros(2, aligned)
    a["x"] = [1, -1]
    a["s"]["a"] = [2, -2]
    a["s"]["b"] = [2.5, -2.5]
    a["y"] = [3, -3]
    a["z"] = [4, -4]
    save("aligned", a)

    # explicit offsets with gaps
    gaps = np.dtype({"names": ["a", "b"], "formats": ["i4", "i4"], "offsets": [1, 6], "itemsize": 12})
    a = np.zeros(2, gaps)
    a["a"] = [10, 20]
    a["b"] = [11, 21]
    save("offsets", a)

    # titles
    titled = np.dtype([(("Title of a", "a"), "i4"), (("b title", "b"), "f8")])
    a = np.array([(1, 1.5), (2, 2.5)], titled)
    save("titles", a)

    # nested records with subarrays (numpy's test_format Ndescr)
    ndescr = [
        ("x", "i4", (2,)),
        ("Info", [
            ("value", "c16"),
            ("y2", "f8"),
            ("Info2", [("name", "U2"), ("value", "c16", (2,)), ("y3", "f8", (2,)), ("z3", "u4", (2,))]),
            ("name", "U2"),
            ("z2", "b1"),
        ]),
        ("color", "S2"),
        ("info", [("Name", "U8"), ("Value", "c16")]),
        ("y", "f8", (2, 2)),
        ("z", "u1"),
    ]
    nbuffer = [
        ([3, 2], (6j, 6.0, ("nn", [6j, 4j], [6.0, 4.0], [1, 2]), "NN", True), "cc", ("NN", 6j), [[6.0, 4.0], [6.0, 4.0]], 8),
        ([4, 3], (7j, 7.0, ("oo", [7j, 5j], [7.0, 5.0], [2, 1]), "OO", False), "dd", ("OO", 7j), [[7.0, 5.0], [7.0, 5.0]], 9),
    ]
    save("nested", np.array(nbuffer, ndescr))

    # subarray of records (aligned, so with padding inside)
    rec = np.dtype([("x", "i1"), ("y", "<f4")], align=True)
    a = np.zeros(2, [("id", "u2"), ("s", rec, (2,))])
    a["id"] = [7, 8]
    a["s"]["x"] = [[1, 2], [3, 4]]
    a["s"]["y"] = [[0.5, 1.5], [2.5, 3.5]]
    save("subarray_records", a)

    # reordered and extra fields (read into a struct declaring fewer, in another order)
    a = np.array([(1.0, 2, b"q", 3.5), (4.0, 5, b"r", 6.5)], [("w", "f8"), ("id", "u2"), ("tag", "S1"), ("v", "f4")])
    save("extra_fields", a)

    # shapes
    save("zero_d", np.array(10.5))
    save("zero_d_record", np.array((1, 2.5), [("a", "i2"), ("b", "f4")]))
    save("empty", np.zeros(0, [("id", "u4"), ("x", "f8")]))
    save("empty_2d", np.zeros((0, 3)))
    save("n3", np.arange(12, dtype="f8").reshape(4, 3) / 4)
    f2 = np.asfortranarray(np.arange(6, dtype="i4").reshape(2, 3))
    assert f2.flags.f_contiguous and not f2.flags.c_contiguous
    save("fortran_2d", f2)
    f3 = np.asfortranarray(np.arange(24, dtype=">u2").reshape(2, 3, 4))
    save("fortran_3d", f3)
    fr = np.asfortranarray(np.zeros((2, 2), [("a", "i1"), ("b", "<f8")]))
    fr["a"] = [[1, 2], [3, 4]]
    fr["b"] = [[0.5, 1.5], [2.5, 3.5]]
    save("fortran_records", fr)

    # strings with embedded and trailing NULs
    a = np.zeros(4, [("s", "S6"), ("u", "<U5"), ("ub", ">U3")])
    a["s"] = [b"a\x00b", b"\x00\x00x", b"", b"abcdef"]
    a["u"] = ["a\x00b", "\x00x", "", "\u00e9\u00e8\u4e2d\U0001f600z"]
    a["ub"] = ["x\x00y", "", "zz", "\U0001f600"]
    save("strings", a)

    # every datetime unit, datetime and timedelta
    units = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as"]
    fields = [("M8_" + u, "<M8[%s]" % u) for u in units] + [("m8_" + u, "<m8[%s]" % u) for u in units]
    fields += [("M8_25s", "<M8[25s]"), ("M8_generic", "<M8"), ("m8_generic", "<m8"), ("M8_be", ">M8[D]")]
    a = np.zeros(2, fields)
    for u in units:
        a["M8_" + u] = [np.datetime64("2000-03-01", u), np.datetime64("NaT")]
        a["m8_" + u] = [np.timedelta64(3, u), np.timedelta64(-2, u)]
    a["M8_25s"] = np.array(["1970-01-01T00:00:50", "NaT"], "M8[25s]")
    a["M8_generic"] = np.datetime64("NaT")
    a["m8_generic"] = np.array([5, -5], "m8")
    a["M8_be"] = np.array(["2000-03-01", "1969-12-31"], "M8[D]")
    save("datetimes", a)

    # strings whose values themselves end in NULs (numpy stores them, then strips
    # every trailing NUL on access) next to embedded ones; V keeps its NULs
    a = np.zeros(4, [("s", "S6"), ("u", "<U6"), ("ub", ">U4"), ("v", "V4")])
    a["s"] = [b"a\x00b\x00", b"\x00a\x00\x00", b"abcde\x00", b"\x00" * 6]
    a["u"] = ["a\x00b\x00", "\x00\x00x\x00\x00\x00", "h\u00e9llo\x00", "\x00"]
    a["ub"] = ["\u4e2d\x00\x00", "\x00z\x00", "abcd", "\x00\x00\x00\x00"]
    a["v"] = [b"a\x00\x00\x00", b"\x00\x00\x00\x00", b"\x00\x00\x00b", b"abcd"]
    assert a["s"][0] == b"a\x00b" and a["u"][1] == "\x00\x00x" and a["ub"][1] == "\x00z"
    save("strings_nuls", a)

    # the same inside subarrays: every element stripped on its own
    a = np.zeros(2, [("s", "S3", (2,)), ("u", ">U2", (2, 2))])
    a["s"] = [[b"a\x00", b"\x00b\x00"], [b"", b"abc"]]
    a["u"] = [[["x\x00", "\x00"], ["", "yz"]], [["\x00q", "\u00e9\x00"], ["ab", "\x00\x00"]]]
    save("strings_nuls_subarray", a)

    # datetime extras: multipliers for m8 and M8, big-endian m8, generic NaT m8
    a = np.zeros(2, [("m8_25s", "<m8[25s]"), ("M8_7D", "<M8[7D]"), ("m8_be_us", ">m8[us]"),
                     ("m8_generic_nat", "<m8"), ("M8_be_ns", ">M8[ns]")])
    a["m8_25s"] = np.array([2, "NaT"], "m8[25s]")
    a["M8_7D"] = np.array(["1970-01-15", "NaT"], "M8[7D]")
    a["m8_be_us"] = np.array([-1_500_000, 7], "m8[us]")
    a["m8_generic_nat"] = np.timedelta64("NaT")
    a["M8_be_ns"] = np.array(["2001-02-03T04:05:06.000000007", "NaT"], "M8[ns]")
    save("datetimes_more", a)

    # ---- format versions: the same kind of records in 1.0, 2.0 and 3.0 ----
    vdt = np.dtype([("x", "<i4"), ("y", "<f8"), ("name", "<U3")])
    va = np.array([(1, 0.5, "ab"), (-2, 1e100, "xyz"), (3, -0.0, "")], vdt)
    save("version_1_0", va)
    with open(os.path.join(HERE, "version_1_0.npy"), "rb") as f:
        assert f.read(8)[6:8] == b"\x01\x00"
    write_version("version_2_0", va, (2, 0))
    write_version("version_3_0_ascii", va, (3, 0))
    # what appending one record to each must give (tests/read/numpy_files.rs appends with NpyWriter)
    vb = np.concatenate([va, np.array([(9, 9.5, "new")], vdt)])
    save("version_1_0_appended", vb)
    write_version("version_2_0_appended", vb, (2, 0))
    write_version("version_3_0_ascii_appended", vb, (3, 0))
    # a CJK field name: np.save itself chooses 3.0 (UTF-8 header)
    cjk = np.array([(7, 2.5, b"ab"), (-8, -0.25, b"")], [("整形", "<i4"), ("浮動小数", "<f8"), ("é", "S2")])
    save("version_3_0_cjk", cjk)
    with open(os.path.join(HERE, "version_3_0_cjk.npy"), "rb") as f:
        assert f.read(8)[6:8] == b"\x03\x00"
    # a header over 65535 bytes: np.save chooses 2.0 (read with a raised
    # max_header_size, so not in expected.json)
    long_name = "long_" + "n" * 70000
    lg = np.array([(1, 2.0), (3, 4.0)], [(long_name, "<u2"), ("b", "<f4")])
    save("version_2_0_long", lg, expected=False)
    with open(os.path.join(HERE, "version_2_0_long.npy"), "rb") as f:
        assert f.read(8)[6:8] == b"\x02\x00"

    # latin-1 names in an explicit 2.0 header: still latin-1, not UTF-8
    write_version("version_2_0_latin1", np.array([(1, 2)], [("\u00e9", "<i2"), ("\u00ff", "u1")]), (2, 0))
    with open(os.path.join(HERE, "version_2_0_latin1.npy"), "rb") as f:
        assert b"'\xe9'" in f.read()
    # names Python's repr escapes (tab, backslash, quotes, non-printables): still 1.0
    esc = np.array([(1, 2, 3, 4, 5, 6)], [("tab\there", "<i2"), ("it's", "<i2"), ("back\\slash", "<i2"),
                                          ("\u200b", "<i2"), ('q"d', "<i2"), ("\x7f\xa0\xad", "<i2")])
    save("escaped_names", esc)
    with open(os.path.join(HERE, "escaped_names.npy"), "rb") as f:
        raw = f.read()
    assert raw[6] == 1 and b"\"it's\"" in raw and b"'\\u200b'" in raw and b"'\\x7f\\xa0\\xad'" in raw

    # ---- headers as numpy 1.x wrote them (hand-built, checked with np.load) ----
    # (a) before numpy 1.14: 16-byte alignment and pprint.pformat(d), a
    # multi-line dict without trailing comma. The texts are those of the
    # module doctest of numpy's lib/tests/test_format.py, which numpy 1.x wrote.
    small = np.dtype([("x", "<i4", (2,)), ("y", "<f8", (2, 2)), ("z", "|u1")])
    a = np.zeros(2, small)
    a["x"] = [[1, -2], [3, -4]]
    a["y"] = np.arange(8).reshape(2, 2, 2) * 0.5
    a["z"] = [5, 255]
    text = "{'descr': [('x', '<i4', (2,)), ('y', '<f8', (2, 2)), ('z', '|u1')],\n 'fortran_order': False,\n 'shape': (2,)}"
    raw = old_file(text, a.tobytes())
    assert raw[8:10] == b"v\x00"  # as in the doctest
    write_raw("np1_pprint", raw, a)
    # the brief example: two fields, the same layout (pprint of Python 2
    # wrapped at 80 columns, Python 3 at 81: so written out by hand)
    b = np.array([(1, 0.5), (-1, 2.5)], [("x", "<i4"), ("y", "<f8")])
    text = "{'descr': [('x', '<i4'), ('y', '<f8')],\n 'fortran_order': False,\n 'shape': (2,)}"
    write_raw("np1_pprint_xy", old_file(text, b.tobytes()), b)
    # pprint wrapping inside the descr (numpy's Ndescr, Python 2 strings as S)
    text = ("{'descr': [('x', '>i4', (2,)),\n           ('Info',\n            [('value', '>c16'),\n"
            "             ('y2', '>f8'),\n             ('Info2',\n              [('name', '|S2'),\n"
            "               ('value', '>c16', (2,)),\n               ('y3', '>f8', (2,)),\n"
            "               ('z3', '>u4', (2,))]),\n             ('name', '|S2'),\n"
            "             ('z2', '|b1')]),\n           ('color', '|S2'),\n"
            "           ('info', [('Name', '>U8'), ('Value', '>c16')]),\n"
            "           ('y', '>f8', (2, 2)),\n           ('z', '|u1')],\n"
            " 'fortran_order': False,\n 'shape': (2,)}")
    import ast
    nd = np.dtype(ast.literal_eval(text)["descr"])
    nested_old = np.array([
        ([3, 2], (6j, 6.0, (b"nn", [6j, 4j], [6.0, 4.0], [1, 2]), b"NN", True), b"cc", ("NN", 6j), [[6.0, 4.0], [6.0, 4.0]], 8),
        ([4, 3], (7j, 7.0, (b"oo", [7j, 5j], [7.0, 5.0], [2, 1]), b"OO", False), b"dd", ("OO", 7j), [[7.0, 5.0], [7.0, 5.0]], 9),
    ], nd)
    raw = old_file(text, nested_old.tobytes())
    assert raw[8:10] == b"\x16\x02"  # as in the doctest
    write_raw("np1_pprint_nested", raw, nested_old)
    # numpy 1.0-1.13, the `, }` layout but 16-byte aligned
    write_raw("np1_align16", old_file(
        "{'descr': '<u2', 'fortran_order': True, 'shape': (2, 3), }",
        np.arange(6, dtype="<u2").reshape(2, 3).T.tobytes()),
        np.asfortranarray(np.arange(6, dtype="<u2").reshape(2, 3)))
    # (b) Python 2: shapes were longs on some platforms, written with an L suffix
    # (numpy's own lib/tests/data/win64python2.npy has 'shape': (2L,))
    c = np.array([(1, 1.5), (2, -2.5), (3, 1e-300)], [("x", "<i4"), ("y", "<f8")])
    text = "{'descr': [('x', '<i4'), ('y', '<f8')], 'fortran_order': False, 'shape': (3L,), }"
    write_raw("np1_py2_long", old_file(text, c.tobytes()), c, python2=True)
    d2 = np.arange(6, dtype="<i8").reshape(2, 3)
    text = "{'descr': '<i8', 'fortran_order': True, 'shape': (2L, 3L), }"
    write_raw("np1_py2_long_2d", old_file(text, d2.T.tobytes()), np.asfortranarray(d2), python2=True)
    # on win64 Python 2 the subarray shapes inside the descr were longs too
    sl = np.zeros(2, [("x", "<f8", (2, 3)), ("y", "<i4")])
    sl["x"] = np.arange(12).reshape(2, 2, 3)
    sl["y"] = [7, 8]
    text = "{'descr': [('x', '<f8', (2L, 3L)), ('y', '<i4')], 'fortran_order': False, 'shape': (2L,), }"
    write_raw("np1_py2_long_subarray", old_file(text, sl.tobytes()), sl, python2=True)
    # Python 2 unicode field names: repr gives u'...' with \x escapes
    un = np.array([(1, 0.5), (2, 1.5)], [("a", "<i4"), ("\u00e9\u4e2d", "<f8")])
    text = "{'descr': [(u'a', '<i4'), (u'\\xe9\\u4e2d', '<f8')], 'fortran_order': False, 'shape': (2L,), }"
    write_raw("np1_py2_unicode_names", old_file(text, un.tobytes()), un, python2=True)
    # numpy 1.9-1.13 on Python 2 wrote 2.0 files (long headers) with L too
    text = "{'descr': [('x', '<i4'), ('y', '<f8')], 'fortran_order': False, 'shape': (3L,), }"
    write_raw("np1_py2_long_v2", old_file(text, c.tobytes(), version=2), c, python2=True)
    # (c) latin-1 field names in a 1.0 header: numpy writes 'é' as the raw
    # byte 0xE9 (np.save today; and numpy 1.9-1.13 under Python 3, 16-aligned)
    lat = np.array([(1, 2.0), (3, 4.0)], [("\u00e9t\u00e9", "<i2"), ("\u00f1", "<f4")])
    save("latin1_names", lat)
    with open(os.path.join(HERE, "latin1_names.npy"), "rb") as f:
        raw = f.read()
    assert raw[6:8] == b"\x01\x00" and b"'\xe9t\xe9'" in raw and b"'\xf1'" in raw
    text = "{'descr': [('\u00e9t\u00e9', '<i2'), ('\u00f1', '<f4')], 'fortran_order': False, 'shape': (2,), }"
    write_raw("np1_latin1_align16", old_file(text, lat.tobytes()), lat)

    # zero-size parts numpy writes: V0 fields, (0,) and (2, 0) subarrays,
    # empty records, empty inner axes
    a = np.zeros(2, [("a", "<i4"), ("e", "V0"), ("x", "<f8", (0,)), ("y", "<u2", (2, 0)), ("r", [])])
    a["a"] = [1, -1]
    save("zero_size_fields", a)
    save("empty_inner_axis", np.zeros((3, 0), "<f8"))
    save("empty_record_0d", np.zeros((), []))

    # refused types
    save("object", np.array([1, "a", None], dtype=object), expected=False, allow_pickle=True)
    save("longdouble", np.zeros(2, [("x", "f8"), ("ld", np.longdouble)]), expected=False)

    # a particle table for the error snapshots
    pdt = np.dtype([("id", "<u4"), ("pos", "<f8", (3,)), ("mass", "<f8"), ("count", "<i8")])
    a = np.zeros(5, pdt)
    a["id"] = np.arange(5)
    a["pos"] = np.arange(15).reshape(5, 3) * 0.5
    a["mass"] = [1.0, 2.0, 0.1, 4.0, 5.0]
    a["count"] = [1, 2, 3, 300, 5]
    save("particles", a)

    # every f2 bit pattern widened by numpy to float32: FNV-1a 64 of the
    # little-endian f32 bits (the test builds the 128 KiB file itself)
    bits = np.arange(65536, dtype="<u2").view("<f2").astype("<f4").view("<u4")
    h = 0xCBF29CE484222325
    for b in bits.astype("<u4").tobytes():
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    OUT["f2_all_patterns_as_f4_bits_fnv1a64"] = str(h)

    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(OUT, f, indent=1, ensure_ascii=False)
        f.write("\n")
    with open(os.path.join(HERE, "VERSION"), "w") as f:
        f.write("numpy %s\npython %s\n" % (np.__version__, sys.version.split()[0]))


if __name__ == "__main__":
    main()
