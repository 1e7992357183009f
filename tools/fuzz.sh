#!/bin/bash
# Builds the libFuzzer targets in tests/fuzz with `--config=fuzz` (clang-14,
# ASan, UBSan) and runs each for SECONDS (default 20) on a copy of its
# committed corpus, two targets at a time; prints one summary line per target
# and exits nonzero on any finding (the crash file's path is printed and
# kept).
#
#   tools/fuzz.sh              # every target, 20 s each
#   tools/fuzz.sh 600          # ten minutes each
#   tools/fuzz.sh 600 c_abi_fuzzer
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-20}
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then
  targets=(cli_batch_line_fuzzer name_parsing_fuzzer c_abi_fuzzer result_type_fuzzer)
fi

# What a fresh Debian bookworm machine lacks: Bazel and the libraries the
# targets link (tools/install_deps.sh's test oracles are not needed), clang
# and its runtimes (libFuzzer, ASan, UBSan).
tools/apt_install.sh bazel-bootstrap bazel-rules-java libabsl-dev libfmt-dev clang-14 libclang-rt-14-dev

labels=()
for t in "${targets[@]}"; do labels+=("//tests/fuzz:$t"); done
bazel build --config=fuzz "${labels[@]}"
bin=$(bazel info --config=fuzz bazel-bin 2>/dev/null)/tests/fuzz

work=$(mktemp -d "${TMPDIR:-/tmp}/oneflow_promote_fuzz.XXXXXX")
# One target's run; its summary line goes to $work/$t/summary.
fuzz_one() {
  local t=$1 corpus="$work/$1/corpus" artifacts="$work/$1/artifacts"
  mkdir -p "$corpus" "$artifacts"
  # A copy, so that the run's new inputs stay out of the tree.
  cp tests/fuzz/corpus/"$t"/* "$corpus"/
  local flags=(-max_total_time="$seconds" -print_final_stats=1 -print_funcs=0 -timeout=25
               -artifact_prefix="$artifacts/")
  case "$t" in
    cli_batch_line_fuzzer | name_parsing_fuzzer) flags+=(-dict=tests/fuzz/promote.dict) ;;
  esac
  local status=0 executions size found
  "$bin/$t" "${flags[@]}" "$corpus" >"$work/$t/log" 2>&1 || status=$?
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t/log" | tail -1)
  size=$(find "$corpus" -type f | wc -l)
  found=$(find "$artifacts" -type f | head -1)
  if [ -n "$found" ] || [ "$status" -ne 0 ]; then
    echo "$t: ${seconds} s, ${executions:-?} executions, corpus $size, FINDING: ${found:-exit status $status} (log: $work/$t/log)"
  else
    echo "$t: ${seconds} s, ${executions:-?} executions, corpus $size, 0 findings"
  fi >"$work/$t/summary"
}

# Two targets at a time (each fuzzes on one thread); summaries in order.
for t in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= 2)); do wait -n || true; done
  fuzz_one "$t" &
done
wait
findings=0
for t in "${targets[@]}"; do
  cat "$work/$t/summary"
  if grep -q FINDING "$work/$t/summary"; then findings=$((findings + 1)); fi
done

if ((findings)); then
  echo "$findings target(s) with findings; inputs and logs kept in $work"
  exit 1
fi
rm -rf "$work"
