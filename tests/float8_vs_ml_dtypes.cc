// float8_e4m3fn and float8_e5m2 against ml_dtypes (the implementation JAX
// and TensorFlow use): every bit pattern decoded to float32, and float32 and
// float64 inputs at every float8 rounding boundary (and random ones) encoded
// into both formats. The cases come from tests/float8/generate_cases.py,
// which tools/test.sh checks against the installed ml_dtypes.
//
// ml_dtypes converts float64 through float32, so it rounds twice; this
// library rounds once. Every result must equal the independent reference,
// and equal ml_dtypes except on float64 inputs that are not float32 values.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
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
    if (dtype == DType::kFloat8E4M3FN) return (bits & 0x7F) == 0x7F;
    return (bits & 0x7F) > 0x7C;
  };
  return a == b || (is_nan(a) && is_nan(b));
}

TEST(Float8VsMlDtypes, DecodeEveryPattern) {
  int checked = 0;
  for (const Case& c : ReadCases()) {
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
  EXPECT_EQ(checked, 512);
}

TEST(Float8VsMlDtypes, EncodeAtEveryRoundingBoundary) {
  int checked = 0;
  int double_rounded = 0;
  // Inputs converted in one batch per source dtype, as a framework would.
  for (const DType source : {DType::kFloat32, DType::kFloat64}) {
    std::vector<uint64_t> inputs;
    std::vector<uint8_t> e4m3_expected, e5m2_expected;
    for (const Case& c : ReadCases()) {
      if (c.words[0] != "encode" || c.words[1] != std::string(Name(source))) continue;
      inputs.push_back(Hex(c.words[2]));
      e4m3_expected.push_back(static_cast<uint8_t>(Hex(c.words[3])));
      e5m2_expected.push_back(static_cast<uint8_t>(Hex(c.words[4])));
    }
    ASSERT_GT(inputs.size(), 1000u);
    std::vector<char> src(inputs.size() * ItemSize(source));
    for (size_t i = 0; i < inputs.size(); ++i) {
      std::memcpy(src.data() + i * ItemSize(source), &inputs[i], ItemSize(source));
    }
    for (const DType format : {DType::kFloat8E4M3FN, DType::kFloat8E5M2}) {
      const std::vector<uint8_t>& expected =
          format == DType::kFloat8E4M3FN ? e4m3_expected : e5m2_expected;
      std::vector<uint8_t> got(inputs.size());
      ASSERT_TRUE(
          CastElements(src.data(), source, got.data(), format, static_cast<int64_t>(got.size()))
              .ok());
      int failures = 0;
      for (size_t i = 0; i < got.size() && failures < 10; ++i) {
        const reference::Value x = reference::ValueAt(src.data(), source, i);
        const reference::Value want = reference::Cast(x, format);
        const reference::Value ours = reference::ValueAt(&got[i], format, 0);
        const bool rounded_twice_by_ml_dtypes =
            !std::isnan(x.real) && static_cast<long double>(static_cast<float>(x.real)) != x.real;
        bool ok = reference::SameValue(ours, want);
        if (SameFloat8(got[i], expected[i], format)) {
          // agrees with ml_dtypes
        } else if (rounded_twice_by_ml_dtypes) {
          ++double_rounded;
        } else {
          ok = false;
        }
        if (!ok) {
          ++failures;
          ADD_FAILURE() << Name(source) << " bits " << std::hex << inputs[i] << " -> "
                        << Name(format) << ": ours " << int{got[i]} << ", ml_dtypes "
                        << int{expected[i]} << std::dec << " (value "
                        << static_cast<double>(x.real) << ")";
        }
        ++checked;
      }
    }
  }
  std::printf("checked %d float8 encodings against ml_dtypes; %d float64 inputs differ "
              "because ml_dtypes rounds them twice\n",
              checked, double_rounded);
  EXPECT_GT(double_rounded, 0);  // the boundary inputs must reach the case
}

}  // namespace
}  // namespace oneflow_promote
