#!/usr/bin/env python3
"""Writes the float8 cases that //tests:float8_vs_ml_dtypes checks.

Every answer comes from ml_dtypes (the float8 implementation JAX and
TensorFlow use) converting real numpy arrays:
  - "decode": all 256 bit patterns of each float8 format as float32;
  - "encode": float32 and float64 inputs -> every float8 format: every
    bfloat16-spaced float32 in the exponent range where float8 rounding
    happens (2^-24 .. 2^20), every midpoint between adjacent float8 values
    and its float32/float64 neighbours, powers of two far out (for e8m0),
    and seeded random values.
The first line is "formats NAME..."; then lines are
"decode FORMAT BITS FLOAT32_BITS" or "encode SRC_DTYPE SRC_BITS BITS...",
one BITS per format in the first line's order, bits in hex.

  python3 tests/float8/generate_cases.py > tests/float8/cases.tsv
  python3 tests/float8/generate_cases.py --check tests/float8/cases.tsv
"""

import sys
from pathlib import Path

import ml_dtypes
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from case_file import write_or_check  # noqa: E402

FORMATS = {
    name: getattr(ml_dtypes, name)
    for name in ("float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu")
}


def bits_of(array, dtype):
    return array.view(dtype)


def decode_lines():
    for name, fmt in FORMATS.items():
        patterns = np.arange(256, dtype=np.uint8)
        values = patterns.view(fmt).astype(np.float32)
        for p, v in zip(patterns, values.view(np.uint32)):
            yield f"decode {name} {p:02x} {v:08x}"


def encode_inputs():
    f32 = []
    # bfloat16-spaced float32s (the top 16 bits vary) through the range
    # where either float8 format rounds, both signs.
    for exponent in range(127 - 26, 127 + 21):
        for top in range(128):
            for sign in (0, 1):
                f32.append((sign << 31) | (exponent << 23) | (top << 16) | 0x1234 * (top % 3))
    f64 = []
    for fmt in FORMATS.values():
        values = np.arange(256, dtype=np.uint8).view(fmt).astype(np.float64)
        # Adding +0.0 turns -0.0 into +0.0: np.unique keeps either zero,
        # depending on numpy's version, and the inputs must not.
        finite = np.sort(np.unique(values[np.isfinite(values)])) + 0.0
        mids = (finite[:-1] + finite[1:]) / 2
        for m in np.concatenate([mids, finite, finite * 2, -mids]):
            for x in (m, np.nextafter(m, np.inf), np.nextafter(m, -np.inf)):
                f64.append(np.float64(x).view(np.uint64))
            m32 = np.float32(m)
            for x in (m32, np.nextafter(m32, np.float32(np.inf)), np.nextafter(m32, np.float32(-np.inf))):
                f32.append(np.float32(x).view(np.uint32))
    for exponent in range(-127, 128, 3):
        for scale in (1.0, 1.25, 1.5, 1.75):
            f32.append(np.float32(np.ldexp(scale, exponent)).view(np.uint32))
            f64.append(np.float64(np.ldexp(scale, exponent)).view(np.uint64))
    rng = np.random.default_rng(8)
    f32.extend(rng.integers(0, 2**32, 4000, dtype=np.uint64).astype(np.uint32))
    f32.extend((rng.standard_normal(4000) * 100).astype(np.float32).view(np.uint32))
    f64.extend(rng.integers(0, 2**63, 2000, dtype=np.uint64) | (rng.integers(0, 2, 2000, dtype=np.uint64) << np.uint64(63)))
    f64.extend((rng.standard_normal(4000) * 2.0 ** rng.integers(-20, 18, 4000)).view(np.uint64))
    for x in (0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001, 0x80000000):
        f32.append(x)
    for x in (0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0x0000000000000001, 0x8000000000000000):
        f64.append(x)
    return (np.array(f32, dtype=np.uint32), np.array(f64, dtype=np.uint64))


def encode_lines():
    f32, f64 = encode_inputs()
    for src_name, raw, float_type in (("float32", f32, np.float32), ("float64", f64, np.float64)):
        values = raw.view(float_type)
        encoded = [values.astype(fmt).view(np.uint8) for fmt in FORMATS.values()]
        width = 8 if float_type is np.float32 else 16
        for i, r in enumerate(raw):
            yield f"encode {src_name} {int(r):0{width}x} " + " ".join(f"{e[i]:02x}" for e in encoded)


def main(argv):
    lines = ["formats " + " ".join(FORMATS)] + list(decode_lines()) + list(encode_lines())
    return write_or_check(argv, "\n".join(lines) + "\n", ["ml_dtypes", "numpy"])


if __name__ == "__main__":
    with np.errstate(all="ignore"):
        sys.exit(main(sys.argv))
