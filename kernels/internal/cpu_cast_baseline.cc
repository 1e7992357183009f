// CPU cast kernels for the build's baseline instruction set (SSE2 on x86-64,
// NEON on AArch64): what every processor of the architecture runs.

#include "kernels/internal/cpu_cast.h"

namespace oneflow_promote::cast_internal::baseline {

// No hand-written blocks: every pair is convert.h's loop, as the compiler
// vectorizes it for the baseline.
template <typename From, typename To>
using BlockCast = NoBlockCast<From, To>;

}  // namespace oneflow_promote::cast_internal::baseline

#define ONEFLOW_PROMOTE_CPU_TARGET baseline
#define ONEFLOW_PROMOTE_CPU_TARGET_NAME "baseline"
#include "kernels/internal/cpu_cast_kernels.inc"
