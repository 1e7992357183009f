#!/bin/bash
# Proves the cast overhead benchmark, its report and the A/B comparison run:
# tiny sizes, a few milliseconds per case, the report and plots written to a
# scratch folder.
set -euo pipefail
benchmark=$1
report=$2
paired_ab=$3
json="$TEST_TMPDIR/results.json"
compact="$TEST_TMPDIR/compact.json"
md="$TEST_TMPDIR/benchmarks.md"
"$benchmark" --elements=4096 --sweep_max=16384 --paired_phase_ms=0 --benchmark_min_time=0.002 \
  --benchmark_repetitions=2 --benchmark_enable_random_interleaving=true \
  --benchmark_out="$json" --benchmark_out_format=json >/dev/null
printf '# Benchmarks\n\nhand-written text\n' >"$md"
python3 "$report" "$json" --compact "$compact" --markdown "$md" --plots "$TEST_TMPDIR/plots" >/dev/null
grep -q "hand-written text" "$md" || { echo "report dropped the rest of the file"; exit 1; }
grep -q "BEGIN cast_overhead summary" "$md" || { echo "no summary section"; exit 1; }
grep -q "BEGIN cast_overhead report" "$md" || { echo "no report section"; exit 1; }
grep -q "fastest of 2 repetitions" "$md" || { echo "repetitions not folded into the fastest"; exit 1; }
grep -q "timed in pairs (median of 2 repetitions' medians) | \*\*[0-9]* of 156\*\*" "$md" ||
  { echo "no paired goals"; exit 1; }
grep -q "reading alone: [0-9.]* GB/s" "$md" || { echo "no read bound"; exit 1; }
if grep -q avx2 /proc/cpuinfo; then
  grep -q "references, GB/s: 2:1 [0-9.]*, 4:1 [0-9.]*, 8:1 [0-9.]*, 16:1 [0-9.]*" "$md" ||
    { echo "no read-and-write references"; exit 1; }
fi
ls "$TEST_TMPDIR"/plots/*.png >/dev/null || { echo "no plots"; exit 1; }
# A second run, from the compact form that docs/data keeps, replaces both
# sections with the same text instead of appending others.
cp "$md" "$TEST_TMPDIR/first.md"
python3 "$report" "$compact" --markdown "$md" --plots "$TEST_TMPDIR/plots" >/dev/null
cmp -s "$TEST_TMPDIR/first.md" "$md" || { echo "the compact form renders differently, or a section was duplicated"; exit 1; }
# The A/B comparison finds the benchmark's paired/ results by name, both
# thread counts of each pair asked for, and judges them against its band.
ab=$(python3 "$paired_ab" "$benchmark" "$benchmark" --pairs int8/float32,float64/float16 --runs 4 -- \
  --elements=4096 --paired_phase_ms=0 2>"$TEST_TMPDIR/paired_ab.err") ||
  { echo "paired_ab.py failed:"; cat "$TEST_TMPDIR/paired_ab.err"; exit 1; }
for row in "int8 -> float32 +1_thread" "int8 -> float32 +all_threads" "float64 -> float16 +1_thread" \
  "float64 -> float16 +all_threads" "same-code band" "1_thread: B/A geometric mean"; do
  grep -qE "^$row" <<<"$ab" || { echo "paired_ab.py printed no '$row' line:"; echo "$ab"; exit 1; }
done
echo ok
