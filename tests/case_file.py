"""The command line the oracle case generators share: write the cases to
stdout, or with `--check FILE` compare FILE with them (tools/test.sh does, so
that a new oracle version that answers differently is noticed)."""

import sys


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
