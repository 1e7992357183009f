// The five float8 formats against ml_dtypes (the implementation JAX and
// TensorFlow use): every bit pattern decoded to float32, and float32 and
// float64 inputs at every float8 rounding boundary (and random ones) encoded
// into each format. The cases come from tests/float8/generate_cases.py,
// which tools/test.sh checks against the installed ml_dtypes.
//
// Every result must equal the independent reference (tests/cast_reference.h)
// and equal ml_dtypes, except where the library follows PyTorch 2.15 and
// ml_dtypes does not, each counted and required to occur:
//  - ml_dtypes converts float64 through float32, so it rounds twice; this
//    library rounds once;
//  - float8_e4m3fn: PyTorch saturates overflow and infinities to ±448,
//    ml_dtypes gives NaN;
//  - float8_e8m0fnu: PyTorch takes the magnitude (zero gives 2^-127),
//    ml_dtypes gives NaN for zero and negative inputs.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "kernels/cast.h"
#include "tests/cast_reference.h"

namespace oneflow_promote {
namespace {

struct Case {
  std::vector<std::string> words;
};

std::vector<Case> ReadCases() {
  std::ifstream in("tests/float8/cases.tsv");
  EXPECT_TRUE(in.good()) << "tests/float8/cases.tsv is missing";
  std::vector<Case> cases;
  std::string line;
  while (std::getline(in, line)) {
    cases.push_back({absl::StrSplit(line, ' ', absl::SkipEmpty())});
  }
  return cases;
}

uint64_t Hex(const std::string& text) {
  uint64_t value = 0;
  EXPECT_TRUE(absl::SimpleHexAtoi(text, &value)) << text;
  return value;
}

// Equal encodings, or both NaN (ml_dtypes and this library may pick
// different NaN signs or payloads).
bool SameFloat8(uint8_t a, uint8_t b, DType dtype) {
  const auto is_nan = [&](uint8_t bits) {
    const reference::Value v = reference::ValueAt(&bits, dtype, 0);
    return std::isnan(v.real);
  };
  return a == b || (is_nan(a) && is_nan(b));
}

// Why ml_dtypes' answer `theirs` may differ from this library's on input x,
// or "" if it may not: each reason also pins down what ml_dtypes gives.
std::string WhyMlDtypesDiffers(const reference::Value& x, DType format, uint8_t theirs) {
  const reference::Value their_value = reference::ValueAt(&theirs, format, 0);
  if (std::isnan(x.real)) return "";
  if (format == DType::kFloat8E4M3FN && std::isnan(their_value.real) &&
      std::fabs(reference::Cast(x, format).real) == 448.0L && std::fabs(x.real) > 464.0L) {
    return "float8_e4m3fn overflow saturated as PyTorch does";
  }
  // ml_dtypes rounds float64 to float32 first, which can reach zero.
  const long double via_float32 = static_cast<float>(x.real);
  if (format == DType::kFloat8E8M0FNU && std::isnan(their_value.real) && via_float32 <= 0) {
    return "float8_e8m0fnu of zero or a negative, as PyTorch does";
  }
  if (via_float32 != x.real) {
    reference::Value rounded_first = x;
    rounded_first.real = via_float32;
    if (reference::SameValue(reference::Cast(rounded_first, format), their_value)) {
      return "float64 input rounded twice by ml_dtypes";
    }
  }
  return "";
}

std::vector<DType> Formats(const std::vector<Case>& cases) {
  std::vector<DType> formats;
  EXPECT_EQ(cases.at(0).words.at(0), "formats");
  for (size_t i = 1; i < cases[0].words.size(); ++i)
    formats.push_back(*ParseDType(cases[0].words[i]));
  return formats;
}

TEST(Float8VsMlDtypes, DecodeEveryPattern) {
  const std::vector<Case> cases = ReadCases();
  int checked = 0;
  for (const Case& c : cases) {
    if (c.words[0] != "decode") continue;
    const DType format = *ParseDType(c.words[1]);
    const uint8_t bits = static_cast<uint8_t>(Hex(c.words[2]));
    const uint32_t expected_bits = static_cast<uint32_t>(Hex(c.words[3]));
    float expected;
    std::memcpy(&expected, &expected_bits, 4);
    float got = 0;
    ASSERT_TRUE(CastElements(&bits, format, &got, DType::kFloat32, 1).ok());
    if (std::isnan(expected)) {
      EXPECT_TRUE(std::isnan(got)) << c.words[1] << " " << c.words[2];
    } else {
      EXPECT_EQ(got, expected) << c.words[1] << " " << c.words[2];
      EXPECT_EQ(std::signbit(got), std::signbit(expected)) << c.words[1] << " " << c.words[2];
    }
    ++checked;
  }
  EXPECT_EQ(checked, 256 * static_cast<int>(Formats(cases).size()));
}

TEST(Float8VsMlDtypes, EncodeAtEveryRoundingBoundary) {
  const std::vector<Case> cases = ReadCases();
  const std::vector<DType> formats = Formats(cases);
  ASSERT_EQ(formats.size(), 5u);
  int checked = 0;
  std::map<std::string, int> differences;
  // Inputs converted in one batch per source dtype, as a framework would.
  for (const DType source : {DType::kFloat32, DType::kFloat64}) {
    std::vector<uint64_t> inputs;
    std::vector<std::vector<uint8_t>> expected(formats.size());
    for (const Case& c : cases) {
      if (c.words[0] != "encode" || c.words[1] != std::string(Name(source))) continue;
      ASSERT_EQ(c.words.size(), 3 + formats.size());
      inputs.push_back(Hex(c.words[2]));
      for (size_t f = 0; f < formats.size(); ++f) {
        expected[f].push_back(static_cast<uint8_t>(Hex(c.words[3 + f])));
      }
    }
    ASSERT_GT(inputs.size(), 1000u);
    std::vector<char> src(inputs.size() * ItemSize(source));
    for (size_t i = 0; i < inputs.size(); ++i) {
      std::memcpy(src.data() + i * ItemSize(source), &inputs[i], ItemSize(source));
    }
    for (size_t f = 0; f < formats.size(); ++f) {
      const DType format = formats[f];
      std::vector<uint8_t> got(inputs.size());
      ASSERT_TRUE(
          CastElements(src.data(), source, got.data(), format, static_cast<int64_t>(got.size()))
              .ok());
      int failures = 0;
      for (size_t i = 0; i < got.size() && failures < 10; ++i) {
        const reference::Value x = reference::ValueAt(src.data(), source, i);
        const reference::Value want = reference::Cast(x, format);
        const reference::Value ours = reference::ValueAt(&got[i], format, 0);
        bool ok = reference::SameValue(ours, want);
        if (!SameFloat8(got[i], expected[f][i], format)) {
          const std::string why = WhyMlDtypesDiffers(x, format, expected[f][i]);
          if (why.empty()) {
            ok = false;
          } else {
            ++differences[why];
          }
        }
        if (!ok) {
          ++failures;
          ADD_FAILURE() << Name(source) << " bits " << std::hex << inputs[i] << " -> "
                        << Name(format) << ": ours " << int{got[i]} << ", ml_dtypes "
                        << int{expected[f][i]} << std::dec << " (value "
                        << static_cast<double>(x.real) << ")";
        }
        ++checked;
      }
    }
  }
  std::printf("checked %d float8 encodings against ml_dtypes\n", checked);
  for (const auto& [why, count] : differences)
    std::printf("  differences, %s: %d\n", why.c_str(), count);
  // Each documented difference must occur in these inputs, or the
  // classification has stopped meaning anything.
  EXPECT_GT(differences["float64 input rounded twice by ml_dtypes"], 0);
  EXPECT_GT(differences["float8_e4m3fn overflow saturated as PyTorch does"], 0);
  EXPECT_GT(differences["float8_e8m0fnu of zero or a negative, as PyTorch does"], 0);
}

}  // namespace
}  // namespace oneflow_promote
