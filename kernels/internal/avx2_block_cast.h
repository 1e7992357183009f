// Hand-written AVX2 + F16C conversions of eight elements at a time, for the
// pair families GCC does not vectorize well from convert.h's scalar code:
// rounding to float16/bfloat16/complex32, decoding them, saturating float ->
// integers, int64 -> floating (AVX2 converts no int64), complex -> bool
// and the real-part casts. The pairs GCC's own loops convert as fast
// stream through LoopBlockCast (block_runner.h).
// The AVX2 and AVX-512 sets' files include this file (it needs -mavx2
// -mf16c), each after defining ONEFLOW_PROMOTE_CPU_TARGET, the namespace
// its copy goes in; BlockCast<From, To>::Run converts nothing for every
// other pair, which leaves them to the scalar loop.
//
// Each block computes exactly what Convert<To> computes lane by lane, by the
// same two steps: the source as a float32 that is exact or rounded to odd
// (ToFloatRoundToOdd), then one round-to-nearest-even to the narrow format;
// or the source as an exact float32/float64, then a saturating truncation.
// Rounding to odd is a truncating conversion plus a sticky bit here: the
// blocks that need it run with MXCSR set to round toward zero.
// NaN payloads may differ from the scalar path where a NaN survives
// (float16 NaN read by F16C is quieted); every NaN written here is the
// canonical one, as in convert.h. //kernels:cast_test compares these blocks
// with the baseline kernels on random bit patterns of every pair.
//
// This file holds the primary BlockCast template and includes the blocks,
// one header per family of pairs: avx2_to_16bit_float_casts.h,
// avx2_from_16bit_float_casts.h, avx2_float_to_int_casts.h,
// avx2_int64_to_float_casts.h and avx2_complex_casts.h. The pair classes
// that pick a family are in avx2_pair_classes.h, the steps of the blocks
// in avx2_block_helpers.h, avx2_mini_float_helpers.h and
// avx2_truncation_helpers.h.

#ifndef ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_BLOCK_CAST_H_
#define ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_BLOCK_CAST_H_

#include <type_traits>

#include "kernels/internal/avx2_pair_classes.h"
#include "kernels/internal/block_runner.h"

namespace oneflow_promote::cast_internal::ONEFLOW_PROMOTE_CPU_TARGET {

// BlockCast<From, To>::Run(in, out, n) converts a leading part of the n
// elements and returns its length; the caller converts the rest with
// Convert<To>. Run under a streaming Store writes with non-temporal stores, to
// a destination aligned to kStreamAlignment bytes, and the caller fences
// them. Pairs without hand-written blocks convert nothing here.
template <typename From, typename To, typename = void>
struct BlockCast : blocks::NoBlockCast<From, To> {};

template <typename From, typename To>
struct BlockCast<From, To, std::enable_if_t<kStreamsCompilerLoop<From, To>>>
    : blocks::LoopBlockCast<From, To> {};

}  // namespace oneflow_promote::cast_internal::ONEFLOW_PROMOTE_CPU_TARGET

// The families of pairs with hand-written blocks, each after the primary
// template that it specializes.
#include "kernels/internal/avx2_complex_casts.h"
#include "kernels/internal/avx2_float_to_int_casts.h"
#include "kernels/internal/avx2_from_16bit_float_casts.h"
#include "kernels/internal/avx2_int64_to_float_casts.h"
#include "kernels/internal/avx2_to_16bit_float_casts.h"

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_BLOCK_CAST_H_
