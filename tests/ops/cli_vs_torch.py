#!/usr/bin/env python3
"""`promote op` against the installed PyTorch, on the CPU.

Every op of oneflow_promote/ops/op_list.h on every operand, pair of
operands and (for where) triple, drawn from each dtype of the library as a
1-d and a 0-d tensor plus Python scalars (the values PyTorch checks: 0, 1,
negative, 255, 2**40, 1e300, 0j, ...), under both default dtypes. The CLI
answers all of them in one `promote --batch` run; torch computes each on
tensors of ones, with Python scalars passed as PyTorch's C++ front end passes
them (Scalar overloads for pow and where, wrapped numbers elsewhere).

Each case is one of:
  agree        same result dtype, or both raise;
  no kernel    torch raises `"kernel" not implemented for 'T'` (a missing CPU
               kernel), T is a dtype of the library, and the library computes:
               docs/ops.md lists these;
  zero divisor torch's CPU kernel raises ZeroDivisionError on the values (a
               Python int 0, or one that wraps to 0), which the rules leave to
               the kernel (//tests:ops_vs_torch checks that the library's
               kernel raises it on the same values);
  disagree     anything else.

  tests/ops/cli_vs_torch.py [--promote=PATH] [--show=N]   the counts and the
                                      first N disagreements; exit 1 on any
  tests/ops/cli_vs_torch.py --markdown    the docs/ops.md section listing the
                                      no-kernel cases, by op and dtype

PATH defaults to bazel-bin/cli/promote (build it with
`bazel build --define=cuda=off //cli:promote`).
"""

import argparse
import collections
import ctypes
import itertools
import os
import re
import subprocess
import sys
import tempfile
import warnings

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# PyTorch's spelling of each op; the library's name first (op_list.h).
BINARY = {
    "add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div,
    "div_floor": lambda a, b: torch.div(a, b, rounding_mode="floor"),
    "div_trunc": lambda a, b: torch.div(a, b, rounding_mode="trunc"),
    "floor_divide": torch.floor_divide, "remainder": torch.remainder, "pow": torch.pow,
    "maximum": torch.maximum, "minimum": torch.minimum, "atan2": torch.atan2,
    "eq": torch.eq, "ne": torch.ne, "lt": torch.lt, "le": torch.le, "gt": torch.gt,
    "ge": torch.ge, "logical_and": torch.logical_and, "logical_or": torch.logical_or,
    "logical_xor": torch.logical_xor, "bitwise_and": torch.bitwise_and,
    "bitwise_or": torch.bitwise_or, "bitwise_xor": torch.bitwise_xor, "dot": torch.dot,
}
UNARY = {
    "sum": torch.sum, "prod": torch.prod, "mean": torch.mean,
    "cumsum": lambda a: torch.cumsum(a, 0), "neg": torch.neg, "abs": torch.abs,
    "sqrt": torch.sqrt,
}
OPS = list(BINARY) + ["where"] + list(UNARY)

# Python scalars as the CLI spells them, with their values (ops_vs_torch's pool).
SCALARS = [
    ("True", True), ("False", False), ("0", 0), ("1", 1), ("2", 2), ("-2", -2),
    ("255", 255), ("70000", 70000), (str(2**40), 2**40), ("-1.5", -1.5), ("1e+300", 1e300),
    ("-1e+39", -1e39), ("(1e+300+0j)", 1e300 + 0j), ("1.5", 1.5), ("0.0", 0.0), ("1.0", 1.0),
    ("2j", 2j), ("0j", 0j), ("(1+0j)", 1 + 0j),
]

# at::ScalarType names in PyTorch's messages, and the library's names for them.
TORCH_NAMES = {
    "Bool": "bool", "Byte": "uint8", "Char": "int8", "Short": "int16", "Int": "int32",
    "Long": "int64", "UInt16": "uint16", "UInt32": "uint32", "UInt64": "uint64",
    "Half": "float16", "BFloat16": "bfloat16", "Float": "float32", "Double": "float64",
    "ComplexHalf": "complex32", "ComplexFloat": "complex64", "ComplexDouble": "complex128",
}

# A missing CPU kernel: `"add_stub" not implemented for 'UInt16'`. Other
# "not implemented" texts ("maximum not implemented for complex tensors.")
# are rules.
MISSING_KERNEL = re.compile(r"\"\w+\" not implemented for '\w+'")


def library_dtypes(promote):
    """The library's dtypes, in its order: the header of `promote table`."""
    header = subprocess.run([promote, "table"], check=True, capture_output=True,
                            text=True).stdout.splitlines()[0]
    return [cell.strip() for cell in header.strip("|").split("|")[1:]]


def load_wrapper():
    """The ctypes function that marks a 0-d tensor as a wrapped number."""
    include = os.path.join(os.path.dirname(torch.__file__), "include")
    lib = os.path.join(os.path.dirname(torch.__file__), "lib")
    out = os.path.join(tempfile.gettempdir(),
                       f"oneflow_promote_wrapped_number_{torch.__version__}.so")
    source = os.path.join(HERE, "wrapped_number.cc")
    if not os.path.exists(out) or os.path.getmtime(out) < os.path.getmtime(source):
        subprocess.run(["g++", "-std=c++20", "-O1", "-shared", "-fPIC", "-w", "-I", include,
                        source, "-L", lib, "-lc10", f"-Wl,-rpath,{lib}", "-o", out + ".tmp"],
                       check=True)
        os.replace(out + ".tmp", out)
    fn = ctypes.CDLL(out).oneflow_promote_set_wrapped_number
    fn.argtypes = [ctypes.c_void_p]
    return fn


class Torch:
    """torch's answer for one case: ("ok", dtype name) or ("error", text)."""

    def __init__(self):
        self.set_wrapped = load_wrapper()

    def wrapped(self, value):
        dtype = {bool: torch.bool, int: torch.int64, float: torch.float64,
                 complex: torch.complex128}[type(value)]
        t = torch.tensor(value, dtype=dtype)
        if self.set_wrapped(t._cdata) != 0:
            raise RuntimeError("could not mark a wrapped number")
        return t

    def tensor(self, operand):
        dtype, ndim = operand
        return torch.ones((2,) * ndim, dtype=getattr(torch, dtype))

    def arg(self, operand, scalar_overload=False):
        if isinstance(operand, tuple):
            return self.tensor(operand)
        return operand[1] if scalar_overload else self.wrapped(operand[1])

    def answer(self, op, operands):
        """operands: (dtype, ndim) tuples for tensors, (text, value) lists for scalars."""
        is_tensor = [isinstance(o, tuple) for o in operands]
        try:
            if op == "pow":
                # pow(Tensor, Scalar) and pow(Scalar, Tensor), as Python picks them.
                a = self.arg(operands[0], scalar_overload=is_tensor[1])
                b = self.arg(operands[1], scalar_overload=is_tensor[0])
                result = torch.pow(a, b)
            elif op == "where":
                c = self.arg(operands[0])
                a = self.arg(operands[1], scalar_overload=is_tensor[0])
                b = self.arg(operands[2], scalar_overload=is_tensor[0])
                result = torch.where(c, a, b)
            elif op in BINARY:
                result = BINARY[op](self.arg(operands[0]), self.arg(operands[1]))
            else:
                result = UNARY[op](self.arg(operands[0]))
            return ("ok", str(result.dtype).replace("torch.", ""))
        except (RuntimeError, ValueError, TypeError, OverflowError) as e:
            return ("error", str(e).split("\n")[0])


def spell(operand):
    if isinstance(operand, tuple):
        return operand[0] + ("[]" if operand[1] == 0 else "")
    return operand[0]


def cases(dtypes):
    """(op, operands) for every op on the pool, for each default dtype."""
    pool = [(d, n) for d in dtypes for n in (1, 0)] + [list(s) for s in SCALARS]
    for op in OPS:
        arity = 3 if op == "where" else (2 if op in BINARY else 1)
        for operands in itertools.product(pool, repeat=arity):
            yield op, operands


def library_name(torch_name):
    """The library's name for an at::ScalarType name ("Float8_e4m3fn", "BComplex32")."""
    return TORCH_NAMES.get(torch_name, torch_name.lower())


def normalize(text):
    """A torch message in the library's dtype names."""
    text = text.replace("torch.", "")
    return re.sub(r"\b(" + "|".join(TORCH_NAMES) + r"|Float8_\w+|BComplex\d+)\b",
                  lambda m: library_name(m.group(1)), text)


def run(promote, torch_dtypes, lines):
    out = subprocess.run([promote, "--batch"], input="\n".join(lines) + "\n", check=True,
                         capture_output=True, text=True).stdout.splitlines()
    assert len(out) == len(lines), (len(out), len(lines))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--promote", default=os.path.join(ROOT, "bazel-bin/cli/promote"))
    parser.add_argument("--show", type=int, default=30)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    torch.set_num_threads(1)

    ours_dtypes = library_dtypes(args.promote)
    dtypes = [d for d in ours_dtypes if isinstance(getattr(torch, d, None), torch.dtype)]
    missing = [d for d in ours_dtypes if d not in dtypes]
    oracle = Torch()

    lines, keys, answers = [], [], []
    for default in ("float32", "float64"):
        torch.set_default_dtype(getattr(torch, default))
        for op, operands in cases(dtypes):
            lines.append(" ".join(["op", op, f"--default-dtype={default}"] +
                                  [spell(o) for o in operands]))
            keys.append((op, operands))
            answers.append(oracle.answer(op, operands))
    torch.set_default_dtype(torch.float32)
    ours = run(args.promote, dtypes, lines)

    counts = collections.Counter()
    texts = collections.Counter()
    disagreements = []
    no_kernel = collections.defaultdict(set)  # (op, torch's kernel) -> compute dtypes
    for line, key, (kind, torch_text), our in zip(lines, keys, answers, ours):
        our_error = our.startswith("error: ")
        if kind == "ok":
            verdict = "agree" if our == torch_text else "disagree"
        elif our_error:
            verdict = "agree"
            texts["same" if normalize(torch_text) == our[len("error: "):] else "different"] += 1
        elif torch_text == "ZeroDivisionError":
            verdict = "zero divisor"
        elif MISSING_KERNEL.search(torch_text):
            # A kernel missing for a dtype the library lacks (bfloat16 and
            # complex promote to bcomplex32 in torch) hides a promotion that
            # differs.
            kernel, dtype = re.search(r"\"(\w+)\" not implemented for '(\w+)'", torch_text).groups()
            dtype = library_name(dtype)
            verdict = "no kernel" if dtype in ours_dtypes else "disagree"
            if verdict == "no kernel":
                no_kernel[(key[0], kernel)].add(dtype)
        else:
            verdict = "disagree"
        counts[verdict] += 1
        if verdict == "disagree":
            disagreements.append(f"{line[3:]}: torch {kind} {torch_text!r}, ours {our!r}")

    if args.markdown:
        order = {d: i for i, d in enumerate(ours_dtypes)}
        print("| op | kernel PyTorch " + torch.__version__.split("+")[0] +
              " lacks | compute dtypes |")
        print("|---|---|---|")
        for (op, kernel), names in sorted(no_kernel.items(), key=lambda k: OPS.index(k[0][0])):
            names = sorted(names, key=lambda d: order.get(d, len(order)))
            print(f"| `{op}` | `{kernel}` | {', '.join(names)} |")
        return 0

    total = sum(counts.values())
    print(f"torch {torch.__version__} vs {os.path.relpath(args.promote, ROOT)}: {total} cases "
          f"({len(OPS)} ops; {len(dtypes)} dtypes as 1-d and 0-d tensors, "
          f"{len(SCALARS)} Python scalars; default float32 and float64)")
    if missing:
        print(f"  dtypes torch does not have, left out: {', '.join(missing)}")
    print(f"  agree: {counts['agree']} (both raise: {sum(texts.values())}, "
          f"same message: {texts['same']})")
    print(f"  torch has no CPU kernel, the library computes: {counts['no kernel']}")
    print(f"  zero divisors, refused by the kernel: {counts['zero divisor']}")
    print(f"  disagree: {counts['disagree']}")
    for d in disagreements[:args.show]:
        print("   ", d)
    return 1 if counts["disagree"] else 0


if __name__ == "__main__":
    sys.exit(main())
