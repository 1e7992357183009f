// FloatAtan2 against libm's double atan2 rounded to float, bit for bit:
// random bit patterns (NaN, infinities, subnormals and zeros of either sign
// included), ordinary operands, operands whose ratio is next to the
// reduction's split (tan(pi/8)) or to 1, ratios far from 1, and every pair
// of special values.

#include "functional/internal/float_atan2.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include "gtest/gtest.h"

namespace oneflow_promote::functional_internal {
namespace {

uint32_t Bits(float x) {
  uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
float FromBits(uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

float LibmAtan2(float y, float x) {
  return static_cast<float>(std::atan2(static_cast<double>(y), static_cast<double>(x)));
}

// Equal bits, or both NaN.
bool Same(float x, float y) { return (std::isnan(x) && std::isnan(y)) || Bits(x) == Bits(y); }

TEST(FloatAtan2, EqualsLibmBitForBit) {
  std::mt19937 random(2026);
  std::normal_distribution<float> normal;
  for (int i = 0; i < 4'000'000; ++i) {
    float y = FromBits(random()), x = FromBits(random());
    switch (i % 5) {
      case 1:
        y = normal(random), x = normal(random);
        break;
      case 2:  // |y / x| next to tan(pi/8), or to 1
        x = normal(random);
        y = x * ((i & 8) ? 0.41421356f : 1.0f) * (1 + 1e-3f * normal(random));
        break;
      case 3:  // ratios from 2^-150 to 2^150
        x = normal(random);
        y = std::ldexp(normal(random), static_cast<int>(random() % 301) - 150);
        break;
    }
    ASSERT_TRUE(Same(FloatAtan2(y, x), LibmAtan2(y, x)))
        << std::hexfloat << "atan2(" << y << ", " << x << ") = " << LibmAtan2(y, x) << ", got "
        << FloatAtan2(y, x);
  }
}

TEST(FloatAtan2, SpecialValuesAsLibm) {
  using Limits = std::numeric_limits<float>;
  const float specials[] = {0.0f,
                            -0.0f,
                            Limits::infinity(),
                            -Limits::infinity(),
                            Limits::quiet_NaN(),
                            Limits::denorm_min(),
                            -Limits::denorm_min(),
                            Limits::min(),
                            Limits::max(),
                            -Limits::max(),
                            1.0f,
                            -1.0f,
                            0.41421356f,
                            -2.5f};
  for (float y : specials) {
    for (float x : specials) {
      EXPECT_TRUE(Same(FloatAtan2(y, x), LibmAtan2(y, x)))
          << std::hexfloat << "atan2(" << y << ", " << x << ") = " << LibmAtan2(y, x) << ", got "
          << FloatAtan2(y, x);
    }
  }
}

}  // namespace
}  // namespace oneflow_promote::functional_internal
