// Convert<To>(from): one element conversion between any two dtypes, the same
// on the host and in CUDA device code. It is the single definition of the
// cast semantics (docs/casts.md); the CPU and CUDA kernels only loop over it.
//
//   - integer -> narrower integer wraps modulo 2^n; anything -> bool is != 0
//     (a complex is true when either part is nonzero);
//   - every rounding to a floating dtype is ONE round-to-nearest-even from
//     the exact source value (float64 -> float16 does not go through float32
//     twice, as PyTorch does);
//   - floating -> integer truncates toward zero and saturates; NaN -> 0;
//   - complex -> real keeps the real part;
//   - overflow, after rounding, gives inf in the formats that have one
//     (float16, bfloat16, float8_e5m2); float8_e4m3fn saturates to ±448
//     (infinities too); the fnuz formats give their NaN; NaN stays NaN;
//   - float8_e8m0fnu (powers of two) takes the magnitude: 0 gives its
//     smallest value 2^-127, and a mantissa of exactly 1.5 rounds up;
//   - the fnuz formats have no negative zero.
// These follow PyTorch 2.15's conversions from float32.
//
// Rounding to the narrow formats (float16, bfloat16, float8) goes in two
// steps that are together exact: the source is first rounded to float32 *to
// odd* (truncate, then set the last bit if anything was lost), which keeps
// enough information for the second step, a round-to-nearest-even from
// float32 bits, to give the correctly rounded result (float32 has at least
// two more significand bits than each of these formats). All of it is
// branch-free integer and float arithmetic, so the CPU loops vectorize.

#ifndef ONEFLOW_PROMOTE_KERNELS_CONVERT_H_
#define ONEFLOW_PROMOTE_KERNELS_CONVERT_H_

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "oneflow_promote/numeric_types.h"

// Every conversion helper is force-inlined: the CPU kernels are compiled
// once per instruction set (kernels/internal/cpu_cast_kernels.inc), and an
// out-of-line copy built for AVX2 must never be called from baseline code.
#if defined(__CUDACC__)
#define ONEFLOW_PROMOTE_CONVERT_INLINE __host__ __device__ __forceinline__
#else
#define ONEFLOW_PROMOTE_CONVERT_INLINE inline __attribute__((always_inline))
#endif

namespace oneflow_promote {
namespace convert_internal {

template <typename To, typename From>
ONEFLOW_PROMOTE_CONVERT_INLINE To BitCast(From from) {
  static_assert(sizeof(To) == sizeof(From), "BitCast needs equal sizes");
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

// condition ? if_true : if_false, as bit masks: GCC keeps a ternary as a
// branch, which stops the loop from vectorizing (and mispredicts on data).
ONEFLOW_PROMOTE_CONVERT_INLINE uint32_t Select(bool condition, uint32_t if_true,
                                               uint32_t if_false) {
  const uint32_t mask = 0u - static_cast<uint32_t>(condition);
  return (if_true & mask) | (if_false & ~mask);
}

// How a narrow format spends its special encodings.
enum class Specials {
  kIeee,              // all-ones exponent: inf and NaNs; overflow gives inf
  kFiniteSaturating,  // S.1111.111 is NaN, no inf; overflow saturates (float8_e4m3fn)
  kUnsignedZeroNaN,   // 1000.0000 is the only NaN, no -0, no inf; overflow gives NaN (fnuz)
  kExponentOnly,      // an unsigned power of two, all ones NaN (float8_e8m0fnu)
};

// A binary floating format narrower than float32, described by its fields.
template <int kExponentBitsArg, int kMantissaBitsArg, Specials kSpecialsArg, uint32_t kNaNBitsArg,
          int kBiasArg = (1 << (kExponentBitsArg - 1)) - 1>
struct MiniFloatFormat {
  static constexpr int kExponentBits = kExponentBitsArg;
  static constexpr int kMantissaBits = kMantissaBitsArg;
  static constexpr Specials kSpecials = kSpecialsArg;
  static constexpr uint32_t kNaNBits = kNaNBitsArg;  // the NaN a conversion writes, sign clear
  static constexpr int kBias = kBiasArg;
  static constexpr int kSignShift = kExponentBits + kMantissaBits;
  static constexpr uint32_t kMagnitudeMask = (1u << kSignShift) - 1;
  static constexpr uint32_t kInfBits = ((1u << kExponentBits) - 1) << kMantissaBits;
  // The largest finite magnitude, and what a larger rounded magnitude becomes.
  static constexpr uint32_t kLargestFiniteBits = kSpecials == Specials::kIeee ? kInfBits - 1
                                                 : kSpecials == Specials::kFiniteSaturating
                                                     ? kMagnitudeMask - 1
                                                     : kMagnitudeMask;
  static constexpr uint32_t kOverflowBits = kSpecials == Specials::kIeee ? kInfBits
                                            : kSpecials == Specials::kFiniteSaturating
                                                ? kLargestFiniteBits
                                                : kNaNBits;
};

template <typename T>
struct FormatOf;
template <>
struct FormatOf<Float16> : MiniFloatFormat<5, 10, Specials::kIeee, 0x7E00> {};
template <>
struct FormatOf<BFloat16> : MiniFloatFormat<8, 7, Specials::kIeee, 0x7FC0> {};
template <>
struct FormatOf<Float8E4M3FN> : MiniFloatFormat<4, 3, Specials::kFiniteSaturating, 0x7F> {};
template <>
struct FormatOf<Float8E5M2> : MiniFloatFormat<5, 2, Specials::kIeee, 0x7F> {};
template <>
struct FormatOf<Float8E4M3FNUZ> : MiniFloatFormat<4, 3, Specials::kUnsignedZeroNaN, 0x80, 8> {};
template <>
struct FormatOf<Float8E5M2FNUZ> : MiniFloatFormat<5, 2, Specials::kUnsignedZeroNaN, 0x80, 16> {};
template <>
struct FormatOf<Float8E8M0FNU> : MiniFloatFormat<8, 0, Specials::kExponentOnly, 0xFF, 127> {};

template <typename T>
inline constexpr bool kIsMiniFloat =
    std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16> || std::is_same_v<T, Float8E4M3FN> ||
    std::is_same_v<T, Float8E5M2> || std::is_same_v<T, Float8E4M3FNUZ> ||
    std::is_same_v<T, Float8E5M2FNUZ> || std::is_same_v<T, Float8E8M0FNU>;

template <typename T>
struct IsComplex : std::false_type {};
template <typename T>
struct IsComplex<Complex<T>> : std::true_type {};

template <typename T>
inline constexpr bool kIsInteger = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// The exact float32 value of a mini-float (every one of them is a float32).
template <typename T>
ONEFLOW_PROMOTE_CONVERT_INLINE float MiniFloatToFloat(T value) {
  using F = FormatOf<T>;
  const uint32_t bits = value.bits;
  if constexpr (F::kSpecials == Specials::kExponentOnly) {
    // 2^(bits - 127): float32's exponent field, except 0 (2^-127, a float32
    // subnormal) and NaN.
    const uint32_t power = Select(bits == 0, 0x00400000u, bits << 23);
    return BitCast<float>(Select(bits == F::kNaNBits, 0x7FC00000u, power));
  } else if constexpr (F::kExponentBits == 8) {
    // bfloat16 is the top half of a float32: subnormals, inf and NaN included.
    return BitCast<float>(bits << 16);
  } else {
    const uint32_t sign = (bits >> F::kSignShift) << 31;
    const uint32_t magnitude = bits & F::kMagnitudeMask;
    constexpr int kShift = 23 - F::kMantissaBits;
    // Normal numbers: widen the fields and rebias the exponent.
    const uint32_t normal = (magnitude << kShift) + (uint32_t{127 - F::kBias} << 23);
    // Subnormals: mantissa * 2^(1 - bias - mantissa bits), exact in float32.
    constexpr float kSubnormalQuantum =
        static_cast<float>(1.0 / static_cast<double>(1ull << (F::kBias - 1 + F::kMantissaBits)));
    const float subnormal = static_cast<float>(magnitude) * kSubnormalQuantum;
    const bool is_subnormal = magnitude < (1u << F::kMantissaBits);
    uint32_t result = Select(is_subnormal, BitCast<uint32_t>(subnormal), normal) | sign;
    if constexpr (F::kSpecials == Specials::kFiniteSaturating) {
      result = Select(magnitude == F::kMagnitudeMask, 0x7FC00000u | sign, result);
    } else if constexpr (F::kSpecials == Specials::kUnsignedZeroNaN) {
      result = Select(bits == F::kNaNBits, 0x7FC00000u, result);
    } else {
      // The all-ones exponent: inf, or NaN with its payload kept.
      result = Select(magnitude >= F::kInfBits, 0x7F800000u | (magnitude << kShift) | sign, result);
    }
    return BitCast<float>(result);
  }
}

// Rounds a float32 to the mini-float T: round to nearest, ties to even, once.
template <typename T>
ONEFLOW_PROMOTE_CONVERT_INLINE T FloatToMiniFloat(float value) {
  using F = FormatOf<T>;
  using Bits = decltype(T::bits);
  const uint32_t bits = BitCast<uint32_t>(value);
  if constexpr (F::kSpecials == Specials::kExponentOnly) {
    // The magnitude's float32 exponent, one up when the mantissa is past a
    // half or exactly a half of a normal number (PyTorch's rule); inf and
    // NaN give NaN, and so does rounding up from float32's top binade.
    const uint32_t exponent = (bits >> 23) & 0xFFu;
    const uint32_t half = (bits >> 22) & 1u;
    const uint32_t below_half = (bits & 0x3FFFFFu) != 0;
    const uint32_t round_up = half & (below_half | (exponent != 0));
    return T{static_cast<Bits>(Select(exponent == 0xFFu, F::kNaNBits, exponent + round_up))};
  } else if constexpr (F::kExponentBits == 8) {
    // bfloat16 is float32's top half with float32's exponent range: rounding
    // away the low 16 bits (nearest, ties to even) is the whole conversion;
    // a carry out of the largest finite value gives inf. NaN becomes the
    // canonical quiet NaN with its sign, as below.
    const uint32_t rounded = (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;
    const uint32_t nan = F::kNaNBits | ((bits >> 16) & 0x8000u);
    return T{static_cast<Bits>(Select((bits & 0x7FFFFFFFu) > 0x7F800000u, nan, rounded))};
  } else {
    uint32_t sign = (bits >> 31) << F::kSignShift;
    const uint32_t magnitude = bits & 0x7FFFFFFFu;
    constexpr int kShift = 23 - F::kMantissaBits;
    // Normal results: add just under half an ulp, plus one if the kept last
    // bit is odd, so that the carry rounds to nearest with ties to even; then
    // rebias the exponent. Overflow carries into the exponent and is clamped.
    const uint32_t rounded = magnitude + ((1u << (kShift - 1)) - 1) + ((magnitude >> kShift) & 1);
    const uint32_t normal = (rounded >> kShift) - (uint32_t{127 - F::kBias} << F::kMantissaBits);
    // Subnormal results: adding 2^23 quanta makes the float32 adder round at
    // the quantum (to nearest even); the integer difference is the mantissa.
    constexpr uint32_t kMagicBits = uint32_t{127 + 24 - F::kBias - F::kMantissaBits} << 23;
    const float magic = BitCast<float>(kMagicBits);
    const float shifted = BitCast<float>(magnitude) + magic;
    const uint32_t subnormal = BitCast<uint32_t>(shifted) - kMagicBits;
    constexpr uint32_t kMinNormalBits = uint32_t{127 + 1 - F::kBias} << 23;
    uint32_t result = Select(magnitude < kMinNormalBits, subnormal, normal);
    result = Select(result <= F::kLargestFiniteBits, result, F::kOverflowBits);
    result = Select(magnitude > 0x7F800000u, F::kNaNBits, result);
    if constexpr (F::kSpecials == Specials::kUnsignedZeroNaN) {
      sign = Select(result == 0, 0u, sign);  // no negative zero; NaN has the sign bit already
    }
    return T{static_cast<Bits>(result | sign)};
  }
}

// Whether a mini-float is nonzero (NaN is).
template <typename T>
ONEFLOW_PROMOTE_CONVERT_INLINE bool MiniFloatNonZero(T value) {
  using F = FormatOf<T>;
  if constexpr (F::kSpecials == Specials::kExponentOnly) {
    return true;
  } else if constexpr (F::kSpecials == Specials::kUnsignedZeroNaN) {
    return value.bits != 0;
  } else {
    return (value.bits & F::kMagnitudeMask) != 0;
  }
}

// Rounds a float64 to float32 toward zero, then sets the last bit when the
// result is inexact ("round to odd"). A later round-to-nearest-even to any
// format with at most 22 significand bits then equals one rounding of the
// float64. NaN stays NaN; beyond float32's range it gives float32's max,
// which rounds on to the overflow value of every narrower format.
ONEFLOW_PROMOTE_CONVERT_INLINE float DoubleToFloatRoundToOdd(double value) {
  const float nearest = static_cast<float>(value);
  const double back = static_cast<double>(nearest);
  uint32_t bits = BitCast<uint32_t>(nearest);
  const bool rounded_away = (back < 0 ? -back : back) > (value < 0 ? -value : value);
  bits -= static_cast<uint32_t>(rounded_away);  // one step toward zero (sign-magnitude)
  bits |= static_cast<uint32_t>(back != value);
  return BitCast<float>(bits);
}

// The same for a 64-bit integer: the float32 nearest, checked against the
// exact value by splitting the integer into halves that float64 holds exactly.
template <typename I>
ONEFLOW_PROMOTE_CONVERT_INLINE float Int64ToFloatRoundToOdd(I value) {
  const float nearest = static_cast<float>(value);
  const I low_mask = I{0xFFFFFFFF};
  const double high = static_cast<double>(value & ~low_mask);
  const double low = static_cast<double>(value & low_mask);
  // Both steps are exact: the operands share a 2^32 grid and differ by
  // less than 2^42.
  const double excess = (static_cast<double>(nearest) - high) - low;
  uint32_t bits = BitCast<uint32_t>(nearest);
  bool negative = false;
  if constexpr (std::is_signed_v<I>) negative = value < 0;  // nvcc warns on unsigned < 0
  const bool rounded_away = negative ? excess < 0 : excess > 0;
  bits -= static_cast<uint32_t>(rounded_away);
  bits |= static_cast<uint32_t>(excess != 0);
  return BitCast<float>(bits);
}

// A real source as float32 rounded to odd (exact where float32 holds it).
template <typename From>
ONEFLOW_PROMOTE_CONVERT_INLINE float ToFloatRoundToOdd(From from) {
  if constexpr (std::is_same_v<From, bool>) {
    return from ? 1.0f : 0.0f;
  } else if constexpr (kIsMiniFloat<From>) {
    return MiniFloatToFloat(from);
  } else if constexpr (std::is_same_v<From, float>) {
    return from;
  } else if constexpr (std::is_same_v<From, double>) {
    return DoubleToFloatRoundToOdd(from);
  } else if constexpr (sizeof(From) <= 2) {
    return static_cast<float>(from);  // exact
  } else if constexpr (sizeof(From) == 4) {
    return DoubleToFloatRoundToOdd(static_cast<double>(from));  // int -> double is exact
  } else {
    return Int64ToFloatRoundToOdd(from);
  }
}

// A real source as the nearest float32 (one rounding) or float64.
template <typename F, typename From>
ONEFLOW_PROMOTE_CONVERT_INLINE F ToBuiltinFloat(From from) {
  if constexpr (kIsMiniFloat<From>) {
    return static_cast<F>(MiniFloatToFloat(from));
  } else {
    return static_cast<F>(from);  // one IEEE rounding
  }
}

// Truncates toward zero into the integer I, saturating at its bounds; NaN is 0.
template <typename I, typename F>
ONEFLOW_PROMOTE_CONVERT_INLINE I SaturatingTruncate(F value) {
  // 2^digits is the first value past the top of I; it and the bottom
  // (-2^digits or 0) are exact in every floating type.
  constexpr F kUpper = static_cast<F>(static_cast<double>(std::numeric_limits<I>::max()) + 1.0);
  constexpr F kLower = static_cast<F>(std::numeric_limits<I>::min());
  using Wide = std::conditional_t<(sizeof(I) < 4), int32_t, I>;
  // NaN and values past the top are parked at 0 so the cast itself is defined.
  const F in_range = value < kLower ? kLower : (value < kUpper ? value : F{0});
  I result = static_cast<I>(static_cast<Wide>(in_range));
  result = value >= kUpper ? std::numeric_limits<I>::max() : result;
  result = value != value ? I{0} : result;
  return result;
}

template <typename To, typename From>
ONEFLOW_PROMOTE_CONVERT_INLINE To ConvertReal(From from) {
  if constexpr (std::is_same_v<To, From>) {
    return from;
  } else if constexpr (std::is_same_v<To, bool>) {
    if constexpr (kIsMiniFloat<From>) {
      return MiniFloatNonZero(from);
    } else {
      return from != From{0};
    }
  } else if constexpr (kIsMiniFloat<To>) {
    return FloatToMiniFloat<To>(ToFloatRoundToOdd(from));
  } else if constexpr (std::is_floating_point_v<To>) {
    return ToBuiltinFloat<To>(from);
  } else if constexpr (std::is_same_v<From, bool> || kIsInteger<From>) {
    return static_cast<To>(from);  // wraps modulo 2^n
  } else if constexpr (std::is_same_v<From, double>) {
    return SaturatingTruncate<To>(from);
  } else {
    return SaturatingTruncate<To>(ToBuiltinFloat<float>(from));
  }
}

}  // namespace convert_internal

// Converts one element of storage type From to storage type To, with the
// semantics in the file comment. Both are storage types of dtypes
// (numeric_types.h), e.g. Convert<Float16>(3.5) or Convert<int8_t>(Float16{...}).
template <typename To, typename From>
[[nodiscard]] ONEFLOW_PROMOTE_CONVERT_INLINE To Convert(From from) {
  using convert_internal::ConvertReal;
  using convert_internal::IsComplex;
  if constexpr (IsComplex<To>::value && IsComplex<From>::value) {
    using Part = decltype(To::real);
    return To{ConvertReal<Part>(from.real), ConvertReal<Part>(from.imag)};
  } else if constexpr (IsComplex<To>::value) {
    using Part = decltype(To::real);
    return To{ConvertReal<Part>(from), ConvertReal<Part>(false)};
  } else if constexpr (IsComplex<From>::value && std::is_same_v<To, bool>) {
    return ConvertReal<bool>(from.real) || ConvertReal<bool>(from.imag);
  } else if constexpr (IsComplex<From>::value) {
    return ConvertReal<To>(from.real);
  } else {
    return ConvertReal<To>(from);
  }
}

}  // namespace oneflow_promote

#endif  // ONEFLOW_PROMOTE_KERNELS_CONVERT_H_
