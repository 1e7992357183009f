#!/bin/bash
# Installs what building and testing oneflow_promote needs on a fresh Debian
# bookworm machine, skipping what is already there: Bazel 4.2.3 and its
# rules_java, the system libraries, and the Python oracles used by tests.
set -euo pipefail

packages=(bazel-bootstrap bazel-rules-java libabsl-dev libfmt-dev libgtest-dev
          libbenchmark-dev libtorch-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
    "${missing[@]}" >/dev/null
fi

# Test-only oracles: array-api-strict regenerates tests/array_api/cases.tsv,
# ml_dtypes tests/float8/cases.tsv; matplotlib draws the benchmark report's
# plots (//bench:cast_overhead_smoke_test runs it).
if ! python3 -c "import array_api_strict, ml_dtypes, matplotlib" 2>/dev/null; then
  echo "installing Python test oracles and matplotlib"
  python3 -m pip install -q array-api-strict ml_dtypes numpy matplotlib
fi
