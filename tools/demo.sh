#!/bin/bash
# The main job: the promote CLI's torch table and a worked explanation.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install_deps.sh
bazel run //:promote -- table
bazel run //:promote -- explain int8 float64[] 1.5
