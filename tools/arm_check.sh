#!/bin/bash
# The CPU cast kernels on AArch64: cross-compiles the kernels' tests with
# Debian's aarch64-linux-gnu toolchain (CMake, cmake/aarch64-linux-gnu.cmake)
# and runs them under qemu-user on three processors: NEON only (Cortex-A72),
# and SVE with 128-bit and with 512-bit vectors. Each run names the kernel
# sets it expects the dispatch to find (ONEFLOW_PROMOTE_EXPECT_CPU_KERNELS),
# and cast_test checks every one of them bit for bit against convert.h.
# Installs what is missing on a fresh Debian bookworm machine (root, or
# sudo), adding arm64 as a foreign architecture for the dependencies. The
# three processors' runs go side by side.
# Prints "N passed, N failed" over the runs; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
dpkg --print-foreign-architectures | grep -qx arm64 || $SUDO dpkg --add-architecture arm64
tools/apt_install.sh cmake g++-aarch64-linux-gnu qemu-user \
  libabsl-dev:arm64 libfmt-dev:arm64 libgtest-dev:arm64

# A fresh build tree under /tmp, removed at the end (kept with KEEP=1).
build=$(mktemp -d /tmp/oneflow_promote_arm64-XXXXXX)
if [ "${KEEP:-0}" = 1 ]; then
  echo "build tree kept in $build"
else
  trap 'rm -rf "$build"' EXIT
fi
start=$SECONDS
cmake -S . -B "$build" -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/aarch64-linux-gnu.cmake" \
  -DONEFLOW_PROMOTE_CUDA=OFF >/dev/null
tests=(cast_test parallel_for_test block_runner_test)
cmake --build "$build" -j2 --target "${tests[@]}"
echo "built in $((SECONDS - start)) s"

# name, qemu -cpu, the kernel sets the dispatch must find (widest first)
runs=(
  "neon cortex-a72 baseline"
  "sve128 max,sve-default-vector-length=16 sve,baseline"
  "sve512 max,sve-default-vector-length=64 sve,baseline"
)
# The three processors run side by side, each its tests in turn; the
# results are printed in the order above once all have finished.
# qemu-user (bookworm's 7.2) aborts when a forked child starts a thread, so
# the pool's fork test runs natively only; the atfork handler has no
# architecture-specific code.
run_tests() {
  local name=$1 cpu=$2 expected=$3 test begin
  for test in "${tests[@]}"; do
    begin=$SECONDS
    if ONEFLOW_PROMOTE_EXPECT_CPU_KERNELS=$expected GTEST_FILTER='-ParallelForForkTest.*' \
        qemu-aarch64 -L / -cpu "$cpu" "$build/kernels/$test" >"$build/$name.$test.log" 2>&1; then
      echo "//arm64/$name:$test PASSED in $((SECONDS - begin)) s"
    else
      echo "//arm64/$name:$test FAILED in $((SECONDS - begin)) s"
    fi
  done >"$build/$name.results"
}
for run in "${runs[@]}"; do
  read -r name cpu expected <<<"$run"
  run_tests "$name" "$cpu" "$expected" &
done
wait
passed=0
failed=0
for run in "${runs[@]}"; do
  read -r name _ <<<"$run"
  while read -r label result rest; do
    echo "$label $result $rest"
    if [ "$result" = PASSED ]; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
      tail -40 "$build/$name.${label##*:}.log"
    fi
  done <"$build/$name.results"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
