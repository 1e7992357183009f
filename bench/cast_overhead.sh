#!/bin/bash
# `bazel run //bench:cast_overhead [-- BENCHMARK FLAGS]`: runs the cast
# overhead benchmark (about 30 minutes by default) and writes its summary and
# full tables into docs/benchmarks.md (between the "cast_overhead summary" and
# "cast_overhead report" markers) with PNG plots in docs/plots/. The results
# the report reads, one aggregate per benchmark, go to
# docs/data/cast_overhead.json, so that
#   python3 bench/report.py docs/data/cast_overhead.json --markdown docs/benchmarks.md \
#     --plots docs/plots --gpu-json ... --gpu-binary-json ...
# re-renders it; the raw JSON of every repetition (megabytes) stays in a
# temporary file whose path is printed. Extra flags go to the benchmark binary,
# e.g. --benchmark_filter=cast/ or --elements=4194304 or --sweep_max=67108864.
# GPU figures from bench/gpu_cast_vs_torch.py --json are included from GPU_JSON
# (default docs/data/gpu_cast_h100_2026-11-24_run3.json, the last GPU run, when
# it exists), and GPU binary-op figures from bench/gpu_binary_vs_torch.py
# --json from GPU_BINARY_JSON (default docs/data/gpu_binary_h100_2026-11-24.json,
# when it exists).
set -euo pipefail
benchmark=$(realpath "$1")
report=$(realpath "$2")
shift 2
workspace="${BUILD_WORKSPACE_DIRECTORY:-$PWD}"
python3 -c "import matplotlib" 2>/dev/null || python3 -m pip install -q matplotlib
mkdir -p "$workspace/docs/data"
raw=$(mktemp --tmpdir cast_overhead.XXXXXX.json)
# Three repetitions in random order, each benchmark reported by its fastest:
# on a shared machine other tenants slow memory-bound runs by up to half for
# minutes at a time; interleaving spreads such a spell over many benchmarks,
# and the fastest repetition is the least disturbed. Each repetition first
# runs untimed for 12 ms, so that libtorch's OpenMP threads, which spin for
# about 9 ms after each call, have stopped taking a core from the next
# benchmark. The cast goals are judged on the paired/ runs, which time ours
# and its baselines back to back (bench/cast_overhead.cc, BM_CastPaired).
"$benchmark" --benchmark_min_time=0.05 --benchmark_min_warmup_time=0.012 --benchmark_repetitions=3 \
  --benchmark_enable_random_interleaving=true --benchmark_out="$raw" \
  --benchmark_out_format=json "$@"
gpu=()
gpu_json="${GPU_JSON:-$workspace/docs/data/gpu_cast_h100_2026-11-24_run3.json}"
[ -f "$gpu_json" ] && gpu=(--gpu-json "$gpu_json")
gpu_binary_json="${GPU_BINARY_JSON:-$workspace/docs/data/gpu_binary_h100_2026-11-24.json}"
[ -f "$gpu_binary_json" ] && gpu+=(--gpu-binary-json "$gpu_binary_json")
python3 "$report" "$raw" --compact "$workspace/docs/data/cast_overhead.json" \
  --markdown "$workspace/docs/benchmarks.md" --plots "$workspace/docs/plots" "${gpu[@]}"
echo "raw results of every repetition: $raw"
