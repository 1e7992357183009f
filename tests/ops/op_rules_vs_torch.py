#!/usr/bin/env python3
"""`promote op` against tests/ops/cases.tsv, PyTorch 2.15's answers for every
op of op_list.h (tests/ops/generate_cases.py writes them): the library must
return torch's dtype wherever torch returns one and refuse wherever torch
refuses by a rule; where torch lacks a CPU kernel the library may compute.

  tests/ops/op_rules_vs_torch.py PROMOTE CASES [--show=N]
"""

import argparse
import collections
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("promote")
    parser.add_argument("cases")
    parser.add_argument("--show", type=int, default=20)
    args = parser.parse_args()
    inputs, expected = [], []
    with open(args.cases) as f:
        for line in f:
            words, answer = line.rstrip("\n").split("\t")
            inputs.append(words)
            expected.append(answer)
    out = subprocess.run([args.promote, "--batch"], input="\n".join(inputs) + "\n",
                         capture_output=True, text=True, check=True).stdout.splitlines()
    if len(out) != len(inputs):
        sys.exit(f"{len(inputs)} cases, {len(out)} answers")
    counts = collections.Counter()
    wrong = []
    for words, torch_answer, ours in zip(inputs, expected, out):
        if torch_answer == "no kernel":
            counts["no kernel (either answer)"] += 1
        elif torch_answer.startswith("refused"):
            ok = ours.startswith("error: ")
            counts["refused by both" if ok else "computed where torch refuses"] += 1
            if not ok:
                wrong.append((words, torch_answer, ours))
        else:
            ok = ours == torch_answer
            counts["same dtype" if ok else "other dtype or refused"] += 1
            if not ok:
                wrong.append((words, torch_answer, ours))
    ops = {words.split()[1] for words in inputs}
    print(f"{len(inputs)} cases over {len(ops)} ops:")
    for what, n in sorted(counts.items()):
        print(f"  {n:6d} {what}")
    by_op = collections.Counter(words.split()[1] for words, _, _ in wrong)
    if wrong:
        print("disagreements by op:", ", ".join(f"{op} {n}" for op, n in by_op.most_common()))
    for words, torch_answer, ours in wrong[:args.show]:
        print(f"  {words}\n    torch: {torch_answer}\n    ours:  {ours}")
    print(f"{len(inputs) - len(wrong)} passed, {len(wrong)} failed")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
