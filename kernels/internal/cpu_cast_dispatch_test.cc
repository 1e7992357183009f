// Tests of cpu_cast_dispatch.cc's decisions as pure functions of the sizes
// they are given: the store kind of a pass in last-level caches of the
// machines the rules were measured on and of the ones they must hold on,
// and which processors may run the AVX-512 kernels. No size here follows
// what this machine reports.

#include <cstdint>

#include "gtest/gtest.h"
#include "kernels/cpu_cast.h"

namespace oneflow_promote::cast_internal {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;
// The L3 of one Zen 3, Zen 4 or Zen 5 CCD; what an Emerald Rapids VM of 2
// vCPUs reported (the whole socket's); and a 16-core Emerald Rapids host.
constexpr int64_t kZenL3 = 32 * kMiB;
constexpr int64_t kXeonVmL3 = 260 * kMiB;
constexpr int64_t kXeonHostL3 = 300 * kMiB;
constexpr int64_t k16M = int64_t{16} << 20;

// The store rule on the caches of the machines it was measured on, at the
// sizes measured there (docs/tuning.md, CachingPays): each case is a pass
// whose ordinary stores ran faster (caching pays) or slower than streamed
// ones.
TEST(CachingPaysTest, WhereMeasuredFaster) {
  constexpr int64_t kXeonL3 = 480 * kMiB;
  // int8 -> float32 at 4M elements on a Zen 4: ordinary stores faster.
  EXPECT_TRUE(CachingPays(4 * kMiB, 16 * kMiB, kZenL3));
  // 1- and 2-byte casts of 32 to 80 MiB at 16M elements on a Zen 3: streaming
  // faster on two threads.
  EXPECT_FALSE(CachingPays(16 * kMiB, 16 * kMiB, kZenL3));
  EXPECT_FALSE(CachingPays(16 * kMiB, 64 * kMiB, kZenL3));
  // float32 -> int16 at 4M elements: ordinary stores slower.
  EXPECT_FALSE(CachingPays(16 * kMiB, 8 * kMiB, kZenL3));
  // float32 -> int8 and int16 -> bool at 16M elements on the Xeon: libtorch's
  // ordinary stores a quarter of the time of streaming ones.
  EXPECT_TRUE(CachingPays(64 * kMiB, 16 * kMiB, kXeonL3));
  EXPECT_TRUE(CachingPays(32 * kMiB, 16 * kMiB, kXeonL3));
  // Where the processor reports no cache, nothing is held.
  EXPECT_FALSE(CachingPays(kMiB, kMiB, 0));
}

// A source outgrows the cache from the cache's whole size on; a processor
// that reports no cache is taken to have none.
TEST(SourceOutgrowsCacheTest, FromTheWholeCacheOn) {
  EXPECT_FALSE(SourceOutgrowsCache(kZenL3 - 64, kZenL3));
  EXPECT_TRUE(SourceOutgrowsCache(kZenL3, kZenL3));
  EXPECT_TRUE(SourceOutgrowsCache(kMiB, 0));
}

// Below kStreamingBytes of destination, and where caching pays, the stores
// are ordinary whatever the cache.
TEST(StoreKindForTest, OrdinaryBelowTheStreamingSizeAndWhereCachingPays) {
  EXPECT_EQ(StoreKindFor(8 * kMiB, kStreamingBytes - 1, 0), StoreKind::kOrdinary);
  EXPECT_EQ(StoreKindFor(64 * kMiB, kStreamingBytes - 1, kZenL3), StoreKind::kOrdinary);
  // float32 -> int8 at 16M elements in a Xeon VM's reported L3.
  EXPECT_EQ(StoreKindFor(4 * k16M, k16M, kXeonVmL3), StoreKind::kOrdinary);
  // int8 -> float32 at 4M elements in a Zen's L3.
  EXPECT_EQ(StoreKindFor(4 * kMiB, 16 * kMiB, kZenL3), StoreKind::kOrdinary);
}

// The pairs that lost to libtorch on the Emerald Rapids machines stream
// over a source that stays in their L3, so without the non-temporal
// prefetch; on a Zen's 32 MiB the same passes read from memory, as before.
TEST(StoreKindForTest, SourcesThatFitTheCacheAreNotReadAsFromMemory) {
  // complex64 -> float32 and complex128 -> int8 at 16M elements.
  const int64_t complex64 = 8 * k16M, float32 = 4 * k16M;
  const int64_t complex128 = 16 * k16M, int8 = k16M;
  for (const int64_t l3 : {kXeonVmL3, kXeonHostL3}) {
    EXPECT_EQ(StoreKindFor(complex64, float32, l3), StoreKind::kStreaming) << l3;
    EXPECT_EQ(StoreKindFor(complex128, int8, l3), StoreKind::kStreaming) << l3;
  }
  EXPECT_EQ(StoreKindFor(complex64, float32, kZenL3), StoreKind::kStreamingFromMemory);
  EXPECT_EQ(StoreKindFor(complex128, int8, kZenL3), StoreKind::kStreamingFromMemory);
  // int16 -> bool at 16M elements reads exactly a Zen's L3.
  EXPECT_EQ(StoreKindFor(2 * k16M, k16M, kZenL3), StoreKind::kStreamingFromMemory);
  // float32 -> int16 at 4M elements: a 16 MiB source in a 32 MiB L3.
  EXPECT_EQ(StoreKindFor(16 * kMiB, 8 * kMiB, kZenL3), StoreKind::kStreaming);
  // Where the processor reports no cache, every streamed source is.
  EXPECT_EQ(StoreKindFor(16 * kMiB, 8 * kMiB, 0), StoreKind::kStreamingFromMemory);
}

// AVX-512 needs all four of the set's CPUID bits and the OS's state for the
// opmask and the full vector registers, on top of SSE and AVX's.
TEST(RunsAvx512Test, NeedsTheFeaturesAndTheOsState) {
  constexpr uint32_t kF = 1u << 16, kDq = 1u << 17, kBw = 1u << 30, kVl = 1u << 31;
  constexpr uint32_t kAll = kF | kDq | kBw | kVl;
  constexpr uint64_t kX87SseAvx = 0b111, kZmmState = 0b1110'0000;
  EXPECT_TRUE(RunsAvx512(kAll, kX87SseAvx | kZmmState));
  // Intel's AMX and others' bits beyond do not matter.
  EXPECT_TRUE(RunsAvx512(kAll | 1u << 5, kX87SseAvx | kZmmState | uint64_t{3} << 17));
  for (const uint32_t missing : {kF, kDq, kBw, kVl}) {
    EXPECT_FALSE(RunsAvx512(kAll & ~missing, kX87SseAvx | kZmmState)) << missing;
  }
  // An OS (or hypervisor) that saves only the YMM state: AVX2 only.
  EXPECT_FALSE(RunsAvx512(kAll, kX87SseAvx));
  for (const uint64_t missing :
       {uint64_t{1} << 5, uint64_t{1} << 6, uint64_t{1} << 7, uint64_t{1} << 2}) {
    EXPECT_FALSE(RunsAvx512(kAll, (kX87SseAvx | kZmmState) & ~missing)) << missing;
  }
  // No OSXSAVE: XGETBV is not read and counts as no state.
  EXPECT_FALSE(RunsAvx512(kAll, 0));
}

}  // namespace
}  // namespace oneflow_promote::cast_internal
