// CPU cast kernels for x86-64 with AVX2 and F16C (built with -mavx2 -mf16c;
// chosen at run time where the processor has both), with hand-written blocks
// for the pairs GCC leaves slow (avx2_block_cast.h; docs/tuning.md has the
// paired run that keeps them).

#if defined(__x86_64__)
#define ONEFLOW_PROMOTE_CPU_TARGET avx2
#include "kernels/internal/avx2_block_cast.h"

#define ONEFLOW_PROMOTE_CPU_BLOCKS
#define ONEFLOW_PROMOTE_CPU_TARGET_NAME "avx2"
#include "kernels/internal/cpu_cast_kernels.inc"
#endif
