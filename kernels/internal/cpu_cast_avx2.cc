// CPU cast kernels for AVX2 (built with -mavx2 on x86-64;
// elsewhere a second copy of the baseline that is never chosen).
#define ONEFLOW_PROMOTE_CPU_TARGET avx2
#define ONEFLOW_PROMOTE_CPU_TARGET_NAME "avx2"
#include "kernels/internal/cpu_cast_kernels.inc"
