#!/bin/bash
# Installs what building the library and its command line needs on a fresh
# Debian bookworm machine, skipping what is already there: Bazel 4.2.3 and
# its rules_java, and the system libraries it links (Abseil, fmt, GoogleTest,
# Google Benchmark). Nothing from PyPI: the main job (tools/demo.sh) needs
# no PyTorch; tools/install_deps.sh adds what the tests need.
set -euo pipefail
"$(dirname "$0")"/apt_install.sh bazel-bootstrap bazel-rules-java libabsl-dev libfmt-dev \
  libgtest-dev libbenchmark-dev
