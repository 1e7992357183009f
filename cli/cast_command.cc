// The `cast` subcommand: literal -> FROM -> TO through the cast kernels.

#include "cli/cast_command.h"

#include <cmath>
#include <complex>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "cli/operand_parser.h"
#include "kernels/cast.h"
#include "oneflow_promote/convert.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/status_macros.h"

namespace oneflow_promote::cli {
namespace {

// The largest element any dtype has, for one-element buffers.
struct alignas(16) Element {
  unsigned char bytes[16];
};

// How a literal's decimal value must reach float64 so that converting on to
// `dtype` rounds only once (see DecimalRounding).
DecimalRounding RoundingFor(DType dtype) {
  if (dtype == DType::kFloat64 || dtype == DType::kComplex128) {
    return DecimalRounding::kNearestEven;
  }
  if (IsIntegral(dtype)) return DecimalRounding::kTowardZero;
  return DecimalRounding::kToOdd;  // bool too: a tiny nonzero literal stays nonzero
}

// Puts `value` (of dtype `source`) into `out` as `dtype`, through the kernel.
template <typename T>
absl::Status Store(T value, DType source, DType dtype, Element& out) {
  return CastElements(&value, source, out.bytes, dtype, 1);
}

// The literal as one element of `dtype`.
absl::StatusOr<Element> LiteralAs(absl::string_view word, DType dtype) {
  Element out{};
  absl::Status status;
  const DecimalRounding rounding = RoundingFor(dtype);
  if (word == "True" || word == "False") {
    status = Store(word == "True", DType::kBool, dtype, out);
  } else if (word.back() == 'j' || word.back() == 'J' || word.front() == '(') {
    ASSIGN_OR_RETURN(std::complex<double> value, ParsePyComplex(word, rounding));
    status = Store(Complex<double>{value.real(), value.imag()}, DType::kComplex128, dtype, out);
  } else if (absl::StatusOr<absl::int128> integer = ParsePyInt(word); integer.ok()) {
    if (dtype == DType::kBool) {
      status = Store(*integer != 0, DType::kBool, dtype, out);
    } else if (IsIntegral(dtype)) {
      // Integers wrap modulo 2^n, like integer narrowing.
      status = Store(absl::Uint128Low64(static_cast<absl::uint128>(*integer)), DType::kUInt64,
                     dtype, out);
    } else {
      status = Store(Int128ToDouble(*integer, rounding), DType::kFloat64, dtype, out);
    }
  } else if (integer.status().code() == absl::StatusCode::kOutOfRange) {
    return integer.status();
  } else {
    absl::StatusOr<double> real = ParsePyFloat(word, rounding);
    if (!real.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'", word, "' is not a Python literal (True, False, 3, 1.5, nan, 2j, (1+2j))"));
    }
    status = Store(*real, DType::kFloat64, dtype, out);
  }
  if (!status.ok()) return status;
  return out;
}

std::string FormatReal(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return absl::StrFormat("%.17g", value);
}

std::string Format(const Element& element, DType dtype) {
  return VisitDType(dtype, [&](auto tag) -> std::string {
    using T = typename decltype(tag)::type;
    T value;
    std::memcpy(&value, element.bytes, sizeof(T));
    if constexpr (std::is_same_v<T, bool>) {
      return value ? "True" : "False";
    } else if constexpr (std::is_integral_v<T>) {
      return absl::StrCat(value);
    } else if constexpr (convert_internal::IsComplex<T>::value) {
      return absl::StrCat("(", FormatReal(Convert<double>(value.real)), ",",
                          FormatReal(Convert<double>(value.imag)), ")");
    } else {
      return FormatReal(Convert<double>(value));  // exact for every real dtype
    }
  });
}

}  // namespace

absl::StatusOr<std::string> RunCastCommand(const std::vector<absl::string_view>& args) {
  if (args.size() < 3) {
    return absl::InvalidArgumentError(
        "usage: cast FROM TO VALUE... (e.g. cast float64 float16 0.1)");
  }
  ASSIGN_OR_RETURN(DType from, ParseDType(args[0]));
  ASSIGN_OR_RETURN(DType to, ParseDType(args[1]));
  std::vector<std::string> results;
  for (size_t i = 2; i < args.size(); ++i) {
    absl::StatusOr<Element> source = LiteralAs(args[i], from);
    if (!source.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("value ", i - 1, " ('", args[i], "'): ", source.status().message()));
    }
    Element result{};
    RETURN_IF_ERROR(CastElements(source->bytes, from, result.bytes, to, 1));
    results.push_back(Format(result, to));
  }
  return absl::StrJoin(results, " ");
}

}  // namespace oneflow_promote::cli
