// CPU cast kernels for the build's baseline instruction set (SSE2 on x86-64,
// NEON on AArch64): what every processor of the architecture runs.

#define ONEFLOW_PROMOTE_CPU_TARGET baseline
#define ONEFLOW_PROMOTE_CPU_TARGET_NAME "baseline"
#include "kernels/internal/cpu_cast_kernels.inc"
