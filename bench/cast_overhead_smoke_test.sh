#!/bin/bash
# Proves the cast overhead benchmark and its report run: tiny sizes, a few
# milliseconds per case, the report and plots written to a scratch folder.
set -euo pipefail
benchmark=$1
report=$2
json="$TEST_TMPDIR/results.json"
"$benchmark" --elements=4096 --sweep_max=16384 --paired_phase_ms=0 --benchmark_min_time=0.002 \
  --benchmark_repetitions=2 --benchmark_enable_random_interleaving=true \
  --benchmark_out="$json" --benchmark_out_format=json >/dev/null
printf '# Benchmarks\n\nhand-written text\n' >"$TEST_TMPDIR/benchmarks.md"
python3 "$report" "$json" --markdown "$TEST_TMPDIR/benchmarks.md" --plots "$TEST_TMPDIR/plots"
grep -q "hand-written text" "$TEST_TMPDIR/benchmarks.md" || { echo "report dropped the rest of the file"; exit 1; }
grep -q "cast_overhead report" "$TEST_TMPDIR/benchmarks.md" || { echo "no report section"; exit 1; }
grep -q "fastest of 2 repetitions" "$TEST_TMPDIR/benchmarks.md" || { echo "repetitions not folded into the fastest"; exit 1; }
grep -q "timed in pairs (median of 2 repetitions' medians) | \*\*[0-9]* of 156\*\*" "$TEST_TMPDIR/benchmarks.md" ||
  { echo "no paired goals"; exit 1; }
grep -q "reading alone: [0-9.]* GB/s" "$TEST_TMPDIR/benchmarks.md" || { echo "no read bound"; exit 1; }
if grep -q avx2 /proc/cpuinfo; then
  grep -q "references, GB/s: 2:1 [0-9.]*, 4:1 [0-9.]*, 8:1 [0-9.]*, 16:1 [0-9.]*" "$TEST_TMPDIR/benchmarks.md" ||
    { echo "no read-and-write references"; exit 1; }
fi
ls "$TEST_TMPDIR"/plots/*.png >/dev/null || { echo "no plots"; exit 1; }
# A second run replaces the section instead of appending another.
python3 "$report" "$json" --markdown "$TEST_TMPDIR/benchmarks.md" --plots "$TEST_TMPDIR/plots"
[ "$(grep -c 'BEGIN cast_overhead report' "$TEST_TMPDIR/benchmarks.md")" -eq 1 ] || { echo "section duplicated"; exit 1; }
echo ok
