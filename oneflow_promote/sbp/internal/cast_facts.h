// The facts about each dtype's values that the SBP rules of casts read
// (range, precision, sign, zero, special values; oneflow_promote/convert.h's format
// descriptions for the narrow floats), and the properties of a cast derived
// from them: additivity and monotonicity. All constexpr, so that CastKeeps
// (sbp.h) is.

#ifndef ONEFLOW_PROMOTE_SBP_INTERNAL_CAST_FACTS_H_
#define ONEFLOW_PROMOTE_SBP_INTERNAL_CAST_FACTS_H_

#include <cstdint>
#include <limits>
#include <type_traits>

#include "oneflow_promote/convert.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/numeric_types.h"

namespace oneflow_promote::sbp {

// How well each rank's local result matches the single-device result.
enum class Exactness : uint8_t {
  kExact,         // bit for bit
  kUpToRounding,  // the partials' reduction rounds differently (floating sums)
  kNeedsBoxing,   // wrong: reduce the partials (to broadcast) first
};

namespace sbp_internal {

// What a floating format does with a value past its largest finite one.
enum class Overflow : uint8_t { kInfinity, kSaturate, kNaN };

// The facts about a dtype's values (its parts', for complex) that the rules
// read.
struct Facts {
  bool is_bool = false;
  bool is_integer = false;
  bool is_floating = false;  // real or complex
  bool is_complex = false;
  bool has_negative = true;
  bool has_zero = true;
  int bits = 0;          // integers
  int precision = 0;     // floating: significand bits
  int min_exponent = 0;  // floating: of the smallest positive value
  double largest = 0;    // the largest finite magnitude
  double threshold = 0;  // floating: the magnitude from which rounding overflows
  Overflow overflow = Overflow::kInfinity;
  bool has_infinity = false;
  DType part = DType::kBool;  // the real dtype of its parts
};

constexpr double Pow2(int exponent) {
  double x = 1;
  for (; exponent > 0; --exponent) x *= 2;
  for (; exponent < 0; ++exponent) x /= 2;
  return x;
}

template <typename P>
constexpr Facts FloatingFacts() {
  Facts f;
  f.is_floating = true;
  if constexpr (std::is_same_v<P, float> || std::is_same_v<P, double>) {
    using L = std::numeric_limits<P>;
    f.precision = L::digits;
    f.min_exponent = L::min_exponent - L::digits;
    f.largest = static_cast<double>(L::max());
    // float64's is past its own range: no value reaches it (inf, spelled
    // out because an overflowing sum is not a constant expression).
    f.threshold = std::is_same_v<P, double> ? L::infinity()
                                            : f.largest + Pow2(L::max_exponent - L::digits - 1);
    f.has_infinity = true;
  } else {
    using F = convert_internal::FormatOf<P>;
    using convert_internal::Specials;
    const bool exponent_only = F::kSpecials == Specials::kExponentOnly;
    f.precision = F::kMantissaBits + 1;
    // The largest finite: all-ones exponent is special for IEEE and e8m0,
    // all-ones everything for saturating e4m3fn.
    const int top_exponent = (1 << F::kExponentBits) - 1 - F::kBias;
    const int max_exponent =
        F::kSpecials == Specials::kIeee || exponent_only ? top_exponent - 1 : top_exponent;
    const int unused_mantissa_steps = F::kSpecials == Specials::kFiniteSaturating ? 2 : 1;
    f.largest = (2 - unused_mantissa_steps * Pow2(-F::kMantissaBits)) * Pow2(max_exponent);
    f.threshold = f.largest + Pow2(max_exponent - F::kMantissaBits - 1);
    f.min_exponent = exponent_only ? -F::kBias : 1 - F::kBias - F::kMantissaBits;
    f.has_negative = !exponent_only;
    f.has_zero = !exponent_only;
    f.has_infinity = F::kSpecials == Specials::kIeee;
    f.overflow = F::kSpecials == Specials::kIeee               ? Overflow::kInfinity
                 : F::kSpecials == Specials::kFiniteSaturating ? Overflow::kSaturate
                                                               : Overflow::kNaN;
  }
  return f;
}

constexpr Facts FactsOf(DType dtype) {
  return VisitDType(
      dtype, [](auto tag) constexpr {
        using T = typename decltype(tag)::type;
        using P = typename PartOf<T>::type;
        Facts f;
        if constexpr (std::is_same_v<T, bool>) {
          f.is_bool = true;
          f.has_negative = false;
          f.bits = 1;
          f.largest = 1;
        } else if constexpr (std::is_integral_v<T>) {
          f.is_integer = true;
          f.has_negative = std::is_signed_v<T>;
          f.bits = 8 * sizeof(T);
          f.largest = std::is_signed_v<T> ? -static_cast<double>(std::numeric_limits<T>::min())
                                          : static_cast<double>(std::numeric_limits<T>::max());
        } else {
          f = FloatingFacts<P>();
          f.is_complex = !std::is_same_v<T, P>;
        }
        f.part = DTypeOf<P>::value;
        return f;
      });
}

// Every value of `from` (parts, for complex) converts to `to` without
// change, infinities included.
constexpr bool PreservesValues(const Facts& from, const Facts& to) {
  if (from.is_floating != to.is_floating) return false;
  // An infinity may become NaN where overflow does too: both absorb sums.
  return to.precision >= from.precision && to.largest >= from.largest &&
         to.min_exponent <= from.min_exponent && (to.has_negative || !from.has_negative) &&
         (to.has_infinity || !from.has_infinity || to.overflow == Overflow::kNaN);
}

// cast(a ⊕ b) == cast(a) ⊕ cast(b), with each dtype's own addition.
constexpr Exactness Additivity(const Facts& from, const Facts& to) {
  if (from.is_integer && to.is_integer) {
    // Reduction modulo 2^to.bits commutes with wrapping addition modulo
    // 2^from.bits when the first divides the second.
    return to.bits <= from.bits ? Exactness::kExact : Exactness::kNeedsBoxing;
  }
  if (from.is_floating && to.is_floating) {
    // Complex addition adds parts: taking or embedding a part of the same
    // type changes no rounding.
    if (from.part == to.part && from.is_complex != to.is_complex) return Exactness::kExact;
    if (!PreservesValues(from, to)) return Exactness::kNeedsBoxing;
    // The same grid and the same overflow point round every sum alike.
    return to.precision == from.precision && to.largest == from.largest ? Exactness::kExact
                                                                        : Exactness::kUpToRounding;
  }
  return Exactness::kNeedsBoxing;
}

// Whether casting keeps maximum (or minimum): cast(max(a, b)) ==
// max(cast(a), cast(b)) with NaN propagating. A monotone cast does; a value
// that becomes NaN acts as the top for max (and the bottom for min) only
// if every larger (smaller) value does too.
constexpr bool KeepsExtreme(const Facts& from, const Facts& to, bool max) {
  if (from.is_complex || to.is_complex) return false;  // no order
  if (from.is_bool) return true;                       // false < true: 0 < 1
  if (to.is_bool) return !from.has_negative;           // x != 0 rises only from 0 up
  if (from.is_integer && to.is_integer) {
    // Monotone exactly when every value fits: no wrap.
    return to.largest >= from.largest && (to.has_negative || !from.has_negative);
  }
  if (from.is_floating && to.is_integer) {
    // Truncation and saturation are monotone; NaN becomes 0, which is the
    // least result only when nothing converts below it.
    return !max && (!to.has_negative || !from.has_negative);
  }
  // Into a float: rounding is monotone. A format without negatives takes
  // magnitudes; overflow and infinities may become NaN.
  if (from.has_negative && !to.has_negative) return false;
  const bool infinity_to_nan =
      from.has_infinity && !to.has_infinity && to.overflow != Overflow::kSaturate;
  const bool overflow_to_nan = to.overflow == Overflow::kNaN && from.largest >= to.threshold;
  const bool top_to_nan = infinity_to_nan || overflow_to_nan;
  const bool bottom_to_nan = from.has_negative && top_to_nan;
  return max ? !bottom_to_nan : !top_to_nan;
}

}  // namespace sbp_internal
}  // namespace oneflow_promote::sbp

#endif  // ONEFLOW_PROMOTE_SBP_INTERNAL_CAST_FACTS_H_
