// CPU cast kernels for the build's baseline instruction set.

#include <cstdint>

namespace oneflow_promote::cast_internal::baseline {

// No hand-written blocks: every pair is convert.h's loop, as the compiler
// vectorizes it for the baseline.
template <typename From, typename To>
struct BlockCast {
  static int64_t Run(const From*, To*, int64_t) { return 0; }
};

}  // namespace oneflow_promote::cast_internal::baseline

#define ONEFLOW_PROMOTE_CPU_TARGET baseline
#define ONEFLOW_PROMOTE_CPU_TARGET_NAME "baseline"
#include "kernels/internal/cpu_cast_kernels.inc"
