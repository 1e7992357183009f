// CPU cast kernels for AVX2 with F16C (built with -mavx2 -mf16c on x86-64,
// with hand-written blocks for the pairs GCC leaves slow; elsewhere a second
// copy of the baseline that is never chosen).

#if defined(ONEFLOW_PROMOTE_AVX2_KERNELS)
#include "kernels/internal/avx2_block_cast.h"
#else
#include "kernels/internal/cpu_cast.h"

namespace oneflow_promote::cast_internal::avx2 {
template <typename From, typename To>
using BlockCast = NoBlockCast<From, To>;
}  // namespace oneflow_promote::cast_internal::avx2
#endif

#define ONEFLOW_PROMOTE_CPU_TARGET avx2
#define ONEFLOW_PROMOTE_CPU_TARGET_NAME "avx2"
#include "kernels/internal/cpu_cast_kernels.inc"
