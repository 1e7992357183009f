"""What the oracle case generators share: the command line (write the cases
to stdout, or with `--check FILE` compare FILE with them; tools/test.sh does,
so that a new oracle version that answers differently is noticed), and how
the promotion cases spell their operands.

An operand is a (dtype name, ndim) tuple for an array, or a Python scalar.
The CLI spells an array "int8" (ndim 1) or "int8[]" (0-d), and a scalar as
Python's repr."""

import math
import sys

# Python scalars at the edges of every integer range, and one of each other
# kind: the cases' Python operands.
SCALARS = [True, False, 0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768,
           -32769, 65535, 65536, 2**31 - 1, 2**31, -2**31 - 1, 2**32 - 1, 2**32,
           2**63 - 1, 2**63, -2**63, -2**63 - 1, 2**64 - 1, 2**64, 1.5, -0.0,
           1e300, math.inf, math.nan, 2j, complex(1, -2)]


def spell(x):
    if isinstance(x, tuple):  # (dtype, ndim)
        return x[0] + ("[]" if x[1] == 0 else "")
    return repr(x)


def line(operands, answer):
    """One case: the CLI's words for the operands, a tab, the answer."""
    return " ".join(spell(x) for x in operands) + "\t" + answer


def write_or_check(argv, text, oracle):
    """oracle names the library and version the cases come from."""
    if len(argv) == 3 and argv[1] == "--check":
        with open(argv[2]) as f:
            if f.read() != text:
                print(f"{argv[2]} differs from {oracle}; regenerate it")
                return 1
        print(f"{argv[2]} matches {oracle} ({text.count(chr(10))} cases)")
        return 0
    sys.stdout.write(text)
    return 0
