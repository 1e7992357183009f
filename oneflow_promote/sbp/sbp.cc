// SBP rules from properties of the conversion: each dtype's range,
// precision and special values (kernels/convert.h's format descriptions for
// the narrow floats), then additivity and monotonicity of the cast.

#include "oneflow_promote/sbp/sbp.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "kernels/convert.h"
#include "oneflow_promote/numeric_types.h"

namespace oneflow_promote::sbp {
namespace {

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
  int bits = 0;           // integers
  int precision = 0;      // floating: significand bits
  int min_exponent = 0;   // floating: of the smallest positive value
  double largest = 0;     // the largest finite magnitude
  double threshold = 0;   // floating: the magnitude from which rounding overflows
  Overflow overflow = Overflow::kInfinity;
  bool has_infinity = false;
  DType part = DType::kBool;  // the real dtype of its parts
};

double Pow2(int exponent) {
  double x = 1;
  for (; exponent > 0; --exponent) x *= 2;
  for (; exponent < 0; ++exponent) x /= 2;
  return x;
}

template <typename P>
Facts FloatingFacts() {
  Facts f;
  f.is_floating = true;
  if constexpr (std::is_same_v<P, float> || std::is_same_v<P, double>) {
    using L = std::numeric_limits<P>;
    f.precision = L::digits;
    f.min_exponent = L::min_exponent - L::digits;
    f.largest = static_cast<double>(L::max());
    f.threshold = f.largest + Pow2(L::max_exponent - L::digits - 1);
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

Facts FactsOf(DType dtype) {
  return VisitDType(dtype, [](auto tag) {
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
bool PreservesValues(const Facts& from, const Facts& to) {
  if (from.is_floating != to.is_floating) return false;
  // An infinity may become NaN where overflow does too: both absorb sums.
  return to.precision >= from.precision && to.largest >= from.largest &&
         to.min_exponent <= from.min_exponent && (to.has_negative || !from.has_negative) &&
         (to.has_infinity || !from.has_infinity || to.overflow == Overflow::kNaN);
}

// Whether the largest values of `from` round past what `to` holds, which
// gives NaN in formats without infinity or saturation.
bool OverflowsToNaN(const Facts& from, const Facts& to) {
  if (!to.is_floating || to.overflow != Overflow::kNaN) return false;
  return from.largest >= to.threshold || from.has_infinity;
}

// cast(a ⊕ b) == cast(a) ⊕ cast(b), with each dtype's own addition.
Exactness Additivity(const Facts& from, const Facts& to) {
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
bool KeepsExtreme(const Facts& from, const Facts& to, bool max) {
  if (from.is_complex || to.is_complex) return false;  // no order
  if (from.is_bool) return true;                        // false < true: 0 < 1
  if (to.is_bool) return !from.has_negative;            // x != 0 rises only from 0 up
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

Exactness Weaker(Exactness a, Exactness b) { return std::max(a, b); }

bool Keeps(Exactness exactness, bool strict) {
  return exactness == Exactness::kExact || (!strict && exactness == Exactness::kUpToRounding);
}

bool IsAdditive(functional::Op op) { return op == functional::Op::kAdd || op == functional::Op::kSub; }

// One placement dimension of a binary op, or nothing where it needs boxing.
struct DimSignature {
  Sbp output;
  Exactness exactness = Exactness::kExact;
};
std::optional<DimSignature> KeepDim(functional::Op op, DType compute, const Sbp& a, const Sbp& b) {
  using functional::Op;
  if (!a.is_partial() && !b.is_partial()) {
    if (a.kind == SbpKind::kSplit && b.kind == SbpKind::kSplit && a.axis != b.axis) {
      return std::nullopt;
    }
    return DimSignature{a.kind == SbpKind::kSplit ? a : b};
  }
  const Facts f = FactsOf(compute);
  // Wrapping integer arithmetic is a ring modulo 2^n: sums and products
  // distribute exactly; floating ones round each partial.
  const Exactness ring = f.is_integer ? Exactness::kExact
                         : f.is_floating ? Exactness::kUpToRounding
                                         : Exactness::kNeedsBoxing;
  if (a.kind == SbpKind::kPartialSum && b.kind == SbpKind::kPartialSum && IsAdditive(op)) {
    return DimSignature{a, ring};
  }
  const bool one_partial_sum = (a.kind == SbpKind::kPartialSum && b.kind == SbpKind::kBroadcast) ||
                               (a.kind == SbpKind::kBroadcast && b.kind == SbpKind::kPartialSum);
  if (one_partial_sum && op == Op::kMul) return DimSignature{Sbp::PartialSum(), ring};
  if (a.kind == b.kind && !f.is_complex && !f.is_bool &&
      ((a.kind == SbpKind::kPartialMax && op == Op::kMaximum) ||
       (a.kind == SbpKind::kPartialMin && op == Op::kMinimum))) {
    return DimSignature{a, Exactness::kExact};
  }
  return std::nullopt;
}

}  // namespace

std::string Sbp::ToString() const {
  switch (kind) {
    case SbpKind::kSplit: return absl::StrCat("S(", axis, ")");
    case SbpKind::kBroadcast: return "B";
    case SbpKind::kPartialSum: return "P(sum)";
    case SbpKind::kPartialMax: return "P(max)";
    case SbpKind::kPartialMin: return "P(min)";
  }
  return "invalid";
}

std::string ToString(const NdSbp& nd_sbp) {
  return absl::StrCat("(", absl::StrJoin(nd_sbp, ", ", [](std::string* out, const Sbp& s) {
                        out->append(s.ToString());
                      }), ")");
}

const char* ExactnessName(Exactness exactness) {
  switch (exactness) {
    case Exactness::kExact: return "exact";
    case Exactness::kUpToRounding: return "up to rounding";
    case Exactness::kNeedsBoxing: return "needs boxing";
  }
  return "invalid";
}

Exactness CastKeeps(DType from, DType to, SbpKind kind) {
  if (kind == SbpKind::kSplit || kind == SbpKind::kBroadcast || from == to) {
    return Exactness::kExact;
  }
  const Facts f = FactsOf(from), t = FactsOf(to);
  // A dtype without zero (float8_e8m0fnu) converts to a constant true.
  if (t.is_bool && !f.has_zero) return Exactness::kExact;
  if (kind == SbpKind::kPartialSum) return Additivity(f, t);
  return KeepsExtreme(f, t, kind == SbpKind::kPartialMax) ? Exactness::kExact
                                                          : Exactness::kNeedsBoxing;
}

std::string CastRulesMarkdown() {
  std::string out =
      "# SBP rules of casts\n\n"
      "Generated by `bazel run //:promote -- sbp` from oneflow_promote/sbp/sbp.h's CastKeeps; "
      "docs/global.md explains them. Rows are the source dtype, columns the target. `=`: "
      "kept exactly; `~`: kept up to the rounding of the sum; `.`: the partials must be "
      "reduced first. Split and broadcast are kept by every cast.\n";
  std::vector<std::string> header = {"from \\ to"};
  for (DType to : kAllDTypes) header.push_back(std::string(Name(to)));
  for (SbpKind kind : {SbpKind::kPartialSum, SbpKind::kPartialMax, SbpKind::kPartialMin}) {
    absl::StrAppend(&out, "\n## ", Sbp{kind}.ToString(), "\n\n| ", absl::StrJoin(header, " | "),
                    " |\n|");
    for (size_t i = 0; i < header.size(); ++i) out += "---|";
    out += "\n";
    for (DType from : kAllDTypes) {
      absl::StrAppend(&out, "| ", Name(from), " |");
      for (DType to : kAllDTypes) {
        const Exactness e = CastKeeps(from, to, kind);
        const char* mark = e == Exactness::kExact          ? "="
                           : e == Exactness::kUpToRounding ? "~"
                                                           : ".";
        absl::StrAppend(&out, " ", mark, " |");
      }
      out += "\n";
    }
  }
  return out;
}

CastSignature InferCastSignature(DType from, DType to, const NdSbp& in, bool strict) {
  CastSignature signature;
  for (const Sbp& sbp : in) {
    const Exactness keeps = CastKeeps(from, to, sbp.kind);
    const Sbp kept = Keeps(keeps, strict) ? sbp : Sbp::Broadcast();
    if (kept == sbp) signature.exactness = Weaker(signature.exactness, keeps);
    signature.input.push_back(kept);
    signature.output.push_back(kept);
  }
  return signature;
}

bool CastBeforeBoxing(DType from, DType to, const NdSbp& in) {
  if (ItemSize(to) >= ItemSize(from)) return false;
  for (const Sbp& sbp : in) {
    if (CastKeeps(from, to, sbp.kind) != Exactness::kExact) return false;
  }
  return true;
}

absl::StatusOr<BinarySignature> InferBinarySignature(functional::Op op, DType compute,
                                                     const NdSbp& a, const NdSbp& b, bool strict) {
  if (a.size() != b.size() || a.empty() || a.size() > 2) {
    return absl::InvalidArgumentError(absl::StrCat("operands laid out as ", ToString(a), " and ",
                                                   ToString(b),
                                                   ": expected one or two dimensions each"));
  }
  if (functional::OpArity(op) != 2) {
    return absl::InvalidArgumentError("InferBinarySignature: not a binary op");
  }
  BinarySignature signature{a, b, {}, Exactness::kExact};
  for (size_t d = 0; d < a.size(); ++d) {
    Sbp& x = signature.a[d];
    Sbp& y = signature.b[d];
    std::optional<DimSignature> dim = KeepDim(op, compute, x, y);
    if (dim.has_value() && !Keeps(dim->exactness, strict)) dim.reset();
    if (!dim.has_value()) {
      // Reduce partials to broadcast; bring a second split to the first's axis.
      if (x.is_partial()) x = Sbp::Broadcast();
      if (y.is_partial()) y = Sbp::Broadcast();
      if (x.kind == SbpKind::kSplit && y.kind == SbpKind::kSplit) y = x;
      dim = KeepDim(op, compute, x, y);
    }
    // A broadcast operand next to a split is sliced the same way on each
    // rank, which needs no communication.
    if (dim->output.kind == SbpKind::kSplit) x = y = dim->output;
    signature.output.push_back(dim->output);
    signature.exactness = Weaker(signature.exactness, dim->exactness);
  }
  return signature;
}

}  // namespace oneflow_promote::sbp
