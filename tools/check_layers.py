#!/usr/bin/env python3
"""Checks that #include "..." between the project's own files runs one way.

The layers are folders, lowest first (README.md, "Layout"): the library a
framework links (oneflow_promote/, no kernels), the cast kernels (kernels/),
the functional frontend (functional/), then the CLI and the PyTorch
extension (cli/, torch_extension/). Each layer is an ordered list of
components, each a folder or a few files of the layer's folder. A file may
include files of the layers below its own, and of its own layer only its own
component's and those listed before it: op rules may not include sbp, which
comes after them. Tests, test helpers, benchmarks, fuzzers, tools and
examples sit on top and may include anything.

A header under D/internal/ is private to the tree rooted at D (as Go's
internal packages are): a file elsewhere includes only D's public headers.

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

# (layer, its folders, [(component, path prefixes)]), lowest layer first,
# each layer's components in the order they may include each other; every
# prefix lies in one of its layer's folders (checked below).
LAYERS = [
    ("library", ["oneflow_promote/"], [
        ("base", ["oneflow_promote/status_macros.h", "oneflow_promote/numeric_types.h",
                  "oneflow_promote/dtype_enum.h", "oneflow_promote/dtype.",
                  "oneflow_promote/dtype_format.h", "oneflow_promote/device.h",
                  "oneflow_promote/convert.h"]),
        ("promotion", ["oneflow_promote/promotion/"]),
        ("C ABI", ["oneflow_promote/c_api/"]),
        ("op rules", ["oneflow_promote/ops/op_spec.h", "oneflow_promote/ops/op_list.h",
                      "oneflow_promote/ops/op_rules.", "oneflow_promote/ops/framework_op_rules.cc",
                      "oneflow_promote/ops/internal/"]),
        ("tensor traits", ["oneflow_promote/ops/tensor_traits.h"]),
        ("TensorProcessor", ["oneflow_promote/ops/tensor_processor.h",
                             "oneflow_promote/ops/tensor_processor_pipe.h"]),
        ("SBP rules", ["oneflow_promote/sbp/"]),
    ]),
    ("kernels", ["kernels/"], [
        ("CUDA device probe", ["kernels/cuda_device.", "kernels/cuda_runtime_calls.cu"]),
        ("cast kernels", ["kernels/internal/", "kernels/cast.", "kernels/cast_cuda.cu",
                          "kernels/cpu_cast.h", "kernels/cuda_cast.h", "kernels/cuda_pack.h",
                          "kernels/cuda_status.h", "kernels/parallel_for."]),
        ("cast C ABI", ["kernels/cast_c_api."]),
    ]),
    ("functional", ["functional/"], [
        ("Tensor", ["functional/tensor."]),
        ("op kernels", ["functional/op_kernels.", "functional/cuda_ops.cu", "functional/internal/"]),
        ("functional ops", ["functional/functional."]),
        ("functional C ABI", ["functional/functional_c_api."]),
        ("PyTorch adapter", ["functional/torch_tensor_traits."]),
    ]),
    ("CLI and integrations", ["cli/", "torch_extension/"], [
        ("CLI", ["cli/"]),
        ("PyTorch extension", ["torch_extension/"]),
    ]),
]
for _layer, _folders, _components in LAYERS:
    for _component, _prefixes in _components:
        assert all(p.startswith(tuple(_folders)) for p in _prefixes), (_layer, _component)
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
    for layer, (_, _, components) in enumerate(LAYERS):
        for component, (_, prefixes) in enumerate(components):
            if any(rel.startswith(p) for p in prefixes):
                return layer, component
    return None


def describe(place):
    if place == TOP:
        return "tests, benchmarks and tools"
    layer, component = place
    return f"{LAYERS[layer][2][component][0]}, layer {LAYERS[layer][0]}"


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
                                f"include a public header of {owner}/ instead")
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
