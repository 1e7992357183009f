#!/usr/bin/env python3
"""Turns cast_overhead_benchmark's JSON into the generated parts of docs/benchmarks.md.

Two parts: a summary (the goals, the GPU figures, plots of throughput against
size) and the full tables (every cast pair and the other measures). Each replaces
the text between its own BEGIN/END markers and leaves the rest of the file, the
hand-written text, alone; a first run appends them.

RESULTS is Google Benchmark's JSON or the compact form that --compact writes
(one aggregate per benchmark, a few hundred KB instead of megabytes of
repetitions), which is what docs/data keeps:

  python3 bench/report.py RESULTS.json --markdown docs/benchmarks.md \
      --plots docs/plots [--compact docs/data/cast_overhead.json] \
      [--gpu-json gpu.json] [--gpu-binary-json gpu_binary.json]
"""

import argparse
import json
import os
import re
import statistics
import sys

SECTIONS = {
    "summary": ("<!-- BEGIN cast_overhead summary (written by bench/report.py; edit the script, not this) -->",
                "<!-- END cast_overhead summary -->"),
    "report": ("<!-- BEGIN cast_overhead report (written by bench/report.py; edit the script, not this) -->",
               "<!-- END cast_overhead report -->"),
}
THREADS = ("1_thread", "all_threads")
UNIT_SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def load(path, cpu=None):
    """The run's context and, per benchmark, the fastest of its repetitions.

    Other tenants of a shared machine only ever slow a repetition down (memory-bound
    casts by up to half), so the fastest repetition is the least disturbed one.
    A compact file (--compact) holds exactly this and is returned as it is.
    """
    with open(path) as f:
        data = json.load(f)
    if "runs" in data:
        return data["context"], data["runs"]
    repetitions = {}
    for b in data["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration":
            continue
        name = re.sub(r"(/iterations:\d+)?(/real_time)?$", "", b["name"])
        repetitions.setdefault(name, []).append(b)
    runs = {}
    for name, reps in repetitions.items():
        seconds = min(b["real_time"] * UNIT_SECONDS[b["time_unit"]] for b in reps)
        bytes_per_second = None
        if reps[0].get("bytes_per_second"):
            bytes_per_second = max(b["bytes_per_second"] for b in reps)
        runs[name] = {"seconds": seconds, "bytes_per_second": bytes_per_second,
                      "repetitions": len(reps)}
        # paired/ runs measure their ratios inside (BM_CastPaired): the
        # median over repetitions of each counter.
        for counter in ("vs_libtorch", "vs_memcpy"):
            if counter in reps[0]:
                runs[name][counter] = statistics.median(b[counter] for b in reps)
    # Google Benchmark does not name the processor; the report is made on the
    # machine that ran the benchmark (bench/cast_overhead.sh) unless --cpu says otherwise.
    context = {"cpu": cpu or cpu_model()}
    context.update({k: data["context"][k] for k in ("date", "host_name", "num_cpus") if k in data["context"]})
    return context, runs


def write_compact(path, context, runs):
    """Writes what the report reads, one benchmark a line, so that re-rendering needs no raw file."""
    lines = [f" {json.dumps(name)}: {json.dumps(runs[name], sort_keys=True)}" for name in sorted(runs)]
    with open(path, "w") as f:
        f.write('{"context": ' + json.dumps(context, sort_keys=True) + ',\n"runs": {\n'
                + ",\n".join(lines) + "\n}}\n")


def cpu_model():
    """This machine's processor: its model name, family and model (the name alone can be a bare family name)."""
    fields = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                fields.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    name = fields.get("model name", "unknown CPU")
    if "cpu family" in fields and "model" in fields:
        name += f" (family {fields['cpu family']}, model {fields['model']})"
    return name


def ratio(runs, ours, baseline):
    if ours not in runs or baseline not in runs:
        return None
    return runs[baseline]["seconds"] / runs[ours]["seconds"]


def fmt_ratio(r, goal):
    if r is None:
        return "not measured"
    return f"{r:.2f}x {'met' if r >= goal else '**missed**'}"


def paired_tables(runs, n):
    """Per thread mode: {(from, to): (vs libtorch, vs memcpy)} from the paired/ runs."""
    pattern = re.compile(rf"^paired/(\w+)/(\w+)/{n}/(\w+)$")
    result = {t: {} for t in THREADS}
    for name, run in runs.items():
        m = pattern.match(name)
        if m:
            result[m.group(3)][(m.group(1), m.group(2))] = (run.get("vs_libtorch"), run.get("vs_memcpy"))
    return result


def cast_tables(runs, n):
    """Per thread mode: {(from, to): (ours GB/s, vs libtorch, vs memcpy)}."""
    pattern = re.compile(rf"^cast/ours/(\w+)/(\w+)/{n}/(\w+)$")
    result = {t: {} for t in THREADS}
    for name in runs:
        m = pattern.match(name)
        if not m:
            continue
        src, dst, threads = m.groups()
        suffix = f"{src}/{dst}/{n}/{threads}"
        memcpy = [k for k in runs if re.match(rf"^memcpy/\d+/{n}/{threads}$", k)]
        ours = runs[name]
        bytes_per_element = ours["bytes_per_second"] * ours["seconds"] / n if ours["bytes_per_second"] else None
        copy_name = f"memcpy/{round(bytes_per_element)}/{n}/{threads}" if bytes_per_element else None
        result[threads][(src, dst)] = (
            (ours["bytes_per_second"] or 0) / 1e9,
            ratio(runs, name, f"cast/libtorch/{suffix}"),
            ratio(runs, name, copy_name) if copy_name in runs else None,
        )
    return result


ITEM_BYTES = {"bool": 1, "uint8": 1, "int8": 1, "int16": 2, "int32": 4, "int64": 8,
              "uint16": 2, "uint32": 4, "uint64": 8, "float16": 2, "bfloat16": 2, "float32": 4,
              "float64": 8, "complex32": 4, "bcomplex32": 4, "complex64": 8, "complex128": 16,
              "float8_e4m3fn": 1, "float8_e5m2": 1, "float8_e4m3fnuz": 1, "float8_e5m2fnuz": 1,
              "float8_e8m0fnu": 1}


def narrowing_reference(runs, src, dst, threads):
    """The readwrite/ run of a pair's read:write ratio, if it narrows and one was measured."""
    f, t = ITEM_BYTES[src], ITEM_BYTES[dst]
    if f <= t:
        return None
    return next((v for k, v in runs.items() if re.match(rf"^readwrite/{f // t}/\d+/{threads}$", k)), None)


def read_bound_cell(runs, tables, n, threads):
    """How many pairs cannot reach 0.9x memcpy even if reading were all they did.

    A cast reading f and writing t bytes per element moves at most
    read bandwidth * (f + t) / f; memcpy of the same bytes reads half of them.
    """
    read = [v for k, v in runs.items() if re.match(rf"^memread/\d+/{threads}$", k)]
    if not read:
        return "not measured"
    read_bw = read[0]["bytes_per_second"]
    bounded = 0
    for (src, dst) in tables[threads]:
        f, t = ITEM_BYTES[src], ITEM_BYTES[dst]
        copy = runs.get(f"memcpy/{f + t}/{n}/{threads}")
        if copy and read_bw * (f + t) / f < 0.9 * copy["bytes_per_second"]:
            bounded += 1
    return f"{bounded} of {len(tables[threads])} (reading alone: {read_bw / 1e9:.1f} GB/s)"


def reference_cell(runs, tables, threads):
    """Narrowing pairs' throughput as a fraction of their ratio's readwrite/ reference."""
    fractions = []
    for (src, dst), (gbs, _, _) in tables[threads].items():
        reference = narrowing_reference(runs, src, dst, threads)
        if reference and reference["bytes_per_second"]:
            fractions.append((gbs * 1e9 / reference["bytes_per_second"], f"{src} → {dst}"))
    if not fractions:
        return "not measured"
    references = ", ".join(
        f"{r}:1 {v['bytes_per_second'] / 1e9:.1f}"
        for r, v in sorted((int(k.split("/")[1]), v) for k, v in runs.items()
                           if re.match(rf"^readwrite/\d+/\d+/{threads}$", k)))
    worst = min(fractions)
    return (f"median {statistics.median(f for f, _ in fractions):.2f}, worst {worst[0]:.2f} ({worst[1]}) "
            f"of {len(fractions)} (references, GB/s: {references})")


def summarize(values, goal, labels=None):
    """How many of values (None: not measured) meet goal, their median and the worst, named if labelled."""
    labelled = [(v, label) for v, label in zip(values, labels or [None] * len(values)) if v is not None]
    if not labelled:
        return "not measured"
    met = sum(v >= goal for v, _ in labelled)
    worst, worst_label = min(labelled, key=lambda item: item[0])
    return (f"**{met} of {len(labelled)}** met; median {statistics.median(v for v, _ in labelled):.2f}x, "
            f"worst {worst:.2f}x{f' ({worst_label})' if worst_label else ''}")


def plot(runs, plots_dir, markdown_dir):
    """Throughput against size for each swept pair and the add; returns image links."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(plots_dir, exist_ok=True)
    links = []
    pairs = sorted({tuple(k.split("/")[2:4]) for k in runs
                    if k.startswith("cast/ours/") and len(sizes_of(runs, "cast/ours/" + "/".join(k.split("/")[2:4]))) > 1})
    for src, dst in pairs:
        fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
        for ax, threads in zip(axes, THREADS):
            for label, prefix in (("oneflow_promote", f"cast/ours/{src}/{dst}"),
                                  ("libtorch copy_", f"cast/libtorch/{src}/{dst}")):
                series = [(n, runs[f"{prefix}/{n}/{threads}"]["bytes_per_second"] / 1e9)
                          for n in sizes_of(runs, prefix) if f"{prefix}/{n}/{threads}" in runs]
                if series:
                    ax.plot(*zip(*series), marker="o", label=label)
            item_bytes = None
            for n in sizes_of(runs, f"cast/ours/{src}/{dst}"):
                r = runs.get(f"cast/ours/{src}/{dst}/{n}/{threads}")
                if r and r["bytes_per_second"]:
                    item_bytes = round(r["bytes_per_second"] * r["seconds"] / n)
                    break
            series = [(n, runs[f"memcpy/{item_bytes}/{n}/{threads}"]["bytes_per_second"] / 1e9)
                      for n in sizes_of(runs, f"cast/ours/{src}/{dst}")
                      if f"memcpy/{item_bytes}/{n}/{threads}" in runs]
            if series:
                ax.plot(*zip(*series), marker="o", linestyle="--", label="memcpy (same bytes)")
            style_axes(ax, f"{src} -> {dst}, {threads.replace('_', ' ')}")
        links.append(save(fig, axes, os.path.join(plots_dir, f"cast_{src}_{dst}.png"),
                          f"{src} -> {dst}", markdown_dir))

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    for ax, threads in zip(axes, THREADS):
        for way in ("fused", "materialized", "no_cast", "libtorch"):
            prefix = f"add_int8_float32/{way}"
            series = [(n, runs[f"{prefix}/{n}/{threads}"]["bytes_per_second"] / 1e9)
                      for n in sizes_of(runs, prefix) if f"{prefix}/{n}/{threads}" in runs]
            if series:
                ax.plot(*zip(*series), marker="o", label=way.replace("_", " "))
        style_axes(ax, f"add(int8, float32), {threads.replace('_', ' ')}")
    links.append(save(fig, axes, os.path.join(plots_dir, "add_int8_float32.png"),
                      "add(int8, float32)", markdown_dir))
    return links


def style_axes(ax, title):
    ax.set_xscale("log", base=2)
    ax.set_title(title)
    ax.set_xlabel("elements")
    ax.grid(True, alpha=0.3)


def save(fig, axes, path, title, markdown_dir):
    """Labels and writes a figure; returns its (title, link) for the report."""
    import matplotlib.pyplot as plt
    axes[0].set_ylabel("GB/s (read + written)")
    axes[1].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return title, os.path.relpath(path, markdown_dir)


def sizes_of(runs, prefix):
    sizes = set()
    for k in runs:
        if k.startswith(prefix + "/"):
            rest = k[len(prefix) + 1:].split("/")
            if rest and rest[0].isdigit():
                sizes.add(int(rest[0]))
    return sorted(sizes)


def gpu_summary_lines(gpu_json, gpu_binary_json):
    """The GPU goals and the fused add against torch.add, from the GPU scripts' JSON."""
    lines = ["### GPU", ""]
    rows = []
    if not gpu_json:
        lines.append("GPU casts are unmeasured in this report. Run `bench/gpu_cast_vs_torch.py --json` on a "
                     "GPU machine and pass the file as `GPU_JSON=...` to include them.")
    else:
        with open(gpu_json) as f:
            gpu = json.load(f)
        pairs = [f"{r['src']} → {r['dst']}" for r in gpu["rows"]]
        d2d = [r["ours"] / r["d2d"] for r in gpu["rows"]]
        to = [r["ours"] / r["torch_to"] for r in gpu["rows"]]
        lines.append(f"- Casts: {gpu['device']}, PyTorch {gpu['torch']}, {gpu['elements']:,} elements a cast, "
                     f"every pair of the 13 dtypes, by `bench/gpu_cast_vs_torch.py` (`{os.path.basename(gpu_json)}`).")
        rows += [f"| every cast pair ≥ 90% of device-to-device copy bandwidth | {summarize(d2d, 0.9, pairs)} |",
                 f"| every cast pair faster than PyTorch's `.to()` | "
                 f"{summarize([t - 1e-12 for t in to], 1.0 + 1e-12, pairs)} |"]
    if not gpu_binary_json:
        lines += ["", "GPU binary ops are **unmeasured**: no GPU run of `bench/gpu_binary_vs_torch.py` has been "
                  "recorded. Run it with `--json` on a GPU machine and pass the file as "
                  "`GPU_BINARY_JSON=...` to include it. Its C ABI is checked on the CPU in CI "
                  "(`//bench:gpu_binary_vs_torch_cpu_check`), and the CUDA kernels are checked for "
                  "correctness by `//tests:functional_cuda_test`."]
    else:
        with open(gpu_binary_json) as f:
            binary = json.load(f)
        mixed = [r for r in binary["rows"] if not r["a"] == r["b"] == r["out"]]
        same = [r for r in binary["rows"] if r["a"] == r["b"] == r["out"]]
        ratios = [r["ours"] / r["torch_add"] for r in mixed]
        worst = min(mixed, key=lambda r: r["ours"] / r["torch_add"])
        lines.append(f"- Binary ops (`add`, out=): {binary['device']}, PyTorch {binary['torch']}, "
                     f"{binary['elements']:,} elements, by `bench/gpu_binary_vs_torch.py` "
                     f"(`{os.path.basename(gpu_binary_json)}`).")
        rows.append(f"| mixed-dtype `add(a, b, out=)`, casts fused ({len(mixed)} pairs), against `torch.add` | "
                    f"median {statistics.median(ratios):.2f}x, worst {min(ratios):.2f}x "
                    f"({worst['a']} + {worst['b']}) |")
        rows += [f"| `add({r['a']}, {r['b']}, out=)`, no cast, against `torch.add` | "
                 f"{r['ours'] / r['torch_add']:.2f}x |" for r in same]
    if rows:
        lines += ["", "| goal | result |", "|---|---|"] + rows
    return lines


def gpu_binary_table(gpu_binary_json):
    with open(gpu_binary_json) as f:
        binary = json.load(f)
    lines = [
        f"### GPU binary ops ({binary['device']})", "",
        f"`add(a, b, out=c)`: {binary['device']}, PyTorch {binary['torch']}, {binary['elements']:,} elements, "
        f"measured by `bench/gpu_binary_vs_torch.py` (`{os.path.basename(gpu_binary_json)}`). "
        "Throughput counts a, b and the result.",
        "",
        "| a | b | result | ours GB/s | ours, casts materialized, GB/s | torch `add` GB/s | d2d GB/s "
        "| ours / torch | ours / d2d |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in binary["rows"]:
        materialized = f"{r['ours_materialized']:.0f}" if "ours_materialized" in r else "-"
        lines.append(f"| {r['a']} | {r['b']} | {r['out']} | {r['ours']:.0f} | {materialized} | "
                     f"{r['torch_add']:.0f} | {r['d2d']:.0f} | {r['ours'] / r['torch_add']:.2f}x | "
                     f"{r['ours'] / r['d2d']:.2f}x |")
    return lines


def goal_size(runs):
    """The size at which the most pairs were cast (the others are sweep sizes)."""
    pair_counts = {}
    for k in runs:
        m = re.match(r"^cast/ours/\w+/\w+/(\d+)/1_thread$", k)
        if m:
            pair_counts[int(m.group(1))] = pair_counts.get(int(m.group(1)), 0) + 1
    return max(pair_counts, key=pair_counts.get) if pair_counts else 0


def build_summary(context, runs, plots_dir, markdown_dir, gpu_json, gpu_binary_json):
    begin, end = SECTIONS["summary"]
    goal_n = goal_size(runs)
    paired = paired_tables(runs, goal_n)
    paired_rounds = max((r["repetitions"] for k, r in runs.items() if k.startswith("paired/")), default=0)
    repetitions = max((r["repetitions"] for r in runs.values()), default=1)
    cpu = f"{context.get('cpu', 'unknown CPU')}, {context.get('num_cpus', '?')} hardware threads"

    def ns(name):
        return f"{runs[name]['seconds'] * 1e9:.1f} ns" if name in runs else "not measured"

    lines = [begin, "", "## Results", "",
             f"### CPU: {cpu}, measured {context.get('date', '?')[:10]}", "",
             f"Cast pairs at {goal_n:,} elements; ratios are time(baseline) / time(ours). A pair's ratio is "
             f"the median over {paired_rounds} repetitions of ours, libtorch's `copy_` and a memcpy timed back "
             f"to back (`paired/`). The other rows are the fastest of {repetitions} repetitions.", "",
             f"| goal | 1 thread | all threads ({context.get('num_cpus', '?')}) |", "|---|---|---|"]
    for goal, index, name in ((1.0, 0, "libtorch `copy_`"), (0.9, 1, "memcpy of the same bytes")):
        cells = []
        for t in THREADS:
            pairs = sorted(paired[t])
            cells.append(summarize([paired[t][p][index] for p in pairs], goal, [f"{a} → {b}" for a, b in pairs]))
        lines.append(f"| every cast pair ≥ {goal}x {name}, timed in pairs (median of {paired_rounds} "
                     f"repetitions' medians) | {cells[0]} | {cells[1]} |")
    for goal, baseline in ((1.5, "materialized"), (1.3, "libtorch")):
        cells = [fmt_ratio(ratio(runs, f"add_int8_float32/fused/{goal_n}/{t}",
                                 f"add_int8_float32/{baseline}/{goal_n}/{t}"), goal) for t in THREADS]
        lines.append(f"| fused add(int8, float32) ≥ {goal}x {baseline} | {cells[0]} | {cells[1]} |")
    for count in (2, 3):
        r = ratio(runs, f"decide/ResultType/ours/{count}", f"decide/ResultType/libtorch/{count}")
        lines.append(f"| `ResultType`, {count} operands, ≥ 20x libtorch `result_type` "
                     f"({ns(f'decide/ResultType/ours/{count}')} vs {ns(f'decide/ResultType/libtorch/{count}')}) "
                     f"| {fmt_ratio(r, 20)} | - |")
        r = ratio(runs, f"decide/ResultType/ours/{count}", "decide/PromoteTypes")
        lines.append(f"| `ResultType`, {count} operands, ≤ 2x `PromoteTypes` "
                     f"({ns(f'decide/ResultType/ours/{count}')} vs {ns('decide/PromoteTypes')}) "
                     f"| {fmt_ratio(r, 0.5)} | - |")
    build_ns = runs.get("decide/TensorProcessor_build_and_Apply_no_cast", {}).get("seconds")
    lines.append(
        f"| `TensorProcessor` built, applied (no cast, 2 inputs as a span) and destroyed ≤ 30 ns | "
        f"{ns('decide/TensorProcessor_build_and_Apply_no_cast')} "
        f"{'met' if build_ns is not None and build_ns <= 30e-9 else '**missed**'} "
        f"(`Apply` alone {ns('decide/TensorProcessor_Apply_no_cast')}; inputs as a braced list "
        f"{ns('decide/TensorProcessor_build_and_Apply_no_cast_braced')}) | - |")
    lines += [""] + gpu_summary_lines(gpu_json, gpu_binary_json)

    links = plot(runs, plots_dir, markdown_dir)
    lines += ["", "### Throughput against size", "",
              f"CPU: {cpu}; each point is the fastest of {repetitions} repetitions.", ""]
    for title, link in links:
        lines.append(f"![{title}]({link})")
        lines.append("")
    lines.append(end)
    return "\n".join(lines) + "\n"


def build_report(context, runs, gpu_binary_json):
    begin, end = SECTIONS["report"]
    cast_sizes = sizes_of(runs, "cast/ours/int8/float32") or [0]
    goal_n = goal_size(runs)
    tables = cast_tables(runs, goal_n)
    paired = paired_tables(runs, goal_n)
    repetitions = max((r["repetitions"] for r in runs.values()), default=1)
    num_cpus = context.get("num_cpus", "?")

    lines = [begin, "", "## Full tables", ""]
    lines.append(f"Measured {context.get('date', '?')} on {context.get('cpu', 'unknown CPU')}, "
                 f"{num_cpus} hardware threads (host {context.get('host_name', '?')}); "
                 f"goal size {goal_n:,} elements; casts and adds swept from {cast_sizes[0]:,} to "
                 f"{cast_sizes[-1]:,} elements. Ratios are time(baseline) / time(ours), measured in "
                 f"the same run; each separately timed benchmark is the fastest of {repetitions} repetition"
                 f"{'s' if repetitions != 1 else ''}, run in random order across benchmarks.")
    lines += ["", "### Other cast measures", "",
              f"| measure | 1 thread | all threads ({num_cpus}) |", "|---|---|---|"]
    for goal, index, name in ((1.0, 1, "libtorch `copy_`"), (0.9, 2, "memcpy of the same bytes")):
        cells = [summarize([v[index] for v in tables[t].values()], goal) for t in THREADS]
        lines.append(f"| every cast pair ≥ {goal}x {name}, timed separately (fastest of "
                     f"{repetitions}) | {cells[0]} | {cells[1]} |")
    lines.append(f"| (bound) pairs whose reads alone keep them under 0.9x memcpy | "
                 f"{read_bound_cell(runs, tables, goal_n, THREADS[0])} | "
                 f"{read_bound_cell(runs, tables, goal_n, THREADS[1])} |")
    lines.append(f"| (reference) narrowing pairs against reading and writing in their ratio with no arithmetic | "
                 f"{reference_cell(runs, tables, THREADS[0])} | {reference_cell(runs, tables, THREADS[1])} |")

    lines += ["", f"### Every cast pair at {goal_n:,} elements", "",
              "Ratios as time(baseline) / time(ours): paired (timed back to back, the goals' measure) "
              "and, in parentheses, separately timed.", "",
              f"<details><summary>{len(tables['1_thread'])} pairs</summary>", "",
              "| from | to | ours GB/s, 1 thread | vs libtorch | vs memcpy | ours GB/s, all threads | vs libtorch | vs memcpy |",
              "|---|---|---|---|---|---|---|---|"]

    def cell(pair, separate):
        if pair is None and separate is None:
            return "-"
        first = "-" if pair is None else f"{pair:.2f}x"
        return first if separate is None else f"{first} ({separate:.2f}x)"

    for (src, dst) in sorted(tables["1_thread"]):
        row = f"| {src} | {dst} |"
        for threads in THREADS:
            gbs, vs_torch, vs_copy = tables[threads].get((src, dst), (0, None, None))
            p_torch, p_copy = paired[threads].get((src, dst), (None, None))
            row += f" {gbs:.2f} | {cell(p_torch, vs_torch)} | {cell(p_copy, vs_copy)} |"
        lines.append(row)
    lines += ["", "</details>", ""]
    if gpu_binary_json:
        lines += gpu_binary_table(gpu_binary_json) + [""]
    lines.append(end)
    return "\n".join(lines) + "\n"


def replace_section(text, name, section):
    """text with the named section's marked span replaced by section, or section appended."""
    begin, end = SECTIONS[name]
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        return head + section.rstrip("\n") + rest.split(end, 1)[1]
    return text.rstrip("\n") + "\n\n" + section


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", help="Google Benchmark JSON, or the compact form of --compact")
    parser.add_argument("--markdown", required=True)
    parser.add_argument("--plots", required=True)
    parser.add_argument("--compact", metavar="OUT.json",
                        help="also write the aggregates the report reads, for docs/data")
    parser.add_argument("--cpu", help="the processor the raw results were measured on, when this machine "
                                      "did not run them (default: this machine's, from /proc/cpuinfo)")
    parser.add_argument("--gpu-json")
    parser.add_argument("--gpu-binary-json")
    args = parser.parse_args()
    context, runs = load(args.results, args.cpu)
    if args.compact:
        write_compact(args.compact, context, runs)
    markdown_dir = os.path.dirname(os.path.abspath(args.markdown))
    summary = build_summary(context, runs, args.plots, markdown_dir, args.gpu_json, args.gpu_binary_json)
    report = build_report(context, runs, args.gpu_binary_json)
    text = open(args.markdown).read() if os.path.exists(args.markdown) else "# Benchmarks\n"
    text = replace_section(replace_section(text, "summary", summary), "report", report)
    with open(args.markdown, "w") as f:
        f.write(text)
    print(f"wrote the summary and the full tables into {args.markdown} and plots into {args.plots}")
    print(summary)


if __name__ == "__main__":
    sys.exit(main())
