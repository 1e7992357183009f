// An independent reference for the cast semantics (docs/casts.md), written
// from the definitions with x87 long double arithmetic (a 64-bit
// significand: every value of every dtype, int64 and uint64 included, is
// exact in it). It shares no code with kernels/convert.h, so the tests can
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

// A floating format by its parameters: significand bits after the point,
// smallest normal exponent, largest finite value, and whether it has inf.
struct FloatFormat {
  int mantissa_bits;
  int min_exponent;
  long double max_finite;
  bool has_infinity;
};

inline FloatFormat FormatOf(DType dtype) {
  switch (dtype) {
    case DType::kFloat8E4M3FN:
      return {3, -6, 448.0L, false};
    case DType::kFloat8E5M2:
      return {2, -14, 57344.0L, true};
    case DType::kFloat16:
    case DType::kComplex32:
      return {10, -14, 65504.0L, true};
    case DType::kBFloat16:
      return {7, -126, std::ldexp(255.0L, 120), true};
    case DType::kFloat32:
    case DType::kComplex64:
      return {23, -126, std::numeric_limits<float>::max(), true};
    default:
      return {52, -1022, std::numeric_limits<double>::max(), true};
  }
}

// Rounds x to the format: nearest, ties to even, once; overflow to inf, or
// NaN for formats without one.
inline long double RoundTo(long double x, const FloatFormat& f) {
  if (std::isnan(x)) return std::numeric_limits<long double>::quiet_NaN();
  const long double a = std::fabs(x);
  if (a == 0 || std::isinf(a)) {
    if (std::isinf(a) && !f.has_infinity) return std::numeric_limits<long double>::quiet_NaN();
    return x;
  }
  int exponent = std::ilogb(a);
  if (exponent < f.min_exponent) exponent = f.min_exponent;
  const long double quantum = std::ldexp(1.0L, exponent - f.mantissa_bits);
  long double rounded = std::nearbyint(a / quantum) * quantum;  // default mode: ties to even
  if (rounded > f.max_finite) {
    rounded = f.has_infinity ? std::numeric_limits<long double>::infinity()
                             : std::numeric_limits<long double>::quiet_NaN();
  }
  return std::copysign(rounded, x);
}

// Decodes a narrow float's bits from the format's definition.
inline long double DecodeMiniFloat(uint32_t bits, int exponent_bits, int mantissa_bits,
                                   bool finite_only) {
  const int bias = (1 << (exponent_bits - 1)) - 1;
  const bool negative = (bits >> (exponent_bits + mantissa_bits)) & 1;
  const uint32_t exponent = (bits >> mantissa_bits) & ((1u << exponent_bits) - 1);
  const uint32_t mantissa = bits & ((1u << mantissa_bits) - 1);
  long double value;
  const uint32_t all_ones = (1u << exponent_bits) - 1;
  if (finite_only && exponent == all_ones && mantissa == (1u << mantissa_bits) - 1) {
    value = std::numeric_limits<long double>::quiet_NaN();
  } else if (!finite_only && exponent == all_ones) {
    value = mantissa ? std::numeric_limits<long double>::quiet_NaN()
                     : std::numeric_limits<long double>::infinity();
  } else if (exponent == 0) {
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
    return DecodeMiniFloat(x.bits, 5, 10, false);
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return DecodeMiniFloat(x.bits, 8, 7, false);
  } else if constexpr (std::is_same_v<T, Float8E4M3FN>) {
    return DecodeMiniFloat(x.bits, 4, 3, true);
  } else if constexpr (std::is_same_v<T, Float8E5M2>) {
    return DecodeMiniFloat(x.bits, 5, 2, false);
  } else {
    return static_cast<long double>(x);
  }
}

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
    } else if constexpr (std::is_same_v<T, Complex<Float16>> ||
                         std::is_same_v<T, Complex<float>> || std::is_same_v<T, Complex<double>>) {
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
