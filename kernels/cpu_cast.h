// The CPU cast kernels for every (from, to) pair: one source
// (cpu_cast_kernels.inc, loops over convert.h) compiled once per instruction
// set: the build's baseline everywhere (SSE2 on x86-64, NEON on AArch64),
// AVX2 with F16C on x86-64 (with hand-written blocks for the pairs the
// compiler leaves slow) and the same with AVX-512, SVE on AArch64.
// BestCpuCastKernels picks the preferred set this processor runs.

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
// a read of each (docs/tuning.md, kStreamingBytes).
inline constexpr int64_t kStreamingBytes = int64_t{8} << 20;

// The size of the largest data cache this core uses, as the processor
// reports it (CPUID's cache parameters: on AMD one CCX's or CCD's L3), or 0
// where it reports none.
[[nodiscard]] int64_t LastLevelCacheBytes();

// Whether a pass that reads read_bytes and writes write_bytes writes with
// non-temporal stores: from kStreamingBytes of destination on, unless
// caching pays (CachingPays) in the last-level cache the processor reports
// (ChosenStoreKind).
[[nodiscard]] bool StreamsDestination(int64_t read_bytes, int64_t write_bytes);

// Whether ordinary stores beat streaming for such a pass because its source
// and destination stay in a last-level cache of cache_bytes until the next
// pass reads them: within three quarters of the cache for passes that write
// at least what they read, within half of it for narrowing passes, whose
// streamed blocks read in interleaved streams; on any number of threads.
// A pass that the cache holds runs as libtorch's does, with ordinary stores
// (docs/tuning.md, CachingPays).
[[nodiscard]] bool CachingPays(int64_t read_bytes, int64_t write_bytes, int64_t cache_bytes);

// Whether a pass's source of read_bytes outgrows a last-level cache of
// cache_bytes: at least the whole cache, so that a pass reading it in order
// has evicted its first lines before the next pass comes back to them, and
// a prefetch that keeps them out of the cache loses nothing
// (docs/tuning.md, kPrefetchesNextTurn). A cache reported larger than the
// process can use only keeps such prefetches off, as libtorch reads.
[[nodiscard]] bool SourceOutgrowsCache(int64_t read_bytes, int64_t cache_bytes);

// How a contiguous pass writes its destination and reads its source:
// ordinary stores; streaming stores (kStreaming), over a source that may
// stay in the last-level cache; or streaming stores over a source that
// outgrows it (kStreamingFromMemory, SourceOutgrowsCache). kChosenBySize
// only un-forces SetStoreKindForTesting.
enum class StoreKind { kChosenBySize, kStreaming, kStreamingFromMemory, kOrdinary };

// The kind StreamsDestination and the cast choose for a pass in a
// last-level cache of cache_bytes, from the rules above; never
// kChosenBySize.
[[nodiscard]] StoreKind StoreKindFor(int64_t read_bytes, int64_t write_bytes, int64_t cache_bytes);

// StoreKindFor in the last-level cache the processor reports, unless a test
// forces a kind.
[[nodiscard]] StoreKind ChosenStoreKind(int64_t read_bytes, int64_t write_bytes);

// Tests force each kind on small buffers, so that what they cover does not
// depend on the cache sizes of the machine they run on.
void SetStoreKindForTesting(StoreKind kind);

// Forces a store kind for its lifetime.
class ForcedStoreKind {
 public:
  explicit ForcedStoreKind(StoreKind kind) { SetStoreKindForTesting(kind); }
  ~ForcedStoreKind() { SetStoreKindForTesting(StoreKind::kChosenBySize); }
  ForcedStoreKind(const ForcedStoreKind&) = delete;
  ForcedStoreKind& operator=(const ForcedStoreKind&) = delete;
};

// How far ahead of the conversion streaming casts prefetch their source:
// one core keeps too few cache misses in flight for the hardware
// prefetchers alone to use all the bandwidth it could (docs/tuning.md,
// kPrefetchAheadBytes).
inline constexpr int64_t kPrefetchAheadBytes = 2048;

// Streaming kernels align the destination to this many bytes, so that
// their blocks' 32-byte non-temporal stores are aligned.
inline constexpr int64_t kStreamAlignment = 32;

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
  // The same for sources that outgrow the last-level cache
  // (StoreKind::kStreamingFromMemory).
  ContiguousCastFn contiguous_streaming_from_memory[kNumDTypes][kNumDTypes] = {};
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
namespace avx512 {
const CpuCastKernels& Kernels();
}  // namespace avx512
#elif defined(__aarch64__)
namespace sve {
const CpuCastKernels& Kernels();
}  // namespace sve
#endif

// The kernel of `kernels` for a contiguous pass of from -> to under `kind`
// (not kChosenBySize).
[[nodiscard]] ContiguousCastFn ContiguousKernel(const CpuCastKernels& kernels, DType from, DType to,
                                                StoreKind kind);

// Whether a processor whose CPUID leaf 7 (subleaf 0) reports leaf7_ebx, and
// whose OS has enabled the register state xcr0 (XGETBV 0; 0 where CPUID
// leaf 1 reports no OSXSAVE), runs the AVX-512 set: AVX-512 F, DQ, BW and
// VL, and the OS saving the opmask registers and all 512 bits of all 32
// vector registers (XCR0 bits 5-7) as well as the SSE and AVX state (bits
// 1-2). Without the OS's part AVX-512 instructions fault.
[[nodiscard]] bool RunsAvx512(uint32_t leaf7_ebx, uint64_t xcr0);

// Every kernel set this processor runs, the preferred first (AVX2 before
// AVX-512, docs/tuning.md); the baseline is last.
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
