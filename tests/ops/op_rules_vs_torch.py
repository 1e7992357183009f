#!/usr/bin/env python3
"""`promote op` against tests/ops/cases.tsv, PyTorch 2.15's answers for every
op of op_list.h (tests/ops/generate_cases.py writes them): the library must
return torch's dtype wherever torch returns one and refuse wherever torch
refuses by a rule, but for KNOWN_DISAGREEMENTS; where torch lacks a kernel
for a limited-support dtype the library may compute.

  tests/ops/op_rules_vs_torch.py PROMOTE CASES [--show=N]
"""

import collections
import re
import sys

from batch_cases import answers, parse_args, report

# Refusals of torch's that the rules do not make yet, each (op, torch's
# kernel, dtype) with its reason (docs/ops.md, "Where the rules compute and
# PyTorch refuses"). A listed case is accepted either way; an entry that no
# longer matches a disagreement fails the test, so that a fix shows.
KNOWN_DISAGREEMENTS = {
    # dtype=bool: no bool kernel.
    ("cumsum", "cumsum_out_cpu", "Bool"): "dtype=bool",
    ("cumprod", "cumprod_out_cpu", "Bool"): "dtype=bool",
    # A bool tensor with a Python-number bound (two bool tensors compute).
    ("clamp_min", "clamp_min_scalar_cpu", "Bool"): "bool operands, number bound",
    ("clamp_max", "clamp_max_scalar_cpu", "Bool"): "bool operands, number bound",
    # A bool exponent tensor: the rule converts it as a Python float first.
    ("ldexp", "ldexp_cpu_exp", "Bool"): "a bool exponent",
    # OpInfo lists complex nansum on CUDA only: a CPU gap of torch's.
    ("nansum", "nansum_cpu", "ComplexFloat"): "complex on the CPU",
    ("nansum", "nansum_cpu", "ComplexDouble"): "complex on the CPU",
}
MISSING = re.compile(r"\"(\w+)\" not implemented for '(\w+)'")


def known(words, torch_answer):
    found = MISSING.search(torch_answer)
    key = (words.split()[1], *found.groups()) if found else None
    return key if key in KNOWN_DISAGREEMENTS else None


def main():
    args = parse_args()
    inputs, expected, out = answers(args.promote, args.cases)
    counts = collections.Counter()
    wrong = []
    listed = set()
    for words, torch_answer, ours in zip(inputs, expected, out):
        if torch_answer == "no kernel":
            counts["no kernel (either answer)"] += 1
        elif torch_answer.startswith("refused"):
            ok = ours.startswith("error: ")
            if not ok and known(words, torch_answer):
                listed.add(known(words, torch_answer))
                counts["computed where torch refuses, listed"] += 1
                continue
            counts["refused by both" if ok else "computed where torch refuses"] += 1
            if not ok:
                wrong.append((words, torch_answer, ours))
        else:
            ok = ours == torch_answer
            counts["same dtype" if ok else "other dtype or refused"] += 1
            if not ok:
                wrong.append((words, torch_answer, ours))
    report(inputs, counts, wrong, args.show, 1, "torch")
    for entry in sorted(set(KNOWN_DISAGREEMENTS) - listed):
        print(f"stale KNOWN_DISAGREEMENTS entry (the rules now refuse it): {entry}")
        wrong.append(entry)
    print(f"{len(inputs) - len(wrong)} passed, {len(wrong)} failed")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
