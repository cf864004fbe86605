#!/usr/bin/env python3
"""Prints numpy's str() of datetime64 and timedelta64 values for every unit,
several multipliers and counts (small, negative, far years, NaT; counts far
enough out that numpy's own int64 arithmetic wraps are left out), one per
line: `<kind>8[<unit>] <count> <str>`.

Used to generate tests/fixtures/times.txt (run with the project's venv
python, numpy 2.x): Datetime64/Timedelta64 Display must print the same text,
and FromStr must read it back to the same count.
"""
import numpy as np

UNITS = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as"]
MULTS = [1, 3, 25]
COUNTS = [0, 1, -1, 7, 59, 12_345, -12_345, 1_000_003, -987_654_321,
          10**12 + 7, -(10**12) - 7, 10**15 + 1, -(10**15) - 1]

print(f"# numpy {np.__version__}")
for kind in ["M", "m"]:
    for unit in UNITS:
        for mult in MULTS:
            code = unit if mult == 1 else f"{mult}{unit}"
            for count in COUNTS:
                try:
                    if kind == "M":
                        text = str(np.datetime64(count, code))
                    else:
                        text = str(np.timedelta64(count, code))
                except (OverflowError, ValueError):
                    continue
                print(f"{kind}8[{code}] {count} {text}")
            print(f"{kind}8[{code}] {-(2**63)} {str(np.datetime64('NaT', code)) if kind == 'M' else str(np.timedelta64('NaT', code))}")
