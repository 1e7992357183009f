// The steps of the AVX2 blocks (avx2_block_cast.h) that round to float16
// and bfloat16 (RoundToMiniFloatBits8 and its faster paths for small
// integers and float64) and convert between the two in 16-bit lanes.
// Included per instruction set, as the blocks are, in the namespace that
// ONEFLOW_PROMOTE_CPU_TARGET names.

#ifndef ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_MINI_FLOAT_HELPERS_H_
#define ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_MINI_FLOAT_HELPERS_H_

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "kernels/internal/avx2_block_helpers.h"
#include "kernels/internal/avx2_pair_classes.h"
#include "oneflow_promote/numeric_types.h"

namespace oneflow_promote::cast_internal::ONEFLOW_PROMOTE_CPU_TARGET {

#define ONEFLOW_PROMOTE_BLOCK_INLINE static inline __attribute__((always_inline))

// The real (kPart 0) or imaginary (kPart 1) parts of eight kRoundsToOdd
// elements truncated to float32, without the sticky bit; needs
// round-toward-zero.
template <int kPart, typename From>
ONEFLOW_PROMOTE_BLOCK_INLINE __m256 LoadTruncatedFloat8(const From* in) {
  if constexpr (std::is_same_v<From, int32_t>) {
    return _mm256_cvtepi32_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in)));
  } else if constexpr (std::is_same_v<From, int64_t>) {
    const __m256i* p = reinterpret_cast<const __m256i*>(in);
    const __m256i low = _mm256_loadu_si256(p);
    const __m256i high = _mm256_loadu_si256(p + 1);
    if (AllSmallInt64(low, high)) {
      return Combine(_mm256_cvtpd_ps(SmallInt64ToDouble4(low)),
                     _mm256_cvtpd_ps(SmallInt64ToDouble4(high)));
    }
    return Combine(Int64ToFloatTruncated4(SplitInt64x4(low)),
                   Int64ToFloatTruncated4(SplitInt64x4(high)));
  } else if constexpr (std::is_same_v<From, double>) {
    return Combine(_mm256_cvtpd_ps(_mm256_loadu_pd(in)), _mm256_cvtpd_ps(_mm256_loadu_pd(in + 4)));
  } else {
    static_assert(std::is_same_v<From, Complex<double>>);
    const double* p = reinterpret_cast<const double*>(in);
    return Combine(NarrowedDoubleParts4<kPart>(p, DoubleToFloat4),
                   NarrowedDoubleParts4<kPart>(p + 8, DoubleToFloat4));
  }
}

// The real (kPart 0) or imaginary (kPart 1) parts of eight float64 or
// complex128 as float32, rounded to odd wherever that float32 is normal;
// needs round-toward-zero. float32 keeps the high 23 of float64's 52
// mantissa bits, so ORing into the lowest kept bit whether any of the 29
// below is set (their sum with 2^29 - 1 reaches bit 29 exactly then)
// makes the truncating conversion round to odd, with no conversion back
// to compare. Two kinds of lanes come out wrong, and only callers that
// tolerate both may use this: below 2^-126 the result is merely truncated
// (float32's subnormals keep fewer bits), which float16's rounding sends
// to zero all the same; and infinities come out NaN (the sum's low bits
// land in their mantissa), which the caller treats as the rare NaN block.
// For float64 -> float16 this replaced a second F16C rounding that told
// exact halfway values apart (RoundToMiniFloatBits8). complex128 gathers
// its parts before narrowing (DoubleParts4), which ran faster with these
// four steps a conversion than narrowing whole pairs.
template <int kPart, typename From>
ONEFLOW_PROMOTE_BLOCK_INLINE __m256 LoadFloat8RoundedToOddIfNormal(const From* in) {
  const auto narrow = [](__m256d value) __attribute__((always_inline)) {
    const __m256i bits = _mm256_castpd_si256(value);
    const __m256i dropped_mask = _mm256_set1_epi64x((int64_t{1} << 29) - 1);
    const __m256i sticky = _mm256_add_epi64(_mm256_and_si256(bits, dropped_mask), dropped_mask);
    return _mm256_cvtpd_ps(_mm256_castsi256_pd(_mm256_or_si256(bits, sticky)));
  };
  if constexpr (std::is_same_v<From, double>) {
    return Combine(narrow(_mm256_loadu_pd(in)), narrow(_mm256_loadu_pd(in + 4)));
  } else {
    static_assert(std::is_same_v<From, Complex<double>>);
    const double* p = reinterpret_cast<const double*>(in);
    return Combine(narrow(DoubleParts4<kPart>(p)), narrow(DoubleParts4<kPart>(p + 8)));
  }
}

// Whether some lane of eight truncated float32 is NaN (when kMayBeNaN) or
// might need the sticky bit to round to nearest-even bfloat16: only a value
// exactly halfway between two bfloat16 values does (below halfway rounds
// down, above rounds up, sticky or not), and bfloat16 drops the low 16 bits
// everywhere. One test for both saves the rounding's own NaN test.
template <bool kMayBeNaN>
ONEFLOW_PROMOTE_BLOCK_INLINE bool MayBeHalfwayInBFloat16OrNaN(__m256 truncated) {
  __m256i candidates = _mm256_cmpeq_epi32(
      _mm256_and_si256(_mm256_castps_si256(truncated), _mm256_set1_epi32(0xFFFF)),
      _mm256_set1_epi32(0x8000));
  if constexpr (kMayBeNaN) {
    candidates = _mm256_or_si256(
        candidates, _mm256_castps_si256(_mm256_cmp_ps(truncated, truncated, _CMP_UNORD_Q)));
  }
  return AnyLaneSet(candidates);
}

// Eight int32 or int64 as float32 if all lie in [-2^24, 2^24), where
// float32 holds every integer, so the conversion is exact in any MXCSR
// mode; false (value untouched) otherwise. Integer data nearly always
// does, so blocks take this path predictably, and it skips both the
// float64 detour of int64 and MayBeHalfway's test.
template <typename From>
ONEFLOW_PROMOTE_BLOCK_INLINE bool LoadSmallInt8(const From* in, __m256* value) {
  constexpr int64_t kLimit = int64_t{1} << 24;
  if constexpr (std::is_same_v<From, int32_t>) {
    const __m256i lanes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in));
    const __m256i biased =
        _mm256_add_epi32(lanes, _mm256_set1_epi32(kLimit));  // in [0, 2^25) if small
    if (!__builtin_expect(_mm256_testz_si256(biased, _mm256_set1_epi32(-2 * kLimit)), 1))
      return false;
    *value = _mm256_cvtepi32_ps(lanes);
  } else {
    static_assert(std::is_same_v<From, int64_t>);
    const __m256i* p = reinterpret_cast<const __m256i*>(in);
    const __m256i low = _mm256_loadu_si256(p);
    const __m256i high = _mm256_loadu_si256(p + 1);
    const __m256i offset = _mm256_set1_epi64x(kLimit);
    const __m256i biased =
        _mm256_or_si256(_mm256_add_epi64(low, offset), _mm256_add_epi64(high, offset));
    if (!__builtin_expect(_mm256_testz_si256(biased, _mm256_set1_epi64x(-2 * kLimit)), 1))
      return false;
    // The low 32 bits of each element: elements (0,1,4,5 | 2,3,6,7) within
    // lanes, put in order by one 64-bit permute; reusing the range test's
    // loads beat four 16-byte loads and 128-bit shuffles.
    const __m256i words = _mm256_castps_si256(
        _mm256_shuffle_ps(_mm256_castsi256_ps(low), _mm256_castsi256_ps(high), 0x88));
    *value = _mm256_cvtepi32_ps(_mm256_permute4x64_epi64(words, 0xD8));
  }
  return true;
}

// Whether any of eight float32 is NaN; NaN is rare in data, so blocks
// check for it once and skip making the canonical NaN when there is none.
ONEFLOW_PROMOTE_BLOCK_INLINE bool AnyNaN(__m256 value) {
  const __m256 nan = _mm256_cmp_ps(value, value, _CMP_UNORD_Q);
  return __builtin_expect(AnyLaneSet(_mm256_castps_si256(nan)), 0);
}

// Eight float16 fields of a float16 NaN lane, all ones there.
ONEFLOW_PROMOTE_BLOCK_INLINE __m128i HalfNaNLanes8(__m128i half) {
  return _mm_cmpgt_epi16(_mm_and_si128(half, _mm_set1_epi16(0x7FFF)), _mm_set1_epi16(0x7C00));
}

// Eight float32 (exact or rounded to odd) rounded to nearest-even float16,
// NaN made the canonical quiet NaN with its sign (F16C would keep payload);
// kMayBeNaN false skips that for integer sources. The rounding is in the
// instruction, whatever the MXCSR mode.
template <bool kMayBeNaN>
ONEFLOW_PROMOTE_BLOCK_INLINE __m128i ToFloat16Bits8(__m256 value) {
  const __m128i half = _mm256_cvtps_ph(value, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  if constexpr (!kMayBeNaN) return half;
  if (!AnyNaN(value)) return half;
  const __m128i nan =
      _mm_or_si128(_mm_andnot_si128(_mm_set1_epi16(0x7FFF), half), _mm_set1_epi16(0x7E00));
  return _mm_blendv_epi8(half, nan, HalfNaNLanes8(half));
}

// Eight float32, not NaN, rounded to nearest-even bfloat16: the bits in
// the low half of each 32-bit lane (the low half rounded away, as
// FloatToMiniFloat does).
ONEFLOW_PROMOTE_BLOCK_INLINE __m256i ToBFloat16Lanes8(__m256 value) {
  const __m256i bits = _mm256_castps_si256(value);
  const __m256i odd = _mm256_and_si256(_mm256_srli_epi32(bits, 16), _mm256_set1_epi32(1));
  return _mm256_srli_epi32(_mm256_add_epi32(_mm256_add_epi32(bits, _mm256_set1_epi32(0x7FFF)), odd),
                           16);
}

// The same for bfloat16, packed.
template <bool kMayBeNaN>
ONEFLOW_PROMOTE_BLOCK_INLINE __m128i ToBFloat16Bits8(__m256 value) {
  const __m256i bits = _mm256_castps_si256(value);
  const __m256i rounded = ToBFloat16Lanes8(value);
  if constexpr (!kMayBeNaN) return PackUnsigned16(rounded);
  if (!AnyNaN(value)) return PackUnsigned16(rounded);
  const __m256i is_nan = _mm256_cmpgt_epi32(_mm256_and_si256(bits, _mm256_set1_epi32(0x7FFFFFFF)),
                                            _mm256_set1_epi32(0x7F800000));
  const __m256i nan =
      _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(bits, 16), _mm256_set1_epi32(0x8000)),
                      _mm256_set1_epi32(0x7FC0));
  return PackUnsigned16(_mm256_blendv_epi8(rounded, nan, is_nan));
}

template <typename To, bool kMayBeNaN>
ONEFLOW_PROMOTE_BLOCK_INLINE __m128i ToMiniFloatBits8(__m256 value) {
  if constexpr (std::is_same_v<To, Float16>) {
    return ToFloat16Bits8<kMayBeNaN>(value);
  } else {
    static_assert(std::is_same_v<To, BFloat16>);
    return ToBFloat16Bits8<kMayBeNaN>(value);
  }
}

// Sixteen int64 rounded to nearest-even float16 or bfloat16, as bits, if
// all lie in [-2^24, 2^24) (as LoadSmallInt8, whose vpermq per eight this
// leaves out: the conversions and roundings run on the low halves out of
// order, and one shuffle of the sixteen results puts them back); false
// (bits untouched) otherwise.
template <typename To>
ONEFLOW_PROMOTE_BLOCK_INLINE bool SmallInt64ToMiniFloatBits16(const int64_t* in, __m256i* bits) {
  constexpr int64_t kLimit = int64_t{1} << 24;
  const __m256i* p = reinterpret_cast<const __m256i*>(in);
  const __m256i a = _mm256_loadu_si256(p), b = _mm256_loadu_si256(p + 1);
  const __m256i c = _mm256_loadu_si256(p + 2), d = _mm256_loadu_si256(p + 3);
  const __m256i offset = _mm256_set1_epi64x(kLimit);
  const __m256i biased =
      _mm256_or_si256(_mm256_or_si256(_mm256_add_epi64(a, offset), _mm256_add_epi64(b, offset)),
                      _mm256_or_si256(_mm256_add_epi64(c, offset), _mm256_add_epi64(d, offset)));
  if (!__builtin_expect(_mm256_testz_si256(biased, _mm256_set1_epi64x(-2 * kLimit)), 1))
    return false;
  const auto low_halves = [](__m256i x, __m256i y) __attribute__((always_inline)) {
    const __m256 words = _mm256_shuffle_ps(_mm256_castsi256_ps(x), _mm256_castsi256_ps(y), 0x88);
    return _mm256_cvtepi32_ps(_mm256_castps_si256(words));
  };
  const __m256 first = low_halves(a, b);   // elements 0, 1, 4, 5 | 2, 3, 6, 7
  const __m256 second = low_halves(c, d);  // elements 8, 9, 12, 13 | 10, 11, 14, 15
  if constexpr (std::is_same_v<To, Float16>) {
    constexpr int kNearest = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
    // 16-bit fields 0, 1, 4, 5, 2, 3, 6, 7 | 8, 9, 12, 13, 10, 11, 14, 15.
    const __m256i halves =
        _mm256_set_m128i(_mm256_cvtps_ph(second, kNearest), _mm256_cvtps_ph(first, kNearest));
    *bits = _mm256_shuffle_epi32(halves, 0xD8);
  } else {
    static_assert(std::is_same_v<To, BFloat16>);
    // 16-bit fields 0, 1, 4, 5, 8, 9, 12, 13 | 2, 3, 6, 7, 10, 11, 14, 15.
    const __m256i packed = _mm256_packus_epi32(ToBFloat16Lanes8(first), ToBFloat16Lanes8(second));
    *bits = _mm256_permutevar8x32_epi32(packed, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
  }
  return true;
}

// The real (kPart 0) or imaginary (kPart 1) parts of eight elements rounded
// to nearest-even To (float16 or bfloat16), as bits: exactly what Convert
// gives, in one rounding. kRoundsToOdd sources need round-toward-zero.
//
// Such a source is first truncated to float32 (t). Its float16 rounding is
// that of t when t is exact and that of t with its lowest bit set (t
// rounded to odd) when not, so where F16C rounds t and t | 1 alike, that is
// the answer without knowing which; they differ only where t lies exactly
// halfway between two float16 values (or is infinite). Blocks with such a
// lane, or a NaN, take the full rounding to odd. The second F16C rounding
// costs less than testing t's bits for halfway values (which move with the
// binade in float16's subnormal range) and for NaN. float64 and complex128
// sources round to odd before F16C instead (LoadFloat8RoundedToOddIfNormal,
// cheaper still); int32 and int64 ones past 2^24 keep the two roundings.
// bfloat16, rounded in integer lanes, tests t's bits
// (MayBeHalfwayInBFloat16OrNaN).
template <typename To, int kPart, typename From>
ONEFLOW_PROMOTE_BLOCK_INLINE __m128i RoundToMiniFloatBits8(const From* in) {
  if constexpr (std::is_same_v<From, int32_t> || std::is_same_v<From, int64_t>) {
    __m256 exact;
    if (LoadSmallInt8(in, &exact)) return ToMiniFloatBits8<To, false>(exact);
  }
  if constexpr (kIsDoubleSource<From> && std::is_same_v<To, Float16>) {
    const __m256 rounded_to_odd = LoadFloat8RoundedToOddIfNormal<kPart>(in);
    constexpr int kNearest = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
    if (!AnyNaN(rounded_to_odd)) return _mm256_cvtps_ph(rounded_to_odd, kNearest);
  } else if constexpr (kRoundsToOdd<From> && std::is_same_v<To, Float16>) {
    const __m256 truncated = LoadTruncatedFloat8<kPart>(in);
    constexpr int kNearest = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
    const __m128i half = _mm256_cvtps_ph(truncated, kNearest);
    const __m128i half_if_inexact = _mm256_cvtps_ph(
        _mm256_or_ps(truncated, _mm256_castsi256_ps(_mm256_set1_epi32(1))), kNearest);
    __m128i settled = _mm_cmpeq_epi16(half, half_if_inexact);
    if constexpr (kMayBeNaN<From>) settled = _mm_andnot_si128(HalfNaNLanes8(half), settled);
    if (__builtin_expect(_mm_movemask_epi8(settled) == 0xFFFF, 1)) return half;
  } else if constexpr (kRoundsToOdd<From>) {
    const __m256 truncated = LoadTruncatedFloat8<kPart>(in);
    if (!MayBeHalfwayInBFloat16OrNaN<kMayBeNaN<From>>(truncated)) {
      // With no lane halfway, rounding half up is rounding to nearest-even:
      // two integer steps fewer than ToBFloat16Lanes8.
      const __m256i bits = _mm256_castps_si256(truncated);
      return PackUnsigned16(
          _mm256_srli_epi32(_mm256_add_epi32(bits, _mm256_set1_epi32(0x8000)), 16));
    }
  }
  return ToMiniFloatBits8<To, kMayBeNaN<From>>(LoadFloat8<kPart>(in));
}

// Sixteen int16 as bfloat16 bits, if all lie in [-256, 256), where
// bfloat16's eight significant bits hold every integer; false (bits
// untouched) otherwise. Integer data nearly always does, so blocks take
// this path predictably and skip the rounding.
ONEFLOW_PROMOTE_BLOCK_INLINE bool ExactInt16ToBFloat16Bits16(const int16_t* in, __m256i* bits) {
  const __m256i words = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in));
  const __m256i biased = _mm256_add_epi16(words, _mm256_set1_epi16(256));  // in [0, 512) if exact
  if (!__builtin_expect(_mm256_testz_si256(biased, _mm256_set1_epi16(~0x1FF)), 1)) return false;
  const auto high_halves8 = [](const int16_t* eight) __attribute__((always_inline)) {
    return PackUnsigned16(_mm256_srli_epi32(_mm256_castps_si256(LoadFloat8(eight)), 16));
  };
  *bits = _mm256_set_m128i(high_halves8(in + 8), high_halves8(in));
  return true;
}

// Sixteen float16 rounded to nearest-even bfloat16, in 16-bit integer
// lanes: twice the lanes of the float32 route (F16C, then ToBFloat16Bits8).
// float16's 10-bit mantissa rounded to 7 bits, and its exponent rebiased
// by 127 - 15, are the bfloat16's fields; the rounding's carry runs into
// the exponent as it should, and cannot reach the sign (the largest normal
// magnitude is 0x7BFF). Zeros keep only their sign. A block holding a
// subnormal, an infinity or a NaN, rare in data, takes the float32 route.
ONEFLOW_PROMOTE_BLOCK_INLINE __m256i HalfToBFloat16Bits16(__m256i half) {
  const __m256i magnitude = _mm256_and_si256(half, _mm256_set1_epi16(0x7FFF));
  const __m256i below_normal = _mm256_cmpgt_epi16(_mm256_set1_epi16(0x0400), magnitude);
  const __m256i subnormal =
      _mm256_andnot_si256(_mm256_cmpeq_epi16(magnitude, _mm256_setzero_si256()), below_normal);
  const __m256i special =
      _mm256_or_si256(subnormal, _mm256_cmpgt_epi16(magnitude, _mm256_set1_epi16(0x7BFF)));
  if (__builtin_expect(AnyLaneSet(special), 0)) {
    const __m128i low = ToBFloat16Bits8<true>(_mm256_cvtph_ps(_mm256_castsi256_si128(half)));
    const __m128i high = ToBFloat16Bits8<true>(_mm256_cvtph_ps(_mm256_extracti128_si256(half, 1)));
    return _mm256_inserti128_si256(_mm256_castsi128_si256(low), high, 1);
  }
  const __m256i odd = _mm256_and_si256(_mm256_srli_epi16(half, 3), _mm256_set1_epi16(1));
  // Shifted arithmetically, the sign fills bits 12-15; the mask keeps bit 15.
  const __m256i rounded = _mm256_and_si256(
      _mm256_srai_epi16(_mm256_add_epi16(_mm256_add_epi16(half, _mm256_set1_epi16(3)), odd), 3),
      _mm256_set1_epi16(static_cast<int16_t>(0x8FFF)));
  return _mm256_add_epi16(rounded,
                          _mm256_andnot_si256(below_normal, _mm256_set1_epi16((127 - 15) << 7)));
}

// Sixteen bfloat16 as float16, in 16-bit integer lanes: a bfloat16 whose
// float16 is normal (exponent 113 to 142) widens its 7 mantissa bits to 10
// exactly, and its exponent is rebiased by 15 - 127; nothing rounds. Zeros
// keep only their sign. A block with any other value (float16 subnormals,
// which round, overflow to infinity, NaN) takes the float32 route.
ONEFLOW_PROMOTE_BLOCK_INLINE __m256i BFloat16ToHalfBits16(__m256i bfloat) {
  const __m256i magnitude = _mm256_and_si256(bfloat, _mm256_set1_epi16(0x7FFF));
  // The float16's exponent and mantissa fields, shifted right by 3.
  const __m256i rebiased = _mm256_sub_epi16(magnitude, _mm256_set1_epi16((127 - 15) << 7));
  const __m256i normal =
      _mm256_and_si256(_mm256_cmpgt_epi16(rebiased, _mm256_set1_epi16((1 << 7) - 1)),
                       _mm256_cmpgt_epi16(_mm256_set1_epi16(31 << 7), rebiased));
  const __m256i usual =
      _mm256_or_si256(normal, _mm256_cmpeq_epi16(magnitude, _mm256_setzero_si256()));
  if (__builtin_expect(!AllLanesSet(usual), 0)) {
    const __m128i low = ToFloat16Bits8<true>(BFloat16BitsToFloat8(_mm256_castsi256_si128(bfloat)));
    const __m128i high =
        ToFloat16Bits8<true>(BFloat16BitsToFloat8(_mm256_extracti128_si256(bfloat, 1)));
    return _mm256_inserti128_si256(_mm256_castsi128_si256(low), high, 1);
  }
  const __m256i sign = _mm256_xor_si256(bfloat, magnitude);
  return _mm256_or_si256(sign, _mm256_and_si256(_mm256_slli_epi16(rebiased, 3), normal));
}

#undef ONEFLOW_PROMOTE_BLOCK_INLINE

}  // namespace oneflow_promote::cast_internal::ONEFLOW_PROMOTE_CPU_TARGET

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_MINI_FLOAT_HELPERS_H_
