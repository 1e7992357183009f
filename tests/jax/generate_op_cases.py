#!/usr/bin/env python3
"""Writes the jax.numpy op cases that //tests:op_rules_vs_jax checks: the
dtype jax.numpy returns, or its refusal, for each function of jax.numpy
named as one of NumPy's ufuncs of one or two operands, and its reductions,
called on NumPy arrays (1-d and 0-d, which JAX takes as strong arrays) and
on Python scalars (weak). In JAX's default configuration (x64 off: policy
jax_x32) on the 17 dtypes JAX and the library share and the two float8
formats JAX computes with most; with x64 (policy jax) and with x64 and
strict promotion (jax_strict) on fewer dtypes for two operands. Each answer
is traced (jax.eval_shape), not computed.

  python3 tests/jax/generate_op_cases.py > tests/jax/op_cases.tsv
  python3 tests/jax/generate_op_cases.py --check tests/jax/op_cases.tsv
"""

import multiprocessing
import os
import sys
import warnings
from pathlib import Path

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from case_file import write_or_check  # noqa: E402
from op_cases import op_line, operand_sets, outcome  # noqa: E402

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float8_e4m3fn", "float8_e5m2", "float16", "bfloat16", "float32", "float64",
          "complex64", "complex128"]
FEW = ["bool", "int8", "uint8", "int32", "float16", "bfloat16", "float32", "complex64"]
SKIPPED = {"isnat", "matmul", "matvec", "vecmat", "vecdot"}
MODES = {  # policy: (jax_enable_x64, jax_numpy_dtype_promotion, dtypes of binary operands)
    "jax_x32": (False, "standard", DTYPES),
    "jax": (True, "standard", FEW),
    "jax_strict": (True, "strict", FEW),
}
REDUCTIONS = """sum prod mean cumsum cumprod nansum nanmean max min argmax argmin any all
var std""".split()


def functions():
    for name in sorted(dir(np)):
        f = getattr(np, name)
        if (isinstance(f, np.ufunc) and f.nout == 1 and f.nin <= 2 and name not in SKIPPED
                and hasattr(jnp, name)):
            yield name, f.nin
    for name in REDUCTIONS:
        yield name, 1


def np_dtype(name):
    return np.dtype(getattr(ml_dtypes, name) if name.startswith(("float8", "bfloat16")) else name)


def materialize(x):
    return np.ones((2,) * x[1], dtype=np_dtype(x[0])) if isinstance(x, tuple) else x


def function_lines(task):
    """One function's lines under one policy (a worker process's task)."""
    policy, name, arity = task
    x64, promotion, binary_dtypes = MODES[policy]
    warnings.simplefilter("ignore")  # x32's "explicitly requested dtype int64" warnings
    jax.config.update("jax_enable_x64", x64)
    jax.config.update("jax_numpy_dtype_promotion", promotion)
    f = getattr(jnp, name)
    lines = []
    for operands in operand_sets(arity, DTYPES if arity == 1 else binary_dtypes, FEW):
        args = [materialize(x) for x in operands]
        answer = outcome(lambda: jax.eval_shape(f, *args), lambda r: str(r.dtype), False)
        lines.append(op_line(policy, name, operands, answer))
    return lines


def lines():
    """Traced on every core: tracing is most of the time."""
    tasks = [(policy, name, arity) for policy in MODES for name, arity in functions()]
    with multiprocessing.get_context("spawn").Pool() as pool:
        for chunk in pool.map(function_lines, tasks):
            yield from chunk


def main(argv):
    return write_or_check(argv, "\n".join(lines()) + "\n", ["jax", "jaxlib", "ml_dtypes"])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
