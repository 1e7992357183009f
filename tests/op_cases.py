"""What the per-framework op case generators share (tests/numpy,
tests/array_api, tests/jax: generate_op_cases.py): the operands each
function is called with, and how a call's outcome is written.

Each line is a `promote --batch` input, a tab, and the framework's answer:
the result's dtype, or "refused: TYPE: MESSAGE" where it raises. Operands: a
(dtype name, ndim) tuple for an array, or a Python scalar.
"""

import itertools

# Python scalars of each kind, and ints that overflow narrow dtypes.
SCALARS = [True, 2, -1, 300, 2.5, 1j]


def outcome(call, dtype_name, with_message=True):
    """The dtype `call()` returns (dtype_name turns its result into a name),
    or the refusal: the exception's type, and its message unless that is
    not the same from run to run (JAX names dtypes in a set's order)."""
    try:
        return dtype_name(call())
    except Exception as e:  # noqa: BLE001 -- every refusal is an answer
        if not with_message:
            return f"refused: {type(e).__name__}"
        message = " ".join(str(e).split())[:72]
        return f"refused: {type(e).__name__}: {message}"


def operand_sets(arity, dtypes, few):
    """Unary: every dtype as an array and as a 0-d array, and each Python
    scalar. Binary: arrays of every dtype, 0-d arrays of the `few`, Python
    scalars, every pair with at least one array, and two Python scalars
    once."""
    arrays = [(d, 1) for d in dtypes]
    if arity == 1:
        return [[a] for a in arrays + [(d, 0) for d in dtypes] + SCALARS]
    pool = arrays + [(d, 0) for d in few] + SCALARS
    sets = [[a, b] for a, b in itertools.product(pool, repeat=2)
            if isinstance(a, tuple) or isinstance(b, tuple)]
    return sets + [[2, 2.5]]


def spell(x):
    if isinstance(x, tuple):
        return x[0] + ("[]" if x[1] == 0 else "")
    return repr(x)


def op_line(policy, name, operands, answer):
    words = [f"--policy={policy}", "op", name] + [spell(x) for x in operands]
    return " ".join(words) + "\t" + answer
