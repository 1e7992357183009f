#!/usr/bin/env python3
"""Compares two builds of the cast benchmark pair by pair, in the same run.

    python3 bench/paired_ab.py A_BINARY B_BINARY --pairs int64/float32,int8/uint8 [--runs 6]

A and B are two builds of //bench:cast_overhead_benchmark (say, main and a
change; copy each out of bazel-bin before building the other). They run in
turns, A B B A A B B A ..., each turn timing the chosen pairs' paired/
benchmark (ours, libtorch and memcpy back to back). For every pair and thread
count it prints the median of each build's ratio to libtorch over the turns,
and B's over A's.

A performance rule is kept only when it pays beyond what the same code reads
against itself, so the report measures that too: A's turns are split into two
interleaved halves, and the ratio of their medians over every pair gives the
same-code band of this machine and harness. A B/A inside the band is a tie.
The band is only as good as the pairs it spans: ask for pairs the change
leaves alone too, as controls. Figures belong to the processor named in the
first line of the report.
"""

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile

from report import cpu_model

NAME = re.compile(r"paired/(\w+)/(\w+)/\d+/(\w+)/")


def run_turn(binary, name_filter, extra, out):
    """Runs one build's paired/ benchmarks; returns {(from, to, threads): ratio to libtorch}."""
    subprocess.run([binary, f"--benchmark_filter={name_filter}", f"--benchmark_out={out}",
                    "--benchmark_out_format=json", *extra],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    ratios = {}
    if os.path.getsize(out) == 0:  # the filter matched no benchmark
        return ratios
    with open(out) as f:
        for result in json.load(f)["benchmarks"]:
            match = NAME.match(result["name"])
            if match and "vs_libtorch" in result:
                ratios[(match[1], match[2], match[3])] = result["vs_libtorch"]
    return ratios


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help="the baseline build of cast_overhead_benchmark")
    parser.add_argument("b", help="the build to judge against it")
    parser.add_argument("--pairs", required=True,
                        help="comma-separated FROM/TO dtype names, e.g. int64/float32,float32/float16")
    parser.add_argument("--runs", type=int, default=6, help="turns of each build (even, at least 4; default 6)")
    parser.add_argument("--threads", choices=["1", "all", "both"], default="both")
    parser.epilog = "Flags after -- go to both binaries, e.g. -- --elements=4194304."
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    benchmark_flags = argv[split + 1:]
    if args.runs < 4 or args.runs % 2:
        parser.error("--runs must be even and at least 4: A's turns are split into two halves")
    for binary in (args.a, args.b):
        if not os.access(binary, os.X_OK):
            parser.error(f"{binary} is not an executable build of cast_overhead_benchmark")
    pairs = [p.strip() for p in args.pairs.split(",") if p.strip()]
    threads = {"1": "1_thread", "all": "all_threads", "both": "[0-9a-z_]+"}[args.threads]
    name_filter = "paired/(" + "|".join(re.escape(p) for p in pairs) + f")/[0-9]+/{threads}/"

    order = ("ABBA" * args.runs)[: 2 * args.runs]
    turns = {"A": [], "B": []}
    with tempfile.TemporaryDirectory() as scratch:
        for i, which in enumerate(order):
            binary = args.a if which == "A" else args.b
            ratios = run_turn(binary, name_filter, benchmark_flags, os.path.join(scratch, f"{i}.json"))
            if not ratios:
                sys.exit(f"no paired/ results for {pairs}: check the dtype names (e.g. int64/float32)")
            turns[which].append(ratios)
            print(f"turn {i + 1} of {len(order)} ({which}) done", file=sys.stderr, flush=True)

    keys = sorted(set().union(*turns["A"]) & set().union(*turns["B"]), key=lambda k: (k[2], k[0], k[1]))
    median = lambda runs, key: statistics.median(r[key] for r in runs if key in r)
    print(f"# {cpu_model()}, {os.cpu_count()} hardware threads; {args.runs} turns a build, order {order}")
    print(f"{'pair':<26} {'threads':<12} {'A':>6} {'B':>6} {'B/A':>6} {'A/A':>6}")
    band, judged = [], []
    for key in keys:
        a, b = median(turns["A"], key), median(turns["B"], key)
        same = median(turns["A"][0::2], key) / median(turns["A"][1::2], key)
        band.append(same)
        judged.append((key, b / a))
        print(f"{key[0] + ' -> ' + key[1]:<26} {key[2]:<12} {a:6.2f} {b:6.2f} {b / a:6.2f} {same:6.2f}")
    # Which half is divided by which is arbitrary, so the band is symmetric.
    high = max(max(r, 1 / r) for r in band)
    low = 1 / high
    print(f"same-code band (A's halves against each other): {low:.2f}-{high:.2f}x")
    for thread_count in sorted({key[2] for key in keys}):
        ratios = [(key, r) for key, r in judged if key[2] == thread_count]
        faster = [f"{k[0]}->{k[1]} {r:.2f}x" for k, r in ratios if r > high]
        slower = [f"{k[0]}->{k[1]} {r:.2f}x" for k, r in ratios if r < low]
        print(f"{thread_count}: B/A geometric mean {geomean([r for _, r in ratios]):.3f}x over {len(ratios)} pairs; "
              f"beyond the band faster: {', '.join(faster) or 'none'}; slower: {', '.join(slower) or 'none'}")


if __name__ == "__main__":
    main()
