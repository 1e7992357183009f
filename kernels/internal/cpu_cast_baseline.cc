// CPU cast kernels for the build's baseline instruction set.
#define ONEFLOW_PROMOTE_CPU_TARGET baseline
#define ONEFLOW_PROMOTE_CPU_TARGET_NAME "baseline"
#include "kernels/internal/cpu_cast_kernels.inc"
