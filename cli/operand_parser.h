// Parsing the CLI's operand words: dtype names for tensors ("int8" has
// dimensions, "int8[]" is 0-d, "int8[2,3]" has two) and Python literals for
// scalars (True, False, 3, -1, 0x10, 1.5, 1e300, inf, nan, -0.0, 2j, 1+2j).

#ifndef ONEFLOW_PROMOTE_CLI_OPERAND_PARSER_H_
#define ONEFLOW_PROMOTE_CLI_OPERAND_PARSER_H_

#include <complex>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/numeric/int128.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "oneflow_promote/promotion/result_type.h"

namespace oneflow_promote::cli {

// A Python int literal (decimal, 0x, 0o, 0b, underscores, optional sign);
// errors when malformed or outside the 128-bit range.
[[nodiscard]] absl::StatusOr<absl::int128> ParsePyInt(absl::string_view text);

// How a decimal literal becomes a float64. kNearestEven is Python's float();
// kToOdd (truncate, then set the last bit when inexact) and kTowardZero keep
// what a later, narrower rounding needs to be the only one: round-to-odd
// into float64 then nearest-even into any format of at most 51 significand
// bits equals one rounding of the decimal value, and truncating then
// converting to an integer equals truncating the decimal value.
enum class DecimalRounding { kNearestEven, kToOdd, kTowardZero };

// A Python float literal, plus inf/nan/infinity with an optional sign, as
// float() accepts them, rounded to float64 as `rounding` says.
[[nodiscard]] absl::StatusOr<double> ParsePyFloat(
    absl::string_view text, DecimalRounding rounding = DecimalRounding::kNearestEven);

// A Python complex literal: "2j", "1+2j", "(1.5-2e3J)", "-1j"; each part is
// rounded as `rounding` says.
[[nodiscard]] absl::StatusOr<std::complex<double>> ParsePyComplex(
    absl::string_view text, DecimalRounding rounding = DecimalRounding::kNearestEven);

// A Python int (up to 128 bits) as a float64, rounded as `rounding` says.
[[nodiscard]] double Int128ToDouble(absl::int128 value, DecimalRounding rounding);

// One operand word; the error names the word and what was expected.
[[nodiscard]] absl::StatusOr<Operand> ParseOperand(absl::string_view word);

// The extents a tensor word spells out ("int8[2,3]" -> {2, 3}, "int8[]" ->
// {}); nullopt for a tensor of unstated extents ("int8") and for scalars.
// Call on words ParseOperand accepted.
[[nodiscard]] std::optional<std::vector<int64_t>> ExplicitShape(absl::string_view word);

}  // namespace oneflow_promote::cli

#endif  // ONEFLOW_PROMOTE_CLI_OPERAND_PARSER_H_
