// The CPU cast kernels for every (from, to) pair: one source
// (cpu_cast_kernels.inc, loops over convert.h) compiled once per instruction
// set: the build's baseline everywhere (SSE2 on x86-64, NEON on AArch64),
// AVX2 with F16C on x86-64 (with hand-written blocks for the pairs the
// compiler leaves slow), SVE on AArch64. BestCpuCastKernels picks the
// widest set this processor runs.

#ifndef ONEFLOW_PROMOTE_KERNELS_INTERNAL_CPU_CAST_H_
#define ONEFLOW_PROMOTE_KERNELS_INTERNAL_CPU_CAST_H_

#include <cstdint>
#include <vector>

#include "kernels/internal/strided_layout.h"
#include "oneflow_promote/dtype_enum.h"

namespace oneflow_promote::cast_internal {

// From this many destination bytes on, contiguous casts may take the
// contiguous_streaming kernels (StreamsDestination). A destination this large
// does not survive in a core's caches until its reader comes (L2 is 0.5 to
// 2 MiB, an L3 slice a few MiB), so caching its lines buys nothing and costs
// a read of each.
inline constexpr int64_t kStreamingBytes = int64_t{8} << 20;

// The size of the largest data cache this core uses, as the processor
// reports it (CPUID's cache parameters: on AMD one CCX's or CCD's L3), or 0
// where it reports none.
[[nodiscard]] int64_t LastLevelCacheBytes();

// Whether a pass that reads read_bytes and writes write_bytes on `threads`
// threads writes with non-temporal stores: from kStreamingBytes of
// destination on, except for passes that write at least what they read and
// whose source and destination together fit in three quarters of the
// last-level cache on one thread, or in two and a half times it on several.
//
// On one thread, close to all of the cache was too much (one thread lost 18%
// at 30 of 32 MiB); below that the next pass finds the destination in cache:
// on a Zen 4 with 32 MiB of L3, int8 -> float32 at 2M to 4M elements ran
// 1.3-2.4x faster on one thread and 2.4-3.4x on two with ordinary stores.
// Beyond it one core's own load and store rate, not memory, bounds the pass,
// and streaming gained 0-15% on byte casts of 32 to 80 MiB.
//
// Several threads share one memory bus, which streamed passes saturate
// (int8 -> uint8 of 16M elements took 0.62 ms on one thread and 0.64 ms on
// two), while the part of a pass the L3 keeps serves every core at cache
// speed (0.22 ms on two threads with ordinary stores). Two threads ran byte
// casts of 32 to 48 MiB 1.2-1.9x faster with ordinary stores, and of 80 MiB
// 1.0-1.07x (docs/benchmarks.md).
//
// Narrowing passes lost 15-45% with ordinary stores on one and on two
// threads (float32 -> int16 and float16 at 4M and 5M elements, int16 ->
// int8 at 16M): their streamed blocks read in interleaved streams. Where
// the L3 is 8 MiB (Zen 1) this is nearly the 8 MiB rule alone.
[[nodiscard]] bool StreamsDestination(int64_t read_bytes, int64_t write_bytes, int threads);

// Which stores StreamsDestination chooses. Tests force each kind on small
// buffers, so that what they cover does not depend on the cache sizes of
// the machine they run on.
enum class StoreKind { kChosenBySize, kStreaming, kOrdinary };
void SetStoreKindForTesting(StoreKind kind);

// Forces a store kind for its lifetime.
class ForcedStoreKind {
 public:
  explicit ForcedStoreKind(StoreKind kind) { SetStoreKindForTesting(kind); }
  ~ForcedStoreKind() { SetStoreKindForTesting(StoreKind::kChosenBySize); }
  ForcedStoreKind(const ForcedStoreKind&) = delete;
  ForcedStoreKind& operator=(const ForcedStoreKind&) = delete;
};

// How far ahead of the conversion streaming casts prefetch their source.
// One core keeps too few cache misses in flight for the hardware
// prefetchers alone to use all the bandwidth it could (a Zen 1 core reads
// about 10 GB/s); asking for the lines 2 KiB ahead made streaming casts 8%
// faster on one thread and 7% on two, in geometric mean (docs/benchmarks.md).
inline constexpr int64_t kPrefetchAheadBytes = 2048;

// Streaming kernels with hand-written blocks align the destination to this
// many bytes, so that the blocks' 32-byte non-temporal stores are aligned.
inline constexpr int64_t kStreamAlignment = 32;

// The BlockCast<From, To> of pairs without hand-written blocks (every pair
// of an instruction set that has none): converts nothing, leaving the pair
// to the compiler's loop over convert.h.
template <typename From, typename To>
struct NoBlockCast {
  static constexpr bool kConvertsNothing = true;
  template <bool kStream = false>
  static int64_t Run(const From*, To*, int64_t) { return 0; }
};

// Converts elements [begin, end) of contiguous buffers.
using ContiguousCastFn = void (*)(const void* src, void* dst, int64_t begin, int64_t end);
// Converts rows [row_begin, row_end) of a strided source (rows of
// layout.inner_size() elements) into a contiguous destination.
using StridedCastFn = void (*)(const void* src, const StridedLayout& layout, void* dst,
                               int64_t row_begin, int64_t row_end);

struct CpuCastKernels {
  const char* isa = "";
  ContiguousCastFn contiguous[kNumDTypes][kNumDTypes] = {};
  // The same for destinations larger than the caches: non-temporal stores
  // for the pairs they make faster, ordinary ones for the rest and where
  // the processor has none.
  ContiguousCastFn contiguous_streaming[kNumDTypes][kNumDTypes] = {};
  StridedCastFn strided[kNumDTypes][kNumDTypes] = {};
};

// One Kernels() per instruction set, each defined by the file that compiles
// cpu_cast_kernels.inc for it.
namespace baseline {
const CpuCastKernels& Kernels();
}  // namespace baseline
#if defined(__x86_64__)
namespace avx2 {
const CpuCastKernels& Kernels();
}  // namespace avx2
#elif defined(__aarch64__)
namespace sve {
const CpuCastKernels& Kernels();
}  // namespace sve
#endif

// Every kernel set this processor runs, widest first; the baseline is last.
[[nodiscard]] const std::vector<const CpuCastKernels*>& RunnableCpuCastKernels();

// The kernels casts use: the first of RunnableCpuCastKernels, unless a test
// forces another.
[[nodiscard]] const CpuCastKernels& BestCpuCastKernels();

// Makes BestCpuCastKernels return `kernels` (one of RunnableCpuCastKernels)
// for its lifetime, so that tests check every set the processor runs.
class ForcedCpuCastKernels {
 public:
  explicit ForcedCpuCastKernels(const CpuCastKernels& kernels);
  ~ForcedCpuCastKernels();
  ForcedCpuCastKernels(const ForcedCpuCastKernels&) = delete;
  ForcedCpuCastKernels& operator=(const ForcedCpuCastKernels&) = delete;
};

}  // namespace oneflow_promote::cast_internal

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_CPU_CAST_H_
