// The AVX2 blocks of complex sources that the other families leave:
// complex -> bool, the real-part casts, and complex32 <-> complex64 and
// complex128, which run the 16-bit float families' blocks over the parts.
// avx2_block_cast.h includes this file after the primary BlockCast
// template, which it specializes, per instruction set, in the namespace
// that ONEFLOW_PROMOTE_CPU_TARGET names.

#ifndef ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_COMPLEX_CASTS_H_
#define ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_COMPLEX_CASTS_H_

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "kernels/internal/avx2_block_helpers.h"
#include "kernels/internal/avx2_pair_classes.h"
#include "kernels/internal/block_runner.h"
#include "oneflow_promote/numeric_types.h"

namespace oneflow_promote::cast_internal::ONEFLOW_PROMOTE_CPU_TARGET {

// Complex -> bool: nonzero (NaN included) in either part, sixteen results
// a block, so that each store is 16 bytes. GCC's loop, which separates the
// parts first, ran slower both on cached data and streamed (docs/tuning.md).
template <typename From>
struct BlockCast<From, bool, std::enable_if_t<blocks::kIsComplexSource<From>>> {
  template <blocks::Store kStore = blocks::Store::kOrdinary>
  static int64_t Run(const From* in, bool* out, int64_t n) {
    const auto words8 = [](const From* block_in) __attribute__((always_inline)) {
      __m256i nonzero;
      if constexpr (std::is_same_v<From, Complex<Float16>>) {
        // A part is nonzero when its magnitude bits are.
        const __m256i magnitude = _mm256_set1_epi32(0x7FFF7FFF);
        const __m256i zero = _mm256_cmpeq_epi32(
            _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(block_in)),
                             magnitude),
            _mm256_setzero_si256());
        nonzero = _mm256_andnot_si256(zero, _mm256_set1_epi32(-1));
      } else if constexpr (std::is_same_v<From, Complex<float>>) {
        const __m256 zero = _mm256_setzero_ps();
        nonzero = _mm256_castps_si256(
            _mm256_or_ps(_mm256_cmp_ps(LoadFloat8(block_in), zero, _CMP_NEQ_UQ),
                         _mm256_cmp_ps(LoadFloat8<1>(block_in), zero, _CMP_NEQ_UQ)));
      } else {
        // float64 masks narrow through cvtpd2ps: all ones is a NaN whose
        // float32 conversion is all ones again.
        const auto nonzero4 = [](const double* pairs) __attribute__((always_inline)) {
          const __m256d zero = _mm256_setzero_pd();
          return _mm256_cvtpd_ps(
              _mm256_or_pd(_mm256_cmp_pd(DoubleParts4<0>(pairs), zero, _CMP_NEQ_UQ),
                           _mm256_cmp_pd(DoubleParts4<1>(pairs), zero, _CMP_NEQ_UQ)));
        };
        const double* p = reinterpret_cast<const double*>(block_in);
        nonzero = _mm256_castps_si256(Combine(nonzero4(p), nonzero4(p + 8)));
      }
      return PackUnsigned16(_mm256_and_si256(nonzero, _mm256_set1_epi32(1)));
    };
    return RunBlocks<16, Rounding::kCallersMode, kStore>(
        in, out, n, [&](const From* block_in, bool* block_out) {
          StoreVector<kStore>(block_out, _mm_packus_epi16(words8(block_in), words8(block_in + 8)));
        });
  }
};

// complex64 -> float64 and complex128 -> float32: the real parts, widened,
// or rounded once in the caller's MXCSR mode as static_cast does. Only a
// block streams complex128 -> float32; on cached data GCC's loop is faster
// (docs/tuning.md), so there Run converts nothing.
template <typename From, typename To>
struct BlockCast<From, To, std::enable_if_t<blocks::kIsRealPartCast<From, To>>> {
  template <blocks::Store kStore = blocks::Store::kOrdinary>
  static int64_t Run(const From* in, To* out, int64_t n) {
    if constexpr (kStore == Store::kOrdinary && std::is_same_v<To, float>) return 0;
    return RunBlocks<8, Rounding::kCallersMode, kStore>(
        in, out, n, [](const From* block_in, To* block_out) {
          if constexpr (std::is_same_v<To, double>) {
            const Double8 real = LoadDouble8(block_in);
            StoreVector<kStore>(block_out, real.low);
            StoreVector<kStore>(block_out + 4, real.high);
          } else {
            const double* p = reinterpret_cast<const double*>(block_in);
            StoreVector<kStore>(block_out, Combine(NarrowedDoubleParts4<0>(p, DoubleToFloat4),
                                                   NarrowedDoubleParts4<0>(p + 8, DoubleToFloat4)));
          }
        });
  }
};

// complex32 <-> complex64 and complex128: Convert converts complex to
// complex part by part, so these are the real pairs of their parts over
// twice as many elements, with no shuffles to split and rejoin real and
// imaginary parts, which made these pairs far slower than their real
// pairs on cached data.
template <typename FromPart, typename ToPart>
struct BlockCast<
    Complex<FromPart>, Complex<ToPart>,
    std::enable_if_t<(std::is_same_v<FromPart, Float16> ||
                      std::is_same_v<ToPart, Float16>)&&!std::is_same_v<FromPart, ToPart>>> {
  template <blocks::Store kStore = blocks::Store::kOrdinary>
  static int64_t Run(const Complex<FromPart>* in, Complex<ToPart>* out, int64_t n) {
    return BlockCast<FromPart, ToPart>::template Run<kStore>(
               reinterpret_cast<const FromPart*>(in), reinterpret_cast<ToPart*>(out), 2 * n) /
           2;
  }
};

}  // namespace oneflow_promote::cast_internal::ONEFLOW_PROMOTE_CPU_TARGET

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_COMPLEX_CASTS_H_
