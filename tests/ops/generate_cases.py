#!/usr/bin/env python3
"""Writes the op cases that //tests:op_rules_vs_torch checks: the dtype
PyTorch 2.15 returns, on the CPU, for every op of
oneflow_promote/ops/op_list.h called as a Python user calls it, or
that it refuses.

Operands: every dtype as a tensor with dimensions and as a 0-d tensor, and
Python scalars (bool, int, float, complex, and ints that overflow narrow
types); unary ops and reductions on all 22 dtypes, binary ops on the 15 that
PyTorch computes with most (no float8, complex32 or bcomplex32), ternary ops
on those as their first operand and on fewer as the others; reductions with
each dtype= too. Each line is a `promote --batch` input, a
tab, and torch's answer:
  DTYPE              the result's dtype;
  refused: TEXT      torch raises for a reason of the rule (TypeError from its
                     argument parser, a dtype check): the library must refuse;
  no kernel          torch raises `"kernel" not implemented for 'T'` for a dtype
                     whose support torch documents as limited (LIMITED_SUPPORT:
                     the unsigned integers past uint8, the float8 formats,
                     complex32 and bcomplex32): the library may compute
                     (docs/ops.md). The same text for any other dtype is
                     torch's dtype rule, a refusal.

  python3 tests/ops/generate_cases.py > tests/ops/cases.tsv
  python3 tests/ops/generate_cases.py --check tests/ops/cases.tsv
"""

import itertools
import re
import sys
import warnings
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from case_file import spell, write_or_check  # noqa: E402

ALL_DTYPES = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
              "float16", "bfloat16", "float32", "float64", "complex32", "complex64",
              "complex128", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz",
              "float8_e5m2fnuz", "float8_e8m0fnu"]
# bcomplex32 has no torch dtype.
COMMON = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
          "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]
FEW = ["bool", "uint8", "int8", "int64", "float16", "bfloat16", "float32", "float64",
       "complex64"]
SCALARS = [True, 2, -3, 300, 2.5, 1j]

# The dtypes torch's documentation gives limited support in eager mode
# (torch.dtype's notes: uint16, uint32 and uint64 "exist to assist usage with
# torch.compile", the float8 formats, experimental complex32; bcomplex32 is
# new in 2.15): where one lacks a CPU kernel the gap is torch's, not a rule.
LIMITED_SUPPORT = ["UInt16", "UInt32", "UInt64", "Float8_e4m3fn", "Float8_e5m2",
                   "Float8_e4m3fnuz", "Float8_e5m2fnuz", "Float8_e8m0fnu", "ComplexHalf",
                   "BComplex32"]
MISSING_KERNEL = re.compile(r"\"\w+\" not implemented for '(" + "|".join(LIMITED_SUPPORT) + ")'")


def call(name):
    f = torch
    for part in name.split("."):
        f = getattr(f, part)
    return f


# The library's names for ops whose torch call differs.
CALLS = {
    "div_floor": lambda a, b: torch.div(a, b, rounding_mode="floor"),
    "div_trunc": lambda a, b: torch.div(a, b, rounding_mode="trunc"),
    "cumsum": lambda a, **k: torch.cumsum(a, 0, **k),
    "cumprod": lambda a, **k: torch.cumprod(a, 0, **k),
    "logsumexp": lambda a: torch.logsumexp(a, 0),
}

UNARY = """neg abs sqrt sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh exp exp2
expm1 log log2 log10 log1p rsqrt reciprocal sigmoid sinc erf erfc erfinv lgamma digamma i0 logit
deg2rad rad2deg angle special.entr special.erfcx special.i0e special.i1 special.i1e special.ndtr
special.ndtri special.log_ndtr special.bessel_j0 special.bessel_j1 special.spherical_bessel_j0
nn.functional.tanhshrink nn.functional.softsign ceil floor trunc round frac sign sgn bitwise_not
nan_to_num positive conj_physical square real imag nn.functional.relu nn.functional.hardtanh
nn.functional.relu6 nn.functional.gelu nn.functional.elu nn.functional.celu nn.functional.selu
nn.functional.mish nn.functional.softplus nn.functional.leaky_relu nn.functional.hardsigmoid
nn.functional.hardswish nn.functional.logsigmoid nn.functional.silu isfinite isinf isnan isreal
isposinf isneginf signbit logical_not""".split()
REDUCTIONS = """sum prod mean cumsum nansum nanmean amax amin argmax argmin any all var std
logsumexp count_nonzero cumprod""".split()
TAKES_DTYPE = "sum prod mean cumsum nansum nanmean cumprod".split()
BINARY = """add sub mul div div_floor div_trunc floor_divide remainder pow maximum minimum atan2
eq ne lt le gt ge logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor dot fmod
hypot copysign nextafter fmax fmin heaviside igamma igammac xlogy special.xlog1py special.zeta
logaddexp logaddexp2 ldexp float_power gcd lcm bitwise_left_shift bitwise_right_shift rsub
clamp_min clamp_max vdot""".split()
TERNARY = "where lerp addcmul addcdiv clamp".split()


def tensor(operand):
    dtype, ndim = operand
    return torch.ones((2,) * ndim, dtype=getattr(torch, dtype))


def answer(name, operands, dtype=None):
    f = CALLS.get(name) or call(name)
    args = [tensor(o) if isinstance(o, tuple) else o for o in operands]
    kwargs = {"dtype": getattr(torch, dtype)} if dtype else {}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = f(*args, **kwargs)
        return str(result.dtype).replace("torch.", "")
    except Exception as e:  # noqa: BLE001 -- every refusal is an answer
        if MISSING_KERNEL.search(str(e)):
            return "no kernel"
        return f"refused: {type(e).__name__}: {' '.join(str(e).split())[:72]}"


def operands_of(dtypes):
    return [(d, 1) for d in dtypes] + [(d, 0) for d in dtypes]


def cases():
    for name in UNARY + REDUCTIONS:
        for operand in operands_of(ALL_DTYPES) + SCALARS[:2]:
            yield name, [operand], None
    for name in TAKES_DTYPE:
        for operand, dtype in itertools.product([(d, 1) for d in COMMON], COMMON):
            yield name, [operand], dtype
    pool = operands_of(COMMON)
    for name in BINARY:
        for a, b in itertools.product(pool + SCALARS, repeat=2):
            if isinstance(a, tuple) or isinstance(b, tuple) or (a, b) == (2, 2.5):
                yield name, [a, b], None
    conditions = [("bool", 1), ("bool", 0), ("uint8", 1), ("int8", 1)]
    values = operands_of(FEW) + [2, 2.5, True, 1j]
    for name in TERNARY:
        firsts = conditions if name == "where" else operands_of(COMMON)
        for a, b, c in itertools.product(firsts, values, values):
            yield name, [a, b, c], None


def lines():
    for name, operands, dtype in cases():
        words = ["op", name] + [spell(o) for o in operands]
        if dtype:
            words.append(f"--dtype={dtype}")
        yield " ".join(words) + "\t" + answer(name, operands, dtype)


def main(argv):
    torch.set_default_dtype(torch.float32)
    return write_or_check(argv, "\n".join(lines()) + "\n", ["torch"], "CPU")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
