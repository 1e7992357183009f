#!/usr/bin/env python3
"""Checks that #include "..." between the project's own files runs one way.

The layers, lowest first (README.md, "Layout"), each an ordered list of
components. A file may include files of the layers below its own, and of its
own layer only its own component's and those listed before it: op_rules may
not include sbp, which comes after it. Tests, test helpers, benchmarks,
fuzzers, tools and examples sit on top and may include anything.

A header under D/internal/ is private to the tree rooted at D (as Go's
internal packages are): a file elsewhere reaches it only through a public
seam header of D, such as kernels/op_kernel_support.h for the op kernels.

Every source file git knows (tracked, or new and not ignored) must belong to
a component, and every quoted include must name one of them or a known
external library; what cannot be classified is reported, not skipped.
Prints each problem and exits 1 if there is one.

  python3 tools/check_layers.py [ROOT]    # ROOT: a git checkout, default this one
"""
import pathlib
import re
import subprocess
import sys

# (layer, [(component, path prefixes)]), lowest layer first, each layer's
# components in the order they may include each other.
LAYERS = [
    ("base", [
        ("status macros", ["oneflow_promote/internal/status_macros.h"]),
        ("numeric types", ["oneflow_promote/numeric_types.h"]),
        ("dtype list", ["oneflow_promote/dtype_enum.h", "oneflow_promote/dtype.",
                        "oneflow_promote/dtype_format.h"]),
        ("device", ["oneflow_promote/device.h"]),
    ]),
    ("promotion", [
        ("lattices and policies", ["oneflow_promote/internal/lattice.h",
                                   "oneflow_promote/internal/policy_edges.h",
                                   "oneflow_promote/policy."]),
        ("operand rules", ["oneflow_promote/result_type",
                           "oneflow_promote/internal/result_type_steps.h",
                           "oneflow_promote/internal/torch_buckets.h"]),
        ("C ABIs' plumbing and the promotion C ABI", ["oneflow_promote/c_abi",
                                                      "oneflow_promote/internal/c_api_status.",
                                                      "oneflow_promote/internal/c_operands.h",
                                                      "oneflow_promote/promotion_c_api."]),
    ]),
    # The rules folder, whole: below the cast kernels, so that a framework
    # links it without them.
    ("op rules and TensorProcessor", [
        ("op rules", ["oneflow_promote/ops/op_list.h", "oneflow_promote/ops/op_rules.",
                      "oneflow_promote/ops/internal/"]),
        ("tensor traits", ["oneflow_promote/ops/tensor_traits.h"]),
        ("TensorProcessor", ["oneflow_promote/ops/tensor_processor.h",
                             "oneflow_promote/ops/tensor_processor_pipe.h"]),
    ]),
    ("cast kernels", [
        ("element conversion", ["kernels/convert.h"]),
        ("CUDA device probe", ["kernels/cuda_device.", "kernels/cuda_runtime_calls.cu"]),
        ("cast kernels", ["kernels/internal/", "kernels/cast.", "kernels/cast_cuda.cu"]),
        ("cast C ABI", ["kernels/cast_c_api."]),
        ("what the op kernels take from the cast kernels", ["kernels/op_kernel_support.h"]),
    ]),
    ("SBP rules", [
        ("SBP rules", ["oneflow_promote/sbp/"]),
    ]),
    ("functional ops and their kernels", [
        ("Tensor", ["oneflow_promote/functional/tensor."]),
        ("op kernels", ["oneflow_promote/functional/op_kernels.", "oneflow_promote/functional/cuda_ops.cu",
                        "oneflow_promote/functional/internal/"]),
        ("functional ops", ["oneflow_promote/functional/functional."]),
        ("functional C ABI", ["oneflow_promote/functional/functional_c_api."]),
        ("PyTorch adapter", ["oneflow_promote/functional/torch_tensor_traits."]),
    ]),
    ("CLI and PyTorch extension", [
        ("CLI", ["oneflow_promote/cli/"]),
        ("PyTorch extension", ["torch_extension/"]),
    ]),
]
# Tests, their helpers, benchmarks, fuzzers, tools and examples: above
# every layer, so that a library file including one of them runs back up.
TOP = (len(LAYERS), 0)
SOURCES = (".h", ".cc", ".c", ".cu", ".inc")
# Quoted includes of libraries outside the tree.
EXTERNAL = ("absl/", "fmt/", "gtest/", "gmock/", "benchmark/", "torch/", "ATen/", "c10/")
INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')


def is_top(rel):
    """Tests, their helpers, benchmarks, tools and examples."""
    parts = rel.split("/")
    return (parts[0] in ("tests", "bench", "examples", "tools") or "testdata" in parts
            or re.search(r"_(auto)?test(_util)?\.(h|cc|c)$", parts[-1]) is not None)


def place_of(rel):
    """(layer index, component index) of a path, TOP for the top, or None."""
    if is_top(rel):
        return TOP
    for layer, (_, components) in enumerate(LAYERS):
        for component, (_, prefixes) in enumerate(components):
            if any(rel.startswith(p) for p in prefixes):
                return layer, component
    return None


def describe(place):
    if place == TOP:
        return "tests, benchmarks and tools"
    layer, component = place
    return f"{LAYERS[layer][1][component][0]}, layer {LAYERS[layer][0]}"


def internal_owner(rel):
    """The directory whose internal/ folder holds rel, or None."""
    parts = rel.split("/")
    if "internal" not in parts[:-1]:
        return None
    return "/".join(parts[:parts.index("internal")])


def source_files(root):
    """The source files git knows: tracked, or new and not ignored."""
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], capture_output=True, check=True).stdout
    names = sorted({n for n in listed.decode().split("\0") if n.endswith(SOURCES)})
    return [n for n in names if (root / n).is_file()]  # not those deleted since


def resolve(included, rel, known):
    """The repository path an include names, trying the includer's folder first."""
    sibling = str(pathlib.PurePosixPath(rel).parent / included)
    return sibling if sibling in known else included


def check(root):
    """Returns (problems, number of includes checked)."""
    files = source_files(root)
    known = set(files)
    problems = []
    checked = 0
    for rel in files:
        own = place_of(rel)
        if own is None:
            problems.append(f"{rel}: in no component (add it to tools/check_layers.py)")
            continue
        if own == TOP:
            continue
        text = (root / rel).read_text(errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            checked += 1
            where = f"{rel}:{number}: includes {m.group(1)}"
            if m.group(1).startswith(EXTERNAL):
                continue
            included = resolve(m.group(1), rel, known)
            if included not in known:
                problems.append(f"{where}, which is neither a file of the tree nor a known external "
                                f"library (tools/check_layers.py, EXTERNAL)")
                continue
            theirs = place_of(included)
            if theirs is None:
                continue  # reported as in no component
            if theirs[0] > own[0]:
                problems.append(f"{where} ({describe(theirs)}) from {describe(own)}: "
                                f"runs up a layer")
            elif theirs[0] == own[0] and theirs[1] > own[1]:
                problems.append(f"{where} ({describe(theirs)}) from {describe(own)}: "
                                f"a later component of the same layer")
            owner = internal_owner(included)
            if owner is not None and not rel.startswith(owner + "/"):
                problems.append(f"{where}: {owner}/internal/ is private to {owner}/; "
                                f"include a public seam header of {owner}/ instead")
    return problems, checked


def main(argv):
    root = pathlib.Path(argv[1] if len(argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    problems, checked = check(root.resolve())
    for line in problems:
        print(line)
    print(f"layering: {checked} includes checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
