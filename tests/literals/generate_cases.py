#!/usr/bin/env python3
"""Writes the integer-literal cases that //tests:integer_literals checks.

`promote cast D D LITERAL` must round a Python int literal to the floating
or complex dtype D once, to nearest-even. Each expected value is computed
here with exact integer arithmetic from the format's precision and range as
ml_dtypes and numpy report them (finfo), and the rounded value is turned into
D by ml_dtypes/numpy from an exactly representable float64, so no second
rounding happens; float64 results are Python's own float(int), and the
arithmetic must agree with it. Where PyTorch 2.15 converts differently from
ml_dtypes (float8_e4m3fn saturates, float8_e8m0fnu takes the magnitude),
PyTorch's rule is applied. Literals sit around 2^11, 2^24, 2^53, 2^63,
2^64, 2^100 and the 128-bit limits: exact values, ties at each format's
precision, and their neighbours, in decimal, hex, octal, binary and with
underscores, both signs.

Lines are "DTYPE LITERAL EXPECTED", EXPECTED printed as the CLI prints a
float64 ("%.17g", nan, inf, -inf).

  python3 tests/literals/generate_cases.py > tests/literals/cases.tsv
  python3 tests/literals/generate_cases.py --check tests/literals/cases.tsv
"""

import sys
from pathlib import Path

import ml_dtypes
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from case_file import write_or_check  # noqa: E402

FORMATS = {
    "float8_e4m3fn": ml_dtypes.float8_e4m3fn,
    "float8_e5m2": ml_dtypes.float8_e5m2,
    "float8_e4m3fnuz": ml_dtypes.float8_e4m3fnuz,
    "float8_e5m2fnuz": ml_dtypes.float8_e5m2fnuz,
    "float8_e8m0fnu": ml_dtypes.float8_e8m0fnu,
    "float16": np.float16,
    "bfloat16": ml_dtypes.bfloat16,
    "float32": np.float32,
    "float64": np.float64,
    "complex32": np.float16,  # complex dtypes round each part as their real type
    "complex64": np.float32,
    "complex128": np.float64,
    "bcomplex32": ml_dtypes.bfloat16,
}

INT128_MIN, INT128_MAX = -(2**127), 2**127 - 1


def finfo(fmt):
    return ml_dtypes.finfo(fmt) if fmt.__module__.startswith("ml_dtypes") else np.finfo(fmt)


def round_nearest_even(value, precision):
    """value rounded to `precision` significand bits, exponent unbounded."""
    magnitude = abs(value)
    shift = magnitude.bit_length() - precision
    if shift <= 0:
        return value
    quotient, remainder = divmod(magnitude, 1 << shift)
    half = 1 << (shift - 1)
    if remainder > half or (remainder == half and quotient & 1):
        quotient += 1
    rounded = quotient << shift
    return -rounded if value < 0 else rounded


def expected(value, fmt):
    info = finfo(fmt)
    if fmt is ml_dtypes.float8_e8m0fnu:
        # PyTorch 2.15 takes the magnitude (zero gives the smallest value,
        # 2^-127), where ml_dtypes gives NaN. A significand of exactly 1.5
        # rounds up, which is nearest-even at one bit of precision.
        value = abs(value)
        if value == 0:
            return 2.0**-127
    rounded = round_nearest_even(value, info.nmant + 1)
    if fmt is ml_dtypes.float8_e4m3fn and abs(rounded) > float(info.max):
        # PyTorch 2.15 saturates float8_e4m3fn overflow, where ml_dtypes gives NaN.
        return float(info.max) if rounded > 0 else -float(info.max)
    # Exact in float64 (at most 53 significand bits, at most 2^128); beyond
    # the format's largest finite value the conversion below overflows as
    # the format does (inf, or NaN for formats without infinities).
    result = float(np.array([float(rounded)], dtype=np.float64).astype(fmt)[0])
    if fmt is np.float64 and result != float(value):
        raise AssertionError(f"{value}: exact rounding {result!r} but float() gives {float(value)!r}")
    return result


def literal_values():
    precisions = sorted({finfo(fmt).nmant + 1 for fmt in FORMATS.values()})
    values = set()
    for exponent in (11, 24, 53, 54, 55, 63, 64, 100, 126):
        base = 1 << exponent
        for delta in range(-3, 4):
            values.add(base + delta)
        for precision in precisions:
            ulp = 1 << max(exponent - precision + 1, 0)
            for multiple in (1, 3, 5):
                tie = base + multiple * ulp // 2
                for delta in (-1, 0, 1):
                    values.add(tie + delta)
            values.add(base - ulp // 4)
    values.update({INT128_MAX, INT128_MAX - 1, 0, 1, 9007199254740993, 16214644744928670})
    values = {v for v in values if 0 <= v <= INT128_MAX}
    return sorted(values | {-v for v in values} | {INT128_MIN})


def spellings(value):
    text = [str(value)]
    magnitude, sign = abs(value), "-" if value < 0 else ""
    if magnitude % 7 == 1:
        text.append(f"{sign}0x{magnitude:x}")
    if magnitude % 7 == 2:
        text.append(f"{sign}0o{magnitude:o}")
    if magnitude % 7 == 3:
        text.append(f"{sign}0b{magnitude:b}")
    if magnitude % 7 == 4 and magnitude >= 1000:
        text.append(f"{sign}{magnitude:_}")
    return text


def lines():
    for value in literal_values():
        for name, fmt in FORMATS.items():
            result = expected(value, fmt)
            for literal in spellings(value):
                yield f"{name} {literal} {'%.17g' % result}"


def main(argv):
    return write_or_check(argv, "\n".join(lines()) + "\n", ["ml_dtypes", "numpy"])


if __name__ == "__main__":
    with np.errstate(all="ignore"):
        sys.exit(main(sys.argv))
