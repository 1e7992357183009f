#!/usr/bin/env python3
"""Writes the MLX op cases that //tests:op_rules_vs_mlx checks: the dtype
MLX gives, or its refusal, for each elementwise function of one or two
operands in mlx.core and its reductions, called on MLX arrays (1-d and 0-d,
both strong) of the 14 dtypes MLX has and on Python scalars (weak). Each
answer is the dtype of MLX's lazy result, which MLX decides when the call
builds its graph (mlx with the mlx-cpu backend, on the CPU).

  python3 tests/mlx/generate_op_cases.py > tests/mlx/op_cases.tsv
  python3 tests/mlx/generate_op_cases.py --check tests/mlx/op_cases.tsv
"""

import sys
from pathlib import Path

import mlx.core as mx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from case_file import write_or_check  # noqa: E402
from op_cases import op_line, operand_sets, outcome  # noqa: E402

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "bfloat16", "float32", "float64", "complex64"]
FEW = ["bool", "int8", "uint8", "int32", "float16", "bfloat16", "float32", "complex64"]
UNARY = """abs arccos arccosh arcsin arcsinh arctan arctanh acos acosh asin asinh atan atanh
bitwise_invert ceil conj conjugate cos cosh degrees erf erfinv exp expm1 floor imag isfinite
isinf isnan isneginf isposinf log log10 log1p log2 logical_not nan_to_num negative positive
radians real reciprocal round rsqrt sigmoid sign sin sinh softmax sqrt square tan tanh
trunc""".split()
BINARY = """add arctan2 atan2 bitwise_and bitwise_left_shift bitwise_or bitwise_right_shift
bitwise_xor divide equal floor_divide greater greater_equal left_shift less less_equal
logaddexp logical_and logical_or logical_xor maximum minimum multiply not_equal pow power
remainder right_shift subtract""".split()
REDUCTIONS = """sum prod mean max min argmax argmin any all var std logsumexp cumsum cumprod
cumulative_sum cumulative_prod cummax cummin logcumsumexp count_nonzero median""".split()


def mlx_dtype(name):
    return getattr(mx, "bool_" if name == "bool" else name)


def materialize(x):
    return mx.ones((2,) * x[1], dtype=mlx_dtype(x[0])) if isinstance(x, tuple) else x


def lines():
    functions = ([(name, 1) for name in UNARY] + [(name, 2) for name in BINARY] +
                 [(name, 1) for name in REDUCTIONS])
    for name, arity in sorted(functions):
        f = getattr(mx, name)
        for operands in operand_sets(arity, DTYPES, FEW):
            args = [materialize(x) for x in operands]
            answer = outcome(lambda: f(*args).dtype,
                             lambda dtype: str(dtype).removeprefix("mlx.core."))
            yield op_line("mlx", name, operands, answer)


def main(argv):
    return write_or_check(argv, "\n".join(lines()) + "\n", ["mlx", "mlx-cpu"])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
