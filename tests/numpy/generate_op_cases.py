#!/usr/bin/env python3
"""Writes the NumPy op cases that //tests:op_rules_vs_numpy checks: the
dtype NumPy 2 returns, or its refusal, for each ufunc of one or two operands
and one result in NumPy's namespace, and its reductions, called on 1-d and
0-d arrays of its 14 numeric dtypes and on Python scalars (NEP 50: weak).

  python3 tests/numpy/generate_op_cases.py > tests/numpy/op_cases.tsv
  python3 tests/numpy/generate_op_cases.py --check tests/numpy/op_cases.tsv
"""

import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from case_file import write_or_check  # noqa: E402
from op_cases import op_line, operand_sets, outcome  # noqa: E402

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
          "uint64", "float16", "float32", "float64", "complex64", "complex128"]
FEW = ["bool", "int8", "uint8", "int64", "float16", "float32", "float64", "complex64"]
# Ufuncs of datetimes only, and generalized ufuncs (matmul's signature).
SKIPPED = {"isnat", "matmul", "matvec", "vecmat", "vecdot"}
REDUCTIONS = """sum prod mean cumsum cumprod nansum nanmean max min argmax argmin any all
var std""".split()


def functions():
    for name in sorted(dir(np)):
        f = getattr(np, name)
        if isinstance(f, np.ufunc) and f.nout == 1 and f.nin <= 2 and name not in SKIPPED:
            yield name, f.nin
    for name in REDUCTIONS:
        yield name, 1


def materialize(x):
    return np.ones((2,) * x[1], dtype=x[0]) if isinstance(x, tuple) else x


def lines():
    for name, arity in functions():
        f = getattr(np, name)
        for operands in operand_sets(arity, DTYPES, FEW):
            args = [materialize(x) for x in operands]
            answer = outcome(lambda: f(*args), lambda r: np.asarray(r).dtype.name)
            yield op_line("numpy", name, operands, answer)


def main(argv):
    warnings.simplefilter("ignore")
    return write_or_check(argv, "\n".join(lines()) + "\n", ["numpy"])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
