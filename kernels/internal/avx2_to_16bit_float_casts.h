// The AVX2 blocks of the pairs that round to 16-bit floats: anything real
// or complex -> float16 and bfloat16, float16 and complex32 -> bfloat16
// and bfloat16 -> float16 in 16-bit lanes, and anything real -> complex32.
// avx2_block_cast.h includes this file after the primary BlockCast
// template, which it specializes, per instruction set, in the namespace
// that ONEFLOW_PROMOTE_CPU_TARGET names.

#ifndef ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_TO_16BIT_FLOAT_CASTS_H_
#define ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_TO_16BIT_FLOAT_CASTS_H_

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "kernels/internal/avx2_block_helpers.h"
#include "kernels/internal/avx2_mini_float_helpers.h"
#include "kernels/internal/avx2_pair_classes.h"
#include "kernels/internal/block_runner.h"
#include "oneflow_promote/convert.h"
#include "oneflow_promote/numeric_types.h"

namespace oneflow_promote::cast_internal::ONEFLOW_PROMOTE_CPU_TARGET {

// Anything real or complex -> float16 / bfloat16. 8-bit sources are bound
// by the shuffle and shift pipes (the widening, the packs), not by the
// conversion pipe; the ways around cvtdq2ps and F16C that were tried ran
// slower (docs/tuning.md).
template <typename From, typename To>
struct BlockCast<From, To,
                 std::enable_if_t<blocks::kIsNarrowFloatDest<To> && kIsFloatLoadable<From> &&
                                  !std::is_same_v<From, To> && !kStreamsCompilerLoop<From, To> &&
                                  !kConvertsIn16BitLanes<From, To>>> {
  template <blocks::Store kStore = blocks::Store::kOrdinary>
  static int64_t Run(const From* in, To* out, int64_t n) {
    const auto bits8 = [](const From* block_in) __attribute__((always_inline)) {
      if constexpr (std::is_same_v<To, BFloat16> && kIsExactInBFloat16<From>) {
        return PackUnsigned16(_mm256_srli_epi32(_mm256_castps_si256(LoadFloat8(block_in)), 16));
      } else {
        return RoundToMiniFloatBits8<To, 0>(block_in);
      }
    };
    // From memory, one 32-byte store per 16 elements ran 1-byte sources
    // faster than a 16-byte store per 8; wider sources keep blocks of 8
    // (docs/tuning.md).
    if constexpr (sizeof(From) == 1) {
      return RunBlocks<16, kRoundingFor<From>, kStore>(
          in, out, n, [&](const From* block_in, To* block_out) {
            StoreVector<kStore>(block_out, _mm256_set_m128i(bits8(block_in + 8), bits8(block_in)));
          });
    } else if constexpr (std::is_same_v<From, int16_t> && std::is_same_v<To, BFloat16>) {
      return RunBlocks<16, Rounding::kCallersMode, kStore>(
          in, out, n, [&](const From* block_in, To* block_out) {
            __m256i bits;
            if (!ExactInt16ToBFloat16Bits16(block_in, &bits)) {
              bits = _mm256_set_m128i(bits8(block_in + 8), bits8(block_in));
            }
            StoreVector<kStore>(block_out, bits);
          });
    } else if constexpr (std::is_same_v<From, int64_t>) {
      // Forced inline: GCC kept this block out of line for float16.
      return RunBlocks<16, Rounding::kTowardZero, kStore>(
          in, out, n, [&](const From* block_in, To* block_out) __attribute__((always_inline)) {
            __m256i bits;
            if (!SmallInt64ToMiniFloatBits16<To>(block_in, &bits)) {
              bits = _mm256_set_m128i(bits8(block_in + 8), bits8(block_in));
            }
            StoreVector<kStore>(block_out, bits);
          });
    }
    return RunBlocks<8, kRoundingFor<From>, kStore>(
        in, out, n, [&](const From* block_in, To* block_out) {
          StoreVector<kStore>(reinterpret_cast<__m128i*>(block_out), bits8(block_in));
        });
  }
};

// float16 and complex32 -> bfloat16 and bfloat16 -> float16, sixteen at a
// time in 16-bit integer lanes (HalfToBFloat16Bits16, BFloat16ToHalfBits16).
template <typename From, typename To>
struct BlockCast<From, To, std::enable_if_t<kConvertsIn16BitLanes<From, To>>> {
  template <blocks::Store kStore = blocks::Store::kOrdinary>
  static int64_t Run(const From* in, To* out, int64_t n) {
    return RunBlocks<16, Rounding::kCallersMode, kStore>(
        in, out, n, [](const From* block_in, To* block_out) {
          if constexpr (std::is_same_v<To, Float16>) {
            StoreVector<kStore>(block_out, BFloat16ToHalfBits16(_mm256_loadu_si256(
                                               reinterpret_cast<const __m256i*>(block_in))));
          } else if constexpr (std::is_same_v<From, Float16>) {
            StoreVector<kStore>(block_out, HalfToBFloat16Bits16(_mm256_loadu_si256(
                                               reinterpret_cast<const __m256i*>(block_in))));
          } else {
            StoreVector<kStore>(block_out, HalfToBFloat16Bits16(HalfRealParts16(block_in)));
          }
        });
  }
};

// Anything real, complex64 or complex128 -> complex32: float16 parts,
// interleaved.
template <typename From>
struct BlockCast<
    From, Complex<Float16>,
    std::enable_if_t<kIsFloatLoadable<From> && !convert_internal::IsComplex<From>::value>> {
  template <blocks::Store kStore = blocks::Store::kOrdinary>
  static int64_t Run(const From* in, Complex<Float16>* out, int64_t n) {
    return RunBlocks<8, kRoundingFor<From>, kStore>(
        in, out, n, [](const From* block_in, Complex<Float16>* block_out) {
          __m128i real;
          if constexpr (std::is_same_v<From, Float16>) {
            real = _mm_loadu_si128(
                reinterpret_cast<const __m128i*>(block_in));  // bits kept, NaN payload too
          } else {
            real = RoundToMiniFloatBits8<Float16, 0>(block_in);
          }
          __m128i imag = _mm_setzero_si128();
          if constexpr (kIsComplexSource<From>) {
            imag = RoundToMiniFloatBits8<Float16, 1>(block_in);
          }
          __m128i* p = reinterpret_cast<__m128i*>(block_out);
          StoreVector<kStore>(p, _mm_unpacklo_epi16(real, imag));
          StoreVector<kStore>(p + 1, _mm_unpackhi_epi16(real, imag));
        });
  }
};

}  // namespace oneflow_promote::cast_internal::ONEFLOW_PROMOTE_CPU_TARGET

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_TO_16BIT_FLOAT_CASTS_H_
