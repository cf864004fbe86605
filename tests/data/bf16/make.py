"""bfloat16 arrays as ml_dtypes saves them: numpy cannot name bfloat16, so
np.save of an ml_dtypes.bfloat16 array writes descr '|V2', each element its
two bytes in the machine's (little-endian) order. Made here from bf16 bit
patterns (the upper half of a float32) with numpy alone.

    python make.py   # writes plain.npy, records.npy, bits.json
"""
import json

import numpy as np

# bit patterns: 1, -2, pi rounded, the largest finite, the smallest
# subnormal, -0, +-inf, a quiet NaN, a signalling NaN with a payload, a
# negative NaN, 1/3 truncated
BITS = [0x3F80, 0xC000, 0x4049, 0x7F7F, 0x0001, 0x8000, 0x7F80, 0xFF80,
        0x7FC0, 0x7F81, 0xFFC1, 0x3EAA]

plain = np.array(BITS, dtype="<u2").view("|V2")
assert plain.dtype.str == "|V2"
np.save("plain.npy", plain)

rec = np.zeros(3, dtype=[("w", "|V2"), ("x", "<f4")])
rec["w"] = np.array(BITS[:3], dtype="<u2").view("|V2")
rec["x"] = [0.5, -1.5, 3.0]
np.save("records.npy", rec)

# the float32 each pattern stands for: the check that the bits are bf16
for b in BITS:
    f = np.array([b << 16], dtype="<u4").view("<f4")[0]
    assert (np.array([f]).view("<u4")[0] >> 16) == b

with open("bits.json", "w") as f:
    json.dump({"plain": BITS, "records": BITS[:3]}, f)
    f.write("\n")
with open("VERSION", "w") as f:
    f.write(f"numpy {np.__version__}\n")
