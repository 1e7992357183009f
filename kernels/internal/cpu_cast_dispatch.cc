// Chooses the CPU kernel set, and whether large casts stream, at run time
// from what the processor reports.

#include "kernels/internal/cpu_cast.h"

#include <algorithm>
#include <atomic>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace oneflow_promote::cast_internal {
namespace {

std::atomic<StoreKind> forced_store_kind{StoreKind::kChosenBySize};

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
          __get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx) == 0 || (ecx & kTopologyExtensions) == 0) {
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

bool StreamsDestination(int64_t read_bytes, int64_t write_bytes, int threads) {
  switch (forced_store_kind.load(std::memory_order_relaxed)) {
    case StoreKind::kStreaming: return true;
    case StoreKind::kOrdinary: return false;
    case StoreKind::kChosenBySize: break;
  }
  const int64_t cached_quarters = threads > 1 ? 10 : 3;
  const bool caching_pays = write_bytes >= read_bytes &&
                            4 * (read_bytes + write_bytes) <= cached_quarters * LastLevelCacheBytes();
  return write_bytes >= kStreamingBytes && !caching_pays;
}

void SetStoreKindForTesting(StoreKind kind) { forced_store_kind.store(kind, std::memory_order_relaxed); }

const CpuCastKernels& BestCpuCastKernels() {
  static const CpuCastKernels& best = []() -> const CpuCastKernels& {
#if defined(__x86_64__) && defined(ONEFLOW_PROMOTE_AVX2_KERNELS)
    __builtin_cpu_init();
    // F16C is read from cpuid leaf 1 (ecx bit 29): clang 14's
    // __builtin_cpu_supports does not know "f16c". The avx2 check covers the
    // OS saving YMM state, which F16C's VEX encoding needs too.
    unsigned eax, ebx, ecx, edx;
    const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_F16C) != 0;
    if (__builtin_cpu_supports("avx2") && f16c) return avx2::Kernels();
#endif
    return baseline::Kernels();
  }();
  return best;
}

}  // namespace oneflow_promote::cast_internal
