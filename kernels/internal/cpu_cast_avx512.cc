// CPU cast kernels for x86-64 with AVX-512 F, BW, DQ and VL (built with those
// and the AVX2 set's -mavx2 -mf16c; runnable where the processor has them and
// the OS saves their registers, RunsAvx512): the AVX2 set's hand-written
// blocks, and the compiler's loops vectorized for AVX-512 for the other pairs.
// Listed after the AVX2 set, which it did not beat (docs/tuning.md, the
// AVX-512 set after AVX2), so that tests check it but casts do not choose it.

#if defined(__x86_64__)
#define ONEFLOW_PROMOTE_CPU_TARGET avx512
#include "kernels/internal/avx2_block_cast.h"

#define ONEFLOW_PROMOTE_CPU_BLOCKS
#define ONEFLOW_PROMOTE_CPU_TARGET_NAME "avx512"
#include "kernels/internal/cpu_cast_kernels.inc"
#endif
