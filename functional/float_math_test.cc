// The CPU kernels' float element functions against libm, bit for bit:
// FloatFmod and DoubleFmod against fmod, FloatAtan2 against double atan2
// rounded to float. Random bit patterns (NaN, infinities, subnormals and
// zeros of either sign included), the inputs each one's reduction is least
// sure of, and every pair of special values.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "functional/internal/float_atan2.h"
#include "functional/internal/float_fmod.h"
#include "gtest/gtest.h"

namespace oneflow_promote::functional_internal {
namespace {

template <typename F>
using BitsOf = std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>;

template <typename F>
BitsOf<F> Bits(F x) {
  BitsOf<F> u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

template <typename F>
F FromBits(BitsOf<F> u) {
  F x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

float Fmod(float a, float b) { return FloatFmod(a, b); }
double Fmod(double a, double b) { return DoubleFmod(a, b); }

// Equal bits, or both NaN.
template <typename F>
bool Same(F x, F y) {
  return (std::isnan(x) && std::isnan(y)) || Bits(x) == Bits(y);
}

// Zeros, infinities, NaN, the extremes of each binade kind, +-1, and more.
template <typename F>
std::vector<F> Specials(std::initializer_list<F> more) {
  using Limits = std::numeric_limits<F>;
  std::vector<F> values = {F(0),
                           F(-0.0),
                           Limits::infinity(),
                           -Limits::infinity(),
                           Limits::quiet_NaN(),
                           Limits::denorm_min(),
                           -Limits::denorm_min(),
                           Limits::min(),
                           Limits::max(),
                           -Limits::max(),
                           F(1),
                           F(-1)};
  values.insert(values.end(), more);
  return values;
}

// kFastBits: the quotients below 2^kFastBits take the fast path.
template <typename F, int kFastBits>
void ExpectEqualsLibm() {
  std::mt19937_64 random(2026);
  int64_t fast_path = 0;
  for (int i = 0; i < 4'000'000; ++i) {
    F a = FromBits<F>(static_cast<BitsOf<F>>(random()));
    F b = FromBits<F>(static_cast<BitsOf<F>>(random()));
    switch (i % 4) {
      case 1: {
        // a = k * b, rounded, then a few ulps either side.
        const F k = std::floor(std::ldexp(static_cast<F>(random() % 1'000'000) / F(1e6),
                                          static_cast<int>(random() % (kFastBits + 1))));
        a = FromBits<F>(Bits<F>(k * b) + static_cast<int>(random() % 5) - 2);
        break;
      }
      case 2:
        a = static_cast<F>(static_cast<int>(random() % 2001) - 1000) / F(7);
        b = static_cast<F>(static_cast<int>(random() % 2001) - 1000) / F(13);
        break;
      case 3:
        b = std::ldexp(FromBits<F>(Bits(a) + static_cast<int>(random() % 64) - 32),
                       -static_cast<int>(random() % (kFastBits + 2)));
        break;
    }
    fast_path += std::fabs(a / b) < std::ldexp(F(1), kFastBits);
    ASSERT_TRUE(Same(Fmod(a, b), std::fmod(a, b)))
        << std::hexfloat << "fmod(" << a << ", " << b << ") = " << std::fmod(a, b) << ", got "
        << Fmod(a, b);
  }
  EXPECT_GT(fast_path, 2'000'000);  // the fast path, not only libm's
  const std::vector<F> specials = Specials<F>({F(3), F(0.5), std::ldexp(F(1), kFastBits)});
  for (F a : specials) {
    for (F b : specials) {
      EXPECT_TRUE(Same(Fmod(a, b), std::fmod(a, b)))
          << std::hexfloat << "fmod(" << a << ", " << b << ")";
    }
  }
}

TEST(FloatFmod, EqualsLibmBitForBit) { ExpectEqualsLibm<float, 28>(); }
TEST(DoubleFmod, EqualsLibmBitForBit) { ExpectEqualsLibm<double, 52>(); }

TEST(FloatFmod, ZerosTakeTheDividendsSign) {
  EXPECT_EQ(Bits(FloatFmod(-6.0f, 3.0f)), Bits(-0.0f));
  EXPECT_EQ(Bits(FloatFmod(6.0f, -3.0f)), Bits(0.0f));
  EXPECT_EQ(Bits(DoubleFmod(-6.0, 3.0)), Bits(-0.0));
  EXPECT_EQ(Bits(FloatFmod(-0.0f, -INFINITY)), Bits(-0.0f));
  EXPECT_EQ(DoubleFmod(5.0, INFINITY), 5.0);
}

float LibmAtan2(float y, float x) {
  return static_cast<float>(std::atan2(static_cast<double>(y), static_cast<double>(x)));
}

TEST(FloatAtan2, EqualsLibmBitForBit) {
  std::mt19937 random(2026);
  std::normal_distribution<float> normal;
  for (int i = 0; i < 4'000'000; ++i) {
    float y = FromBits<float>(random()), x = FromBits<float>(random());
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
  const std::vector<float> specials = Specials<float>({0.41421356f, -2.5f});
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
