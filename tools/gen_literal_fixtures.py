#!/usr/bin/env python3
"""Generates tests/fixtures/literals.txt: Python literal texts and what
ast.literal_eval makes of them (its repr, or ERR), for a differential test of
src/literal.rs. Run with Python 3.11:  python3 tools/gen_literal_fixtures.py > tests/fixtures/literals.txt

Inputs come from a small grammar of the literals npy headers use, with random
whitespace, escapes and quoting, plus random one- to three-character
corruptions. Cases in deliberately unsupported territory (floats, bytes,
sets, complex, unhashable keys, duplicate dict keys) and CPython's
IndentationError quirk for a last line of only spaces are left out.
"""
import ast
import json
import random
import sys
import warnings

warnings.simplefilter("ignore")
COUNT = int(sys.argv[1]) if len(sys.argv) > 1 else 1500
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 20261130)

CHARS = ["a", "b", "é", "整", "\u200b", "'", '"', "\\", "\n", "\t", " ", "\x07", "😀", "L"]
ESCAPES = ["\\\\", "\\'", '\\"', "\\n", "\\t", "\\r", "\\a", "\\b", "\\f", "\\v", "\\0", "\\101",
           "\\777", "\\x41", "\\u00e9", "\\U0001F600", "\\q", "\\8", "\\\n"]


def ws():
    return rng.choice(["", "", " ", "  ", "\n ", "\t", " # c\n"])


def string():
    q = rng.choice(["'", '"'])
    prefix = rng.choice(["", "", "", "u", "U", "r"])
    body = ""
    for _ in range(rng.randint(0, 5)):
        if rng.random() < 0.4 and prefix != "r":
            body += rng.choice(ESCAPES)
        else:
            c = rng.choice(CHARS)
            if c in (q, "\\", "\n"):
                c = "\\" + c if prefix != "r" or c != "\n" else "n"
            body += c
    return prefix + q + body + q


def integer():
    n = rng.choice([0, 1, 3, 10, 255, 65536, 2**31, 2**63, 2**64, 10**30, 2**127 - 1, 2**127])
    s = str(n)
    if rng.random() < 0.1 and len(s) > 2:
        s = s[0] + "_" + s[1:]
    return rng.choice(["", "", "-", "+", "- "]) + s


def value(depth=0):
    r = rng.random()
    if depth > 4 or r < 0.45:
        return rng.choice([string, string, integer, lambda: rng.choice(["True", "False", "None"])])()
    kind = rng.choice(["tuple", "list", "dict", "paren"])
    n = rng.randint(0, 4)
    if kind == "dict":
        keys = []
        for _ in range(n):
            k = rng.choice([string, integer])()
            keys.append(k)
        items = [ws() + k + ws() + ":" + ws() + value(depth + 1) for k in keys]
        open_, close = "{", "}"
    elif kind == "paren":
        return "(" + ws() + value(depth + 1) + ws() + ")"
    else:
        items = [ws() + value(depth + 1) + ws() for _ in range(n)]
        open_, close = ("(", ")") if kind == "tuple" else ("[", "]")
    text = ",".join(items)
    if kind == "tuple" and n == 1:
        text += ","
    elif n and rng.random() < 0.3:
        text += "," + ws()
    return open_ + text + close


def corrupt(s):
    s = list(s)
    for _ in range(rng.randint(1, 3)):
        i = rng.randint(0, len(s))
        op = rng.random()
        if op < 0.4 and i < len(s):
            del s[i]
        elif op < 0.7:
            s.insert(i, rng.choice(list("()[]{},:'\" -+0123456789\\uUrLN#\n")))
        elif i < len(s):
            s[i] = rng.choice(list("()[]{},:'\" 01\\"))
    return "".join(s)


def unsupported(v):
    if isinstance(v, (float, complex, bytes, set, frozenset)):
        return True
    if isinstance(v, int) and not isinstance(v, bool) and not -(2**127) <= v < 2**127:
        return True
    if isinstance(v, (tuple, list)):
        return any(unsupported(x) for x in v)
    if isinstance(v, dict):
        return any(unsupported(k) or unsupported(x) for k, x in v.items())
    return False


def has_dup_keys(text):
    # a dict with duplicate keys collapses in Python's repr; ours keeps both
    try:
        tree = ast.parse(text.lstrip(" \t"), mode="eval")
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys = [repr(ast.literal_eval(k)) for k in node.keys]
            if len(keys) != len(set(keys)):
                return True
    return False


cases = []
seen = set()
while len(cases) < COUNT:
    text = value()
    if rng.random() < 0.5:
        text = corrupt(text)
    if text in seen or "\0" in text:
        continue
    seen.add(text)
    try:
        v = ast.literal_eval(text)
    except TypeError:
        continue  # unhashable key
    except IndentationError:
        # CPython quirk: a last line of only spaces without a final newline
        # ("1\n  ") is an "unexpected indent"; we accept it on purpose.
        continue
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        cases.append((text, None))
        continue
    if unsupported(v) or has_dup_keys(text):
        continue
    cases.append((text, repr(v)))

for text, expected in cases:
    print(json.dumps([text, expected], ensure_ascii=False))
