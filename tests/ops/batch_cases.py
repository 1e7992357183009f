"""What the op case checkers share (op_rules_vs_torch.py,
op_rules_vs_framework.py): their command line, and a case file's inputs
run through `promote --batch`."""

import argparse
import subprocess
import sys


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("promote")
    parser.add_argument("cases")
    parser.add_argument("--show", type=int, default=20)
    return parser.parse_args()


def answers(promote, cases):
    """(inputs, the oracle's answers, the library's answers), line by line."""
    inputs, expected = [], []
    with open(cases) as f:
        for line in f:
            words, answer = line.rstrip("\n").split("\t")
            inputs.append(words)
            expected.append(answer)
    out = subprocess.run([promote, "--batch"], input="\n".join(inputs) + "\n",
                         capture_output=True, text=True, check=True).stdout.splitlines()
    if len(out) != len(inputs):
        sys.exit(f"{len(inputs)} cases, {len(out)} answers")
    return inputs, expected, out
