// The steps that every family of AVX2 blocks (avx2_block_cast.h) builds
// on: lane tests, int32, int64 and float64 as float32 rounded to odd, the
// parts of complex sources, loads of eight elements as float32 or float64,
// and the stores. The steps of the roundings to 16-bit floats are in
// avx2_mini_float_helpers.h, those of saturating truncation in
// avx2_truncation_helpers.h. Included per instruction set, as the blocks
// are, in the namespace that ONEFLOW_PROMOTE_CPU_TARGET names.

#ifndef ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_BLOCK_HELPERS_H_
#define ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_BLOCK_HELPERS_H_

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "kernels/internal/avx2_pair_classes.h"
#include "oneflow_promote/numeric_types.h"

namespace oneflow_promote::cast_internal::ONEFLOW_PROMOTE_CPU_TARGET {

#define ONEFLOW_PROMOTE_BLOCK_INLINE static inline __attribute__((always_inline))

// Lane-crossing shuffles (vpermd, vpermq) are slow on processors that
// split 256-bit operations into two 128-bit halves (several micro-ops and
// cycles each; docs/tuning.md), so the steps below, and those of the
// other AVX2 block headers, stay within 128-bit lanes, but for one such
// shuffle at most in a block (int64 -> 16-bit floats and complex32);
// halves are joined or split with vinsertf128/vextractf128.

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

// The real halves of sixteen complex32, as sixteen 16-bit fields in order:
// each 32-byte vector pairs 16-byte pieces 32 bytes apart, so one pack
// per 128-bit lane leaves them in order.
ONEFLOW_PROMOTE_BLOCK_INLINE __m256i HalfRealParts16(const void* pairs) {
  const __m128i* p = static_cast<const __m128i*>(pairs);
  const __m256i real = _mm256_set1_epi32(0xFFFF);
  return _mm256_packus_epi32(_mm256_and_si256(_mm256_loadu2_m128i(p + 2, p), real),
                             _mm256_and_si256(_mm256_loadu2_m128i(p + 3, p + 1), real));
}

#undef ONEFLOW_PROMOTE_BLOCK_INLINE

}  // namespace oneflow_promote::cast_internal::ONEFLOW_PROMOTE_CPU_TARGET

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_BLOCK_HELPERS_H_
