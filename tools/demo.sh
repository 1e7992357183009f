#!/bin/bash
# The main job: the promote CLI's torch table and a worked explanation. It
# installs only what building the CLI needs (no PyTorch, JAX or NumPy).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install_build_deps.sh
bazel run //:promote -- table
bazel run //:promote -- explain int8 float64[] 1.5
