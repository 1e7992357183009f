#!/bin/bash
# Runs a benchmark binary for a few milliseconds per case to prove it works.
set -euo pipefail
"$1" --benchmark_min_time=0.002 "${@:2}"
