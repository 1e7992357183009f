// The steps of the AVX2 blocks (avx2_block_cast.h) that truncate floating
// values toward zero into integers, saturating as SaturatingTruncate does
// (convert.h). Included per instruction set, as the blocks are, in the
// namespace that ONEFLOW_PROMOTE_CPU_TARGET names.

#ifndef ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_TRUNCATION_HELPERS_H_
#define ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_TRUNCATION_HELPERS_H_

#include <immintrin.h>

#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/internal/avx2_block_helpers.h"

namespace oneflow_promote::cast_internal::ONEFLOW_PROMOTE_CPU_TARGET {

#define ONEFLOW_PROMOTE_BLOCK_INLINE static inline __attribute__((always_inline))

// Eight exact float32 truncated toward zero into int32 lanes: for int32,
// SaturatingTruncate<int32_t> itself (NaN is 0, out-of-range values take
// the bounds); for 8- and 16-bit To, a value that the signed saturating
// packs after it (packssdw, then packsswb or packuswb) turn into
// SaturatingTruncate<To>, so only NaN and values past INT32_MAX, which
// cvttps2dq would make INT32_MIN, are fixed here.
template <typename To>
ONEFLOW_PROMOTE_BLOCK_INLINE __m256i TruncateSaturating8(__m256 value) {
  value = _mm256_and_ps(value, _mm256_cmp_ps(value, value, _CMP_ORD_Q));  // NaN -> +0
  if constexpr (std::is_same_v<To, int32_t>) {
    // cvttps2dq gives INT32_MIN past either end; flip it to INT32_MAX on top.
    const __m256 too_big = _mm256_cmp_ps(value, _mm256_set1_ps(2147483648.0f), _CMP_GE_OQ);
    return _mm256_xor_si256(_mm256_cvttps_epi32(value), _mm256_castps_si256(too_big));
  } else {
    static_assert(sizeof(To) < 4);
    return _mm256_cvttps_epi32(_mm256_min_ps(value, _mm256_set1_ps(0x1.fffffep30f)));  // below 2^31
  }
}

// Four float64 the same way.
template <typename To>
ONEFLOW_PROMOTE_BLOCK_INLINE __m128i TruncateSaturating4(__m256d value) {
  value = _mm256_and_pd(value, _mm256_cmp_pd(value, value, _CMP_ORD_Q));  // NaN -> +0
  const __m256d upper = _mm256_set1_pd(2147483647.0);
  if constexpr (std::is_same_v<To, int32_t>) {
    // Every int32 bound is exact in float64: clamping changes nothing in
    // range and saturates the rest.
    return _mm256_cvttpd_epi32(
        _mm256_min_pd(_mm256_max_pd(value, _mm256_set1_pd(-2147483648.0)), upper));
  } else {
    static_assert(sizeof(To) < 4);
    return _mm256_cvttpd_epi32(_mm256_min_pd(value, upper));
  }
}

// Four float64 truncated toward zero into int64, saturating as
// SaturatingTruncate<int64_t>. AVX2 has no float64 -> int64 conversion: the
// whole value is split into a high and a low 32-bit half, exact in float64,
// and each is read from the low bits of a float64 biased so its exponent is
// fixed. Every step is exact, so the MXCSR mode does not matter.
ONEFLOW_PROMOTE_BLOCK_INLINE __m256i TruncateSaturatingInt64x4(__m256d value) {
  const __m256d two63 = _mm256_set1_pd(0x1p63);
  const __m256i too_big = _mm256_castpd_si256(_mm256_cmp_pd(value, two63, _CMP_GE_OQ));
  value = _mm256_and_pd(value, _mm256_cmp_pd(value, value, _CMP_ORD_Q));  // NaN -> +0
  value = _mm256_min_pd(_mm256_max_pd(value, _mm256_set1_pd(-0x1p63)),
                        _mm256_set1_pd(0x1.fffffffffffffp62));
  const __m256d whole = _mm256_round_pd(value, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  const __m256d high = _mm256_floor_pd(_mm256_mul_pd(whole, _mm256_set1_pd(0x1p-32)));
  const __m256d low =
      _mm256_sub_pd(whole, _mm256_mul_pd(high, _mm256_set1_pd(0x1p32)));  // [0, 2^32)
  // 2^52 + low holds low in its mantissa; 2^52 + 2^51 + high holds high
  // (negative too) as an offset from the bias.
  const __m256d low_bias = _mm256_set1_pd(0x1p52);
  const __m256d high_bias = _mm256_set1_pd(0x1.8p52);
  const __m256i low_bits = _mm256_xor_si256(_mm256_castpd_si256(_mm256_add_pd(low, low_bias)),
                                            _mm256_castpd_si256(low_bias));
  const __m256i high_bits = _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(high, high_bias)),
                                             _mm256_castpd_si256(high_bias));
  const __m256i result = _mm256_add_epi64(_mm256_slli_epi64(high_bits, 32), low_bits);
  return _mm256_blendv_epi8(result, _mm256_set1_epi64x(std::numeric_limits<int64_t>::max()),
                            too_big);
}

// Whether all eight values are below 2^51 in magnitude (NaN is not), the
// range TruncateSmallInt64x4 handles; data outside it is rare, so blocks
// take the short path predictably.
ONEFLOW_PROMOTE_BLOCK_INLINE bool AllSmall(__m256d low, __m256d high) {
  const __m256d magnitude_mask = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7FFFFFFFFFFFFFFF));
  const __m256d limit = _mm256_set1_pd(0x1p51);
  const __m256d small =
      _mm256_and_pd(_mm256_cmp_pd(_mm256_and_pd(low, magnitude_mask), limit, _CMP_LT_OQ),
                    _mm256_cmp_pd(_mm256_and_pd(high, magnitude_mask), limit, _CMP_LT_OQ));
  return _mm256_movemask_pd(small) == 0xF;
}

// TruncateSaturatingInt64x4 for values below 2^51 in magnitude: the whole
// value plus 2^52 + 2^51 holds it (negative too) as an offset from the
// bias's bits.
ONEFLOW_PROMOTE_BLOCK_INLINE __m256i TruncateSmallInt64x4(__m256d value) {
  const __m256d bias = _mm256_set1_pd(0x1.8p52);
  const __m256d whole = _mm256_round_pd(value, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  return _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(whole, bias)),
                          _mm256_castpd_si256(bias));
}

// Whether a lane of either holds INT32_MIN, cvttps2dq's and cvttpd2dq's
// "integer indefinite" for NaN and values past the int32 range (or
// exactly -2^31, which the slow paths taken then also handle).
ONEFLOW_PROMOTE_BLOCK_INLINE bool AnyIndefinite(__m256i lanes, __m256i more_lanes) {
  const __m256i indefinite = _mm256_set1_epi32(std::numeric_limits<int32_t>::min());
  const __m256i found = _mm256_or_si256(_mm256_cmpeq_epi32(lanes, indefinite),
                                        _mm256_cmpeq_epi32(more_lanes, indefinite));
  return __builtin_expect(AnyLaneSet(found), 0);
}

// Sixteen float16 truncated toward zero to int16, in 16-bit integer lanes;
// false, leaving *words unset, when a lane's magnitude is 2^15 or more
// (saturating, infinite or NaN), which the caller redoes through float32.
// A float16 of magnitude 2^(e-15) * 1.f truncates to the high half of its
// significand 1f (placed in bits 15-5) times 2^(e-14); for 0 < e-14 < 16
// that power of two is one vpshufb of e's two bytes into a table of 2^0 to
// 2^7 (indices past 7, or negative, read 0), so |x| < 1 gives 0, and
// vpsignw applies the sign. That beat F16C and cvttps2dq: twice the lanes
// per instruction, and no conversion, whose pipe both of those share.
ONEFLOW_PROMOTE_BLOCK_INLINE bool HalfToInt16Truncated16(__m256i half, __m256i* words) {
  const __m256i exponent = _mm256_and_si256(half, _mm256_set1_epi16(0x7C00));
  if (__builtin_expect(AnyLaneSet(_mm256_cmpgt_epi16(exponent, _mm256_set1_epi16(0x77FF))), 0))
    return false;
  // e * 0x0101 (the exponent field times 2^-10 * 257), less e's offsets
  // from the table's start in each byte: e - 14 below, e - 22 above.
  const __m256i index = _mm256_sub_epi16(_mm256_mulhi_epu16(exponent, _mm256_set1_epi16(257 << 6)),
                                         _mm256_set1_epi16(((15 - 1 + 8) << 8) | (15 - 1)));
  const __m256i powers = _mm256_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0, 1,
                                          2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m256i significand =
      _mm256_or_si256(_mm256_slli_epi16(half, 5), _mm256_set1_epi16(INT16_MIN));
  *words =
      _mm256_sign_epi16(_mm256_mulhi_epu16(significand, _mm256_shuffle_epi8(powers, index)), half);
  return true;
}

#undef ONEFLOW_PROMOTE_BLOCK_INLINE

}  // namespace oneflow_promote::cast_internal::ONEFLOW_PROMOTE_CPU_TARGET

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_TRUNCATION_HELPERS_H_
