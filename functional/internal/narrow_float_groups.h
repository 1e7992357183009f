// The binary blocks of float16 and bfloat16 on x86-64 (op_kernels.cc
// compiles them for AVX2 and F16C and runs them where the processor has
// both): groups of elements widened and narrowed in registers as the cast
// kernels convert them, the element function of op_math.h in between.

#ifndef ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_NARROW_FLOAT_GROUPS_H_
#define ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_NARROW_FLOAT_GROUPS_H_

#if defined(__x86_64__)
#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "functional/internal/op_math.h"
#include "oneflow_promote/numeric_types.h"

namespace oneflow_promote::functional_internal {

// Groups of kNarrowGroup elements are widened exactly (float16 with
// vcvtph2ps, bfloat16 by a shift; NaN payloads kept) into a stack copy that
// stays in L1, the element function runs over the group in a loop the
// compiler vectorizes, and the results are rounded to nearest even. The
// chunks of NarrowFloatBinaryBody reach the same conversions through three
// calls to the cast kernels per chunk: float16 add(out=) of 1M elements
// ran 3x faster this way (docs/tuning.md, kNarrowGroup).
constexpr int64_t kNarrowGroup = 32;

// The ops whose element function vectorizes (truncating division's
// rounding step, RoundTo, and atan2, FloatAtan2, included). Remainder and
// floor division keep the chunks, which run FmodDivisionLoop; pow, a libm
// call the groups did not speed up (docs/tuning.md, kNarrowGroup), too.
constexpr bool GroupsPay(ops::Op op) { return !IsFmodDivision(op) && op != ops::Op::kPow; }

#define ONEFLOW_PROMOTE_F16C __attribute__((target("avx2,f16c")))

template <typename T>
[[gnu::always_inline]] ONEFLOW_PROMOTE_F16C inline void WidenGroup(const T* in, float* out) {
  for (int64_t j = 0; j < kNarrowGroup; j += 8) {
    const __m128i bits = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + j));
    if constexpr (std::is_same_v<T, Float16>) {
      _mm256_store_ps(out + j, _mm256_cvtph_ps(bits));
    } else {
      // bfloat16 is the high half of a float32.
      _mm256_store_ps(out + j,
                      _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(bits), 16)));
    }
  }
}

// Eight floats rounded to nearest even, as the cast kernels round them: a
// NaN becomes the quiet NaN with its sign (0x7E00, 0x7FC0; convert.h),
// where vcvtps2ph would keep part of its payload.
template <typename T>
[[gnu::always_inline]] ONEFLOW_PROMOTE_F16C inline __m128i Narrow8(__m256 value) {
  const __m256i bits = _mm256_castps_si256(value);
  __m128i narrow;
  if constexpr (std::is_same_v<T, Float16>) {
    narrow = _mm256_cvtps_ph(value, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  } else {
    const __m256i odd = _mm256_and_si256(_mm256_srli_epi32(bits, 16), _mm256_set1_epi32(1));
    const __m256i rounded = _mm256_srli_epi32(
        _mm256_add_epi32(_mm256_add_epi32(bits, _mm256_set1_epi32(0x7FFF)), odd), 16);
    narrow =
        _mm_packus_epi32(_mm256_castsi256_si128(rounded), _mm256_extracti128_si256(rounded, 1));
  }
  const __m256 nan = _mm256_cmp_ps(value, value, _CMP_UNORD_Q);
  if (_mm256_movemask_ps(nan) == 0) return narrow;
  const __m128i nan_lanes = _mm_packs_epi32(_mm256_castsi256_si128(_mm256_castps_si256(nan)),
                                            _mm256_extracti128_si256(_mm256_castps_si256(nan), 1));
  const int16_t quiet_nan = std::is_same_v<T, Float16> ? 0x7E00 : 0x7FC0;
  const __m128i sign = _mm_packs_epi32(
      _mm256_castsi256_si128(_mm256_srai_epi32(bits, 16)),
      _mm256_extracti128_si256(_mm256_srai_epi32(bits, 16), 1));  // 16-bit sign-and-high bits
  const __m128i quiet =
      _mm_or_si128(_mm_and_si128(sign, _mm_set1_epi16(-0x8000)), _mm_set1_epi16(quiet_nan));
  return _mm_blendv_epi8(narrow, quiet, nan_lanes);
}

template <typename T>
[[gnu::always_inline]] ONEFLOW_PROMOTE_F16C inline void NarrowGroup(const float* in, T* out) {
  for (int64_t j = 0; j < kNarrowGroup; j += 8) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + j), Narrow8<T>(_mm256_load_ps(in + j)));
  }
}

template <ops::Op kOp, typename T, bool kScalarDivisor, bool kSingleA, bool kSingleB>
[[gnu::always_inline]] ONEFLOW_PROMOTE_F16C inline void NarrowFloatGroupLoop(
    const T* a_in, const T* b_in, float a_single, float b_single, void* out, int64_t n,
    bool& zero) {
  using R = decltype(Binary<kOp, T, kScalarDivisor>(float(), float(), zero));
  using S = ResultStorage<T, R>;
  S* o = static_cast<S*>(out);
  const auto element = [&](float a, float b) __attribute__((always_inline)) {
    return Binary<kOp, T, kScalarDivisor>(a, b, zero);
  };
  int64_t i = 0;
  for (; i + kNarrowGroup <= n; i += kNarrowGroup) {
    alignas(32) float a[kNarrowGroup], b[kNarrowGroup];
    if (!kSingleA) WidenGroup(a_in + i, a);
    if (!kSingleB) WidenGroup(b_in + i, b);
    if constexpr (std::is_same_v<S, T>) {
      alignas(32) float r[kNarrowGroup];
      for (int64_t j = 0; j < kNarrowGroup; ++j) {
        r[j] = element(kSingleA ? a_single : a[j], kSingleB ? b_single : b[j]);
      }
      NarrowGroup(r, o + i);
    } else {
      for (int64_t j = 0; j < kNarrowGroup; ++j) {
        o[i + j] = element(kSingleA ? a_single : a[j], kSingleB ? b_single : b[j]);
      }
    }
  }
  for (; i < n; ++i) {
    o[i] = StoreAs<S>(element(kSingleA ? a_single : Math<T>::Load(a_in[i]),
                              kSingleB ? b_single : Math<T>::Load(b_in[i])));
  }
}

template <ops::Op kOp, typename T, bool kScalarDivisor>
[[gnu::always_inline]] ONEFLOW_PROMOTE_F16C inline void NarrowFloatGroupBody(
    const void* const* inputs, const bool* broadcast, void* out, int64_t n, bool& zero_division) {
  const T* a_in = static_cast<const T*>(inputs[0]);
  const T* b_in = static_cast<const T*>(inputs[1]);
  const float a_single = broadcast[0] ? Math<T>::Load(a_in[0]) : 0.0f;
  float b_single = 0.0f;
  if constexpr (kScalarDivisor) {
    b_single = *static_cast<const float*>(inputs[1]);  // already float (ScalarInputDType)
  } else if (broadcast[1]) {
    b_single = Math<T>::Load(b_in[0]);
  }
  const bool single_b = kScalarDivisor || broadcast[1];
  bool zero = false;
  // A loop for each broadcast pattern, so that each one vectorizes.
  if (!broadcast[0] && !single_b) {
    NarrowFloatGroupLoop<kOp, T, kScalarDivisor, false, false>(a_in, b_in, a_single, b_single, out,
                                                               n, zero);
  } else if (!broadcast[0]) {
    NarrowFloatGroupLoop<kOp, T, kScalarDivisor, false, true>(a_in, b_in, a_single, b_single, out,
                                                              n, zero);
  } else if (!single_b) {
    NarrowFloatGroupLoop<kOp, T, kScalarDivisor, true, false>(a_in, b_in, a_single, b_single, out,
                                                              n, zero);
  } else {
    NarrowFloatGroupLoop<kOp, T, kScalarDivisor, true, true>(a_in, b_in, a_single, b_single, out, n,
                                                             zero);
  }
  if (zero) zero_division = true;
}

#undef ONEFLOW_PROMOTE_F16C

}  // namespace oneflow_promote::functional_internal

#endif  // defined(__x86_64__)
#endif  // ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_NARROW_FLOAT_GROUPS_H_
