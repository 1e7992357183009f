#!/usr/bin/env python3
"""Checks that `pip install ./torch_extension` compiles the sources Bazel
links into the extension: torch_extension/setup.py lists them by hand (it
runs without Bazel), so a source added to a library the extension uses
must be added there too, or the pip-installed _C.so fails to load with an
undefined symbol. Also that no two of its sources compile to the same
object file (cpp_extension names objects after the source without its
extension), which stops the build. Compares setup.py's lists with `bazel query` of
//torch_extension:oneflow_promote_torch/_C.so's sources; prints what
differs and exits non-zero on a difference.
"""

import ast
import collections
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = "//torch_extension:oneflow_promote_torch/_C.so"
LISTS = ("LIBRARY_SOURCES", "EXTENSION_SOURCES", "CUDA_SOURCES")


def setup_sources():
    """Every source setup.py may compile, on any architecture, with or
    without CUDA."""
    tree = ast.parse(open(os.path.join(ROOT, "torch_extension/setup.py")).read())
    sources = set()
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)):
            continue
        name = node.targets[0].id
        if name in LISTS:
            sources.update(ast.literal_eval(node.value))
        elif name == "OWN_FLAGS_SOURCES":
            sources.update(source for source, _ in ast.literal_eval(node.value))
        elif name == "ISA_SOURCES":
            sources.update(source for pairs in ast.literal_eval(node.value).values()
                           for source, _ in pairs)
    return sources


def bazel_sources():
    """The project's .cc and .cu files in the target's dependencies, on any
    architecture (select() branches included)."""
    query = f'kind("source file", deps({TARGET}))'
    output = subprocess.check_output(["bazel", "query", query], cwd=ROOT, text=True,
                                     stderr=subprocess.DEVNULL)
    sources = set()
    for label in output.split():
        if label.startswith("//") and label.endswith((".cc", ".cu")):
            package, name = label[2:].split(":")
            sources.add(f"{package}/{name}" if package else name)
    return sources


def same_objects(sources):
    """Sources that torch.utils.cpp_extension would compile to one object
    file (it names each after its path without the extension, so a.cc and
    a.cu collide: "multiple rules generate a.o")."""
    by_object = collections.defaultdict(list)
    for source in sources:
        by_object[os.path.splitext(source)[0] + ".o"].append(source)
    return {obj: sorted(group) for obj, group in by_object.items() if len(group) > 1}


def main():
    ours, theirs = setup_sources(), bazel_sources()
    collisions = same_objects(ours)
    for obj, group in sorted(collisions.items()):
        print(f"torch_extension/setup.py compiles {' and '.join(group)} to one object, {obj}")
    if collisions:
        return 1
    missing, extra = sorted(theirs - ours), sorted(ours - theirs)
    for source in missing:
        print(f"torch_extension/setup.py lacks {source}, which Bazel links into {TARGET}")
    for source in extra:
        print(f"torch_extension/setup.py compiles {source}, which Bazel does not link into {TARGET}")
    if missing or extra:
        return 1
    print(f"torch_extension/setup.py compiles the {len(ours)} sources Bazel links into {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
