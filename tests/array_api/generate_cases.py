#!/usr/bin/env python3
"""Writes the Array API promotion cases that //tests:array_api_vs_strict checks.

Every answer comes from array-api-strict (the standard's reference
implementation) calling result_type() on real arrays and Python scalars:
every pair and triple of the 13 standard dtypes as 0-d and 1-d arrays, and
every array dtype with Python scalars of every kind at the edges of each
integer range. Each line is "OPERANDS<TAB>ANSWER", the operands spelled as
the `promote` CLI spells them, the answer a dtype name or "error".

  python3 tests/array_api/generate_cases.py > tests/array_api/cases.tsv
  python3 tests/array_api/generate_cases.py --check tests/array_api/cases.tsv
"""

import itertools
import sys
from pathlib import Path

import array_api_strict as xp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from case_file import SCALARS, line, write_or_check  # noqa: E402

# The standard's version whose rules the array_api policy follows (2025.12
# kept 2024.12's promotion; both give these cases).
xp.set_array_api_strict_flags(api_version="2025.12")

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
          "uint64", "float32", "float64", "complex64", "complex128"]


def materialize(x):
    if isinstance(x, tuple):
        dtype = getattr(xp, x[0])
        return xp.zeros((1,) * x[1], dtype=dtype)
    return x


def answer(operands):
    try:
        return str(xp.result_type(*[materialize(x) for x in operands])).split(".")[-1]
    except (TypeError, ValueError, OverflowError):
        return "error"


def cases():
    arrays = [(d, n) for d in DTYPES for n in (1, 0)]
    for a, b in itertools.product(arrays, repeat=2):
        yield (a, b)
    for a, b, c in itertools.product(DTYPES, repeat=3):
        yield ((a, 1), (b, 0), (c, 1))
    for a in arrays:
        for s in SCALARS:
            yield (a, s)
            yield (s, a)
    for a, b in itertools.product(DTYPES, repeat=2):
        for s in SCALARS:
            yield ((a, 1), s, (b, 0))
    for s, t in itertools.product([True, 1, 1.5, 2j], repeat=2):
        yield (s, t)  # no array at all


def lines():
    for operands in cases():
        yield line(operands, answer(operands))


def main(argv):
    return write_or_check(argv, "\n".join(lines()) + "\n",
                          ["array-api-strict"], f"standard {xp.__array_api_version__}")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
