"""What the oracle case generators share: the command line (write the cases
to stdout, or with `--check FILE` compare FILE with them; tools/test.sh does,
so that a new oracle version that answers differently is noticed), and how
the promotion cases spell their operands.

An operand is a (dtype name, ndim) tuple for an array, or a Python scalar.
The CLI spells an array "int8" (ndim 1) or "int8[]" (0-d), and a scalar as
Python's repr."""

import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import python_lock  # noqa: E402

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


def oracle_versions(packages):
    """"ml_dtypes 0.6.0, numpy 2.4.6": the installed versions of the
    distributions the cases come from."""
    return ", ".join(f"{name} {python_lock.installed(name)}" for name in packages)


def write_or_check(argv, text, packages, detail=""):
    """packages names the distributions the cases come from (their versions
    are reported, and checked against the lock); detail is said beside them."""
    oracle = oracle_versions(packages) + (f" ({detail})" if detail else "")
    if len(argv) == 3 and argv[1] == "--check":
        with open(argv[2]) as f:
            if f.read() != text:
                pins = python_lock.locked()
                unlocked = [f"{name} {pins.get(python_lock.canonical(name), 'unlocked')}"
                            for name in packages
                            if python_lock.installed(name) != pins.get(python_lock.canonical(name))]
                why = (f"; the lock expects {', '.join(unlocked)}: run tools/install_deps.sh"
                       if unlocked else "; regenerate it (the oracles are the locked ones)")
                print(f"{argv[2]} differs from {oracle}{why}")
                return 1
        print(f"{argv[2]} matches {oracle} ({text.count(chr(10))} cases)")
        return 0
    sys.stdout.write(text)
    return 0
