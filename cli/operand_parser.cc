// Python-literal and tensor-word parsing for the CLI.

#include "cli/operand_parser.h"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/status_macros.h"

namespace oneflow_promote::cli {
namespace {

absl::Status Malformed(absl::string_view text, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not ", what));
}

// Python allows single underscores between digits; returns the digits
// without them, or false when an underscore is misplaced.
bool StripUnderscores(absl::string_view digits, std::string& out) {
  out.clear();
  for (size_t i = 0; i < digits.size(); ++i) {
    if (digits[i] == '_') {
      if (i == 0 || i + 1 == digits.size() || digits[i + 1] == '_') return false;
      continue;
    }
    out.push_back(digits[i]);
  }
  return true;
}

bool IsDecimalFloatBody(absl::string_view s) {
  // digits [. digits] [e[+-]digits] | . digits [e...]
  size_t i = 0, mantissa_digits = 0;
  while (i < s.size() && absl::ascii_isdigit(s[i])) ++i, ++mantissa_digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && absl::ascii_isdigit(s[i])) ++i, ++mantissa_digits;
  }
  if (mantissa_digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t exponent_digits = 0;
    while (i < s.size() && absl::ascii_isdigit(s[i])) ++i, ++exponent_digits;
    if (exponent_digits == 0) return false;
  }
  return i == s.size();
}

// strtod under a rounding mode (glibc's strtod honours it), restoring the
// caller's mode.
double StrtodRounded(const std::string& digits, int mode) {
  const int saved = std::fegetround();
  std::fesetround(mode);
  const double value = std::strtod(digits.c_str(), nullptr);
  std::fesetround(saved);
  return value;
}

uint64_t DoubleBits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

double FromBits(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

// A decimal digit string as a float64 under `rounding`.
double ParseDigits(const std::string& digits, DecimalRounding rounding) {
  switch (rounding) {
    case DecimalRounding::kNearestEven:
      return std::strtod(digits.c_str(), nullptr);  // correctly rounded, like Python
    case DecimalRounding::kTowardZero:
      return StrtodRounded(digits, FE_TOWARDZERO);
    case DecimalRounding::kToOdd: {
      const double truncated = StrtodRounded(digits, FE_TOWARDZERO);
      if (truncated == StrtodRounded(digits, FE_UPWARD)) return truncated;  // exact
      return FromBits(DoubleBits(truncated) | 1);
    }
  }
  return 0;
}

}  // namespace

double Int128ToDouble(absl::int128 value, DecimalRounding rounding) {
  const bool negative = value < 0;
  const absl::uint128 magnitude =
      negative ? -static_cast<absl::uint128>(value) : static_cast<absl::uint128>(value);
  int width = 0;
  for (absl::uint128 m = magnitude; m != 0; m >>= 1) ++width;
  double result;
  if (width <= 53) {
    result = static_cast<double>(absl::Uint128Low64(magnitude));  // exact
  } else {
    // Keep 53 bits (55 for nearest-even, which the hardware conversion then
    // rounds), folding the dropped bits into a sticky last bit. A 54- or
    // 55-bit magnitude under nearest-even is kept whole.
    const int keep = rounding == DecimalRounding::kNearestEven ? 55 : 53;
    const int shift = std::max(width - keep, 0);
    uint64_t kept = absl::Uint128Low64(magnitude >> shift);
    const bool inexact = (magnitude & ((absl::uint128(1) << shift) - 1)) != 0;
    if (rounding != DecimalRounding::kTowardZero && inexact) kept |= 1;
    result = std::ldexp(static_cast<double>(kept), shift);
  }
  return negative ? -result : result;
}

absl::StatusOr<absl::int128> ParsePyInt(absl::string_view text) {
  absl::string_view body = text;
  bool negative = false;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  int base = 10;
  if (body.size() > 2 && body[0] == '0') {
    const char prefix = absl::ascii_tolower(body[1]);
    base = prefix == 'x' ? 16 : prefix == 'o' ? 8 : prefix == 'b' ? 2 : 10;
    if (base != 10) {
      body.remove_prefix(2);
      if (!body.empty() && body[0] == '_') body.remove_prefix(1);  // 0x_ff is legal
    }
  }
  std::string digits;
  if (body.empty() || !StripUnderscores(body, digits)) return Malformed(text, "an integer");
  // Python 3 forbids leading zeros in non-zero decimal literals ("007").
  if (base == 10 && digits.size() > 1 && digits[0] == '0' &&
      digits.find_first_not_of('0') != std::string::npos) {
    return Malformed(text, "an integer (leading zeros are not allowed)");
  }
  const absl::uint128 limit = negative ? absl::uint128(1) << 127 : (absl::uint128(1) << 127) - 1;
  absl::uint128 value = 0;
  for (char c : digits) {
    int digit;
    if (absl::ascii_isdigit(c)) {
      digit = c - '0';
    } else if (absl::ascii_isxdigit(c)) {
      digit = absl::ascii_tolower(c) - 'a' + 10;
    } else {
      return Malformed(text, "an integer");
    }
    if (digit >= base) return Malformed(text, "an integer");
    if (value > (limit - digit) / base) {
      return absl::OutOfRangeError(
          absl::StrCat("integer literal '", text, "' is outside the 128-bit range"));
    }
    value = value * base + digit;
  }
  return negative ? -static_cast<absl::int128>(value - 1) - 1 : static_cast<absl::int128>(value);
}

absl::StatusOr<double> ParsePyFloat(absl::string_view text, DecimalRounding rounding) {
  absl::string_view body = text;
  bool negative = false;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  const std::string lower = absl::AsciiStrToLower(body);
  double magnitude;
  if (lower == "inf" || lower == "infinity") {
    magnitude = HUGE_VAL;
  } else if (lower == "nan") {
    magnitude = std::nan("");
  } else {
    std::string digits;
    if (!StripUnderscores(body, digits) || !IsDecimalFloatBody(digits)) {
      return Malformed(text, "a float");
    }
    // Rounded once, in the requested direction; past float64's range,
    // nearest-even gives inf, as Python's float literal does.
    magnitude = ParseDigits(digits, rounding);
  }
  return negative ? -magnitude : magnitude;
}

absl::StatusOr<std::complex<double>> ParsePyComplex(absl::string_view text,
                                                    DecimalRounding rounding) {
  absl::string_view body = text;
  if (body.size() >= 2 && body.front() == '(' && body.back() == ')') {
    body = body.substr(1, body.size() - 2);
  }
  if (body.empty() || (body.back() != 'j' && body.back() != 'J')) {
    return Malformed(text, "a complex number");
  }
  body.remove_suffix(1);
  // The imaginary part starts at the last sign that is not an exponent's.
  size_t split = absl::string_view::npos;
  for (size_t i = body.size(); i-- > 1;) {
    if ((body[i] == '+' || body[i] == '-') && body[i - 1] != 'e' && body[i - 1] != 'E') {
      split = i;
      break;
    }
  }
  double real = 0;
  absl::string_view imag_text = body;
  if (split != absl::string_view::npos) {
    absl::StatusOr<double> parsed_real = ParsePyFloat(body.substr(0, split), rounding);
    if (!parsed_real.ok()) return Malformed(text, "a complex number");
    real = *parsed_real;
    imag_text = body.substr(split);
  }
  absl::StatusOr<double> imag = ParsePyFloat(imag_text, rounding);
  if (!imag.ok() || imag_text.empty() || imag_text == "+" || imag_text == "-") {
    return Malformed(text, "a complex number");
  }
  return std::complex<double>(real, *imag);
}

absl::StatusOr<Operand> ParseOperand(absl::string_view word) {
  if (word.empty()) return absl::InvalidArgumentError("empty operand");
  if (word == "True") return Operand::PyBool(true);
  if (word == "False") return Operand::PyBool(false);

  const char first = word[0];
  if (absl::ascii_isalpha(first) && !absl::EqualsIgnoreCase(word, "inf") &&
      !absl::EqualsIgnoreCase(word, "infinity") && !absl::EqualsIgnoreCase(word, "nan") &&
      word.back() != 'j' && word.back() != 'J') {
    // A tensor: NAME, NAME[] or NAME[d0,d1,...].
    absl::string_view name = word;
    int64_t ndim = 1;
    const size_t bracket = word.find('[');
    if (bracket != absl::string_view::npos) {
      if (word.back() != ']') {
        return Malformed(word, "a tensor (expected NAME, NAME[] or NAME[d0,d1,...])");
      }
      name = word.substr(0, bracket);
      const absl::string_view dims = word.substr(bracket + 1, word.size() - bracket - 2);
      ndim = 0;
      if (!dims.empty()) {
        for (absl::string_view dim : absl::StrSplit(dims, ',')) {
          int64_t extent;
          if (!absl::SimpleAtoi(dim, &extent) || extent < 0) {
            return Malformed(word, "a tensor (dimensions must be non-negative integers)");
          }
          ++ndim;
        }
      }
    }
    ASSIGN_OR_RETURN(DType dtype, ParseDType(name));
    return Operand::Tensor(dtype, ndim);
  }

  if (word.back() == 'j' || word.back() == 'J' || (first == '(' && word.back() == ')')) {
    ASSIGN_OR_RETURN(std::complex<double> value, ParsePyComplex(word));
    return Operand::PyComplex(value);
  }
  absl::StatusOr<absl::int128> integer = ParsePyInt(word);
  if (integer.ok()) return Operand::PyInt(*integer);
  if (integer.status().code() == absl::StatusCode::kOutOfRange) return integer.status();
  absl::StatusOr<double> real = ParsePyFloat(word);
  if (real.ok()) return Operand::PyFloat(*real);
  return absl::InvalidArgumentError(
      absl::StrCat("'", word,
                   "' is neither a dtype name (int8, int8[]) nor a Python literal "
                   "(True, 3, 1.5, 2j)"));
}

std::optional<std::vector<int64_t>> ExplicitShape(absl::string_view word) {
  const size_t bracket = word.find('[');
  if (bracket == absl::string_view::npos || word.empty() || word.back() != ']' ||
      !absl::ascii_isalpha(word[0])) {
    return std::nullopt;
  }
  std::vector<int64_t> extents;
  const absl::string_view dims = word.substr(bracket + 1, word.size() - bracket - 2);
  if (dims.empty()) return extents;
  for (absl::string_view dim : absl::StrSplit(dims, ',')) {
    int64_t extent = 0;
    if (!absl::SimpleAtoi(dim, &extent)) return std::nullopt;
    extents.push_back(extent);
  }
  return extents;
}

}  // namespace oneflow_promote::cli
