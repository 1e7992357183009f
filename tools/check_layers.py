#!/usr/bin/env python3
"""Checks that #include "..." between the project's own files runs one way.

The layers, lowest first (README.md, "Layout"): a file may include files of
its own layer and of those below it, never of a layer above. Tests, test
helpers, benchmarks, fuzzers and examples sit on top and may include anything.
Prints each include that runs back up and exits 1 if there is one.

  python3 tools/check_layers.py          # from the repository root
"""
import pathlib
import re
import sys

BASE = ["oneflow_promote/dtype", "oneflow_promote/dtype_enum.h", "oneflow_promote/numeric_types.h",
        "oneflow_promote/device.h"]
# (layer name, path prefixes), lowest first; the first layer whose prefix
# matches a path owns it.
LAYERS = [
    ("base", BASE),
    ("promotion", ["oneflow_promote/policy", "oneflow_promote/result_type",
                   "oneflow_promote/promotion_c_api", "oneflow_promote/c_abi.h",
                   "oneflow_promote/internal/"]),
    ("cast kernels", ["kernels/"]),
    ("op rules and TensorProcessor", ["oneflow_promote/functional/op_list.h",
                                      "oneflow_promote/functional/op_rules",
                                      "oneflow_promote/functional/tensor_traits.h",
                                      "oneflow_promote/functional/tensor_processor.h",
                                      "oneflow_promote/functional/tensor_processor_pipe.h",
                                      "oneflow_promote/sbp/"]),
    ("functional ops and their kernels", ["oneflow_promote/functional/"]),
    ("CLI and PyTorch extension", ["oneflow_promote/cli/", "torch_extension/"]),
]
SOURCES = ("*.h", "*.cc", "*.c", "*.cu", "*.inc")


def is_top(path):
    """Tests, their helpers, benchmarks and examples: above every layer."""
    name = path.name
    return (path.parts[0] in ("tests", "bench", "examples", "tools") or "testdata" in path.parts
            or re.search(r"_(auto)?test(_util)?\.(h|cc|c)$", name) is not None)


def layer_of(rel):
    for index, (_, prefixes) in enumerate(LAYERS):
        if any(rel.startswith(p) for p in prefixes):
            return index
    return None


def main():
    root = pathlib.Path(__file__).resolve().parent.parent
    bad = []
    checked = 0
    for pattern in SOURCES:
        for path in sorted(root.glob("**/" + pattern)):
            rel_path = path.relative_to(root)
            rel = rel_path.as_posix()
            if rel.startswith("bazel-") or is_top(rel_path):
                continue
            own = layer_of(rel)
            if own is None:
                bad.append(f"{rel}: in no layer (add it to tools/check_layers.py)")
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not m:
                    continue
                included = layer_of(m.group(1))
                checked += 1
                if included is not None and included > own:
                    bad.append(f"{rel}:{number}: includes {m.group(1)} ({LAYERS[included][0]}) "
                               f"from {LAYERS[own][0]}")
    for line in bad:
        print(line)
    print(f"layering: {checked} includes checked, {len(bad)} running back up")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
