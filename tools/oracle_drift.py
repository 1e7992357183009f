#!/usr/bin/env python3
"""What the newest release of each oracle would change in the case files.

Builds a throwaway virtual environment over this machine's packages, upgrades
the oracles there to PyPI's newest releases, regenerates every case file with
them and prints, per case file, the versions it was written with and would be
written with, how many cases changed and a few of them. It changes nothing in
the tree: moving a pin in third_party/python/requirements.txt is a decision
taken with this diff in hand (docs/casts.md records the last one).

  tools/oracle_drift.py [--examples=N] [--keep=DIR]

Not part of the test command: it needs the newest releases, which the lock
exists to keep out of the tests."""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import python_lock  # noqa: E402

# Each case file, the generator that writes it and the distributions whose
# answers it holds. torch's is regenerated with the installed torch unless
# --torch is given: upgrading it is a download of gigabytes.
CASE_FILES = [
    ("tests/array_api/generate_cases.py", "tests/array_api/cases.tsv", ["array-api-strict"]),
    ("tests/numpy/generate_cases.py", "tests/numpy/cases.tsv", ["numpy"]),
    ("tests/jax/generate_cases.py", "tests/jax/cases.tsv", ["jax", "jaxlib", "ml_dtypes"]),
    ("tests/float8/generate_cases.py", "tests/float8/cases.tsv", ["ml_dtypes", "numpy"]),
    ("tests/literals/generate_cases.py", "tests/literals/cases.tsv", ["ml_dtypes", "numpy"]),
    ("tests/ops/generate_cases.py", "tests/ops/cases.tsv", ["torch"]),
    ("tests/numpy/generate_op_cases.py", "tests/numpy/op_cases.tsv", ["numpy"]),
    ("tests/array_api/generate_op_cases.py", "tests/array_api/op_cases.tsv",
     ["array-api-strict"]),
    ("tests/jax/generate_op_cases.py", "tests/jax/op_cases.tsv", ["jax", "jaxlib", "ml_dtypes"]),
    ("tests/mlx/generate_cases.py", "tests/mlx/cases.tsv", ["mlx", "mlx-cpu"]),
    ("tests/mlx/generate_op_cases.py", "tests/mlx/op_cases.tsv", ["mlx", "mlx-cpu"]),
]


def versions(python, packages):
    code = ("import importlib.metadata as m, json, sys\n"
            "print(json.dumps({p: m.version(p) for p in sys.argv[1:]}))")
    out = subprocess.run([python, "-c", code, *packages], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out)


def changed_cases(old, new):
    """(old line, new line) for each case that changed, and the count of cases
    only one side has. Generators write their inputs in a fixed order, so
    equal line counts compare line by line."""
    if len(old) == len(new):
        return [(a, b) for a, b in zip(old, new) if a != b], 0
    only_new = set(new)
    only_old = set(old)
    return [(a, None) for a in old if a not in only_new], len(only_new - only_old)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=5)
    parser.add_argument("--keep", help="write the regenerated case files into this folder")
    parser.add_argument("--torch", action="store_true", help="upgrade torch too")
    args = parser.parse_args()

    oracles = sorted({p for _, _, packages in CASE_FILES for p in packages
                      if p != "torch" or args.torch})
    with tempfile.TemporaryDirectory() as work:
        venv = Path(work) / "venv"
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                       check=True)
        python = str(venv / "bin" / "python")
        print(f"upgrading {', '.join(oracles)} to PyPI's newest releases", flush=True)
        subprocess.run([python, "-m", "pip", "install", "-q", "--upgrade", *oracles], check=True)
        newest = versions(python, oracles + ([] if args.torch else ["torch"]))
        pins = python_lock.locked()
        total = 0
        for generator, case_file, packages in CASE_FILES:
            locked = ", ".join(f"{p} {pins.get(python_lock.canonical(p))}" for p in packages)
            now = ", ".join(f"{p} {newest[p]}" for p in packages)
            text = subprocess.run([python, str(ROOT / generator)], check=True,
                                  capture_output=True, text=True).stdout
            if args.keep:
                target = Path(args.keep) / case_file
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text)
            old = (ROOT / case_file).read_text().splitlines()
            changed, added = changed_cases(old, text.splitlines())
            total += len(changed) + added
            print(f"\n{case_file}: written with {locked}; newest {now}: "
                  f"{len(changed)} of {len(old)} cases changed" +
                  (f", {added} new" if added else ""))
            for before, after in changed[:args.examples]:
                print(f"  - {before}\n  + {after if after is not None else '(gone)'}")
        print(f"\n{total} cases would change")


if __name__ == "__main__":
    main()
