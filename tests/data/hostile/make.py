"""Makes the hostile .npy corpus of tests/robustness/hostile.rs and tests/memory/reading.rs.

Every file here is malformed or malicious in exactly one way (the name says
which); numpy makes the file where it can (valid arrays whose bytes are then
legal but nasty: bool bytes 2..255, invalid UCS-4, object arrays), Python
bytes otherwise. Headers are padded like numpy's (total header a multiple of
64 bytes, ending in a newline) unless the padding itself is the point.

Run with the numpy named in VERSION:  python make.py
It deletes and rewrites every *.npy in this folder.
"""
import glob
import io
import os
import struct
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MAGIC = b"\x93NUMPY"


def header(text, version=1, pad=True):
    """Magic, version, HEADER_LEN and the header text (latin-1 for v1/v2,
    UTF-8 for v3), padded with spaces and a newline to a multiple of 64."""
    body = text.encode("utf-8" if version == 3 else "latin-1") if isinstance(text, str) else text
    len_size = 2 if version == 1 else 4
    if pad:
        hlen = len(body) + 1
        padding = -(len(MAGIC) + 2 + len_size + hlen) % 64
        body = body + b" " * padding + b"\n"
    fmt = "<H" if version == 1 else "<I"
    return MAGIC + bytes([version, 0]) + struct.pack(fmt, len(body)) + body


def dict_text(descr="'<i4'", fortran="False", shape="(3,)"):
    return "{'descr': %s, 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape)


def npy(descr="'<i4'", shape="(3,)", data=b"", fortran="False", version=1):
    return header(dict_text(descr, fortran, shape), version) + data


def np_bytes(arr, **kw):
    b = io.BytesIO()
    np.save(b, arr, **kw)
    return b.getvalue()


FILES = {}


def add(name, data):
    assert name not in FILES, name
    FILES[name] = data


def nested_record(levels):
    """A record nested `levels` deep: [('a', [('a', ... '<i4' ...)])]."""
    return "[('a', " * levels + "'<i4'" + ")]" * levels


# ---- magic and version -----------------------------------------------------
add("magic_empty", b"")
add("magic_wrong", b"\x93NUMPZ\x01\x00" + npy()[8:])
add("magic_zip", b"PK\x03\x04\x14\x00\x00\x00\x00\x00" + b"\x00" * 40)
add("magic_pickle", b"\x80\x04\x95\x10\x00\x00\x00\x00\x00\x00\x00]\x94(K\x01K\x02e.")
add("magic_text", b"descr,fortran_order,shape\n<i4,False,3\n")
add("magic_truncated", MAGIC[:4])
add("version_missing", MAGIC + b"\x01")
add("version_1_1", MAGIC + b"\x01\x01" + npy()[8:])
add("version_4_0", MAGIC + b"\x04\x00" + npy()[8:])
add("version_0_0", MAGIC + b"\x00\x00" + npy()[8:])

# ---- header length ---------------------------------------------------------
add("hlen_missing", MAGIC + b"\x01\x00\x76")
add("hlen_past_eof_v1", MAGIC + b"\x01\x00" + struct.pack("<H", 0x1000) + dict_text().encode())
add("hlen_past_eof_v2", MAGIC + b"\x02\x00" + struct.pack("<I", 5000) + dict_text().encode())
add("hlen_4gib_v2", MAGIC + b"\x02\x00" + struct.pack("<I", 0xFFFFFFF0) + dict_text().encode())
add("hlen_4gib_v3", MAGIC + b"\x03\x00" + struct.pack("<I", 0xFFFFFFFF) + dict_text().encode())
add("hlen_zero", MAGIC + b"\x01\x00\x00\x00" + b"\x00" * 12)
add("hlen_short_cuts_dict", MAGIC + b"\x01\x00" + struct.pack("<H", 20) + dict_text().encode() + b"\n")
add("header_too_long_v1", header(dict_text() + " " * 20000, version=1))
add("header_too_long_v2", header(dict_text() + " " * 70000, version=2))

# ---- not a dict, syntax errors, non-literals --------------------------------
add("not_dict_list", header("['descr', 'fortran_order', 'shape']"))
add("not_dict_int", header("12345"))
add("not_dict_str", header("'descr'"))
add("not_dict_set", header("{'descr', 'fortran_order', 'shape'}"))
add("empty_header_text", header(""))
add("syntax_unbalanced", header("{'descr': '<i4', 'fortran_order': False, 'shape': (3,"))
add("syntax_unclosed_string", header("{'descr': '<i4, 'fortran_order': False, 'shape': (3,)}"))
add("syntax_binary_junk", header(bytes(range(256)) * 2))
add("syntax_nul_byte", header("{'descr': '<i4',\x00 'fortran_order': False, 'shape': (3,)}"))
add("syntax_missing_colon", header("{'descr' '<i4', 'fortran_order': False, 'shape': (3,)}"))
add("syntax_trailing_garbage", header(dict_text() + " xyz"))
add("expr_import", header(dict_text(descr="__import__('os').system('echo pwned')")))
add("expr_call_dtype", header(dict_text(descr="dtype('int32')")))
add("expr_arith_shape", header(dict_text(shape="(1+2,)")))
add("expr_power_shape", header(dict_text(shape="(2**62,)")))
add("expr_float_shape", header(dict_text(shape="(3.0,)")))
add("expr_name", header(dict_text(fortran="false")))
add("expr_lambda", header(dict_text(descr="(lambda: '<i4')()")))
add("expr_fstring", header(dict_text(descr="f'<i{4}'")))
add("expr_bytes_descr", header(dict_text(descr="b'<i4'")))
add("expr_set_comprehension", header(dict_text(shape="tuple(i for i in range(3))")))
add("dict_unknown_key", header("{'descr': '<i4', 'fortran_order': False, 'shape': (3,), 'evil': 1}"))
add("dict_missing_shape", header("{'descr': '<i4', 'fortran_order': False}"))
add("dict_int_key", header("{'descr': '<i4', 'fortran_order': False, 'shape': (3,), 1: 2}"))
add("dict_duplicate_keys_last_wins", header("{'descr': '<i4', 'shape': (99,), 'fortran_order': False, 'shape': (1,)}")
    + b"\x07\x00\x00\x00")
add("fortran_not_bool", header(dict_text(fortran="0")))
add("fortran_none", header(dict_text(fortran="None")))

# ---- huge or deeply nested literals ----------------------------------------
add("literal_huge_int", header(dict_text(shape="(" + "9" * 9000 + ",)")))
add("literal_deep_parens", header(dict_text(shape="(" * 4900 + ")" * 4900)))
add("literal_deep_lists", header(dict_text(descr="[" * 4900 + "]" * 4900)))
add("literal_deep_unclosed", header("{'x': " + "[" * 9000))
add("literal_many_items", header(dict_text(shape="(" + "1," * 4900 + ")")))
add("literal_long_string", header(dict_text(descr="'" + "<" * 9900 + "'")))

# ---- text encodings --------------------------------------------------------
add("utf8_invalid_v3", header(b"{'descr': [('\xff\xfe', '<i4')], 'fortran_order': False, 'shape': (1,), }", 3)
    + b"\x00" * 4)
add("utf8_overlong_v3", header(b"{'descr': [('\xc0\xaf', '<i4')], 'fortran_order': False, 'shape': (1,), }", 3)
    + b"\x00" * 4)
add("utf8_surrogate_v3", header(b"{'descr': [('\xed\xa0\x80', '<i4')], 'fortran_order': False, 'shape': (1,), }", 3)
    + b"\x00" * 4)
add("latin1_high_bytes_outside_string", header(b"{'descr': '<i4', \xff\xfe: False, 'shape': (1,), }")
    + b"\x00" * 4)
# latin-1 decodes every byte: a field named with high bytes is legal in v1
add("latin1_field_name_ok", header(b"{'descr': [('\xe9\xff', '<i4')], 'fortran_order': False, 'shape': (1,), }")
    + b"\x05\x00\x00\x00")

# ---- descr -----------------------------------------------------------------
add("descr_unknown_code", npy(descr="'<q9'"))
add("descr_unknown_letter", npy(descr="'<x4'"))
add("descr_empty_string", npy(descr="''"))
add("descr_bad_byteorder", npy(descr="'?i4'"))
add("descr_bad_int_size", npy(descr="'<i3'"))
add("descr_negative_size", npy(descr="'<U-1'"))
add("descr_negative_void", npy(descr="'|V-5'"))
add("descr_huge_size", npy(descr="'|S99999999999999999999999'"))
add("descr_huge_unicode", npy(descr="'<U1000000000'", shape="(1,)", data=b"abcd" * 4))
add("descr_void_2gib", npy(descr="'|V2147483647'", shape="(1,)", data=b"\x00" * 16))
add("descr_not_str_or_list", npy(descr="42"))
add("descr_dict_form", npy(descr="{'names': ['a', 'b'], 'formats': ['<i4', '<i4'], 'offsets': [0, 2]}"))
add("descr_overlapping_offsets",
    npy(descr="{'names': ['a', 'b'], 'formats': ['<i8', '<i8'], 'offsets': [0, 4], 'itemsize': 8}",
        shape="(1,)", data=b"\x00" * 8))
add("descr_title_clash", npy(descr="[(('b', 'a'), '<i4'), ('b', '<f8')]", shape="(1,)", data=b"\x00" * 12))
add("descr_duplicate_names", npy(descr="[('a', '<i4'), ('a', '<f8')]", shape="(1,)", data=b"\x00" * 12))
add("descr_field_not_tuple", npy(descr="['a', '<i4']"))
add("descr_field_name_int", npy(descr="[(1, '<i4')]"))
add("descr_field_too_many_items", npy(descr="[('a', '<i4', (2,), 'x')]"))
add("descr_subarray_negative", npy(descr="[('a', '<i4', (-2,))]"))
add("descr_subarray_huge_dim", npy(descr="[('a', '<i4', (2147483648,))]"))
add("descr_subarray_product_overflow",
    npy(descr="[('a', '|u1', (2147483647, 2147483647, 2147483647, 2147483647))]", shape="(1,)"))
add("descr_subarray_zero_size_huge",
    npy(descr="[('a', [], (2147483647, 2147483647))]", shape="(1,)"))
add("descr_subarray_not_int", npy(descr="[('a', '<i4', ('2',))]"))
add("descr_record_itemsize_overflow",
    npy(descr="[" + ", ".join("('f%d', '|V2147483647')" % i for i in range(10)) + "]", shape="(1,)"))
add("descr_object", np_bytes(np.array([1, "a", None], dtype=object), allow_pickle=True))
add("descr_object_field", npy(descr="[('x', '<f8'), ('o', '|O')]", shape="(1,)", data=b"\x00" * 16))
add("descr_longdouble", np_bytes(np.zeros(2, dtype=np.longdouble)))
add("descr_nested_65", npy(descr=nested_record(33), shape="(1,)", data=b"\x00" * 4))
add("descr_nested_1000", header(dict_text(descr=nested_record(1000), shape="(1,)")) + b"\x00" * 4)
add("descr_nested_3000_v2", header(dict_text(descr=nested_record(3000), shape="(1,)"), 2) + b"\x00" * 4)
add("descr_subarray_nested_deep",
    npy(descr="(" * 40 + "'<i4'" + ", (1,))" * 40, shape="(1,)", data=b"\x00" * 4))

# ---- shape -----------------------------------------------------------------
add("shape_negative", npy(shape="(-1,)", data=b"\x00" * 12))
add("shape_negative_pair", npy(shape="(-2, -3)", data=b"\x00" * 24))
add("shape_string", npy(shape="('3',)"))
add("shape_bool", npy(shape="(True,)"))
add("shape_none", npy(shape="(None,)"))
add("shape_int_not_tuple", npy(shape="3"))
add("shape_list", npy(shape="[3]"))
add("shape_nested_tuple", npy(shape="((3,),)"))
add("shape_dim_2_64", npy(shape="(18446744073709551616,)"))
add("shape_dim_2_63", npy(shape="(9223372036854775808,)"))
add("shape_product_overflow_u64", npy(shape="(4294967296, 4294967296, 4294967296)"))
add("shape_wrap_2_32_2_32_2", npy(descr="'|u1'", shape="(4294967296, 4294967296, 2)"))
add("shape_wrap_to_5", npy(descr="'|u1'", shape="(3, 6148914691236517207)", data=b"\x00" * 5))
add("shape_bytes_overflow", npy(descr="'<f8'", shape="(4611686018427387904,)"))
add("shape_zero_times_huge", npy(descr="'<f8'", shape="(0, 4611686018427387904)"))
add("shape_1gib_declared", npy(descr="'|u1'", shape="(1073741824,)", data=b"\x01" * 900))
add("shape_1gib_declared_fortran", npy(descr="'|u1'", shape="(32768, 32768)", fortran="True", data=b"\x01" * 900))
add("shape_1gib_declared_0d", npy(descr="'|V1073741824'", shape="()", data=b"\x01" * 900))
add("shape_8pib_declared", npy(descr="'<f8'", shape="(1125899906842624,)", data=b"\x00" * 16))
add("shape_billions_zero_size", npy(descr="[]", shape="(10000000000,)"))
add("shape_zero_size_past_cap", npy(descr="[]", shape="(65537,)"))
add("shape_empty_rows_past_cap", npy(descr="'<f8'", shape="(65537, 0)"))
add("shape_4e9_zero_size", npy(descr="[]", shape="(4000000000,)"))
add("shape_many_dims", npy(shape="(" + "1, " * 3000 + ")", version=1))
add("shape_3000_dims_with_data", npy(shape="(" + "1, " * 3000 + ")", data=b"\x01\x00\x00\x00"))
add("shape_65_dims", npy(shape="(" + "1, " * 65 + ")", data=b"\x01\x00\x00\x00"))
add("descr_subarray_3000_dims",
    npy(descr="[('a', '<i4', (" + "1, " * 3000 + "))]", shape="(1,)", data=b"\x01\x00\x00\x00"))
add("shape_max_elements", npy(descr="'|u1'", shape="(8589934592,)", data=b"\x00" * 32))

# ---- data ------------------------------------------------------------------
full = np_bytes(np.arange(6, dtype="<i4").reshape(2, 3))
add("data_truncated", full[:-5])
add("data_header_only", full[:128])
add("data_trailing_bytes", full + b"\x00\x01\x02")
rec = np_bytes(np.array([(1, 2.5, b"ab"), (3, 4.5, b"cd")],
                        dtype=[("id", "<u4"), ("x", "<f8"), ("tag", "S2")]))
add("data_truncated_record", rec[:-7])
add("data_truncated_fortran", np_bytes(np.asfortranarray(np.arange(12.0).reshape(3, 4)))[:-9])
ucs = np.array(["ab", "cd"], dtype="<U2")
b = bytearray(np_bytes(ucs))
b[128 + 4:128 + 8] = struct.pack("<I", 0x110000)  # past the last code point
add("data_ucs4_too_large", bytes(b))
b = bytearray(np_bytes(ucs))
b[128:132] = struct.pack("<I", 0xD800)  # a surrogate
add("data_ucs4_surrogate", bytes(b))
b = bytearray(np_bytes(np.array(["ab"], dtype=">U2")))
b[128:132] = b"\xff\xff\xff\xff"
add("data_ucs4_be_ffffffff", bytes(b))
b = bytearray(np_bytes(np.array([True, False, True, False, True], dtype="?")))
b[128:133] = bytes([0, 1, 2, 0x80, 0xFF])  # numpy reads 2, 0x80, 0xff as True
add("data_bool_bytes", bytes(b))
b = bytearray(np_bytes(np.array([(True, 1)], dtype=[("ok", "?"), ("n", "<i2")])))
b[128] = 7
add("data_bool_field_7", bytes(b))
add("data_s_not_utf8", np_bytes(np.array([b"\xff\xfe", b"ok"], dtype="S2")))


# ---- npz (the npz work owns archive hardening; these feed alloc_bound) --------
NPZ = {}


def npz_with(member_bytes, compress):
    import zipfile
    b = io.BytesIO()
    method = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    with zipfile.ZipFile(b, "w", method) as z:
        info = zipfile.ZipInfo("x.npy", date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = method
        z.writestr(info, member_bytes)
    return b.getvalue()


NPZ["npz_1gib_member_stored"] = npz_with(FILES["shape_1gib_declared"], False)
NPZ["npz_1gib_member_deflated"] = npz_with(FILES["shape_1gib_declared"], True)


# Truncated and lying archives: np.savez of two members, a = arange(4) and
# b = arange(300) (int64), then one defect each. The library must name the
# member where there is one, the offset, and what the directory promises
# against what the file holds.
def two_members():
    b = io.BytesIO()
    np.savez(b, a=np.arange(4, dtype="<i8"), b=np.arange(300, dtype="<i8"))
    return b.getvalue()


TWO = two_members()
EOCD_AT = TWO.rfind(b"PK\x05\x06")
CD_AT = struct.unpack("<I", TWO[EOCD_AT + 16 : EOCD_AT + 20])[0]
CD_B = TWO.rfind(b"PK\x01\x02")  # the central directory entry of b.npy
# cut inside the end of central directory record (10 of its 22 bytes left)
NPZ["npz_cut_in_end_record"] = TWO[: EOCD_AT + 10]
# cut inside the central directory: in the middle of b.npy's entry (its
# 46 fixed bytes and 4 of the 5 of its name), and before b.npy's name
NPZ["npz_cut_in_directory"] = TWO[: CD_B + 50]
NPZ["npz_cut_in_directory_entry"] = TWO[: CD_B + 30]


def patched_b(data, field, value):
    """TWO with field (an offset into b.npy's central directory entry) of
    b.npy's entry set to the 4-byte value."""
    data = bytearray(data)
    data[CD_B + field : CD_B + field + 4] = struct.pack("<I", value)
    return bytes(data)


# b.npy's data runs past the end: its compressed (stored) size in the
# directory and its local header claims 1 MB
LOCAL_B = struct.unpack("<I", TWO[CD_B + 42 : CD_B + 46])[0]
past = bytearray(patched_b(TWO, 20, 1_000_000))
past[LOCAL_B + 18 : LOCAL_B + 22] = struct.pack("<I", 1_000_000)
NPZ["npz_member_data_past_end"] = bytes(past)
# the archive cut inside b.npy's data, its central directory and end record
# appended again (pointing where the directory now is): b.npy's data runs
# into the directory
cut_at = LOCAL_B + 100
moved = bytearray(TWO[:cut_at] + TWO[CD_AT:])
end = len(moved) - 22
moved[end + 16 : end + 20] = struct.pack("<I", cut_at)
NPZ["npz_member_data_cut"] = bytes(moved)
# b.npy's local header offset points 10 bytes before the end of the file
NPZ["npz_local_header_cut"] = patched_b(TWO, 42, len(TWO) - 10)


def main():
    for old in glob.glob(os.path.join(HERE, "*.npz")):
        os.remove(old)
    for name, data in sorted(NPZ.items()):
        with open(os.path.join(HERE, name + ".npz"), "wb") as f:
            f.write(data)
    for old in glob.glob(os.path.join(HERE, "*.npy")):
        os.remove(old)
    for name, data in sorted(FILES.items()):
        with open(os.path.join(HERE, name + ".npy"), "wb") as f:
            f.write(data)
    with open(os.path.join(HERE, "VERSION"), "w") as f:
        f.write("numpy %s, python %s\n" % (np.__version__, sys.version.split()[0]))
    print("wrote %d files" % len(FILES))


if __name__ == "__main__":
    main()
