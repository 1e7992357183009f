// CPU cast kernels for AArch64 with SVE (built with -march=armv8.2-a+sve,
// vector-length agnostic; chosen at run time where the processor has SVE):
// convert.h's loops as the compiler vectorizes them, no hand-written blocks.

#if defined(__aarch64__)
#define ONEFLOW_PROMOTE_CPU_TARGET sve
#define ONEFLOW_PROMOTE_CPU_TARGET_NAME "sve"
#include "kernels/internal/cpu_cast_kernels.inc"
#endif
