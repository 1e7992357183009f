// float16's binary blocks on x86-64 with F16C (op_kernels.cc compiles them
// for AVX2 and F16C and runs them where the processor has both): groups of
// elements widened and narrowed in registers by the instructions the cast
// kernels use, the element function of op_math.h in between.

#ifndef ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_HALF_GROUPS_H_
#define ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_HALF_GROUPS_H_

#if defined(__x86_64__)
#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "functional/internal/op_math.h"
#include "oneflow_promote/numeric_types.h"

namespace oneflow_promote::functional_internal {

// With F16C: groups of kHalfGroup elements widened (vcvtph2ps, exact,
// NaN payloads kept) into a stack copy that stays in L1, the element
// function over the group in a loop the compiler vectorizes, and the
// results narrowed with vcvtps2ph rounding to nearest even. These are the
// cast kernels' conversions inline, which the chunks of
// NarrowFloatBinaryBody reach through three calls per chunk: float16
// add(out=) of 1M elements ran 3x faster (docs/tuning.md, kHalfGroup).
constexpr int64_t kHalfGroup = 32;

#define ONEFLOW_PROMOTE_F16C __attribute__((target("avx2,f16c")))

[[gnu::always_inline]] ONEFLOW_PROMOTE_F16C inline void WidenHalfGroup(const Float16* in,
                                                                       float* out) {
  for (int64_t j = 0; j < kHalfGroup; j += 8) {
    _mm256_store_ps(out + j,
                    _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + j))));
  }
}

// As the cast kernels narrow float32 to float16: a NaN becomes the quiet
// NaN 0x7E00 with its sign (convert.h), which vcvtps2ph alone does not give.
[[gnu::always_inline]] ONEFLOW_PROMOTE_F16C inline void NarrowHalfGroup(const float* in,
                                                                        Float16* out) {
  for (int64_t j = 0; j < kHalfGroup; j += 8) {
    const __m256 value = _mm256_load_ps(in + j);
    __m128i half = _mm256_cvtps_ph(value, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m256 nan = _mm256_cmp_ps(value, value, _CMP_UNORD_Q);
    if (_mm256_movemask_ps(nan) != 0) {
      const __m128i nan_lanes =
          _mm_packs_epi32(_mm256_castsi256_si128(_mm256_castps_si256(nan)),
                          _mm256_extractf128_si256(_mm256_castps_si256(nan), 1));
      const __m128i quiet =
          _mm_or_si128(_mm_and_si128(half, _mm_set1_epi16(-0x8000)), _mm_set1_epi16(0x7E00));
      half = _mm_blendv_epi8(half, quiet, nan_lanes);
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + j), half);
  }
}

template <ops::Op kOp, bool kScalarDivisor, bool kSingleA, bool kSingleB>
[[gnu::always_inline]] ONEFLOW_PROMOTE_F16C inline void HalfBinaryLoop(const Float16* a_in,
                                                                       const Float16* b_in,
                                                                       float a_single,
                                                                       float b_single, void* out,
                                                                       int64_t n, bool& zero) {
  using R = decltype(Binary<kOp, Float16, kScalarDivisor>(float(), float(), zero));
  using S = ResultStorage<Float16, R>;
  S* o = static_cast<S*>(out);
  const auto element = [&](float a, float b) __attribute__((always_inline)) {
    return Binary<kOp, Float16, kScalarDivisor>(a, b, zero);
  };
  int64_t i = 0;
  for (; i + kHalfGroup <= n; i += kHalfGroup) {
    alignas(32) float a[kHalfGroup], b[kHalfGroup];
    if (!kSingleA) WidenHalfGroup(a_in + i, a);
    if (!kSingleB) WidenHalfGroup(b_in + i, b);
    if constexpr (std::is_same_v<S, Float16>) {
      alignas(32) float r[kHalfGroup];
      for (int64_t j = 0; j < kHalfGroup; ++j) {
        r[j] = element(kSingleA ? a_single : a[j], kSingleB ? b_single : b[j]);
      }
      NarrowHalfGroup(r, o + i);
    } else {
      for (int64_t j = 0; j < kHalfGroup; ++j) {
        o[i + j] = element(kSingleA ? a_single : a[j], kSingleB ? b_single : b[j]);
      }
    }
  }
  for (; i < n; ++i) {
    o[i] = StoreAs<S>(element(kSingleA ? a_single : Math<Float16>::Load(a_in[i]),
                              kSingleB ? b_single : Math<Float16>::Load(b_in[i])));
  }
}

template <ops::Op kOp, bool kScalarDivisor>
[[gnu::always_inline]] ONEFLOW_PROMOTE_F16C inline void HalfBinaryBody(const void* const* inputs,
                                                                       const bool* broadcast,
                                                                       void* out, int64_t n,
                                                                       bool& zero_division) {
  const Float16* a_in = static_cast<const Float16*>(inputs[0]);
  const Float16* b_in = static_cast<const Float16*>(inputs[1]);
  const float a_single = broadcast[0] ? Math<Float16>::Load(a_in[0]) : 0.0f;
  float b_single = 0.0f;
  if constexpr (kScalarDivisor) {
    b_single = *static_cast<const float*>(inputs[1]);  // already float (ScalarInputDType)
  } else if (broadcast[1]) {
    b_single = Math<Float16>::Load(b_in[0]);
  }
  const bool single_b = kScalarDivisor || broadcast[1];
  bool zero = false;
  // A loop for each broadcast pattern, so that each one vectorizes.
  if (!broadcast[0] && !single_b) {
    HalfBinaryLoop<kOp, kScalarDivisor, false, false>(a_in, b_in, a_single, b_single, out, n, zero);
  } else if (!broadcast[0]) {
    HalfBinaryLoop<kOp, kScalarDivisor, false, true>(a_in, b_in, a_single, b_single, out, n, zero);
  } else if (!single_b) {
    HalfBinaryLoop<kOp, kScalarDivisor, true, false>(a_in, b_in, a_single, b_single, out, n, zero);
  } else {
    HalfBinaryLoop<kOp, kScalarDivisor, true, true>(a_in, b_in, a_single, b_single, out, n, zero);
  }
  if (zero) zero_division = true;
}

#undef ONEFLOW_PROMOTE_F16C

}  // namespace oneflow_promote::functional_internal

#endif  // defined(__x86_64__)
#endif  // ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_HALF_GROUPS_H_
