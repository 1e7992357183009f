// Chooses the CPU kernel set at run time from what the processor reports.

#include "kernels/internal/cpu_cast.h"

namespace oneflow_promote::cast_internal {

const CpuCastKernels& BestCpuCastKernels() {
  static const CpuCastKernels& best = []() -> const CpuCastKernels& {
#if defined(__x86_64__) && defined(ONEFLOW_PROMOTE_AVX2_KERNELS)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c")) return avx2::Kernels();
#endif
    return baseline::Kernels();
  }();
  return best;
}

}  // namespace oneflow_promote::cast_internal
