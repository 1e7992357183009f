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

#ifndef ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_BLOCK_CAST_H_
#define ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_BLOCK_CAST_H_

#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/cpu_cast.h"
#include "kernels/internal/block_runner.h"
#include "oneflow_promote/convert.h"
#include "oneflow_promote/numeric_types.h"

namespace oneflow_promote::cast_internal::ONEFLOW_PROMOTE_CPU_TARGET {
namespace block_internal {

// The pair classes, the streaming rules and RunBlocks.
using namespace ::oneflow_promote::cast_internal::blocks;

#define ONEFLOW_PROMOTE_BLOCK_INLINE static inline __attribute__((always_inline))

// Lane-crossing shuffles (vpermd, vpermq) are slow on processors that
// split 256-bit operations into two 128-bit halves (several micro-ops and
// cycles each; docs/tuning.md), so the steps below stay within 128-bit
// lanes, but for one such shuffle at most in a block (int64 -> 16-bit
// floats and complex32); halves are joined or split with
// vinsertf128/vextractf128.

// Whether any (all) lanes of a comparison mask (lanes all ones or all
// zeros) are set, for the branches that send a rare block to its slow
// path: vpmovmskb, which ran faster than vptest here. Range tests of bits
// under a constant mask keep vptest, which ran faster there
// (docs/tuning.md, AnyLaneSet).
ONEFLOW_PROMOTE_BLOCK_INLINE bool AnyLaneSet(__m256i mask) {
  return _mm256_movemask_epi8(mask) != 0;
}
ONEFLOW_PROMOTE_BLOCK_INLINE bool AllLanesSet(__m256i mask) {
  return _mm256_movemask_epi8(mask) == -1;
}

// Rounding to odd, cheaply: under round-toward-zero (RoundTowardZero, block_runner.h)
// the hardware conversions give the truncated float32 directly, and only
// the "inexact" bit has to be ORed in. The bit travels from float64 compare
// masks through cvtpd2ps as a value whose float32 encoding ends in 1
// (1 + 2^-23) rather than as a mask, which would need a lane-crossing narrow.
ONEFLOW_PROMOTE_BLOCK_INLINE __m128 SetInexactBit4(__m128 truncated, __m256d inexact) {
  const __m256d flag = _mm256_and_pd(inexact, _mm256_set1_pd(1.00000011920928955078125));
  const __m128i bit = _mm_and_si128(_mm_castps_si128(_mm256_cvtpd_ps(flag)), _mm_set1_epi32(1));
  return _mm_castsi128_ps(_mm_or_si128(_mm_castps_si128(truncated), bit));
}

// Four float64 as float32 rounded to odd (DoubleToFloatRoundToOdd); needs
// round-toward-zero. NaN stays NaN; past float32's range the truncation is
// float32's max, as in convert.h.
ONEFLOW_PROMOTE_BLOCK_INLINE __m128 DoubleToFloatRoundToOdd4(__m256d value) {
  const __m128 truncated = _mm256_cvtpd_ps(value);
  return SetInexactBit4(truncated, _mm256_cmp_pd(_mm256_cvtps_pd(truncated), value, _CMP_NEQ_UQ));
}

// Eight int32 as float32 rounded to odd; needs round-toward-zero (the
// truncated float32 is below 2^31, so converting it back is exact).
ONEFLOW_PROMOTE_BLOCK_INLINE __m256 Int32ToFloatRoundToOdd8(__m256i value) {
  const __m256 truncated = _mm256_cvtepi32_ps(value);
  const __m256i exact = _mm256_cmpeq_epi32(_mm256_cvttps_epi32(truncated), value);
  const __m256i bit = _mm256_andnot_si256(exact, _mm256_set1_epi32(1));
  return _mm256_castsi256_ps(_mm256_or_si256(_mm256_castps_si256(truncated), bit));
}

// The unsigned 32-bit fields of four 64-bit lanes (already shifted down) as
// float64, exactly: 2^52 + x, minus 2^52.
ONEFLOW_PROMOTE_BLOCK_INLINE __m256d Unsigned32ToDouble4(__m256i fields) {
  const __m256d two52 = _mm256_set1_pd(4503599627370496.0);
  return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(fields, _mm256_castpd_si256(two52))),
                       two52);
}

// Four int64 as two float64 halves, each exact: the high 32 bits (signed,
// times 2^32) and the low 32 bits (unsigned).
struct Int64Halves {
  __m256d high, low;
};
ONEFLOW_PROMOTE_BLOCK_INLINE Int64Halves SplitInt64x4(__m256i value) {
  const __m256d low = Unsigned32ToDouble4(_mm256_and_si256(value, _mm256_set1_epi64x(0xFFFFFFFF)));
  // The signed high half: biased by 2^31 to unsigned, converted, unbiased.
  const __m256i biased_high =
      _mm256_xor_si256(_mm256_srli_epi64(value, 32), _mm256_set1_epi64x(0x80000000));
  const __m256d high =
      _mm256_mul_pd(_mm256_sub_pd(Unsigned32ToDouble4(biased_high), _mm256_set1_pd(2147483648.0)),
                    _mm256_set1_pd(4294967296.0));
  return {high, low};
}

// Whether all eight int64 lie in [-2^51, 2^51), the range SmallInt64ToDouble4
// converts: x + 2^51 then has no bits above the low 52. Nearly all integer
// data does, so blocks take the short path predictably.
ONEFLOW_PROMOTE_BLOCK_INLINE bool AllSmallInt64(__m256i low, __m256i high) {
  const __m256i offset = _mm256_set1_epi64x(int64_t{1} << 51);
  const __m256i biased =
      _mm256_or_si256(_mm256_add_epi64(low, offset), _mm256_add_epi64(high, offset));
  return __builtin_expect(_mm256_testz_si256(biased, _mm256_set1_epi64x(~((int64_t{1} << 52) - 1))),
                          1);
}

// Four int64 in [-2^51, 2^51) as float64, exactly: added to the bits of
// 2^52 + 2^51, they make its mantissa 2^51 + x without reaching the
// exponent, and subtracting the bias leaves x. Every step is exact, so the
// MXCSR mode does not matter.
ONEFLOW_PROMOTE_BLOCK_INLINE __m256d SmallInt64ToDouble4(__m256i value) {
  const __m256d bias = _mm256_set1_pd(0x1.8p52);
  return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_add_epi64(value, _mm256_castpd_si256(bias))),
                       bias);
}

// Four int64 truncated to float32; needs round-toward-zero. The sum of the
// halves truncated to float64 and then to float32 is the integer truncated
// to float32 (truncations nest).
ONEFLOW_PROMOTE_BLOCK_INLINE __m128 Int64ToFloatTruncated4(Int64Halves halves) {
  return _mm256_cvtpd_ps(_mm256_add_pd(halves.high, halves.low));
}

// Four int64 as float32 rounded to odd; needs round-toward-zero. The error
// of the truncation is computed exactly from the halves (they and the
// result share a grid within 2^42 of each other).
ONEFLOW_PROMOTE_BLOCK_INLINE __m128 Int64ToFloatRoundToOdd4(__m256i value) {
  const Int64Halves halves = SplitInt64x4(value);
  const __m128 truncated = Int64ToFloatTruncated4(halves);
  const __m256d excess =
      _mm256_sub_pd(_mm256_sub_pd(_mm256_cvtps_pd(truncated), halves.high), halves.low);
  return SetInexactBit4(truncated, _mm256_cmp_pd(excess, _mm256_setzero_pd(), _CMP_NEQ_OQ));
}

ONEFLOW_PROMOTE_BLOCK_INLINE __m256 Combine(__m128 low, __m128 high) {
  return _mm256_insertf128_ps(_mm256_castps128_ps256(low), high, 1);
}

// The real (kPart 0) or imaginary (kPart 1) parts of four complex<double>,
// in order: lanes hold elements (0 | 2) and (1 | 3).
template <int kPart>
ONEFLOW_PROMOTE_BLOCK_INLINE __m256d DoubleParts4(const double* pairs) {
  const __m256d even = _mm256_loadu2_m128d(pairs + 4, pairs);
  const __m256d odd = _mm256_loadu2_m128d(pairs + 6, pairs + 2);
  return kPart == 0 ? _mm256_unpacklo_pd(even, odd) : _mm256_unpackhi_pd(even, odd);
}
// The real (kPart 0) or imaginary (kPart 1) parts of four complex<double>,
// in order, narrowed to 32-bit lanes by narrow (cvtpd2ps or cvttpd2dq of
// four float64). Whole pairs are narrowed and the parts picked after: twice
// the conversions of DoubleParts4, but two 32-byte loads instead of four
// 16-byte ones and no 256-bit unpack, which paid for complex128 -> 8- to
// 32-bit integers, 16-bit floats and float32. complex128 -> bool and
// complex128 -> float16 (four steps a narrowing) ran faster with
// DoubleParts4 and keep it (docs/tuning.md, NarrowedDoubleParts4).
template <int kPart, typename Narrow>
ONEFLOW_PROMOTE_BLOCK_INLINE auto NarrowedDoubleParts4(const double* pairs, Narrow narrow) {
  const auto first = narrow(_mm256_loadu_pd(pairs));
  const auto second = narrow(_mm256_loadu_pd(pairs + 4));
  using Narrowed = decltype(first);
  return __builtin_bit_cast(
      Narrowed, _mm_shuffle_ps(__builtin_bit_cast(__m128, first),
                               __builtin_bit_cast(__m128, second), kPart == 0 ? 0x88 : 0xDD));
}
ONEFLOW_PROMOTE_BLOCK_INLINE __m128 DoubleToFloat4(__m256d value) { return _mm256_cvtpd_ps(value); }
ONEFLOW_PROMOTE_BLOCK_INLINE __m128i DoubleToInt32Truncated4(__m256d value) {
  return _mm256_cvttpd_epi32(value);
}

// The same for eight complex<float>: lanes hold elements (0,1 | 4,5) and
// (2,3 | 6,7).
template <int kPart>
ONEFLOW_PROMOTE_BLOCK_INLINE __m256 FloatParts8(const float* pairs) {
  const __m256 a = _mm256_loadu2_m128(pairs + 8, pairs);
  const __m256 b = _mm256_loadu2_m128(pairs + 12, pairs + 4);
  return _mm256_shuffle_ps(a, b, kPart == 0 ? 0x88 : 0xDD);
}

// Eight 32-bit lanes holding values that fit in 16 bits, packed in order.
ONEFLOW_PROMOTE_BLOCK_INLINE __m128i PackUnsigned16(__m256i v) {
  return _mm_packus_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
}

// The real (kPart 0) or imaginary (kPart 1) halves of eight complex32, as
// eight 16-bit fields.
template <int kPart>
ONEFLOW_PROMOTE_BLOCK_INLINE __m128i HalfParts8(const void* pairs) {
  __m256i v = _mm256_loadu_si256(static_cast<const __m256i*>(pairs));
  if constexpr (kPart == 1) v = _mm256_srli_epi32(v, 16);
  return PackUnsigned16(_mm256_and_si256(v, _mm256_set1_epi32(0xFFFF)));
}

// Eight bfloat16 fields as float32 (the high halves).
ONEFLOW_PROMOTE_BLOCK_INLINE __m256 BFloat16BitsToFloat8(__m128i bits) {
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(bits), 16));
}

// Eight integers of up to 32 bits, extended to 32-bit lanes in order.
template <typename S>
ONEFLOW_PROMOTE_BLOCK_INLINE __m256i Int32Lanes8(const S* in) {
  static_assert(std::is_integral_v<S> && sizeof(S) <= 4);
  if constexpr (sizeof(S) == 1) {
    const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(in));
    return std::is_signed_v<S> ? _mm256_cvtepi8_epi32(bytes) : _mm256_cvtepu8_epi32(bytes);
  } else if constexpr (sizeof(S) == 2) {
    const __m128i words = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in));
    return std::is_signed_v<S> ? _mm256_cvtepi16_epi32(words) : _mm256_cvtepu16_epi32(words);
  } else {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in));
  }
}

// The real (kPart 0) or imaginary (kPart 1) parts of eight elements as
// float32: exact where float32 holds the value, otherwise rounded to odd
// (what ToFloatRoundToOdd gives; kRoundsToOdd sources need
// round-toward-zero). Real sources have only part 0.
template <int kPart = 0, typename From>
ONEFLOW_PROMOTE_BLOCK_INLINE __m256 LoadFloat8(const From* in) {
  static_assert(kPart == 0 || kIsComplexSource<From>);
  if constexpr (std::is_integral_v<From> && sizeof(From) <= 2) {
    return _mm256_cvtepi32_ps(Int32Lanes8(in));  // exact
  } else if constexpr (std::is_same_v<From, int32_t>) {
    return Int32ToFloatRoundToOdd8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in)));
  } else if constexpr (std::is_same_v<From, int64_t>) {
    const __m256i* p = reinterpret_cast<const __m256i*>(in);
    const __m256i low = _mm256_loadu_si256(p);
    const __m256i high = _mm256_loadu_si256(p + 1);
    if (AllSmallInt64(low, high)) {
      return Combine(DoubleToFloatRoundToOdd4(SmallInt64ToDouble4(low)),
                     DoubleToFloatRoundToOdd4(SmallInt64ToDouble4(high)));
    }
    return Combine(Int64ToFloatRoundToOdd4(low), Int64ToFloatRoundToOdd4(high));
  } else if constexpr (std::is_same_v<From, float>) {
    return _mm256_loadu_ps(in);
  } else if constexpr (std::is_same_v<From, double>) {
    return Combine(DoubleToFloatRoundToOdd4(_mm256_loadu_pd(in)),
                   DoubleToFloatRoundToOdd4(_mm256_loadu_pd(in + 4)));
  } else if constexpr (std::is_same_v<From, Float16>) {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in)));
  } else if constexpr (std::is_same_v<From, BFloat16>) {
    return BFloat16BitsToFloat8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in)));
  } else if constexpr (std::is_same_v<From, Complex<float>>) {
    return FloatParts8<kPart>(reinterpret_cast<const float*>(in));
  } else if constexpr (std::is_same_v<From, Complex<double>>) {
    const double* p = reinterpret_cast<const double*>(in);
    return Combine(DoubleToFloatRoundToOdd4(DoubleParts4<kPart>(p)),
                   DoubleToFloatRoundToOdd4(DoubleParts4<kPart>(p + 8)));
  } else {
    static_assert(std::is_same_v<From, Complex<Float16>>);
    return _mm256_cvtph_ps(HalfParts8<kPart>(in));
  }
}

// Sources that LoadFloat8 rounds to odd, which needs round-toward-zero.
template <typename T>
inline constexpr bool kRoundsToOdd =
    std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t> || std::is_same_v<T, double> ||
    std::is_same_v<T, Complex<double>>;

// The rounding mode of blocks that convert from T: round-toward-zero where
// they round T to odd, the caller's own otherwise.
template <typename T>
inline constexpr Rounding kRoundingFor =
    kRoundsToOdd<T> ? Rounding::kTowardZero : Rounding::kCallersMode;

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

// Sources LoadFloat8 reads (bool goes through the uint8 kernels).
template <typename T>
inline constexpr bool kIsFloatLoadable =
    std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t> || std::is_same_v<T, int16_t> ||
    std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t> || std::is_same_v<T, float> ||
    std::is_same_v<T, double> || std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16> ||
    kIsComplexSource<T>;

// Pairs converted in 16-bit integer lanes, without float32.
template <typename From, typename To>
inline constexpr bool kConvertsIn16BitLanes =
    (std::is_same_v<To, BFloat16> &&
     (std::is_same_v<From, Float16> || std::is_same_v<From, Complex<Float16>>)) ||
    (std::is_same_v<From, BFloat16> && std::is_same_v<To, Float16>);

// Sources whose float32 value is exact, so truncating it is the cast.
template <typename T>
inline constexpr bool kIsExactFloatSource =
    std::is_same_v<T, float> || std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16> ||
    std::is_same_v<T, Complex<float>> || std::is_same_v<T, Complex<Float16>>;

template <typename T>
inline constexpr bool kIsDoubleSource =
    std::is_same_v<T, double> || std::is_same_v<T, Complex<double>>;

// Floating and complex sources: LoadFloat8 or LoadDouble8 reads them exactly.
template <typename T>
inline constexpr bool kIsFloatingSource = kIsExactFloatSource<T> || kIsDoubleSource<T>;

// 16-bit floating sources, and the destinations they widen to exactly.
template <typename T>
inline constexpr bool kIsHalfSource = std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16> ||
                                      std::is_same_v<T, Complex<Float16>>;
template <typename T>
inline constexpr bool kIsWideFloatDest =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, Complex<float>> ||
    std::is_same_v<T, Complex<double>>;

template <typename T>
inline constexpr bool kIsWrappingInteger =
    std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t> || std::is_same_v<T, int16_t> ||
    std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>;

// Pairs whose cast keeps the low sizeof(To) bytes of each source element:
// integer -> narrower integer (wraps) and complex -> its part type (the
// real part comes first).
template <typename From, typename To>
inline constexpr bool kKeepsLowBytes = (kIsWrappingInteger<From> && kIsWrappingInteger<To> &&
                                        sizeof(From) > sizeof(To)) ||
                                       std::is_same_v<From, Complex<To>>;

// Pairs that GCC's own loop over Convert converts as fast as a block did,
// so that they need blocks only to stream (LoopBlockCast): real integers
// and floating types -> bool; integer narrowing and complex -> its part
// type; and the plain conversions (docs/tuning.md,
// kStreamsCompilerLoop).
template <typename From, typename To>
inline constexpr bool kStreamsCompilerLoop =
    (std::is_same_v<To, bool> && !kIsComplexSource<From> &&
     ((std::is_integral_v<From> && sizeof(From) >= 2) || kIsFloatingSource<From>)) ||
    kKeepsLowBytes<From, To> || kIsPlainConversion<From, To>;

// Eight elements of an exact-float or a float64 source as float64, exactly
// (reals only for complex sources).
struct Double8 {
  __m256d low, high;
};
template <typename From>
ONEFLOW_PROMOTE_BLOCK_INLINE Double8 LoadDouble8(const From* in) {
  if constexpr (std::is_same_v<From, double>) {
    return {_mm256_loadu_pd(in), _mm256_loadu_pd(in + 4)};
  } else if constexpr (std::is_same_v<From, Complex<double>>) {
    const double* p = reinterpret_cast<const double*>(in);
    return {DoubleParts4<0>(p), DoubleParts4<0>(p + 8)};
  } else {
    static_assert(kIsExactFloatSource<From>);
    const __m256 value = LoadFloat8(in);
    return {_mm256_cvtps_pd(_mm256_castps256_ps128(value)),
            _mm256_cvtps_pd(_mm256_extractf128_ps(value, 1))};
  }
}

template <typename T>
inline constexpr bool kMayBeNaN = !std::is_integral_v<T>;

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

// Stores a 16- or 32-byte vector at p, non-temporally for
// the streaming Store kinds. The streaming kernels align the destination to
// kStreamAlignment bytes (cpu_cast.h), and every block stores whole vectors
// at multiples of their size from its start, so the streaming stores are
// aligned.
template <Store kStore, typename Vector>
ONEFLOW_PROMOTE_BLOCK_INLINE void StoreVector(void* p, Vector v) {
  static_assert(sizeof(Vector) == 16 || sizeof(Vector) == 32);
  if constexpr (sizeof(Vector) == 16) {
    const __m128i bits = __builtin_bit_cast(__m128i, v);
    if constexpr (kStreams<kStore>) {
      _mm_stream_si128(static_cast<__m128i*>(p), bits);
    } else {
      _mm_storeu_si128(static_cast<__m128i*>(p), bits);
    }
  } else {
    const __m256i bits = __builtin_bit_cast(__m256i, v);
    if constexpr (kStreams<kStore>) {
      _mm256_stream_si256(static_cast<__m256i*>(p), bits);
    } else {
      _mm256_storeu_si256(static_cast<__m256i*>(p), bits);
    }
  }
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

// Sources whose every value bfloat16 holds exactly (bool goes through the
// uint8 kernels): their float32 needs no rounding, only its high half.
template <typename T>
inline constexpr bool kIsExactInBFloat16 = std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t>;

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

// The real halves of sixteen complex32, as sixteen 16-bit fields in order:
// each 32-byte vector pairs 16-byte pieces 32 bytes apart, so one pack
// per 128-bit lane leaves them in order.
ONEFLOW_PROMOTE_BLOCK_INLINE __m256i HalfRealParts16(const void* pairs) {
  const __m128i* p = static_cast<const __m128i*>(pairs);
  const __m256i real = _mm256_set1_epi32(0xFFFF);
  return _mm256_packus_epi32(_mm256_and_si256(_mm256_loadu2_m128i(p + 2, p), real),
                             _mm256_and_si256(_mm256_loadu2_m128i(p + 3, p + 1), real));
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

}  // namespace block_internal

// BlockCast<From, To>::Run(in, out, n) converts a leading part of the n
// elements and returns its length; the caller converts the rest with
// Convert<To>. Run under a streaming Store writes with non-temporal stores, to
// a destination aligned to kStreamAlignment bytes, and the caller fences
// them. Pairs without hand-written blocks convert nothing here.
template <typename From, typename To, typename = void>
struct BlockCast : blocks::NoBlockCast<From, To> {};

template <typename From, typename To>
struct BlockCast<From, To, std::enable_if_t<block_internal::kStreamsCompilerLoop<From, To>>>
    : block_internal::LoopBlockCast<From, To> {};

// Anything real or complex -> float16 / bfloat16. 8-bit sources are bound
// by the shuffle and shift pipes (the widening, the packs), not by the
// conversion pipe; the ways around cvtdq2ps and F16C that were tried ran
// slower (docs/tuning.md).
template <typename From, typename To>
struct BlockCast<
    From, To,
    std::enable_if_t<block_internal::kIsNarrowFloatDest<To> &&
                     block_internal::kIsFloatLoadable<From> && !std::is_same_v<From, To> &&
                     !block_internal::kStreamsCompilerLoop<From, To> &&
                     !block_internal::kConvertsIn16BitLanes<From, To>>> {
  template <blocks::Store kStore = blocks::Store::kOrdinary>
  static int64_t Run(const From* in, To* out, int64_t n) {
    using namespace block_internal;
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
struct BlockCast<From, To, std::enable_if_t<block_internal::kConvertsIn16BitLanes<From, To>>> {
  template <blocks::Store kStore = blocks::Store::kOrdinary>
  static int64_t Run(const From* in, To* out, int64_t n) {
    using namespace block_internal;
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
struct BlockCast<From, Complex<Float16>,
                 std::enable_if_t<block_internal::kIsFloatLoadable<From> &&
                                  !convert_internal::IsComplex<From>::value>> {
  template <blocks::Store kStore = blocks::Store::kOrdinary>
  static int64_t Run(const From* in, Complex<Float16>* out, int64_t n) {
    using namespace block_internal;
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

// Complex -> bool: nonzero (NaN included) in either part, sixteen results
// a block, so that each store is 16 bytes. GCC's loop, which separates the
// parts first, ran slower both on cached data and streamed (docs/tuning.md).
template <typename From>
struct BlockCast<From, bool, std::enable_if_t<block_internal::kIsComplexSource<From>>> {
  template <blocks::Store kStore = blocks::Store::kOrdinary>
  static int64_t Run(const From* in, bool* out, int64_t n) {
    using namespace block_internal;
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
                 std::enable_if_t<block_internal::kIsSmallIntDest<To> &&
                                  block_internal::kIsFloatingSource<From>>> {
  // Eight elements as int32 lanes truncated without saturating.
  static __m256i TruncatedLanes(const From* in) {
    using namespace block_internal;
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
    using namespace block_internal;
    if constexpr (kIsExactFloatSource<From>) {
      return TruncateSaturating8<To>(LoadFloat8(in));
    } else {
      const Double8 value = LoadDouble8(in);
      return _mm256_set_m128i(TruncateSaturating4<To>(value.high),
                              TruncateSaturating4<To>(value.low));
    }
  }
  static __m256i Lanes(const From* in) {
    using block_internal::AnyIndefinite;
    const __m256i lanes = TruncatedLanes(in);
    return AnyIndefinite(lanes, lanes) ? SaturatedLanes(in) : lanes;
  }
  static __m128i Words(__m256i lanes) {
    return _mm_packs_epi32(_mm256_castsi256_si128(lanes), _mm256_extracti128_si256(lanes, 1));
  }

  template <blocks::Store kStore = blocks::Store::kOrdinary>
  static int64_t Run(const From* in, To* out, int64_t n) {
    using namespace block_internal;
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

// float16, bfloat16 and complex32 -> float32, float64, complex64 and
// complex128: exact, through F16C or a shift instead of convert.h's bit
// decoding.
template <typename From, typename To>
struct BlockCast<
    From, To,
    std::enable_if_t<block_internal::kIsHalfSource<From> && block_internal::kIsWideFloatDest<To> &&
                     !(convert_internal::IsComplex<From>::value &&
                       convert_internal::IsComplex<To>::value)>> {
  template <blocks::Store kStore = blocks::Store::kOrdinary>
  static int64_t Run(const From* in, To* out, int64_t n) {
    using namespace block_internal;
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

// Floating and complex -> int64 (truncate, saturate).
template <typename From>
struct BlockCast<From, int64_t, std::enable_if_t<block_internal::kIsFloatingSource<From>>> {
  template <blocks::Store kStore = blocks::Store::kOrdinary>
  static int64_t Run(const From* in, int64_t* out, int64_t n) {
    using namespace block_internal;
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

// int64 -> float32, float64, complex64 and complex128. AVX2 has no int64
// conversion, but a value below 2^51 in magnitude is exact in float64
// (SmallInt64ToDouble4), which then rounds once to float32 in the caller's
// MXCSR mode, as static_cast does. A block holding a larger value converts
// its elements one at a time.
template <typename To>
struct BlockCast<int64_t, To, std::enable_if_t<block_internal::kIsWideFloatDest<To>>> {
  template <blocks::Store kStore = blocks::Store::kOrdinary>
  static int64_t Run(const int64_t* in, To* out, int64_t n) {
    using namespace block_internal;
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

// complex64 -> float64 and complex128 -> float32: the real parts, widened,
// or rounded once in the caller's MXCSR mode as static_cast does. Only a
// block streams complex128 -> float32; on cached data GCC's loop is faster
// (docs/tuning.md), so there Run converts nothing.
template <typename From, typename To>
struct BlockCast<From, To, std::enable_if_t<block_internal::kIsRealPartCast<From, To>>> {
  template <blocks::Store kStore = blocks::Store::kOrdinary>
  static int64_t Run(const From* in, To* out, int64_t n) {
    using namespace block_internal;
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

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_BLOCK_CAST_H_
