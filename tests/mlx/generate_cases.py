#!/usr/bin/env python3
"""Writes the MLX promotion cases that //tests:numpy_jax_oracles checks.

Every answer comes from the installed MLX (mlx with the mlx-cpu backend,
which runs on Linux without Apple silicon). Operands are MLX arrays (1-d and
0-d; MLX takes both as strong arrays) of the 14 dtypes MLX has, and Python
scalars:
  - the dtype of mx.add over the operands (folded left to right for three),
    or "error" (ValueError for a Python int outside the array's integer
    dtype, RuntimeError for one outside int64): every pair of arrays, every
    array with every Python scalar at the edges of each integer range (both
    orders), pairs of Python scalars, every triple of dtypes as (1-d, 0-d,
    1-d), and every pair of dtypes around a Python scalar;
  - "can_cast FROM TO": mx.can_cast.
A case is "OPERANDS<TAB>ANSWER", the operands spelled as `promote` spells
them, after a line "--policy=mlx". Each answer is computed on one element,
on the CPU.

  python3 tests/mlx/generate_cases.py > tests/mlx/cases.tsv
  python3 tests/mlx/generate_cases.py --check tests/mlx/cases.tsv
"""

import itertools
import sys
from pathlib import Path

import mlx.core as mx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from case_file import SCALARS, line, write_or_check  # noqa: E402

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "bfloat16", "float32", "float64", "complex64"]
FEW_SCALARS = [True, 1, -1, 300, 2**31, 2**63, 1.5, 1j]


def mlx_dtype(name):
    return getattr(mx, "bool_" if name == "bool" else name)


def dtype_name(dtype):
    return str(dtype).removeprefix("mlx.core.")


def materialize(x):
    if isinstance(x, tuple):
        return mx.zeros((1,) * x[1], dtype=mlx_dtype(x[0]))
    return x


def answer(operands):
    try:
        xs = [materialize(x) for x in operands]
        result = xs[0]
        for x in xs[1:]:
            result = mx.add(result, x)
        return dtype_name(result.dtype)
    except (ValueError, RuntimeError):  # out-of-range Python ints
        return "error"


def cases():
    arrays = [(d, n) for d in DTYPES for n in (1, 0)]
    yield from itertools.product(arrays, repeat=2)
    for a in arrays:
        for s in SCALARS:
            yield (a, s)
            yield (s, a)
    yield from itertools.product(FEW_SCALARS, repeat=2)
    for a, b, c in itertools.product(DTYPES, repeat=3):
        yield ((a, 1), (b, 0), (c, 1))
    for a, b in itertools.product(DTYPES, repeat=2):
        for s in FEW_SCALARS:
            yield ((a, 1), s, (b, 0))


def lines():
    yield "--policy=mlx"
    for operands in cases():
        yield line(operands, answer(operands))
    for a, b in itertools.product(DTYPES, repeat=2):
        yield f"can_cast {a} {b}\t{mx.can_cast(mlx_dtype(a), mlx_dtype(b))}"


def main(argv):
    text = "\n".join(lines()) + "\n"
    return write_or_check(argv, text, ["mlx", "mlx-cpu"])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
