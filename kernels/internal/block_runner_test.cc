// Tests of block_runner.h: RunBlocks hands each whole block of a run to the
// block exactly once, whichever walk it takes (one stream or several,
// forwards or downwards), LoopBlockCast streams what Convert gives, and
// RoundTowardZero rounds toward zero for its lifetime only. It runs on every
// architecture the kernels build for.

#include "kernels/internal/block_runner.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"

namespace oneflow_promote::cast_internal::blocks {
namespace {

// Runs RunBlocks<kWidth, Rounding::kCallersMode, kStore> over n elements whose
// destination starts out_offset_bytes past the source's start in one
// buffer (the block only counts, so the two ranges may overlap), and checks
// that it visits each whole block once, in place, and returns their length.
template <int kWidth, Store kStore, typename From, typename To>
void ExpectEachBlockOnce(int64_t n, int64_t out_offset_bytes) {
  std::vector<unsigned char> storage(
      static_cast<size_t>(out_offset_bytes + n * sizeof(To) + n * sizeof(From) + 64));
  const auto* in = reinterpret_cast<const From*>(storage.data());
  auto* out = reinterpret_cast<To*>(storage.data() + out_offset_bytes);
  std::vector<int> visits(static_cast<size_t>(n), 0);
  int64_t strays = 0;
  const int64_t converted = RunBlocks<kWidth, Rounding::kCallersMode, kStore>(
      in, out, n, [&](const From* block_in, To* block_out) {
        const int64_t i = block_in - in;
        if (block_out - out != i || i % kWidth != 0 || i < 0 || i + kWidth > n) {
          ++strays;
        } else {
          ++visits[static_cast<size_t>(i)];
        }
      });
  const int64_t whole = n / kWidth * kWidth;
  EXPECT_EQ(converted, whole) << "n=" << n;
  EXPECT_EQ(strays, 0) << "n=" << n;
  for (int64_t i = 0; i < n; ++i) {
    const int expected = i < whole && i % kWidth == 0 ? 1 : 0;
    if (visits[static_cast<size_t>(i)] != expected) {
      ADD_FAILURE() << "n=" << n << ": element " << i << " began " << visits[static_cast<size_t>(i)]
                    << " blocks, expected " << expected;
      return;
    }
  }
}

// Lengths around the edges of a streamed run's parts: none, less than a
// block, whole turns of every stream, and a turn or a block either side.
template <int kWidth, typename From, typename To>
std::vector<int64_t> EdgeLengths() {
  constexpr int64_t kBlockBytes = kWidth * static_cast<int64_t>(sizeof(From));
  constexpr int64_t kTurn = std::max<int64_t>(kStreamTurnBytes / kBlockBytes, 1) * kWidth;
  constexpr int64_t kAllStreams = kReadStreams<From, To> * kTurn;
  return {0,
          1,
          kWidth - 1,
          kWidth,
          kWidth + 1,
          kTurn,
          kAllStreams - 1,
          kAllStreams,
          kAllStreams + kWidth,
          kAllStreams + kTurn - 1,
          3 * kAllStreams + kWidth + 3,
          7 * kAllStreams - kWidth,
          100003};
}

template <int kWidth, typename From, typename To>
void ExpectEachBlockOnceOnEveryWalk() {
  for (const int64_t n : EdgeLengths<kWidth, From, To>()) {
    ExpectEachBlockOnce<kWidth, Store::kOrdinary, From, To>(n, 4096);
    ExpectEachBlockOnce<kWidth, Store::kStreaming, From, To>(n, 4096);
    // 48 bytes ahead modulo 4 KiB: same-size pairs walk downwards.
    ExpectEachBlockOnce<kWidth, Store::kStreaming, From, To>(n, 3 * 4096 + 48);
  }
}

TEST(RunBlocksTest, NarrowingPairsReadFourStreams) {
  static_assert(kReadsInStreams<int64_t, int8_t> && kReadStreams<int64_t, int8_t> == 4);
  ExpectEachBlockOnceOnEveryWalk<16, int64_t, int8_t>();
  ExpectEachBlockOnceOnEveryWalk<8, float, Float16>();
}

TEST(RunBlocksTest, Complex128ToSmallIntegersReadSixStreams) {
  static_assert(kReadStreams<Complex<double>, int16_t> == 6);
  ExpectEachBlockOnceOnEveryWalk<16, Complex<double>, int16_t>();
}

TEST(RunBlocksTest, SameSizePairsWalkDownwardsBehindTheirStores) {
  static_assert(kReadsInStreams<float, int32_t>);
  alignas(64) unsigned char buffer[4096 + 256];
  const auto* source = reinterpret_cast<const float*>(buffer);
  EXPECT_TRUE(ForwardLoadsWaitOnStores(source, reinterpret_cast<int32_t*>(buffer + 48)));
  EXPECT_TRUE(ForwardLoadsWaitOnStores(source, reinterpret_cast<int32_t*>(buffer + 4096 + 124)));
  EXPECT_FALSE(ForwardLoadsWaitOnStores(source, reinterpret_cast<int32_t*>(buffer + 128)));
  EXPECT_FALSE(ForwardLoadsWaitOnStores(source, reinterpret_cast<int32_t*>(buffer + 4096)));
  EXPECT_FALSE(ForwardLoadsWaitOnStores(source, reinterpret_cast<int8_t*>(buffer + 48)));
  ExpectEachBlockOnceOnEveryWalk<8, float, int32_t>();
  ExpectEachBlockOnceOnEveryWalk<8, int64_t, double>();
}

TEST(RunBlocksTest, WideningPairsReadOneStream) {
  static_assert(!kReadsInStreams<int8_t, int64_t>);
  ExpectEachBlockOnceOnEveryWalk<8, int8_t, int64_t>();
  ExpectEachBlockOnceOnEveryWalk<32, int8_t, int16_t>();
}

#if defined(__SSE2__)
// LoopBlockCast, streamed into a destination aligned as streaming runs align
// it, writes what Convert gives element by element and converts whole
// blocks only; unstreamed, it leaves the whole run to the caller's loop.
template <typename From, typename To>
void ExpectLoopBlocksConvert(const std::vector<From>& source) {
  const int64_t n = static_cast<int64_t>(source.size());
  std::vector<unsigned char> storage(static_cast<size_t>(n) * sizeof(To) + 64, 0);
  To* out = reinterpret_cast<To*>(storage.data() +
                                  (64 - reinterpret_cast<uintptr_t>(storage.data()) % 64));
  using Blocks = LoopBlockCast<From, To>;
  EXPECT_EQ(Blocks::Run(source.data(), out, n), 0);
  const int64_t converted = Blocks::template Run<Store::kStreaming>(source.data(), out, n);
  _mm_sfence();
  constexpr int64_t kWidth = Blocks::kWidth;
  EXPECT_EQ(converted, n / kWidth * kWidth);
  for (int64_t i = 0; i < converted; ++i) {
    const To expected = Convert<To>(source[static_cast<size_t>(i)]);
    if (std::memcmp(&out[i], &expected, sizeof(To)) != 0) {
      ADD_FAILURE() << "element " << i << " of " << n;
      return;
    }
  }
}

TEST(LoopBlockCastTest, StreamsWhatConvertGives) {
  std::vector<int64_t> integers;
  std::vector<float> floats;
  for (int64_t i = 0; i < 5000; ++i) {
    // Values past every narrower type's range, zeros and sign changes.
    integers.push_back((i % 7 == 0) ? 0 : (i * 0x9E3779B97F4A7C15LL) >> (i % 61));
    floats.push_back(i % 5 == 0 ? 0.0f
                                : static_cast<float>(integers.back()) * (i % 2 ? 1e-9f : -3.5f));
  }
  ExpectLoopBlocksConvert<int64_t, int8_t>(integers);
  ExpectLoopBlocksConvert<int64_t, bool>(integers);
  ExpectLoopBlocksConvert<float, bool>(floats);
  ExpectLoopBlocksConvert<float, double>(floats);
  // Blocks of 8 and 4, the loops GCC would unroll before vectorizing.
  ExpectLoopBlocksConvert<float, Complex<float>>(floats);
  ExpectLoopBlocksConvert<float, Complex<double>>(floats);
  ExpectLoopBlocksConvert<Complex<float>, float>(std::vector<Complex<float>>(
      reinterpret_cast<const Complex<float>*>(floats.data()),
      reinterpret_cast<const Complex<float>*>(floats.data()) + floats.size() / 2));
}
#endif

TEST(RoundTowardZeroTest, RoundsTowardZeroForItsLifetimeOnly) {
  // 1 + 0.75 ulp of float32: nearest-even gives 1 + 2^-23, toward zero 1.
  volatile double value = 1.0 + 0x3p-25;
  volatile float inside = 0;
  {
    const RoundTowardZero mode;
    inside = static_cast<float>(value);
  }
  volatile float after = static_cast<float>(value);
  EXPECT_EQ(inside, 1.0f);
  EXPECT_EQ(after, 1.0f + 0x1p-23f);
  volatile double negative = -value;
  {
    const RoundTowardZero mode;
    inside = static_cast<float>(negative);
  }
  EXPECT_EQ(inside, -1.0f);
}

}  // namespace
}  // namespace oneflow_promote::cast_internal::blocks
