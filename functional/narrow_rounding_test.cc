// RoundedToFloat16 and RoundedToBFloat16 against Convert's round trip (the
// cast kernels' conversions, which cast_vs_torch checks), bit for bit:
// every float next to a rounding boundary of either dtype (ties, one bit
// either side, the binades of float16's subnormals, overflow, infinities,
// NaN payloads of both signs) and random bit patterns.

#include "functional/internal/narrow_rounding.h"

#include <cstdint>
#include <random>

#include "gtest/gtest.h"
#include "oneflow_promote/convert.h"
#include "oneflow_promote/numeric_types.h"

namespace oneflow_promote::functional_internal {
namespace {

template <typename T>
uint32_t RoundTripBits(uint32_t bits) {
  return FloatBits(Convert<float>(Convert<T>(FloatFromBits(bits))));
}

// Calls check(bits) for each float whose bits below `cut` are one of the
// values next to a boundary of a dtype that keeps the bits above it.
template <typename Check>
void ForEachNearBoundary(int cut, Check&& check) {
  const uint32_t half = uint32_t{1} << (cut - 1), low_mask = (uint32_t{1} << cut) - 1;
  const uint32_t lows[] = {0, 1, half - 1, half, half + 1, low_mask};
  for (uint64_t high = 0; high < (uint64_t{1} << (32 - cut)); ++high) {
    for (uint32_t low : lows) check(static_cast<uint32_t>(high << cut) | low);
  }
}

TEST(NarrowRoundingTest, Float16AsConvertNearEveryBoundary) {
  int64_t differ = 0;
  // float16's normal binades keep float's bits from 13 up; its subnormals
  // fewer, which the 2^-24 grid of these cuts covers too.
  for (int cut : {13, 14, 16, 20, 24}) {
    ForEachNearBoundary(cut, [&](uint32_t bits) {
      differ += FloatBits(RoundedToFloat16(FloatFromBits(bits))) != RoundTripBits<Float16>(bits);
    });
  }
  EXPECT_EQ(differ, 0);
}

TEST(NarrowRoundingTest, BFloat16AsConvertNearEveryBoundary) {
  int64_t differ = 0;
  ForEachNearBoundary(16, [&](uint32_t bits) {
    differ += FloatBits(RoundedToBFloat16(FloatFromBits(bits))) != RoundTripBits<BFloat16>(bits);
  });
  EXPECT_EQ(differ, 0);
}

TEST(NarrowRoundingTest, RandomBitsAsConvert) {
  std::mt19937 random(20261207);
  for (int i = 0; i < 1 << 22; ++i) {
    const uint32_t bits = random();
    const float x = FloatFromBits(bits);
    ASSERT_EQ(FloatBits(RoundedToFloat16(x)), RoundTripBits<Float16>(bits)) << std::hex << bits;
    ASSERT_EQ(FloatBits(RoundedToBFloat16(x)), RoundTripBits<BFloat16>(bits)) << std::hex << bits;
  }
}

TEST(NarrowRoundingTest, Specials) {
  EXPECT_EQ(FloatBits(RoundedToFloat16(65519.996f)), FloatBits(65504.0f));
  EXPECT_EQ(FloatBits(RoundedToFloat16(65520.0f)), 0x7F800000u);
  EXPECT_EQ(FloatBits(RoundedToFloat16(-0x1p-25f)), 0x80000000u);  // a tie: to even, zero
  EXPECT_EQ(FloatBits(RoundedToFloat16(0x1.8p-25f)), FloatBits(0x1p-24f));
  EXPECT_EQ(FloatBits(RoundedToFloat16(FloatFromBits(0xFF800001u))), 0xFFC00000u);
  EXPECT_EQ(FloatBits(RoundedToBFloat16(FloatFromBits(0x7F7FFFFFu))), 0x7F800000u);
  EXPECT_EQ(FloatBits(RoundedToBFloat16(FloatFromBits(0x7F800001u))), 0x7FC00000u);
  EXPECT_EQ(FloatBits(RoundedToBFloat16(FloatFromBits(0x00018000u))), 0x00020000u);
}

}  // namespace
}  // namespace oneflow_promote::functional_internal
