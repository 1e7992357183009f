#!/bin/bash
# The GPU check, in two halves, for a GPU machine that has PyTorch and the
# CUDA driver but no Bazel, no Debian packages and no network:
#
#   tools/gpu_check.sh bundle BUNDLE_DIR   # here: build, then pack BUNDLE_DIR/gpu_check.tar.xz
#   tools/gpu_check.sh run BUNDLE_DIR OUT  # there, from a checkout: unpack, test, time
#
# bundle builds the CUDA gtests (static, with the shared libraries they
# load), the C ABI libraries the GPU benchmarks call, and the extension
# (pip, ONEFLOW_PROMOTE_CUDA=1) with $GPU_PYTHON, a Python of the GPU
# machine's version with its torch version installed (the extension is
# bound to both). run, on the GPU machine (ONEFLOW_PROMOTE_EXPECT_GPU=1, so
# that a CUDA case that skips fails): the CUDA gtests, compute-sanitizer's
# memcheck on the cast and functional gtests, the extension's CUDA tests
# (the sync test, CUDA graphs, semantics, ops against torch, OpInfo's CUDA
# column), then the GPU benchmarks; it writes OUT/summary.md, naming the
# device, and OUT/logs.tar.xz. Each step has a time limit; the whole runs
# in about 6 minutes on an H200.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mode=${1:-}
bundle=${2:-}
[ -n "$mode" ] && [ -n "$bundle" ] || { sed -n 2,18p "$0"; exit 2; }

GTESTS=(//kernels:cast_cuda_test //kernels:cuda_device_test //kernels:cuda_status_test
        //tests:functional_cuda_test)
LIBRARIES=(//kernels:liboneflow_promote_cast.so
           //functional:liboneflow_promote_functional.so)

if [ "$mode" = bundle ]; then
  set -e
  python=${GPU_PYTHON:-python3}
  stage=$(mktemp -d)
  trap 'rm -rf "$stage"' EXIT
  mkdir -p "$bundle" "$stage/bin" "$stage/lib" "$stage/site"
  cd "$root"
  bazel build --dynamic_mode=off "${GTESTS[@]}" "${LIBRARIES[@]}"
  for target in "${GTESTS[@]}" "${LIBRARIES[@]}"; do
    path="bazel-bin/$(echo "${target#//}" | tr : /)"
    cp "$path" "$stage/bin/"
    # The libraries outside the C runtime that the binary loads.
    ldd "$path" | awk '$3 ~ /^\// {print $3}' | grep -vE '/lib(c|m|pthread|dl|rt|gcc_s|stdc\+\+)\.so' |
      xargs -r cp -L -t "$stage/lib/"
  done
  "$python" -c 'import torch; print(torch.__version__)' >"$stage/torch_version"
  # (ninja from $GPU_PYTHON's environment; PATH changed for this command
  # only, since Bazel's actions depend on it.)
  PATH="$(dirname "$python"):$PATH" ONEFLOW_PROMOTE_CUDA=1 \
    TORCH_CUDA_ARCH_LIST=${TORCH_CUDA_ARCH_LIST:-9.0} MAX_JOBS=${MAX_JOBS:-2} \
    "$python" -m pip install -q --no-deps \
    --target "$stage/site" ./torch_extension
  # libgomp from the build machine, beside _C.so ($ORIGIN comes first).
  ldd "$stage"/site/oneflow_promote_torch/_C.so | awk '/libgomp/ {print $3}' |
    xargs -r cp -L -t "$stage/site/oneflow_promote_torch/"
  tar -C "$stage" -cJf "$bundle/gpu_check.tar.xz" .
  ls -l "$bundle/gpu_check.tar.xz"
  exit 0
fi

[ "$mode" = run ] || { echo "mode: bundle or run" >&2; exit 2; }
out=${3:?run BUNDLE_DIR OUT}
mkdir -p "$out"
work=$(mktemp -d)
tar -C "$work" -xJf "$bundle/gpu_check.tar.xz"
logs="$work/logs"
mkdir -p "$logs"
export ONEFLOW_PROMOTE_EXPECT_GPU=1 PYTHONUNBUFFERED=1
export LD_LIBRARY_PATH="$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PYTHONPATH="$work/site:$root/torch_extension${PYTHONPATH:+:$PYTHONPATH}"
cd "$root"

# step NAME SECONDS COMMAND...: runs it into logs/NAME.log and writes its
# summary row (exit code, seconds, gtest's or pytest's closing lines).
step() {
  local name=$1 limit=$2 start=$SECONDS rc closing
  shift 2
  timeout "$limit" "$@" >"$logs/$name.log" 2>&1
  rc=$?
  closing=$(grep -E '^\[  (PASSED|FAILED)  \]|(passed|failed|skipped|error)[^|]* in [0-9.]+s|ERROR SUMMARY' \
    "$logs/$name.log" | tail -3 | tr '\n' ' ')
  echo "| $name | $rc | $((SECONDS - start)) s | ${closing:-see log} |" >"$logs/$name.row"
  echo "$name: exit $rc, $((SECONDS - start)) s; $closing"
}

device=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -1)
torch_version=$(python3 -c 'import torch; print(torch.__version__, torch.version.cuda)')
echo "device: $device; torch $torch_version; bundle built for torch $(cat "$work/torch_version")"

# Correctness first, the steps side by side (the GPU and 16 cores have
# room for them); then the benchmarks one at a time, on an idle GPU.
# --import-mode=append: the installed package, not the source tree's, is imported.
pytest=(python3 -m pytest -q -p no:cacheprovider --import-mode=append -W ignore::UserWarning)
for target in "${GTESTS[@]}"; do
  step "${target##*:}" 300 "$work/bin/${target##*:}" --gtest_brief=1 &
done
step memcheck_cast 240 compute-sanitizer --tool memcheck --error-exitcode 1 \
  "$work/bin/cast_cuda_test" --gtest_brief=1 &
step memcheck_functional 240 compute-sanitizer --tool memcheck --error-exitcode 1 \
  "$work/bin/functional_cuda_test" --gtest_brief=1 \
  --gtest_filter='AllOps/FunctionalCuda.MatchesTheCpu/add:AllOps/FunctionalCuda.MatchesTheCpu/where:FunctionalCudaDevices.*' &
step sync_test 240 "${pytest[@]}" torch_extension/sync_test.py &
step extension_cuda 300 "${pytest[@]}" -k cuda torch_extension/cuda_graph_test.py \
  torch_extension/semantics_test.py torch_extension/ops_vs_torch_test.py &
step opinfo_cuda 300 "${pytest[@]}" -n 6 -k cuda torch_extension/opinfo_test.py &
wait
step bench_binary_c_abi 120 python3 bench/gpu_binary_vs_torch.py \
  "$work/bin/liboneflow_promote_functional.so" --json "$logs/binary.json"
step bench_ops_256M 120 python3 torch_extension/bench_vs_torch.py --device cuda \
  --elements $((256 << 20)) --rounds 5
step bench_ops_per_call 120 python3 torch_extension/bench_vs_torch.py --device cuda \
  --per-call --rounds 5 --calls 500
step bench_casts 180 python3 bench/gpu_cast_vs_torch.py "$work/bin/liboneflow_promote_cast.so" \
  --json "$logs/casts.json"

{
  echo "# GPU check, $(date -u +%Y-%m-%d)"
  echo
  echo "Device: $device. torch $torch_version. Commit $(git rev-parse --short HEAD 2>/dev/null)."
  echo
  echo "| step | exit | time | closing lines |"
  echo "|---|---|---|---|"
  cat "$logs"/*.row
  for name in bench_binary_c_abi bench_ops_256M bench_ops_per_call bench_casts; do
    echo
    echo "## $name"
    grep -E '^\||ratio|median' "$logs/$name.log" | head -60
  done
} >"$out/summary.md"
tar -C "$work" -cJf "$out/logs.tar.xz" logs
cat "$out/summary.md"
