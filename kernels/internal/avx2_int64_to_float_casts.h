// The AVX2 blocks of int64 -> floating types, which AVX2 has no
// conversion for: -> float32, float64, complex64 and complex128.
// avx2_block_cast.h includes this file after the primary BlockCast
// template, which it specializes, per instruction set, in the namespace
// that ONEFLOW_PROMOTE_CPU_TARGET names.

#ifndef ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_INT64_TO_FLOAT_CASTS_H_
#define ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_INT64_TO_FLOAT_CASTS_H_

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "kernels/internal/avx2_block_helpers.h"
#include "kernels/internal/avx2_pair_classes.h"
#include "kernels/internal/block_runner.h"
#include "oneflow_promote/convert.h"
#include "oneflow_promote/numeric_types.h"

namespace oneflow_promote::cast_internal::ONEFLOW_PROMOTE_CPU_TARGET {

// int64 -> float32, float64, complex64 and complex128. AVX2 has no int64
// conversion, but a value below 2^51 in magnitude is exact in float64
// (SmallInt64ToDouble4), which then rounds once to float32 in the caller's
// MXCSR mode, as static_cast does. A block holding a larger value converts
// its elements one at a time.
template <typename To>
struct BlockCast<int64_t, To, std::enable_if_t<kIsWideFloatDest<To>>> {
  template <blocks::Store kStore = blocks::Store::kOrdinary>
  static int64_t Run(const int64_t* in, To* out, int64_t n) {
    return RunBlocks<8, Rounding::kCallersMode, kStore>(
        in, out, n, [](const int64_t* block_in, To* block_out) {
          const __m256i* p = reinterpret_cast<const __m256i*>(block_in);
          const __m256i first = _mm256_loadu_si256(p);
          const __m256i second = _mm256_loadu_si256(p + 1);
          if (!AllSmallInt64(first, second)) {
            for (int i = 0; i < 8; ++i) block_out[i] = Convert<To>(block_in[i]);
            return;
          }
          const __m256d low = SmallInt64ToDouble4(first);
          const __m256d high = SmallInt64ToDouble4(second);
          if constexpr (std::is_same_v<To, double>) {
            StoreVector<kStore>(block_out, low);
            StoreVector<kStore>(block_out + 4, high);
          } else if constexpr (std::is_same_v<To, float>) {
            StoreVector<kStore>(block_out, Combine(_mm256_cvtpd_ps(low), _mm256_cvtpd_ps(high)));
          } else if constexpr (std::is_same_v<To, Complex<float>>) {
            // Elements (0,1 | 2,3) and (4,5 | 6,7) with zero imaginary parts.
            const __m256 zero = _mm256_setzero_ps();
            float* q = reinterpret_cast<float*>(block_out);
            for (const __m256d half : {low, high}) {
              const __m128 real = _mm256_cvtpd_ps(half);
              StoreVector<kStore>(q, _mm_unpacklo_ps(real, _mm256_castps256_ps128(zero)));
              StoreVector<kStore>(q + 4, _mm_unpackhi_ps(real, _mm256_castps256_ps128(zero)));
              q += 8;
            }
          } else {
            static_assert(std::is_same_v<To, Complex<double>>);
            const __m256d zero = _mm256_setzero_pd();
            double* q = reinterpret_cast<double*>(block_out);
            for (const __m256d half : {low, high}) {
              // (element 0 | element 2) and (element 1 | element 3), stored by
              // 128-bit halves.
              const __m256d even = _mm256_unpacklo_pd(half, zero);
              const __m256d odd = _mm256_unpackhi_pd(half, zero);
              StoreVector<kStore>(q, _mm256_castpd256_pd128(even));
              StoreVector<kStore>(q + 2, _mm256_castpd256_pd128(odd));
              StoreVector<kStore>(q + 4, _mm256_extractf128_pd(even, 1));
              StoreVector<kStore>(q + 6, _mm256_extractf128_pd(odd, 1));
              q += 8;
            }
          }
        });
  }
};

}  // namespace oneflow_promote::cast_internal::ONEFLOW_PROMOTE_CPU_TARGET

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_INT64_TO_FLOAT_CASTS_H_
