// The AVX2 blocks of the saturating casts of floating and complex sources
// to integers: -> int8, uint8, int16, int32 and -> int64, truncated toward
// zero.
// avx2_block_cast.h includes this file after the primary BlockCast
// template, which it specializes, per instruction set, in the namespace
// that ONEFLOW_PROMOTE_CPU_TARGET names.

#ifndef ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_FLOAT_TO_INT_CASTS_H_
#define ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_FLOAT_TO_INT_CASTS_H_

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "kernels/internal/avx2_block_helpers.h"
#include "kernels/internal/avx2_pair_classes.h"
#include "kernels/internal/avx2_truncation_helpers.h"
#include "kernels/internal/block_runner.h"
#include "oneflow_promote/numeric_types.h"

namespace oneflow_promote::cast_internal::ONEFLOW_PROMOTE_CPU_TARGET {

// Floating and complex -> int8, uint8, int16, int32 (truncate, saturate).
// 8-bit results are made 16 at a time, so that each store is 16 bytes,
// and so are 16-bit floats' int16 results, from one 32-byte load.
// float16 and complex32 go through HalfToInt16Truncated16 in 16-bit lanes;
// their blocks with a magnitude of 2^15 or more, and the other sources,
// first truncate with cvttps2dq/cvttpd2dq alone, whose only
// wrong lanes (NaN and values past INT32_MAX) come out as INT32_MIN; the
// rare block with an INT32_MIN lane is redone with the saturating lanes.
// Skipping the clamps up front is a third fewer instructions per block.
template <typename From, typename To>
struct BlockCast<From, To,
                 std::enable_if_t<blocks::kIsSmallIntDest<To> && kIsFloatingSource<From>>> {
  // Eight elements as int32 lanes truncated without saturating.
  static __m256i TruncatedLanes(const From* in) {
    if constexpr (kIsExactFloatSource<From>) {
      return _mm256_cvttps_epi32(LoadFloat8(in));
    } else if constexpr (std::is_same_v<From, Complex<double>>) {
      const double* p = reinterpret_cast<const double*>(in);
      return _mm256_set_m128i(NarrowedDoubleParts4<0>(p + 8, DoubleToInt32Truncated4),
                              NarrowedDoubleParts4<0>(p, DoubleToInt32Truncated4));
    } else {
      const Double8 value = LoadDouble8(in);
      return _mm256_set_m128i(_mm256_cvttpd_epi32(value.high), _mm256_cvttpd_epi32(value.low));
    }
  }
  // The same, saturating (TruncateSaturating8/4: the results, or values
  // that Words and the byte packs saturate into them).
  static __m256i SaturatedLanes(const From* in) {
    if constexpr (kIsExactFloatSource<From>) {
      return TruncateSaturating8<To>(LoadFloat8(in));
    } else {
      const Double8 value = LoadDouble8(in);
      return _mm256_set_m128i(TruncateSaturating4<To>(value.high),
                              TruncateSaturating4<To>(value.low));
    }
  }
  static __m256i Lanes(const From* in) {
    const __m256i lanes = TruncatedLanes(in);
    return AnyIndefinite(lanes, lanes) ? SaturatedLanes(in) : lanes;
  }
  static __m128i Words(__m256i lanes) {
    return _mm_packs_epi32(_mm256_castsi256_si128(lanes), _mm256_extracti128_si256(lanes, 1));
  }

  template <blocks::Store kStore = blocks::Store::kOrdinary>
  static int64_t Run(const From* in, To* out, int64_t n) {
    if constexpr (sizeof(To) == 1 || (sizeof(To) == 2 && kIsHalfSource<From>)) {
      return RunBlocks<16, Rounding::kCallersMode, kStore>(
          in, out, n, [](const From* block_in, To* block_out) {
            // The sixteen results as 16-bit words, in order, to store or pack.
            const auto finish = [block_out](__m128i first_words, __m128i second_words)
                __attribute__((always_inline)) {
              if constexpr (sizeof(To) == 2) {
                StoreVector<kStore>(reinterpret_cast<__m128i*>(block_out), first_words);
                StoreVector<kStore>(reinterpret_cast<__m128i*>(block_out) + 1, second_words);
              } else {
                StoreVector<kStore>(reinterpret_cast<__m128i*>(block_out),
                                    std::is_same_v<To, uint8_t>
                                        ? _mm_packus_epi16(first_words, second_words)
                                        : _mm_packs_epi16(first_words, second_words));
              }
            };
            // The sixteen results as 16-bit lanes, to store or pack.
            const auto finish_lanes =
                [ block_out, &finish ](__m256i words) __attribute__((always_inline)) {
              if constexpr (sizeof(To) == 2) {
                StoreVector<kStore>(block_out, words);
              } else {
                finish(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1));
              }
            };
            if constexpr (std::is_same_v<From, Float16> || std::is_same_v<From, Complex<Float16>>) {
              __m256i words;
              const __m256i half =
                  std::is_same_v<From, Float16>
                      ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block_in))
                      : HalfRealParts16(block_in);
              if (HalfToInt16Truncated16(half, &words)) {
                finish_lanes(words);
                return;
              }
            }
            if constexpr (std::is_same_v<From, BFloat16>) {
              // bfloat16 is the high half of a float32: interleaving its bits
              // with zeros makes elements (0-3 | 8-11) and (4-7 | 12-15), which
              // packing within lanes puts back in order.
              const __m256i bits = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block_in));
              const __m256i low = _mm256_cvttps_epi32(
                  _mm256_castsi256_ps(_mm256_unpacklo_epi16(_mm256_setzero_si256(), bits)));
              const __m256i high = _mm256_cvttps_epi32(
                  _mm256_castsi256_ps(_mm256_unpackhi_epi16(_mm256_setzero_si256(), bits)));
              if (!AnyIndefinite(low, high)) {
                finish_lanes(_mm256_packs_epi32(low, high));
                return;
              }
            }
            __m256i first = TruncatedLanes(block_in);
            __m256i second = TruncatedLanes(block_in + 8);
            if (AnyIndefinite(first, second)) {
              first = SaturatedLanes(block_in);
              second = SaturatedLanes(block_in + 8);
            }
            finish(Words(first), Words(second));
          });
    } else {
      return RunBlocks<8, Rounding::kCallersMode, kStore>(
          in, out, n, [](const From* block_in, To* block_out) {
            if constexpr (std::is_same_v<To, int32_t>) {
              StoreVector<kStore>(reinterpret_cast<__m256i*>(block_out), Lanes(block_in));
            } else {
              StoreVector<kStore>(reinterpret_cast<__m128i*>(block_out), Words(Lanes(block_in)));
            }
          });
    }
  }
};

// Floating and complex -> int64 (truncate, saturate).
template <typename From>
struct BlockCast<From, int64_t, std::enable_if_t<kIsFloatingSource<From>>> {
  template <blocks::Store kStore = blocks::Store::kOrdinary>
  static int64_t Run(const From* in, int64_t* out, int64_t n) {
    const auto eight = [](const From* block_in, int64_t* block_out) __attribute__((always_inline)) {
      __m256i* p = reinterpret_cast<__m256i*>(block_out);
      if constexpr (kIsExactFloatSource<From>) {
        // Values within the int32 range (all finite float16) truncate in
        // float32 and widen; others take the float64 paths below.
        const __m256i lanes = _mm256_cvttps_epi32(LoadFloat8(block_in));
        if (!AnyIndefinite(lanes, lanes)) {
          StoreVector<kStore>(p, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(lanes)));
          StoreVector<kStore>(p + 1, _mm256_cvtepi32_epi64(_mm256_extracti128_si256(lanes, 1)));
          return;
        }
      }
      const Double8 value = LoadDouble8(block_in);
      if (AllSmall(value.low, value.high)) {
        StoreVector<kStore>(p, TruncateSmallInt64x4(value.low));
        StoreVector<kStore>(p + 1, TruncateSmallInt64x4(value.high));
      } else {
        StoreVector<kStore>(p, TruncateSaturatingInt64x4(value.low));
        StoreVector<kStore>(p + 1, TruncateSaturatingInt64x4(value.high));
      }
    };
    if constexpr (std::is_same_v<From, Float16> || std::is_same_v<From, BFloat16>) {
      // Sixteen at a time from one 32-byte load, four results per store.
      return RunBlocks<16, Rounding::kCallersMode, kStore>(
          in, out, n, [&eight](const From* block_in, int64_t* block_out) {
            const __m256i bits = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block_in));
            const auto low = [](__m256i v) { return _mm256_castsi256_si128(v); };
            const auto high = [](__m256i v) { return _mm256_extracti128_si256(v, 1); };
            __m256i first, second;                          // the sixteen truncated to int32
            if constexpr (std::is_same_v<From, Float16>) {  // elements 0-7 and 8-15
              first = _mm256_cvttps_epi32(_mm256_cvtph_ps(low(bits)));
              second = _mm256_cvttps_epi32(_mm256_cvtph_ps(high(bits)));
            } else {
              // bfloat16 interleaved with zeros is float32 of elements
              // (0-3 | 8-11) and (4-7 | 12-15).
              first = _mm256_cvttps_epi32(
                  _mm256_castsi256_ps(_mm256_unpacklo_epi16(_mm256_setzero_si256(), bits)));
              second = _mm256_cvttps_epi32(
                  _mm256_castsi256_ps(_mm256_unpackhi_epi16(_mm256_setzero_si256(), bits)));
            }
            if (AnyIndefinite(first, second)) {
              eight(block_in, block_out);
              eight(block_in + 8, block_out + 8);
              return;
            }
            const __m128i quarters[4] = {
                low(first), std::is_same_v<From, Float16> ? high(first) : low(second),
                std::is_same_v<From, Float16> ? low(second) : high(first), high(second)};
            __m256i* p = reinterpret_cast<__m256i*>(block_out);
            for (int i = 0; i < 4; ++i)
              StoreVector<kStore>(p + i, _mm256_cvtepi32_epi64(quarters[i]));
          });
    } else {
      return RunBlocks<8, Rounding::kCallersMode, kStore>(in, out, n, eight);
    }
  }
};

}  // namespace oneflow_promote::cast_internal::ONEFLOW_PROMOTE_CPU_TARGET

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_FLOAT_TO_INT_CASTS_H_
