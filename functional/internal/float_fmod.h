// fmod of two floats, or two doubles, as std::fmod gives it (exactly), in a
// few operations rather than libm's loop: the CPU kernels' remainder and
// floor division of float32, float16 and bfloat16 (which compute in float)
// and float64. FmodInRange is the branch-free part, so that a loop of it
// vectorizes; the rest of the inputs take std::fmod.

#ifndef ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_FLOAT_FMOD_H_
#define ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_FLOAT_FMOD_H_

#include <cmath>
#include <cstdint>
#include <cstring>

namespace oneflow_promote::functional_internal {

// c ? x : y as a select of bits, which the compiler does not turn into a
// branch on data whose sign a branch would mispredict.
template <typename F>
[[gnu::always_inline]] inline F SelectBits(bool c, F x, F y) {
  using U = std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>;
  U ux, uy;
  std::memcpy(&ux, &x, sizeof x);
  std::memcpy(&uy, &y, sizeof y);
  const U mask = U{0} - static_cast<U>(c);
  const U bits = (ux & mask) | (uy & ~mask);
  F selected;
  std::memcpy(&selected, &bits, sizeof selected);
  return selected;
}

// fmod(a, b) where `in_range` comes back true; elsewhere an unspecified
// value.
//
// float, in range where |a / b| < 2^28: the truncated quotient k times b
// has at most 28 + 24 bits, and a - k * b is a multiple of the smaller of
// a's and b's ulps below 2^53 of them, so both are exact in a double.
// double, in range where |a / b| < 2^52 and 2^-900 <= |b| <= 2^900: k * b
// is split exactly into a rounded product and its error (Dekker's product:
// no fused multiply-add, which the blocks compiled without FMA would call
// libm for); a minus the product is exact (they are within a factor of 2,
// k >= 1), and the error then rounds off into fmod's representable answer.
// Both: the rounded quotient can only reach the next integer away from
// zero (a quotient just below it rounds up to it), which leaves a
// remainder of the other sign than a: one more step back gives fmod's.
// |a| < |b| (b infinite included) leaves a: the truncated quotient is 0.
[[gnu::always_inline]] inline float FmodInRange(float a, float b, bool& in_range) {
  const double quotient = static_cast<double>(a) / static_cast<double>(b);
  in_range = std::fabs(quotient) < 0x1p28;
  const double truncated = std::trunc(quotient);
  double r = static_cast<double>(a) - truncated * static_cast<double>(b);
  r = SelectBits(truncated == 0, static_cast<double>(a), r);
  const double step = SelectBits(quotient > 0, static_cast<double>(b), -static_cast<double>(b));
  r = SelectBits((r != 0) & ((r < 0) != (a < 0)), r + step, r);
  return SelectBits(r == 0, std::copysign(0.0f, a), static_cast<float>(r));
}

[[gnu::always_inline]] inline double FmodInRange(double a, double b, bool& in_range) {
  const double quotient = a / b;
  in_range =
      (std::fabs(quotient) < 0x1p52) & (std::fabs(b) >= 0x1p-900) & (std::fabs(b) <= 0x1p900);
  const double truncated = std::trunc(quotient);
  const auto split = [](double x, double& high, double& low) {
    const double c = 134217729.0 * x;  // 2^27 + 1
    high = c - (c - x);
    low = x - high;
  };
  double t_high, t_low, b_high, b_low;
  split(truncated, t_high, t_low);
  split(b, b_high, b_low);
  const double product = truncated * b;
  const double error =
      ((t_high * b_high - product) + t_high * b_low + t_low * b_high) + t_low * b_low;
  double r = (a - product) - error;
  r = SelectBits(truncated == 0, a, r);
  r = SelectBits((r != 0) & ((r < 0) != (a < 0)), r + SelectBits(quotient > 0, b, -b), r);
  return SelectBits(r == 0, std::copysign(0.0, a), r);
}

[[gnu::always_inline]] inline float FloatFmod(float a, float b) {
  bool in_range;
  const float r = FmodInRange(a, b, in_range);
  return in_range ? r : std::fmod(a, b);
}

[[gnu::always_inline]] inline double DoubleFmod(double a, double b) {
  bool in_range;
  const double r = FmodInRange(a, b, in_range);
  return in_range ? r : std::fmod(a, b);
}

}  // namespace oneflow_promote::functional_internal

#endif  // ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_FLOAT_FMOD_H_
