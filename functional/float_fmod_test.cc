// FloatFmod against libm's fmod, bit for bit: random bit patterns (NaN,
// infinities, subnormals and zeros of either sign included), quotients at
// and next to integers, and operands close together.

#include "functional/internal/float_fmod.h"

#include <cmath>
#include <cstdint>
#include <cstring>
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

// Equal bits, or both NaN.
bool Same(float x, float y) { return (std::isnan(x) && std::isnan(y)) || Bits(x) == Bits(y); }

TEST(FloatFmod, EqualsLibmBitForBit) {
  std::mt19937_64 random(2026);
  int64_t fast_path = 0;
  for (int i = 0; i < 4'000'000; ++i) {
    float a = FromBits(static_cast<uint32_t>(random()));
    float b = FromBits(static_cast<uint32_t>(random()));
    switch (i % 4) {
      case 1: {
        // a = k * b, rounded, then a few ulps either side: quotients at and
        // next to integers up to 2^28.
        const double k = std::floor(std::ldexp(static_cast<double>(random() % 1'000'000) / 1e6,
                                               static_cast<int>(random() % 29)));
        a = FromBits(Bits(static_cast<float>(k * b)) + static_cast<int>(random() % 5) - 2);
        break;
      }
      case 2:
        a = static_cast<float>(static_cast<int>(random() % 2001) - 1000) / 7.0f;
        b = static_cast<float>(static_cast<int>(random() % 2001) - 1000) / 13.0f;
        break;
      case 3:
        b = std::ldexp(FromBits(Bits(a) + static_cast<int>(random() % 64) - 32),
                       -static_cast<int>(random() % 30));
        break;
    }
    fast_path += std::fabs(static_cast<double>(a) / b) < 0x1p28;
    ASSERT_TRUE(Same(FloatFmod(a, b), std::fmod(a, b)))
        << std::hexfloat << "fmod(" << a << ", " << b << ") = " << std::fmod(a, b) << ", got "
        << FloatFmod(a, b);
  }
  EXPECT_GT(fast_path, 2'000'000);  // the double path, not only libm's
}

TEST(FloatFmod, SpecialsAsLibm) {
  const float specials[] = {0.0f,          -0.0f,          INFINITY,    -INFINITY,
                            NAN,           1e-45f,         -1e-45f,     1.17549435e-38f,
                            3.4028235e38f, -3.4028235e38f, 1.0f,        -1.0f,
                            3.0f,          0.5f,           268435456.0f};
  for (float a : specials) {
    for (float b : specials) {
      EXPECT_TRUE(Same(FloatFmod(a, b), std::fmod(a, b)))
          << std::hexfloat << "fmod(" << a << ", " << b << ")";
    }
  }
}

TEST(FloatFmod, ZerosTakeTheDividendsSign) {
  EXPECT_EQ(Bits(FloatFmod(-6.0f, 3.0f)), Bits(-0.0f));
  EXPECT_EQ(Bits(FloatFmod(6.0f, -3.0f)), Bits(0.0f));
  EXPECT_EQ(Bits(FloatFmod(-0.0f, 3.0f)), Bits(-0.0f));
  EXPECT_TRUE(std::isnan(FloatFmod(1.0f, 0.0f)));
  EXPECT_EQ(FloatFmod(5.0f, INFINITY), 5.0f);
  EXPECT_EQ(Bits(FloatFmod(-0.0f, -INFINITY)), Bits(-0.0f));
  EXPECT_TRUE(std::isnan(FloatFmod(INFINITY, 2.0f)));
}

}  // namespace
}  // namespace oneflow_promote::functional_internal
