#!/usr/bin/env python3
"""Every file path the docs name exists: in docs/*.md, the README and the
other Markdown pages, and in the comments of the C, C++, CUDA, Python,
shell and Bazel sources, a word that ends in a file extension
(`internal/kernels.cc`, docs/ops.md) must name a tracked file: by its path
from the top, from the naming file's folder, or as the tail of one path
(`internal/kernels.cc` for torch_extension/internal/kernels.cc). Other
projects' files are listed in FOREIGN, placeholders in TEMPLATES.
Run by tools/test.sh; tools/check_doc_paths_test.py plants a missing path.

  python3 tools/check_doc_paths.py      # exit 1 and a line a missing path
"""
import io
import os
import re
import subprocess
import sys
import tokenize

EXTENSIONS = ("h", "cc", "cu", "c", "inc", "py", "sh", "md", "bzl", "bazel", "txt", "tsv",
              "cmake", "json", "toml")
PATH = re.compile(r"(?<![\w./$<\\-])((?:[\w.-]+/)*[\w-]+\.(?:%s))(?![\w/(])" % "|".join(EXTENSIONS))

# Other projects' files the docs and comments cite (PyTorch's, JAX's, the
# kernel's headers), which no tree of ours holds.
FOREIGN = {
    "ufunc/add.h", "c10/core/ScalarType.h", "ATen/autocast_mode.h", "asm/hwcap.h",
    "jax/_src/dtypes.py", "dtypes.py", "BinaryDivFloorKernel.cu", "BinaryDivTrueKernel.cu",
    "BinaryDivTruncKernel.cu", "BinaryRemainderKernel.cu", "BinaryGeometricKernels.cu",
}
# Names of files that a command writes (DATE and OUT stand for its arguments).
TEMPLATES = re.compile(r"_DATE\.json$|^OUT/|^_run\d\.json$")

C_FAMILY = (".h", ".cc", ".cu", ".c", ".inc")
HASH_COMMENTS = (".py", ".sh", ".bzl", ".bazel")


def comment_text(path, text):
    """The comments of a source file (its docstrings and strings aside)."""
    if path.endswith((".py", ".bzl", ".bazel")):
        return "\n".join(token.string[1:] for token in
                         tokenize.generate_tokens(io.StringIO(text).readline)
                         if token.type == tokenize.COMMENT)
    marker = "//" if path.endswith(C_FAMILY) else "#"
    lines = []
    for line in text.splitlines():
        if line.lstrip().startswith("#include"):
            continue
        at = line.find(marker)
        if at >= 0:
            lines.append(line[at + len(marker):])
    return "\n".join(lines)


def missing_paths(files, read):
    """(file, path) for each path a doc or comment names that is not among
    `files`; `read(file)` gives a file's text."""
    tracked = set(files)
    missing = []
    for source in files:
        if source.startswith("third_party/"):
            continue
        if source.endswith(".md"):
            text = read(source)
        elif source.endswith(C_FAMILY + HASH_COMMENTS) or os.path.basename(source) == "run":
            text = comment_text(source, read(source))
        else:
            continue
        for match in PATH.finditer(text):
            path = match.group(1)
            if path in FOREIGN or TEMPLATES.search(path):
                continue
            if (path in tracked
                    or os.path.normpath(os.path.join(os.path.dirname(source), path)) in tracked
                    or any(f.endswith("/" + path) for f in tracked)):
                continue
            missing.append((source, path))
    return missing


def main():
    root = subprocess.check_output(["git", "rev-parse", "--show-toplevel"], text=True).strip()
    files = subprocess.check_output(["git", "ls-files"], cwd=root, text=True).split()

    def read(path):
        with open(os.path.join(root, path), errors="replace") as f:
            return f.read()

    missing = missing_paths(files, read)
    for source, path in missing:
        print(f"{source}: names {path}, which is not in the tree")
    if missing:
        return 1
    print(f"check_doc_paths: every path named in the docs and comments of {len(files)} files exists")
    return 0


if __name__ == "__main__":
    sys.exit(main())
