#!/bin/bash
# Proves bench/kernel_variants runs and reports every variant with its
# same-code band: tiny sizes, no rests; it measures nothing.
set -euo pipefail
kernel_variants=$1
for variants in stores sets; do
  out=$("$kernel_variants" --pairs=int8/float32,float64/float16 --elements=4096 --rounds=2 \
    --phase_ms=0 --variants="$variants")
  for pair in "int8 -> float32" "float64 -> float16"; do
    grep -qE "^$pair +1 thread\(s\), 4096 elements: .*\(A/A [0-9.]+\)" <<<"$out" ||
      { echo "no '$pair' line for --variants=$variants:"; echo "$out"; exit 1; }
  done
done
grep -q "baseline" <<<"$out" || { echo "--variants=sets did not list the baseline:"; echo "$out"; exit 1; }
echo ok
