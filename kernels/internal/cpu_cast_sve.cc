// CPU cast kernels for AArch64 with SVE (built with -march=armv8.2-a+sve,
// vector-length agnostic; chosen at run time where the processor has SVE):
// convert.h's loops as the compiler vectorizes them, no hand-written blocks.

#if defined(__aarch64__)
#include "kernels/internal/cpu_cast.h"

namespace oneflow_promote::cast_internal::sve {
template <typename From, typename To>
using BlockCast = NoBlockCast<From, To>;
}  // namespace oneflow_promote::cast_internal::sve

#define ONEFLOW_PROMOTE_CPU_TARGET sve
#define ONEFLOW_PROMOTE_CPU_TARGET_NAME "sve"
#include "kernels/internal/cpu_cast_kernels.inc"
#endif
