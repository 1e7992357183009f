#!/usr/bin/env python3
"""`promote --policy=P op` against a framework's own answers: the case
files tests/numpy/op_cases.tsv, tests/jax/op_cases.tsv,
tests/array_api/op_cases.tsv and tests/mlx/op_cases.tsv (each directory's
generate_op_cases.py writes them from the locked framework). The library must return the framework's
dtype wherever it returns one and refuse wherever it raises, for every
function the op table declares for that framework; a function listed in
UNDECLARED must be refused as unknown throughout (an entry the library
answers fails, so that a new declaration shows).

  tests/ops/op_rules_vs_framework.py PROMOTE CASES [--show=N]
"""

import collections
import sys

from batch_cases import answers, parse_args, report

# The framework's functions the op table does not declare yet, by policy.
UNDECLARED = {"numpy": set(), "jax": set(), "jax_x32": set(), "jax_strict": set(),
              "array_api": set(),
              "mlx": {"softmax", "cummax", "cummin", "logcumsumexp", "median"}}


def main():
    args = parse_args()
    inputs, expected, out = answers(args.promote, args.cases)
    counts = collections.Counter()
    wrong = []
    answered_undeclared = set()
    for words, theirs, ours in zip(inputs, expected, out):
        policy, _, name = words.split()[:3]
        policy = policy.removeprefix("--policy=")
        if name in UNDECLARED[policy]:
            if "has no op" not in ours:
                answered_undeclared.add((policy, name))
            counts["undeclared"] += 1
            continue
        if theirs.startswith("refused"):
            ok = ours.startswith("error: ")
            counts["refused by both" if ok else "computed where the framework refuses"] += 1
        else:
            ok = ours == theirs
            counts["same dtype" if ok else "other dtype or refused"] += 1
        if not ok:
            wrong.append((words, theirs, ours))
    report(inputs, counts, wrong, args.show, 2, "framework")
    for entry in sorted(answered_undeclared):
        print(f"UNDECLARED lists {entry}, which the library now answers")
    failures = len(wrong) + len(answered_undeclared)
    print(f"{len(inputs) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
