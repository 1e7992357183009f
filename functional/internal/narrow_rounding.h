// A float rounded to float16 and back, as Convert rounds it (to nearest
// even; overflow to infinity; a NaN becomes float16's quiet NaN with its
// sign), without leaving float's bits: the rounding steps of PyTorch's
// float16 arithmetic (op_math.h's RoundTo). Convert's round trip, which
// rebiases into float16's bits and back, vectorizes too but ran float16
// truncating division at half this speed (docs/tuning.md); bfloat16's
// round trip is already a bit rounding and takes Convert.

#ifndef ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_NARROW_ROUNDING_H_
#define ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_NARROW_ROUNDING_H_

#include <cmath>
#include <cstdint>

#include "oneflow_promote/convert.h"

namespace oneflow_promote::functional_internal {

// float16 keeps 10 of float's 23 fraction bits down to 2^-14; below it, its
// subnormals are the multiples of 2^-24, which adding and taking away 0.5
// (whose ulp is 2^-24) rounds to. Above 65504 lies infinity (65520 and up
// round there; 65504 < x < 65520 rounds down to it).
[[gnu::always_inline]] inline float RoundedToFloat16(float x) {
  using convert_internal::BitCast;
  const uint32_t bits = BitCast<uint32_t>(x);
  const uint32_t magnitude = bits & 0x7FFFFFFFu;
  const uint32_t normal = (magnitude + 0xFFFu + ((magnitude >> 13) & 1u)) & 0xFFFFE000u;
  const uint32_t subnormal = BitCast<uint32_t>((std::fabs(x) + 0.5f) - 0.5f);
  uint32_t rounded = magnitude < 0x38800000u ? subnormal : normal;  // 2^-14
  rounded = rounded > 0x477FE000u ? 0x7F800000u : rounded;          // 65504
  rounded |= bits & 0x80000000u;
  const uint32_t quiet_nan = (bits & 0x80000000u) | 0x7FC00000u;  // float16's 0x7E00, widened
  return BitCast<float>(x != x ? quiet_nan : rounded);
}

}  // namespace oneflow_promote::functional_internal

#endif  // ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_NARROW_ROUNDING_H_
