// A float rounded to float16 or bfloat16 and back, as Convert rounds it
// (to nearest even; overflow to infinity; a NaN becomes the dtype's quiet
// NaN with its sign), in integer and float operations without a branch or
// a call: the rounding steps of PyTorch's float16 and bfloat16 arithmetic
// (op_math.h's RoundTo) in loops that vectorize.

#ifndef ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_NARROW_ROUNDING_H_
#define ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_NARROW_ROUNDING_H_

#include <cmath>
#include <cstdint>
#include <cstring>

namespace oneflow_promote::functional_internal {

[[gnu::always_inline]] inline uint32_t FloatBits(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}
[[gnu::always_inline]] inline float FloatFromBits(uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// The quiet NaN both dtypes widen to (0x7E00 and 0x7FC0 are the high bits
// of float's), with x's sign.
[[gnu::always_inline]] inline uint32_t QuietNanBits(uint32_t bits) {
  return (bits & 0x80000000u) | 0x7FC00000u;
}

// bfloat16 is float's high half: round the low 16 bits away to nearest
// even. A carry into the exponent is the next binade, or infinity.
[[gnu::always_inline]] inline float RoundedToBFloat16(float x) {
  const uint32_t bits = FloatBits(x);
  const uint32_t rounded = (bits + 0x7FFFu + ((bits >> 16) & 1u)) & 0xFFFF0000u;
  return FloatFromBits(x != x ? QuietNanBits(bits) : rounded);
}

// float16 keeps 10 of float's 23 fraction bits down to 2^-14; below it, its
// subnormals are the multiples of 2^-24, which adding and taking away 0.5
// (whose ulp is 2^-24) rounds to. Above 65504 lies infinity (65520 and up
// round there; 65504 < x < 65520 rounds down to it).
[[gnu::always_inline]] inline float RoundedToFloat16(float x) {
  const uint32_t bits = FloatBits(x);
  const uint32_t magnitude = bits & 0x7FFFFFFFu;
  const uint32_t normal = (magnitude + 0xFFFu + ((magnitude >> 13) & 1u)) & 0xFFFFE000u;
  const uint32_t subnormal = FloatBits((std::fabs(x) + 0.5f) - 0.5f);
  uint32_t rounded = magnitude < 0x38800000u ? subnormal : normal;  // 2^-14
  rounded = rounded > 0x477FE000u ? 0x7F800000u : rounded;          // 65504
  rounded |= bits & 0x80000000u;
  return FloatFromBits(x != x ? QuietNanBits(bits) : rounded);
}

}  // namespace oneflow_promote::functional_internal

#endif  // ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_NARROW_ROUNDING_H_
