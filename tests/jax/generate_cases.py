#!/usr/bin/env python3
"""Writes the JAX promotion cases that //tests:numpy_jax_oracles checks.

Every answer comes from the installed JAX (CPU) in three configurations,
one per policy: jax (jax_enable_x64), jax_x32 (JAX's default, x64 off) and
jax_strict (x64 with jax_numpy_dtype_promotion='strict'). Operands are NumPy
arrays (1-d and 0-d; JAX converts both to strong arrays, canonicalizing
64-bit dtypes without x64) of the 20 dtypes JAX and the library share
(ml_dtypes' float8 formats and bfloat16 included), and Python scalars:
  - the dtype of jnp.add over the operands (folded left to right for three),
    or "error" (TypePromotionError, or OverflowError for a Python int outside
    the default int): every pair of arrays, every array with every Python
    scalar at the edges of each integer range (both orders), pairs of Python
    scalars, every triple of dtypes as (1-d, 0-d, 1-d), and every pair of
    dtypes around a Python scalar;
  - "can_cast FROM TO": jax's dtypes.safe_to_cast (False where it raises).
Each configuration's lines follow a line "--policy=P"; a case is
"OPERANDS<TAB>ANSWER", the operands spelled as `promote` spells them.

jnp.add's dtype is what its promotion, jnp.result_type, gives, after
jnp.asarray has converted each Python int (which is where the OverflowError
comes from); that takes seconds. With --via-add every answer is traced
through jnp.add itself (jax.eval_shape), which takes minutes; the two wrote
the same file with jax 0.10.2 (2026-11-28).

  python3 tests/jax/generate_cases.py > tests/jax/cases.tsv
  python3 tests/jax/generate_cases.py --check tests/jax/cases.tsv
  python3 tests/jax/generate_cases.py --via-add --check tests/jax/cases.tsv
"""

import itertools
import os
import sys
import warnings
from pathlib import Path

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
from jax._src import dtypes as jax_dtypes  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from case_file import SCALARS, line, write_or_check  # noqa: E402

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
          "float8_e8m0fnu", "float16", "bfloat16", "float32", "float64", "complex64",
          "complex128"]
FEW_SCALARS = [True, 1, -1, 300, 2**31, 2**63, 1.5, 1j]
MODES = {  # policy: (jax_enable_x64, jax_numpy_dtype_promotion)
    "jax": (True, "standard"),
    "jax_x32": (False, "standard"),
    "jax_strict": (True, "strict"),
}


def np_dtype(name):
    return np.dtype(getattr(ml_dtypes, name) if name.startswith(("float8", "bfloat16")) else name)


def materialize(x):
    if isinstance(x, tuple):
        return np.zeros((1,) * x[1], dtype=np_dtype(x[0]))
    return x


def add_all(*xs):
    result = xs[0]
    for x in xs[1:]:
        result = jnp.add(result, x)
    return result


def answer_via_add(operands):
    try:
        return str(jax.eval_shape(add_all, *[materialize(x) for x in operands]).dtype)
    except (TypeError, ValueError, OverflowError):  # TypePromotionError is a ValueError
        return "error"


def answer(operands):
    """What jnp.add decides, without tracing it: its promotion
    (jnp.result_type) and its conversion of Python ints (jnp.asarray)."""
    try:
        dtype = jnp.result_type(*[materialize(x) for x in operands])
        for x in operands:
            if isinstance(x, int) and not isinstance(x, bool):
                jnp.asarray(x)
        return str(dtype)
    except (TypeError, ValueError, OverflowError):  # TypePromotionError is a ValueError
        return "error"


def safe_to_cast(a, b):
    try:
        return jax_dtypes.safe_to_cast(np_dtype(a), np_dtype(b))
    except (TypeError, ValueError):
        return False


def cases():
    arrays = [(d, n) for d in DTYPES for n in (1, 0)]
    for a, b in itertools.product(arrays, repeat=2):
        yield (a, b)
    for a in arrays:
        for s in SCALARS:
            yield (a, s)
            yield (s, a)
    for s, t in itertools.product(FEW_SCALARS, repeat=2):
        yield (s, t)
    for a, b, c in itertools.product(DTYPES, repeat=3):
        yield ((a, 1), (b, 0), (c, 1))
    for a, b in itertools.product(DTYPES, repeat=2):
        for s in FEW_SCALARS:
            yield ((a, 1), s, (b, 0))


def lines(answer_of):
    for policy, (x64, promotion) in MODES.items():
        jax.config.update("jax_enable_x64", x64)
        jax.config.update("jax_numpy_dtype_promotion", promotion)
        yield f"--policy={policy}"
        for operands in cases():
            yield line(operands, answer_of(operands))
        for a, b in itertools.product(DTYPES, repeat=2):
            yield f"can_cast {a} {b}\t{safe_to_cast(a, b)}"


def main(argv):
    answer_of = answer_via_add if "--via-add" in argv else answer
    argv = [a for a in argv if a != "--via-add"]
    warnings.simplefilter("ignore")  # x32's "explicitly requested dtype int64" warnings
    text = "\n".join(lines(answer_of)) + "\n"
    return write_or_check(argv, text, ["jax", "jaxlib", "ml_dtypes"])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
