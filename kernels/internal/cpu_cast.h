// The CPU cast kernels for every (from, to) pair, compiled once for baseline
// x86-64 (or the build's own target elsewhere) and once for AVX2;
// BestCpuCastKernels picks the widest set this processor runs.

#ifndef ONEFLOW_PROMOTE_KERNELS_INTERNAL_CPU_CAST_H_
#define ONEFLOW_PROMOTE_KERNELS_INTERNAL_CPU_CAST_H_

#include <cstdint>

#include "kernels/internal/strided_layout.h"
#include "oneflow_promote/dtype_enum.h"

namespace oneflow_promote::cast_internal {

// From this many destination bytes on, contiguous casts take the
// contiguous_streaming kernels. A destination this large does not survive in a
// core's caches until its reader comes (L2 is 0.5 to 2 MiB, an L3 slice a
// few MiB), so caching its lines buys nothing and costs a read of each.
inline constexpr int64_t kStreamingBytes = int64_t{8} << 20;

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

namespace baseline {
const CpuCastKernels& Kernels();
}  // namespace baseline
namespace avx2 {
const CpuCastKernels& Kernels();
}  // namespace avx2

// The kernels for this processor, decided once.
[[nodiscard]] const CpuCastKernels& BestCpuCastKernels();

}  // namespace oneflow_promote::cast_internal

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_CPU_CAST_H_
