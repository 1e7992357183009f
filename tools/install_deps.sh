#!/bin/bash
# Installs what building and testing oneflow_promote needs on a fresh Debian
# bookworm machine, skipping what is already there: Bazel 4.2.3 and its
# rules_java, the system libraries, and the Python oracles used by tests.
set -euo pipefail

"$(dirname "$0")"/apt_install.sh bazel-bootstrap bazel-rules-java libabsl-dev libfmt-dev \
  libgtest-dev libbenchmark-dev libtorch-dev

# Test-only oracles: array-api-strict regenerates tests/array_api/cases.tsv,
# ml_dtypes tests/float8/cases.tsv; matplotlib draws the benchmark report's
# plots (//bench:cast_overhead_smoke_test runs it).
if ! python3 -c "import array_api_strict, ml_dtypes, matplotlib" 2>/dev/null; then
  echo "installing Python test oracles and matplotlib"
  python3 -m pip install -q array-api-strict ml_dtypes numpy matplotlib
fi
