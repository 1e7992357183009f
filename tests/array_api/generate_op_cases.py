#!/usr/bin/env python3
"""Writes the Array API op cases that //tests:op_rules_vs_array_api checks:
the dtype array-api-strict (the standard's reference namespace) returns, or
its refusal, for every elementwise function of one or two operands and
every statistical and searching function of one, called on 1-d and 0-d
arrays of the standard's 13 dtypes and on Python scalars.

  python3 tests/array_api/generate_op_cases.py > tests/array_api/op_cases.tsv
  python3 tests/array_api/generate_op_cases.py --check tests/array_api/op_cases.tsv
"""

import sys
import warnings
from pathlib import Path

import array_api_strict as xp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from case_file import write_or_check  # noqa: E402
from op_cases import op_line, operand_sets, outcome  # noqa: E402

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
          "uint64", "float32", "float64", "complex64", "complex128"]
FEW = ["bool", "int8", "uint8", "int64", "float32", "float64", "complex64"]
UNARY = """abs acos acosh asin asinh atan atanh bitwise_invert ceil conj cos cosh exp expm1
floor imag isfinite isinf isnan log log1p log10 log2 logical_not negative positive real
reciprocal round sign signbit sin sinh sqrt square tan tanh trunc""".split()
BINARY = """add atan2 bitwise_and bitwise_left_shift bitwise_or bitwise_right_shift
bitwise_xor copysign divide equal floor_divide greater greater_equal hypot less less_equal
logaddexp logical_and logical_or logical_xor maximum minimum multiply nextafter not_equal pow
remainder subtract""".split()
REDUCTIONS = """sum prod mean max min var std argmax argmin any all cumulative_sum
cumulative_prod count_nonzero""".split()


def materialize(x):
    return xp.ones((2,) * x[1], dtype=getattr(xp, x[0])) if isinstance(x, tuple) else x


def name_of(dtype):
    return str(dtype).removeprefix("array_api_strict.")


def lines():
    for names, arity in ((UNARY, 1), (BINARY, 2), (REDUCTIONS, 1)):
        for name in names:
            f = getattr(xp, name)
            for operands in operand_sets(arity, DTYPES, FEW):
                args = [materialize(x) for x in operands]
                answer = outcome(lambda: f(*args), lambda r: name_of(r.dtype))
                yield op_line("array_api", name, operands, answer)


def main(argv):
    warnings.simplefilter("ignore")  # NumPy's divide-by-zero warnings under arctanh and log
    return write_or_check(argv, "\n".join(lines()) + "\n", ["array-api-strict"],
                          f"standard {xp.__array_api_version__}")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
