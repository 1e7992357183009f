#!/bin/bash
# The promote binary's contract: one answer line per batch input line (blank
# and malformed lines included), "error: " answers, and exit statuses.
# Expected dtypes are PyTorch 1.13's documented answers (docs/promotion.md), and
# NumPy 2.4's and JAX 0.10.2's (each with the expression that gives it).
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

# `op` through the binary and batch mode (the rules of docs/ops.md).
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
# Under another policy, the op as that framework decides it, by its names.
[ "$("$promote" op --policy=numpy sin int8)" = float16 ] || fail "numpy sin int8"
[ "$("$promote" op --policy=jax_x32 arctan2 int8 int8)" = float32 ] || fail "jax arctan2"
"$promote" op --policy=array_api sin int8 >/dev/null && fail "xp.sin of int8 exited zero"
[[ "$("$promote" op --policy=array_api arctan2 float32 float32)" == "error: the Array API has no op 'arctan2'"* ]] ||
  fail "arctan2 is NumPy's name, not the Array API's"
# pow's Python-int exponent goes through c10's checked conversion: 10^18 fits
# float32's range (the check must not convert float32's max to a 128-bit
# integer, which overflows) and not float16's.
[ "$("$promote" op pow float32 1000000000000000000)" = float32 ] || fail "pow float32 10^18"
[[ "$("$promote" op pow float16 1000000000000000000)" == "error: value 1000000000000000000 cannot be converted to type float16 without overflow" ]] ||
  fail "pow float16 10^18"

"$promote" int8 float32 >/dev/null || fail "a valid invocation exited non-zero"
out=$("$promote" int8 1.2.3) && fail "a malformed literal exited zero"
[[ "$out" == "error: "* ]] || fail "malformed literal: $out"
"$promote" --policy=mxnet int8 >/dev/null && fail "an unknown policy exited zero"

# The weak-scalar policies, in batch mode with per-line flags:
# np.add(np.zeros(3, np.int8), 300) raises OverflowError, jnp.add(...) is int8;
# np.add(np.zeros(3, np.uint8), np.int64(1)) is int64 (NAME[] is a NumPy scalar).
weak=$(printf '%s\n' '--policy=numpy int8 300' '--policy=jax int8 300' \
  '--policy=numpy uint8 int64[]' '--policy=jax_x32 int64 1.5' '--policy=jax_strict bool 1' \
  '--policy=numpy table' '--policy=jax diff numpy jax' | "$promote" --batch)
[[ "$(sed -n 1p <<<"$weak")" == "error: operand 2 (Python int 300) is out of bounds for int8"* ]] ||
  fail "numpy int8 300: $weak"
[ "$(sed -n 2p <<<"$weak")" = int8 ] || fail "jax int8 300: $weak"
[ "$(sed -n 3p <<<"$weak")" = int64 ] || fail "numpy uint8 int64[]: $weak"
[ "$(sed -n 4p <<<"$weak")" = float32 ] || fail "jax_x32 int64 1.5: $weak"
[[ "$(sed -n 5p <<<"$weak")" == "error: "*"jax_numpy_dtype_promotion=strict" ]] ||
  fail "jax_strict bool 1: $weak"
[[ "$(sed -n 6p <<<"$weak")" == "| \`numpy\` | bool | uint8 | int8 "* ]] || fail "numpy table: $weak"
[[ "$(sed -n 7p <<<"$weak")" == "numpy -> jax: "*" operand pairs differ"* ]] || fail "diff: $weak"
[ "$("$promote" table --policy=numpy | wc -l)" -eq 16 ] || fail "the numpy table should have 14 rows"
[ "$("$promote" table --policy=jax | wc -l)" -eq 22 ] || fail "the jax table should have 20 rows"
# MLX: mx.array([0], mx.uint64) + mx.array([0], mx.int64) is float32; the
# three-operand fold is float32 too (int8 + uint64 is a float32 array).
[ "$("$promote" --policy=mlx uint64 int64)" = float32 ] || fail "mlx uint64 int64"
[ "$("$promote" --policy=mlx int8 uint64 float16)" = float32 ] || fail "mlx int8 uint64 float16"
[ "$("$promote" --policy=mlx op sum uint8)" = uint32 ] || fail "mlx op sum uint8"
# diff lists each differing pair once, under its group; numpy and jax differ
# on int32 + float16 (float64 and float16) and on int8 + 300 (error and int8).
diff_out=$("$promote" diff numpy jax) || fail "diff exited non-zero"
grep -q '^| int32 | float16 | float64 | float16 |$' <<<"$diff_out" || fail "diff int32 float16"
grep -q '^| int8 | 300 | error | int8 |$' <<<"$diff_out" || fail "diff int8 300"
grep -q '^### array with Python scalar: ' <<<"$diff_out" || fail "diff groups"
[ "$("$promote" diff jax jax | head -1)" = \
  "jax -> jax: 0 of 1128 operand pairs differ (20 dtypes both have, each as an array and a 0-d array, and the Python scalars True 1 -1 300 9223372036854775808 1.5 1j)" ] ||
  fail "diff of a policy with itself: $("$promote" diff jax jax | head -1)"
"$promote" diff numpy >/dev/null && fail "diff with one policy exited zero"
[[ "$("$promote" diff --ops numpy array_api | sed -n 2p)" == "Only in numpy: "*heaviside* ]] ||
  fail "diff --ops numpy array_api should list heaviside as NumPy's only"
[ "$("$promote" table | wc -l)" -eq 24 ] || fail "the torch table should have 22 rows"
echo "ok"
