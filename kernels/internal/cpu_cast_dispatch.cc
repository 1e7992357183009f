// Chooses the CPU kernel set, and whether large casts stream, at run time
// from what the processor reports.

#include "kernels/cpu_cast.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#if defined(__x86_64__)
#include <cpuid.h>
#elif defined(__aarch64__)
#include <sys/auxv.h>
#endif

namespace oneflow_promote::cast_internal {
namespace {

std::atomic<StoreKind> forced_store_kind{StoreKind::kChosenBySize};
std::atomic<const CpuCastKernels*> forced_kernels{nullptr};

#if defined(__aarch64__)
constexpr unsigned long kHwcapSve = 1ul << 22;  // HWCAP_SVE in the kernel's asm/hwcap.h
#endif

#if defined(__x86_64__)
// RunsAvx512 on this processor: XGETBV is read only where CPUID reports
// OSXSAVE (it faults otherwise), as inline assembly, which needs no -mxsave.
bool ProcessorRunsAvx512() {
  unsigned eax, ebx, ecx, edx;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0 || (ecx & bit_OSXSAVE) == 0) return false;
  if (__get_cpuid_max(0, nullptr) < 7) return false;
  __cpuid_count(7, 0, eax, ebx, ecx, edx);
  uint32_t xcr0_low, xcr0_high;
  __asm__ volatile("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
  return RunsAvx512(ebx, (static_cast<uint64_t>(xcr0_high) << 32) | xcr0_low);
}
#endif

}  // namespace

int64_t LastLevelCacheBytes() {
  static const int64_t bytes = []() -> int64_t {
#if defined(__x86_64__)
    unsigned eax, ebx, ecx, edx;
    if (__get_cpuid(0, &eax, &ebx, &ecx, &edx) == 0) return 0;
    // Intel describes its caches in leaf 4; AMD in leaf 0x8000001D, in the
    // same format, where it reports topology extensions.
    unsigned leaf = 4;
    if (ebx == signature_AMD_ebx) {
      constexpr unsigned kTopologyExtensions = 1u << 22;  // leaf 0x80000001, ecx
      if (__get_cpuid_max(0x80000000, nullptr) < 0x8000001D ||
          __get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx) == 0 ||
          (ecx & kTopologyExtensions) == 0) {
        return 0;
      }
      leaf = 0x8000001D;
    } else if (eax < 4) {
      return 0;
    }
    int64_t largest = 0;
    for (unsigned index = 0; index < 16; ++index) {
      __cpuid_count(leaf, index, eax, ebx, ecx, edx);
      const unsigned type = eax & 0x1F;  // 0: no more caches, 2: instructions
      if (type == 0) break;
      if (type == 2) continue;
      const int64_t ways = ((ebx >> 22) & 0x3FF) + 1;
      const int64_t partitions = ((ebx >> 12) & 0x3FF) + 1;
      const int64_t line = (ebx & 0xFFF) + 1;
      const int64_t sets = static_cast<int64_t>(ecx) + 1;
      largest = std::max(largest, ways * partitions * line * sets);
    }
    return largest;
#else
    return 0;
#endif
  }();
  return bytes;
}

bool SourceOutgrowsCache(int64_t read_bytes, int64_t cache_bytes) {
  return read_bytes >= cache_bytes;
}

StoreKind StoreKindFor(int64_t read_bytes, int64_t write_bytes, int64_t cache_bytes) {
  if (write_bytes < kStreamingBytes || CachingPays(read_bytes, write_bytes, cache_bytes)) {
    return StoreKind::kOrdinary;
  }
  return SourceOutgrowsCache(read_bytes, cache_bytes) ? StoreKind::kStreamingFromMemory
                                                      : StoreKind::kStreaming;
}

StoreKind ChosenStoreKind(int64_t read_bytes, int64_t write_bytes) {
  const StoreKind forced = forced_store_kind.load(std::memory_order_relaxed);
  if (forced != StoreKind::kChosenBySize) return forced;
  return StoreKindFor(read_bytes, write_bytes, LastLevelCacheBytes());
}

bool StreamsDestination(int64_t read_bytes, int64_t write_bytes) {
  return ChosenStoreKind(read_bytes, write_bytes) != StoreKind::kOrdinary;
}

ContiguousCastFn ContiguousKernel(const CpuCastKernels& kernels, DType from, DType to,
                                  StoreKind kind) {
  switch (kind) {
    case StoreKind::kStreaming:
      return kernels.contiguous_streaming[Index(from)][Index(to)];
    case StoreKind::kStreamingFromMemory:
      return kernels.contiguous_streaming_from_memory[Index(from)][Index(to)];
    case StoreKind::kOrdinary:
    case StoreKind::kChosenBySize:
      break;
  }
  return kernels.contiguous[Index(from)][Index(to)];
}

bool CachingPays(int64_t read_bytes, int64_t write_bytes, int64_t cache_bytes) {
  // Half of the cache for narrowing passes, three quarters for the rest
  // (docs/tuning.md, CachingPays).
  const int64_t cached_quarters = write_bytes < read_bytes ? 2 : 3;
  return 4 * (read_bytes + write_bytes) <= cached_quarters * cache_bytes;
}

void SetStoreKindForTesting(StoreKind kind) {
  forced_store_kind.store(kind, std::memory_order_relaxed);
}

bool RunsAvx512(uint32_t leaf7_ebx, uint64_t xcr0) {
  constexpr uint32_t kF = 1u << 16, kDq = 1u << 17, kBw = 1u << 30, kVl = 1u << 31;
  // XCR0: SSE (1), AVX (2), opmask (5), ZMM0-15's upper halves (6), ZMM16-31 (7).
  constexpr uint64_t kState = 0b1110'0110;
  return (leaf7_ebx & (kF | kDq | kBw | kVl)) == (kF | kDq | kBw | kVl) &&
         (xcr0 & kState) == kState;
}

const std::vector<const CpuCastKernels*>& RunnableCpuCastKernels() {
  static const auto* runnable = [] {
    auto* sets = new std::vector<const CpuCastKernels*>;
#if defined(__x86_64__)
    __builtin_cpu_init();
    // F16C is read from cpuid leaf 1 (ecx bit 29): clang 14's
    // __builtin_cpu_supports does not know "f16c". The avx2 check covers
    // the OS saving YMM state, which F16C's VEX encoding needs too.
    unsigned eax, ebx, ecx, edx;
    const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_F16C) != 0;
    const bool avx2 = __builtin_cpu_supports("avx2") && f16c;
    // The AVX-512 set runs the AVX2 set's blocks too. It comes after AVX2,
    // which it did not beat (docs/tuning.md, the AVX-512 set after AVX2).
    const bool avx512 = avx2 && ProcessorRunsAvx512();
    if (avx2) sets->push_back(&avx2::Kernels());
    if (avx512) sets->push_back(&avx512::Kernels());
#elif defined(__aarch64__)
    if ((getauxval(AT_HWCAP) & kHwcapSve) != 0) sets->push_back(&sve::Kernels());
#endif
    sets->push_back(&baseline::Kernels());
    return sets;
  }();
  return *runnable;
}

const CpuCastKernels& BestCpuCastKernels() {
  const CpuCastKernels* forced = forced_kernels.load(std::memory_order_relaxed);
  return forced != nullptr ? *forced : *RunnableCpuCastKernels().front();
}

ForcedCpuCastKernels::ForcedCpuCastKernels(const CpuCastKernels& kernels) {
  forced_kernels.store(&kernels, std::memory_order_relaxed);
}

ForcedCpuCastKernels::~ForcedCpuCastKernels() {
  forced_kernels.store(nullptr, std::memory_order_relaxed);
}

}  // namespace oneflow_promote::cast_internal
