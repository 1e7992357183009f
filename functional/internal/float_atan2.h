// atan2 of two floats, computed in double and rounded once to float, in
// arithmetic and selects without a branch or a call, so that a loop of it
// vectorizes: the CPU kernels' atan2 of float32, float16 and bfloat16 (which
// compute in float). libm's double atan2 took about 20 ns an element.

#ifndef ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_FLOAT_ATAN2_H_
#define ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_FLOAT_ATAN2_H_

#include <cmath>

namespace oneflow_promote::functional_internal {

// atan(t) for |t| <= tan(pi/8): t + t z P(z), z = t^2, P a least-squares fit
// of (atan(t) / t - 1) / z on 400 Chebyshev nodes of [0, 0.41422^2]; its
// relative error is at most 1.5e-16 there (measured in 40-digit arithmetic
// over 2,001 points), far below the 2^-25 that rounding to float needs:
// the float it rounds to is the correctly rounded one but where atan2 lies
// within about 1e-15 of a tie between two floats. P by Estrin's scheme:
// pairs of terms and powers of z computed apart, 7 dependent steps where
// Horner's rule takes 20 (docs/tuning.md).
[[gnu::always_inline]] inline double ReducedAtan(double t) {
  const double z = t * t;
  const double z2 = z * z;
  const double z4 = z2 * z2;
  const double z8 = z4 * z4;
  const double p01 = -0.3333333333333325 + 0.1999999999990125 * z;
  const double p23 = -0.14285714266535166 + 0.1111110966261694 * z;
  const double p45 = -0.09090853334929122 + 0.0769106819458333 * z;
  const double p67 = -0.06649742114537727 + 0.057370697596613014 * z;
  const double p89 = -0.0448561994724329 + 0.022780038212419584 * z;
  const double p = (p01 + p23 * z2) + (p45 + p67 * z2) * z4 + p89 * z8;
  return t + t * z * p;
}

// IEEE atan2(y, x), libm's answers for the special operands: zeros of
// either sign, infinities (the multiples of pi/4), and NaN (x + y, as libm
// returns it; which payload a sum of two NaNs keeps is the compiler's).
//
// With n = min(|x|, |y|) and d = max(|x|, |y|), atan(n / d) lies in
// [0, pi/4]; above tan(pi/8) it is pi/4 + atan((n - d) / (n + d)), whose
// operands are exact in double (floats within a factor of 2.5 of each
// other), so one division reduces either range. 0 / 0 (both zero) and
// (inf - inf) / inf (both infinite, above the split) are NaN there, and
// their atan 0: the answers 0 and pi/4. Swapped operands give pi/2 minus
// it, a negative x (or -0) pi minus that, and y's sign is the answer's.
[[gnu::always_inline]] inline float FloatAtan2(float y, float x) {
  constexpr double kPi = 3.141592653589793, kHalfPi = 1.5707963267948966;
  constexpr double kQuarterPi = 0.7853981633974483, kTanEighthPi = 0.41421356237309503;
  const double wide_x = x, wide_y = y;
  const double abs_x = std::fabs(wide_x), abs_y = std::fabs(wide_y);
  const bool swapped = abs_y > abs_x;
  const double n = swapped ? abs_x : abs_y, d = swapped ? abs_y : abs_x;
  const bool upper = (n > kTanEighthPi * d) | (n == HUGE_VAL);
  double t = (upper ? n - d : n) / (upper ? n + d : d);
  t = t != t ? 0.0 : t;
  double angle = (upper ? kQuarterPi : 0.0) + ReducedAtan(t);
  angle = swapped ? kHalfPi - angle : angle;
  angle = std::copysign(1.0, wide_x) < 0 ? kPi - angle : angle;  // -0 too
  angle = std::copysign(angle, wide_y);
  return static_cast<float>((x != x) | (y != y) ? wide_x + wide_y : angle);
}

}  // namespace oneflow_promote::functional_internal

#endif  // ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_FLOAT_ATAN2_H_
