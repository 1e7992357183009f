#!/bin/bash
# The CMake build end to end: configure, build (-j2), ctest, install into a
# temporary prefix, then build and run examples/cmake_consumer against that
# prefix, and compile its main.cc once more through pkg-config. Extra
# arguments go to the first configure, e.g. -DONEFLOW_PROMOTE_CUDA=OFF or
# -DBUILD_SHARED_LIBS=OFF. Installs what is missing on a fresh Debian
# bookworm machine (root, or sudo). Build trees live in a temporary folder
# under /tmp, removed at the end (kept with KEEP=1).
set -euo pipefail
cd "$(dirname "$0")/.."

tools/apt_install.sh cmake pkg-config g++ libabsl-dev libfmt-dev libgtest-dev libbenchmark-dev

work=$(mktemp -d /tmp/cmake-build-XXXXXX)
if [ "${KEEP:-0}" = 1 ]; then
  echo "build trees kept in $work"
else
  trap 'rm -rf "$work"' EXIT
fi
build=$work/build
prefix=$work/prefix
start=$SECONDS
step() { printf '\n=== %s (%d s so far)\n' "$*" $((SECONDS - start)); }

step "configure: cmake -S . -B $build $*"
cmake -S . -B "$build" "$@"

step "build: cmake --build -j2"
cmake --build "$build" -j2

step "test: ctest -j2"
ctest --test-dir "$build" -j2 --output-on-failure | tee "$work/ctest.log"

step "install: cmake --install --prefix $prefix"
cmake --install "$build" --prefix "$prefix" | grep -v '^-- Up-to-date'

step "consumer: find_package(oneflow_promote) from $prefix"
cmake -S examples/cmake_consumer -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix"
cmake --build "$work/consumer" -j2
"$work/consumer/consumer"

step "consumer: pkg-config --cflags --libs oneflow_promote"
export PKG_CONFIG_PATH="$(dirname "$(find "$prefix" -name oneflow_promote.pc)")"
libdir=$(pkg-config --variable=libdir oneflow_promote)
# shellcheck disable=SC2046  # pkg-config's flags are meant to be split
c++ -std=c++17 examples/cmake_consumer/main.cc $(pkg-config --cflags --libs oneflow_promote) \
  -Wl,-rpath,"$libdir" -o "$work/consumer_pkg_config"
"$work/consumer_pkg_config" >/dev/null

printf '\n=== done in %d s\n' $((SECONDS - start))
grep 'tests passed' "$work/ctest.log"
echo "consumer: ok"
