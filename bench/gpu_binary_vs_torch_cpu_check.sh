#!/bin/bash
# Runs bench/gpu_binary_vs_torch.py --check-cpu: the binary-op C ABI on host
# memory against NumPy and ml_dtypes (no GPU, no PyTorch needed).
set -euo pipefail
python3 "$1" "$(realpath "$2")" --check-cpu
