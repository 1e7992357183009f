#!/bin/bash
# The promote binary's contract: one answer line per batch input line (blank
# and malformed lines included), "error: " answers, and exit statuses.
# Expected dtypes are PyTorch 1.13's documented answers (semantics.md).
set -u
promote=$1
fail() { echo "FAIL: $*"; exit 1; }

input=$'int8 1.0\n--default-dtype=float64 int8 1.0\n\nuint16 int8\nexplain int8 float64[]\ntable\nnot_a_dtype\n--policy=array_api uint8 int8\npromote bool True'
output=$(printf '%s\n' "$input" | "$promote" --batch) || fail "batch mode exited non-zero"
[ "$(wc -l <<<"$output")" -eq 9 ] || fail "expected 9 answer lines, got: $output"
line() { sed -n "$1p" <<<"$output"; }
[ "$(line 1)" = float32 ] || fail "line 1: $(line 1)"
[ "$(line 2)" = float64 ] || fail "line 2: $(line 2)"
[[ "$(line 3)" == "error: "* ]] || fail "blank line: $(line 3)"
[[ "$(line 4)" == "error: "*"Promotion for uint16"* ]] || fail "line 4: $(line 4)"
[[ "$(line 5)" == *"; result: float64" ]] || fail "explain: $(line 5)"
[[ "$(line 6)" == "| \`torch\` | bool"* ]] || fail "table: $(line 6)"
[[ "$(line 7)" == "error: unknown dtype 'not_a_dtype'"* ]] || fail "line 7: $(line 7)"
[ "$(line 8)" = int16 ] || fail "line 8: $(line 8)"
[ "$(line 9)" = bool ] || fail "line 9: $(line 9)"

# --batch flags are every line's defaults.
[ "$(echo 'int8 1.0' | "$promote" --batch --default-dtype=float64)" = float64 ] ||
  fail "--batch --default-dtype"

# `op` through the binary and batch mode (semantics.md section 4's rules).
ops=$(printf 'op sum int8\nop --default-dtype=float64 div int32 int32[]\nop mean int32\nop nope int8\n' |
  "$promote" --batch)
[ "$(sed -n 1p <<<"$ops")" = int64 ] || fail "op sum: $ops"
[ "$(sed -n 2p <<<"$ops")" = float64 ] || fail "op div: $ops"
[[ "$(sed -n 3p <<<"$ops")" == "error: mean(): could not infer output dtype"* ]] || fail "op mean: $ops"
[[ "$(sed -n 4p <<<"$ops")" == "error: unknown op 'nope'"* ]] || fail "unknown op: $ops"
"$promote" op mean int32 >/dev/null && fail "an op error exited zero"
# div's rounding mode as PyTorch's keyword: floor division keeps integers.
[ "$("$promote" op div --rounding-mode=floor int32 int32)" = int32 ] || fail "div floor"
[ "$("$promote" op div int32 int32)" = float32 ] || fail "true div"
"$promote" op --policy=array_api add int8 int8 >/dev/null && fail "op with the Array API policy exited zero"
# pow's Python-int exponent goes through c10's checked conversion: 10^18 fits
# float32's range (the check must not convert float32's max to a 128-bit
# integer, which overflows) and not float16's.
[ "$("$promote" op pow float32 1000000000000000000)" = float32 ] || fail "pow float32 10^18"
[[ "$("$promote" op pow float16 1000000000000000000)" == "error: value 1000000000000000000 cannot be converted to type float16 without overflow" ]] ||
  fail "pow float16 10^18"

"$promote" int8 float32 >/dev/null || fail "a valid invocation exited non-zero"
out=$("$promote" int8 1.2.3) && fail "a malformed literal exited zero"
[[ "$out" == "error: "* ]] || fail "malformed literal: $out"
"$promote" --policy=numpy int8 >/dev/null && fail "an unknown policy exited zero"
[ "$("$promote" table | wc -l)" -eq 24 ] || fail "the torch table should have 22 rows"
echo "ok"
