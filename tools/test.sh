#!/bin/bash
# The whole test suite: installs what is missing, checks the Array API
# oracle data against live array-api-strict, then runs `bazel test //...`.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install_deps.sh
python3 tests/array_api/generate_cases.py --check tests/array_api/cases.tsv
bazel test //... "$@"
