"""What the op case checkers share (op_rules_vs_torch.py,
op_rules_vs_framework.py): their command line, a case file's inputs run
through `promote --batch`, and the report of what agreed."""

import argparse
import collections
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


def report(inputs, counts, wrong, show, name_at, oracle):
    """Prints the counts and the disagreements (words, oracle's answer,
    ours), grouped by the op name, the word at `name_at` of each input."""
    names = {words.split()[name_at] for words in inputs}
    print(f"{len(inputs)} cases over {len(names)} ops:")
    for what, n in sorted(counts.items()):
        print(f"  {n:6d} {what}")
    by_name = collections.Counter(words.split()[name_at] for words, _, _ in wrong)
    if wrong:
        print("disagreements by op:", ", ".join(f"{name} {n}" for name, n in by_name.most_common()))
    for words, theirs, ours in wrong[:show]:
        print(f"  {words}\n    {oracle}: {theirs}\n    ours: {ours}")
