#!/bin/bash
# The PyTorch extension as its users install it, against the oldest torch it
# supports: a fresh virtual environment with PyPI's torch==2.11.0,
# `pip install ./torch_extension` compiled against it, and the extension's
# tests run on the installed package (copied out of the source tree, so
# that they import it). The environment sees the machine's site-packages
# (pytest, numpy, the CUDA libraries torch 2.15 brought), so that only torch
# itself is downloaded, with the one CUDA library 2.11 loads that 2.15 does
# not (curand), both locked in third_party/python/torch_2_11.txt; its own
# torch comes first. It checks too that Abseil loads from the package, not
# from the machine. The extension is built with its CUDA kernels (sm_90
# only, to save time; no GPU is needed to compile), so that a CUDA build
# that fails to compile or to load cannot land; OpInfo's test runs against
# 2.11's own op_db.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/apt_install.sh pkg-config libabsl-dev
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv --system-site-packages "$work/venv"
python="$work/venv/bin/python"
lock=third_party/python/torch_2_11.txt
"$python" -m pip install -q --no-deps -r "$lock"
"$python" tools/python_lock.py check "$lock"
# With the CUDA kernels, for Hopper (no GPU is needed to compile them): a
# CUDA build that does not compile or load fails here.
ONEFLOW_PROMOTE_CUDA=1 TORCH_CUDA_ARCH_LIST=9.0 "$python" -m pip install -q ./torch_extension
mkdir "$work/tests"
cp torch_extension/{ops_vs_torch,op_library,autograd,semantics,autotest,opinfo,sync}_test.py \
  torch_extension/{conftest,cuda_cases,bit_judge,autotest}.py "$work/tests"
cd "$work/tests"
"$python" - <<'PY'
import torch
import oneflow_promote_torch

assert torch.__version__.startswith("2.11.0"), torch.__version__
package = oneflow_promote_torch.__file__.rsplit("/", 1)[0]
assert oneflow_promote_torch.library_path().startswith(package), oneflow_promote_torch.library_path()
absl = {line.split()[-1] for line in open("/proc/self/maps") if "libabsl" in line}
outside = sorted(path for path in absl if not path.startswith(package))
assert absl and not outside, f"Abseil loaded from outside the package: {outside}"
print(f"torch {torch.__version__}: oneflow_promote_torch from {package}, "
      f"{len(absl)} Abseil libraries from the package")
PY
"$python" -m pytest -q -p no:cacheprovider -W ignore::UserWarning .
