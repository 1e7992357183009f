// An independent reference for the cast semantics (docs/casts.md), written
// from the definitions with x87 long double arithmetic (a 64-bit
// significand: every value of every dtype, int64 and uint64 included, is
// exact in it). It shares no code with oneflow_promote/convert.h, so the tests can
// hold the kernels to it where libtorch deliberately differs.

#ifndef ONEFLOW_PROMOTE_TESTS_CAST_REFERENCE_H_
#define ONEFLOW_PROMOTE_TESTS_CAST_REFERENCE_H_

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "absl/numeric/int128.h"
#include "oneflow_promote/dtype.h"

namespace oneflow_promote::reference {

static_assert(std::numeric_limits<long double>::digits >= 64, "needs x87 long double");

// The exact value of one element: an integer (kept exactly, for wrapping),
// or a real or complex value.
struct Value {
  bool is_integer = false;
  absl::int128 integer = 0;
  long double real = 0;
  long double imag = 0;
};

// What a floating format does with a value past its largest finite one.
enum class Overflow { kInfinity, kSaturate, kNaN };

// A floating format by its parameters: significand bits after the point,
// smallest normal exponent, largest finite value, overflow, and whether it
// has a negative zero. Exponent-only formats (float8_e8m0fnu) have their
// own rule in RoundTo.
struct FloatFormat {
  int mantissa_bits;
  int min_exponent;
  long double max_finite;
  Overflow overflow;
  bool negative_zero = true;
  bool exponent_only = false;
};

inline FloatFormat FormatOf(DType dtype) {
  switch (dtype) {
    case DType::kFloat8E4M3FN:
      return {3, -6, 448.0L, Overflow::kSaturate};
    case DType::kFloat8E5M2:
      return {2, -14, 57344.0L, Overflow::kInfinity};
    case DType::kFloat8E4M3FNUZ:
      return {3, -7, 240.0L, Overflow::kNaN, false};
    case DType::kFloat8E5M2FNUZ:
      return {2, -15, 57344.0L, Overflow::kNaN, false};
    case DType::kFloat8E8M0FNU:
      return {0, -127, std::ldexp(1.0L, 127), Overflow::kNaN, false, true};
    case DType::kFloat16:
    case DType::kComplex32:
      return {10, -14, 65504.0L, Overflow::kInfinity};
    case DType::kBFloat16:
    case DType::kBComplex32:
      return {7, -126, std::ldexp(255.0L, 120), Overflow::kInfinity};
    case DType::kFloat32:
    case DType::kComplex64:
      return {23, -126, std::numeric_limits<float>::max(), Overflow::kInfinity};
    default:
      return {52, -1022, std::numeric_limits<double>::max(), Overflow::kInfinity};
  }
}

// float8_e8m0fnu's rule (PyTorch 2.15, from float32): the magnitude's power
// of two, the next one up from a significand of 1.5 on; below float32's
// normal range, 2^-126 for anything past 2^-127 and 2^-127 (the smallest
// value, which zero also gives) otherwise.
inline long double RoundToPowerOfTwo(long double a) {
  if (a < std::ldexp(1.0L, -126)) {
    return a > std::ldexp(1.0L, -127) ? std::ldexp(1.0L, -126) : std::ldexp(1.0L, -127);
  }
  const int exponent = std::ilogb(a);
  const long double power = std::ldexp(1.0L, exponent);
  const long double rounded = a / power >= 1.5L ? 2 * power : power;
  return rounded > std::ldexp(1.0L, 127) ? std::numeric_limits<long double>::quiet_NaN() : rounded;
}

// Rounds x to the format: nearest, ties to even, once; overflow as the
// format says.
inline long double RoundTo(long double x, const FloatFormat& f) {
  const long double kNaN = std::numeric_limits<long double>::quiet_NaN();
  if (std::isnan(x)) return kNaN;
  const long double a = std::fabs(x);
  if (f.exponent_only) return std::isinf(a) ? kNaN : RoundToPowerOfTwo(a);
  long double rounded = a;
  if (a != 0 && !std::isinf(a)) {
    int exponent = std::ilogb(a);
    if (exponent < f.min_exponent) exponent = f.min_exponent;
    const long double quantum = std::ldexp(1.0L, exponent - f.mantissa_bits);
    rounded = std::nearbyint(a / quantum) * quantum;  // default mode: ties to even
  }
  if (rounded > f.max_finite) {
    switch (f.overflow) {
      case Overflow::kInfinity:
        rounded = std::numeric_limits<long double>::infinity();
        break;
      case Overflow::kSaturate:
        rounded = f.max_finite;
        break;
      case Overflow::kNaN:
        return kNaN;
    }
  }
  if (rounded == 0 && !f.negative_zero) return 0;
  return std::copysign(rounded, x);
}

// Decodes a narrow float's bits from the format's definition. `bias` is the
// exponent bias; `specials` says where NaN and inf live.
enum class Specials { kIeee, kAllOnesNaN, kNegativeZeroNaN };
inline long double DecodeMiniFloat(uint32_t bits, int exponent_bits, int mantissa_bits,
                                   Specials specials, int bias) {
  const bool negative = (bits >> (exponent_bits + mantissa_bits)) & 1;
  const uint32_t exponent = (bits >> mantissa_bits) & ((1u << exponent_bits) - 1);
  const uint32_t mantissa = bits & ((1u << mantissa_bits) - 1);
  const uint32_t all_ones = (1u << exponent_bits) - 1;
  const long double kNaN = std::numeric_limits<long double>::quiet_NaN();
  if (specials == Specials::kNegativeZeroNaN && negative && exponent == 0 && mantissa == 0) {
    return kNaN;
  }
  if (specials == Specials::kAllOnesNaN && exponent == all_ones &&
      mantissa == (1u << mantissa_bits) - 1) {
    return kNaN;
  }
  if (specials == Specials::kIeee && exponent == all_ones) {
    return mantissa ? kNaN : (negative ? -1 : 1) * std::numeric_limits<long double>::infinity();
  }
  long double value;
  if (exponent == 0) {
    value = std::ldexp(static_cast<long double>(mantissa), 1 - bias - mantissa_bits);
  } else {
    value = std::ldexp(static_cast<long double>(mantissa + (1u << mantissa_bits)),
                       static_cast<int>(exponent) - bias - mantissa_bits);
  }
  return negative ? -value : value;
}

template <typename T>
long double RealValue(const T& x) {
  if constexpr (std::is_same_v<T, Float16>) {
    return DecodeMiniFloat(x.bits, 5, 10, Specials::kIeee, 15);
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return DecodeMiniFloat(x.bits, 8, 7, Specials::kIeee, 127);
  } else if constexpr (std::is_same_v<T, Float8E4M3FN>) {
    return DecodeMiniFloat(x.bits, 4, 3, Specials::kAllOnesNaN, 7);
  } else if constexpr (std::is_same_v<T, Float8E5M2>) {
    return DecodeMiniFloat(x.bits, 5, 2, Specials::kIeee, 15);
  } else if constexpr (std::is_same_v<T, Float8E4M3FNUZ>) {
    return DecodeMiniFloat(x.bits, 4, 3, Specials::kNegativeZeroNaN, 8);
  } else if constexpr (std::is_same_v<T, Float8E5M2FNUZ>) {
    return DecodeMiniFloat(x.bits, 5, 2, Specials::kNegativeZeroNaN, 16);
  } else if constexpr (std::is_same_v<T, Float8E8M0FNU>) {
    return x.bits == 0xFF ? std::numeric_limits<long double>::quiet_NaN()
                          : std::ldexp(1.0L, static_cast<int>(x.bits) - 127);
  } else {
    return static_cast<long double>(x);
  }
}

template <typename T>
inline constexpr bool kIsComplexStorage = false;
template <typename Part>
inline constexpr bool kIsComplexStorage<Complex<Part>> = true;

// The exact value of element `index` of a buffer of `dtype`.
inline Value ValueAt(const void* data, DType dtype, int64_t index) {
  return VisitDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T x;
    std::memcpy(&x, static_cast<const char*>(data) + index * sizeof(T), sizeof(T));
    Value v;
    if constexpr (std::is_integral_v<T>) {
      v.is_integer = true;
      v.integer = static_cast<absl::int128>(x);
      v.real = static_cast<long double>(x);
    } else if constexpr (kIsComplexStorage<T>) {
      v.real = RealValue(x.real);
      v.imag = RealValue(x.imag);
    } else {
      v.real = RealValue(x);
    }
    return v;
  });
}

// What casting `v` to `to` must give, as a Value.
inline Value Cast(const Value& v, DType to) {
  Value out;
  if (to == DType::kBool) {
    out.is_integer = true;
    out.integer = (v.is_integer ? v.integer != 0 : (v.real != 0 || v.imag != 0)) ? 1 : 0;
    out.real = static_cast<long double>(out.integer);
    return out;
  }
  if (IsIntegral(to)) {
    const int bits = static_cast<int>(ItemSize(to)) * 8;
    const bool is_signed = CategoryOf(to) == Category::kSigned;
    out.is_integer = true;
    if (v.is_integer) {
      // Wrap modulo 2^bits.
      const absl::uint128 mask = bits == 128 ? ~absl::uint128(0) : (absl::uint128(1) << bits) - 1;
      absl::uint128 low = static_cast<absl::uint128>(v.integer) & mask;
      if (is_signed && (low >> (bits - 1)) != 0) {
        out.integer = static_cast<absl::int128>(low) - (absl::int128(1) << bits);
      } else {
        out.integer = static_cast<absl::int128>(low);
      }
    } else if (std::isnan(v.real)) {
      out.integer = 0;
    } else {
      const absl::int128 max =
          is_signed ? (absl::int128(1) << (bits - 1)) - 1 : (absl::int128(1) << bits) - 1;
      const absl::int128 min = is_signed ? -(absl::int128(1) << (bits - 1)) : 0;
      const long double t = std::trunc(v.real);
      if (t >= std::ldexp(1.0L, 64)) {
        out.integer = max;
      } else if (t <= -std::ldexp(1.0L, 64)) {
        out.integer = min;
      } else {
        const absl::int128 i = t < 0 ? -static_cast<absl::int128>(static_cast<uint64_t>(-t))
                                     : static_cast<absl::int128>(static_cast<uint64_t>(t));
        out.integer = i > max ? max : (i < min ? min : i);
      }
    }
    out.real = static_cast<long double>(out.integer);
    return out;
  }
  const FloatFormat format = FormatOf(to);
  out.real = RoundTo(v.real, format);
  out.imag = IsComplex(to) ? RoundTo(v.imag, format) : 0;
  return out;
}

// Equal as values: integers exactly, floats exactly with the sign of zero,
// NaN equal to NaN.
inline bool SameValue(const Value& a, const Value& b) {
  const auto same = [](long double x, long double y) {
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
    return x == y && std::signbit(x) == std::signbit(y);
  };
  if (a.is_integer || b.is_integer) return a.is_integer == b.is_integer && a.integer == b.integer;
  return same(a.real, b.real) && same(a.imag, b.imag);
}

}  // namespace oneflow_promote::reference

#endif  // ONEFLOW_PROMOTE_TESTS_CAST_REFERENCE_H_
