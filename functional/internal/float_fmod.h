// fmod of two floats, or two doubles, as std::fmod gives it (exactly), in a
// few operations rather than libm's loop: the CPU kernels' remainder and
// floor division of float32, float16 and bfloat16 (which compute in float)
// and float64.

#ifndef ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_FLOAT_FMOD_H_
#define ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_FLOAT_FMOD_H_

#include <cmath>
#include <cstdint>

namespace oneflow_promote::functional_internal {

// Where |a / b| < 2^28: the truncated quotient k times b has at most
// 28 + 24 bits, and a - k * b is a multiple of the smaller of a's and b's
// ulps below 2^53 of them, so both are exact in a double. The rounded
// quotient can only reach the next integer away from zero (a quotient just
// below it rounds up to it), which leaves a remainder of the other sign
// than a: one more step back gives fmod's. Elsewhere (large quotients,
// b = 0, an infinite a, NaN) std::fmod.
[[gnu::always_inline]] inline float FloatFmod(float a, float b) {
  const double quotient = static_cast<double>(a) / static_cast<double>(b);
  if (!(std::fabs(quotient) < 0x1p28)) return std::fmod(a, b);
  // |a| < |b| (b infinite included) leaves a: truncated is 0.
  const double truncated = static_cast<double>(static_cast<int64_t>(quotient));
  double r = static_cast<double>(a) - truncated * static_cast<double>(b);
  if (truncated == 0) r = a;
  if (r != 0 && (r < 0) != (a < 0)) r += quotient > 0 ? b : -b;
  return r == 0 ? std::copysign(0.0f, a) : static_cast<float>(r);
}

// The same for doubles where |a / b| < 2^52: a fused multiply-add gives
// a - k * b rounded once, which is exact, as fmod's answer (and, for a
// quotient that reached the next integer, fmod's minus b) is representable.
[[gnu::always_inline]] inline double DoubleFmod(double a, double b) {
  const double quotient = a / b;
  if (!(std::fabs(quotient) < 0x1p52)) return std::fmod(a, b);
  const double truncated = static_cast<double>(static_cast<int64_t>(quotient));
  if (truncated == 0) return a;  // |a| < |b|, b infinite included
  double r = std::fma(-truncated, b, a);
  if (r != 0 && (r < 0) != (a < 0)) r += quotient > 0 ? b : -b;
  return r == 0 ? std::copysign(0.0, a) : r;
}

}  // namespace oneflow_promote::functional_internal

#endif  // ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_FLOAT_FMOD_H_
