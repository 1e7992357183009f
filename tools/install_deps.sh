#!/bin/bash
# Installs what building and testing oneflow_promote needs on a fresh Debian
# bookworm machine, skipping what is already there: Bazel 4.2.3 and its
# rules_java, the system libraries, clang-format (the format check of
# tools/test.sh), and the Python oracles used by tests.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

"$root"/tools/apt_install.sh bazel-bootstrap bazel-rules-java libabsl-dev libfmt-dev \
  libgtest-dev libbenchmark-dev clang-format-14

# PyTorch, pinned in third_party/torch/requirements.txt: its libtorch is the
# oracle of the *_vs_torch tests and the benchmark's baseline (Bazel finds it
# through python3: third_party/torch/torch_configure.bzl). pip brings the
# CUDA runtime libtorch loads (the nvidia wheels); no GPU is needed.
requirements="$root/third_party/torch/requirements.txt"
pinned=$(sed -n 's/^torch==\([^ #]*\).*/\1/p' "$requirements")
installed=$(python3 -c "import torch; print(torch.__version__.split('+')[0])" 2>/dev/null || true)
if [ "$installed" != "$pinned" ]; then
  echo "installing torch==$pinned (found: ${installed:-none})"
  python3 -m pip install -q -r "$requirements"
fi

# Test-only oracles: array-api-strict regenerates tests/array_api/cases.tsv,
# ml_dtypes tests/float8/cases.tsv; matplotlib draws the benchmark report's
# plots (//bench:cast_overhead_smoke_test runs it); pytest runs the PyTorch
# extension's tests (//torch_extension:ops_vs_torch_test).
if ! python3 -c "import array_api_strict, ml_dtypes, matplotlib, pytest" 2>/dev/null; then
  echo "installing Python test oracles, matplotlib and pytest"
  python3 -m pip install -q array-api-strict ml_dtypes numpy matplotlib pytest
fi

# NumPy 2 and JAX (CPU wheels) regenerate tests/numpy/cases.tsv and
# tests/jax/cases.tsv; JAX is pinned to the version the file was written with.
jax_version=0.10.2
if ! python3 -c "import jax, jaxlib, numpy
assert jax.__version__ == jaxlib.__version__ == '$jax_version'
assert int(numpy.__version__.split('.')[0]) >= 2" 2>/dev/null; then
  echo "installing numpy 2 and jax==$jax_version (CPU)"
  python3 -m pip install -q "numpy>=2" "jax==$jax_version" "jaxlib==$jax_version"
fi
