#!/bin/bash
# The whole test suite: installs what is missing, checks the oracle data
# against live array-api-strict, NumPy, JAX, MLX, ml_dtypes and PyTorch, that
# includes run down the layers only (tools/check_layers.py, after its own
# self-test), that `pip install ./torch_extension` compiles what Bazel
# links into the extension, that every file path the docs and comments name
# exists (tools/check_doc_paths.py, after its self-test) and that the C, C++
# and CUDA sources are formatted as .clang-format says, then runs
# `bazel test //...` with the project's sources built under -Werror.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install_deps.sh
python3 tests/array_api/generate_cases.py --check tests/array_api/cases.tsv
python3 tests/numpy/generate_cases.py --check tests/numpy/cases.tsv
python3 tests/jax/generate_cases.py --check tests/jax/cases.tsv
python3 tests/float8/generate_cases.py --check tests/float8/cases.tsv
python3 tests/literals/generate_cases.py --check tests/literals/cases.tsv
python3 tests/ops/generate_cases.py --check tests/ops/cases.tsv
python3 tests/numpy/generate_op_cases.py --check tests/numpy/op_cases.tsv
python3 tests/array_api/generate_op_cases.py --check tests/array_api/op_cases.tsv
python3 tests/jax/generate_op_cases.py --check tests/jax/op_cases.tsv
python3 tests/mlx/generate_cases.py --check tests/mlx/cases.tsv
python3 tests/mlx/generate_op_cases.py --check tests/mlx/op_cases.tsv
python3 tools/check_layers_test.py
python3 tools/check_layers.py
python3 tools/check_extension_sources.py
python3 tools/check_doc_paths_test.py
python3 tools/check_doc_paths.py
git ls-files '*.h' '*.c' '*.cc' '*.cu' '*.inc' ':!third_party/' | xargs clang-format-14 --dry-run --Werror
bazel test --config=werror //... "$@"
