// The AVX2 blocks that decode 16-bit floats: float16, bfloat16 and
// complex32 -> float32, float64, complex64 and complex128, exactly.
// avx2_block_cast.h includes this file after the primary BlockCast
// template, which it specializes, per instruction set, in the namespace
// that ONEFLOW_PROMOTE_CPU_TARGET names.

#ifndef ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_FROM_16BIT_FLOAT_CASTS_H_
#define ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_FROM_16BIT_FLOAT_CASTS_H_

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "kernels/internal/avx2_block_helpers.h"
#include "kernels/internal/avx2_pair_classes.h"
#include "kernels/internal/block_runner.h"
#include "oneflow_promote/convert.h"
#include "oneflow_promote/numeric_types.h"

namespace oneflow_promote::cast_internal::ONEFLOW_PROMOTE_CPU_TARGET {

// float16, bfloat16 and complex32 -> float32, float64, complex64 and
// complex128: exact, through F16C or a shift instead of convert.h's bit
// decoding.
template <typename From, typename To>
struct BlockCast<From, To,
                 std::enable_if_t<kIsHalfSource<From> && kIsWideFloatDest<To> &&
                                  !(convert_internal::IsComplex<From>::value &&
                                    convert_internal::IsComplex<To>::value)>> {
  template <blocks::Store kStore = blocks::Store::kOrdinary>
  static int64_t Run(const From* in, To* out, int64_t n) {
    return RunBlocks<8, Rounding::kCallersMode, kStore>(
        in, out, n, [](const From* block_in, To* block_out) {
          const __m256 real = LoadFloat8(block_in);
          __m256 imag = _mm256_setzero_ps();
          if constexpr (kIsComplexSource<From>) imag = LoadFloat8<1>(block_in);
          if constexpr (std::is_same_v<To, float>) {
            StoreVector<kStore>(reinterpret_cast<float*>(block_out), real);
          } else if constexpr (std::is_same_v<To, double>) {
            double* p = reinterpret_cast<double*>(block_out);
            StoreVector<kStore>(p, _mm256_cvtps_pd(_mm256_castps256_ps128(real)));
            StoreVector<kStore>(p + 4, _mm256_cvtps_pd(_mm256_extractf128_ps(real, 1)));
          } else if constexpr (std::is_same_v<To, Complex<float>>) {
            // Pairs (0,1 | 4,5) and (2,3 | 6,7), stored by 128-bit halves.
            const __m256 first = _mm256_unpacklo_ps(real, imag);
            const __m256 second = _mm256_unpackhi_ps(real, imag);
            float* p = reinterpret_cast<float*>(block_out);
            StoreVector<kStore>(p, _mm256_castps256_ps128(first));
            StoreVector<kStore>(p + 4, _mm256_castps256_ps128(second));
            StoreVector<kStore>(p + 8, _mm256_extractf128_ps(first, 1));
            StoreVector<kStore>(p + 12, _mm256_extractf128_ps(second, 1));
          } else {
            static_assert(std::is_same_v<To, Complex<double>>);
            // Parts paired before widening, as float32 (0,1 | 4,5) and
            // (2,3 | 6,7), widen to two whole complex128 each, stored 32 bytes
            // at a time (see the plain conversions' integers -> complex128).
            const __m256 first = _mm256_unpacklo_ps(real, imag);
            const __m256 second = _mm256_unpackhi_ps(real, imag);
            double* p = reinterpret_cast<double*>(block_out);
            StoreVector<kStore>(p, _mm256_cvtps_pd(_mm256_castps256_ps128(first)));
            StoreVector<kStore>(p + 4, _mm256_cvtps_pd(_mm256_castps256_ps128(second)));
            StoreVector<kStore>(p + 8, _mm256_cvtps_pd(_mm256_extractf128_ps(first, 1)));
            StoreVector<kStore>(p + 12, _mm256_cvtps_pd(_mm256_extractf128_ps(second, 1)));
          }
        });
  }
};

}  // namespace oneflow_promote::cast_internal::ONEFLOW_PROMOTE_CPU_TARGET

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_FROM_16BIT_FLOAT_CASTS_H_
