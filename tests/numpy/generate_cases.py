#!/usr/bin/env python3
"""Writes the NumPy promotion cases that //tests:numpy_jax_oracles checks.

Every answer comes from the installed NumPy 2 (NEP 50) calling itself on
real arrays, 0-d arrays (which promote as NumPy's scalars np.int8(1) do) and
Python scalars over its 14 numeric dtypes:
  - two operands: np.add, the dtype of its result or "error" (an
    out-of-range Python int raises OverflowError): every pair of 1-d and 0-d
    arrays, every array with every Python scalar at the edges of each integer
    range (both orders), and pairs of Python scalars;
  - three operands: np.result_type (np.add takes two), "error" where it
    raises or where converting a Python int operand to that dtype raises, as
    a ufunc converts it: every triple of dtypes as (1-d, 0-d, 1-d), every
    pair of dtypes around a Python scalar, and two Python scalars with an
    array;
  - "can_cast FROM TO": np.can_cast(FROM, TO, "same_kind"), the casting a
    ufunc's out= allows by default.
Lines are "OPERANDS<TAB>ANSWER", the operands spelled as `promote` spells
them.

  python3 tests/numpy/generate_cases.py > tests/numpy/cases.tsv
  python3 tests/numpy/generate_cases.py --check tests/numpy/cases.tsv
"""

import itertools
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from case_file import SCALARS, line, write_or_check  # noqa: E402

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
          "uint64", "float16", "float32", "float64", "complex64", "complex128"]
# Python ints past int64 and uint64 as well (the CLI reads up to 128 bits).
PY_SCALARS = SCALARS + [2**100, -2**100]
FEW_SCALARS = [True, 1, -1, 300, 2**63, 2**64, 1.5, 1e300, 1j]


def materialize(x):
    if isinstance(x, tuple):
        return np.zeros((1,) * x[1], dtype=x[0])
    return x


def add(a, b):
    try:
        return str(np.add(materialize(a), materialize(b)).dtype)
    except (TypeError, OverflowError):
        return "error"


def result_type(operands):
    try:
        dtype = np.result_type(*[materialize(x) for x in operands])
        for x in operands:
            if isinstance(x, int) and not isinstance(x, bool):
                np.asarray(x, dtype=dtype)
        return str(dtype)
    except (TypeError, OverflowError):
        return "error"


def lines():
    arrays = [(d, n) for d in DTYPES for n in (1, 0)]
    for a, b in itertools.product(arrays, repeat=2):
        yield line((a, b), add(a, b))
    for a in arrays:
        for s in PY_SCALARS:
            yield line((a, s), add(a, s))
            yield line((s, a), add(s, a))
    for s, t in itertools.product(FEW_SCALARS, repeat=2):
        yield line((s, t), add(s, t))
    for a, b, c in itertools.product(DTYPES, repeat=3):
        operands = ((a, 1), (b, 0), (c, 1))
        yield line(operands, result_type(operands))
    for a, b in itertools.product(DTYPES, repeat=2):
        for s in FEW_SCALARS:
            operands = ((a, 1), s, (b, 0))
            yield line(operands, result_type(operands))
    for s, t in itertools.product([True, 1, 1.5, 1j], repeat=2):
        for a in DTYPES:
            operands = (s, t, (a, 1))
            yield line(operands, result_type(operands))
    for a, b in itertools.product(DTYPES, repeat=2):
        yield f"can_cast {a} {b}\t{np.can_cast(a, b, 'same_kind')}"


def main(argv):
    if int(np.__version__.split(".")[0]) < 2:
        sys.exit(f"NEP 50's rules are NumPy 2's; this is numpy {np.__version__}")
    warnings.simplefilter("ignore")  # overflow to inf in float16 + 1e300
    return write_or_check(argv, "\n".join(lines()) + "\n", ["numpy"])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
