// RoundedToFloat16 against Convert's round trip (the cast kernels'
// conversions, which cast_vs_torch checks), bit for bit: every float next
// to a rounding boundary (ties, one bit either side, the binades of
// float16's subnormals, overflow, infinities, NaN payloads of both signs)
// and random bit patterns.

#include "functional/internal/narrow_rounding.h"

#include <cstdint>
#include <random>

#include "gtest/gtest.h"
#include "oneflow_promote/convert.h"
#include "oneflow_promote/numeric_types.h"

namespace oneflow_promote::functional_internal {
namespace {

using convert_internal::BitCast;

uint32_t Rounded(uint32_t bits) {
  return BitCast<uint32_t>(RoundedToFloat16(BitCast<float>(bits)));
}
uint32_t RoundTrip(uint32_t bits) {
  return BitCast<uint32_t>(Convert<float>(Convert<Float16>(BitCast<float>(bits))));
}

TEST(NarrowRoundingTest, Float16AsConvertNearEveryBoundary) {
  // float16's normal binades keep float's bits from 13 up; its subnormals
  // fewer, which the 2^-24 grid of the wider cuts covers too.
  int64_t differ = 0;
  for (int cut : {13, 14, 16, 20, 24}) {
    const uint32_t half = uint32_t{1} << (cut - 1), low_mask = (uint32_t{1} << cut) - 1;
    const uint32_t lows[] = {0, 1, half - 1, half, half + 1, low_mask};
    for (uint64_t high = 0; high < (uint64_t{1} << (32 - cut)); ++high) {
      for (uint32_t low : lows) {
        const uint32_t bits = static_cast<uint32_t>(high << cut) | low;
        differ += Rounded(bits) != RoundTrip(bits);
      }
    }
  }
  EXPECT_EQ(differ, 0);
}

TEST(NarrowRoundingTest, RandomBitsAsConvert) {
  std::mt19937 random(20261207);
  for (int i = 0; i < 1 << 22; ++i) {
    const uint32_t bits = random();
    ASSERT_EQ(Rounded(bits), RoundTrip(bits)) << std::hex << bits;
  }
}

TEST(NarrowRoundingTest, Specials) {
  EXPECT_EQ(RoundedToFloat16(65519.996f), 65504.0f);
  EXPECT_EQ(Rounded(BitCast<uint32_t>(65520.0f)), 0x7F800000u);
  EXPECT_EQ(Rounded(BitCast<uint32_t>(-0x1p-25f)), 0x80000000u);  // a tie: to even, zero
  EXPECT_EQ(RoundedToFloat16(0x1.8p-25f), 0x1p-24f);
  EXPECT_EQ(Rounded(0xFF800001u), 0xFFC00000u);
}

}  // namespace
}  // namespace oneflow_promote::functional_internal
