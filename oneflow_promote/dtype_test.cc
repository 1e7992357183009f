// Tests for the dtype list: names, parsing, sizes, categories, validation.

#include "oneflow_promote/dtype.h"

#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "fmt/format.h"
#include "gtest/gtest.h"
#include "oneflow_promote/dtype_format.h"

namespace oneflow_promote {
namespace {

// PyTorch 2.15's names (torch.<name>) for the dtypes of the library's scope.
TEST(DType, TwentyTwoDTypesWithPyTorchsNames) {
  const char* expected[] = {"bool",          "uint8",           "int8",
                            "int16",         "int32",           "int64",
                            "uint16",        "uint32",          "uint64",
                            "float8_e4m3fn", "float8_e5m2",     "float16",
                            "bfloat16",      "float32",         "float64",
                            "complex32",     "complex64",       "complex128",
                            "bcomplex32",    "float8_e4m3fnuz", "float8_e5m2fnuz",
                            "float8_e8m0fnu"};
  ASSERT_EQ(kNumDTypes, 22);
  std::set<std::string> ours;
  for (DType d : kAllDTypes) ours.insert(std::string(Name(d)));
  EXPECT_EQ(ours, std::set<std::string>(std::begin(expected), std::end(expected)));
}

TEST(DType, ParseRoundTripsAndRejectsUnknownNames) {
  for (DType d : kAllDTypes) {
    absl::StatusOr<DType> parsed = ParseDType(Name(d));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, d);
  }
  for (const char* bad : {"", "float", "Float32", "int", "float8", "torch.int8"}) {
    absl::StatusOr<DType> parsed = ParseDType(bad);
    EXPECT_FALSE(parsed.ok()) << bad;
    EXPECT_NE(parsed.status().message().find(absl::StrCat("'", bad, "'")), std::string::npos);
  }
}

TEST(DType, ItemSizesAreTheFormatsWidths) {
  // Widths defined by the formats themselves (IEEE 754, OCP FP8, two parts
  // per complex), not by our storage structs.
  EXPECT_EQ(ItemSize(DType::kBool), 1u);
  EXPECT_EQ(ItemSize(DType::kFloat8E4M3FN), 1u);
  EXPECT_EQ(ItemSize(DType::kFloat8E5M2), 1u);
  EXPECT_EQ(ItemSize(DType::kFloat16), 2u);
  EXPECT_EQ(ItemSize(DType::kBFloat16), 2u);
  EXPECT_EQ(ItemSize(DType::kUInt32), 4u);
  EXPECT_EQ(ItemSize(DType::kComplex32), 4u);
  EXPECT_EQ(ItemSize(DType::kComplex64), 8u);
  EXPECT_EQ(ItemSize(DType::kComplex128), 16u);
  EXPECT_EQ(ItemSize(DType::kUInt64), 8u);
  EXPECT_EQ(ItemSize(DType::kBComplex32), 4u);
  EXPECT_EQ(ItemSize(DType::kFloat8E4M3FNUZ), 1u);
  EXPECT_EQ(ItemSize(DType::kFloat8E5M2FNUZ), 1u);
  EXPECT_EQ(ItemSize(DType::kFloat8E8M0FNU), 1u);
}

TEST(DType, Categories) {
  EXPECT_TRUE(IsBool(DType::kBool));
  EXPECT_EQ(CategoryOf(DType::kUInt16), Category::kUnsigned);
  EXPECT_EQ(CategoryOf(DType::kInt8), Category::kSigned);
  EXPECT_TRUE(IsFloating(DType::kFloat8E5M2));
  EXPECT_TRUE(IsFloating(DType::kBFloat16));
  EXPECT_FALSE(IsFloating(DType::kComplex64));
  EXPECT_TRUE(IsComplex(DType::kComplex32));
  EXPECT_TRUE(IsComplex(DType::kBComplex32));
  for (DType d : {DType::kFloat8E4M3FN, DType::kFloat8E5M2, DType::kFloat8E4M3FNUZ,
                  DType::kFloat8E5M2FNUZ, DType::kFloat8E8M0FNU}) {
    EXPECT_TRUE(IsFloat8(d) && IsFloating(d)) << Name(d);
  }
  EXPECT_FALSE(IsFloat8(DType::kFloat16));
  EXPECT_TRUE(IsIntegral(DType::kUInt64));
  EXPECT_FALSE(IsIntegral(DType::kBool));
  EXPECT_LT(CategoryRank(DType::kBool), CategoryRank(DType::kUInt8));
  EXPECT_EQ(CategoryRank(DType::kUInt8), CategoryRank(DType::kInt64));
  EXPECT_LT(CategoryRank(DType::kInt64), CategoryRank(DType::kFloat16));
  EXPECT_LT(CategoryRank(DType::kFloat64), CategoryRank(DType::kComplex32));
}

// The predicates derived from the list's columns agree with the dtypes'
// names: the float8 formats are the float8_* dtypes, and the narrow floats
// those and float16 and bfloat16 (complex32 and bcomplex32 are complex).
TEST(DType, DerivedPredicatesMatchTheNames) {
  for (DType d : kAllDTypes) {
    const absl::string_view name = Name(d);
    const bool float8 = name.substr(0, 7) == "float8_";
    const bool narrow = float8 || name == "float16" || name == "bfloat16";
    EXPECT_EQ(IsFloat8(d), float8) << name;
    VisitDType(d, [&](auto tag) {
      using T = typename decltype(tag)::type;
      EXPECT_EQ(kIsFloat8<T>, float8) << name;
      EXPECT_EQ(kIsNarrowFloat<T>, narrow) << name;
    });
  }
}

TEST(DType, ForeignEnumValuesAreValidated) {
  for (int raw = 0; raw < kNumDTypes; ++raw) EXPECT_TRUE(DTypeFromRaw(raw).ok());
  for (int raw : {-1, kNumDTypes, kNumDTypes + 1, 255, 1 << 20}) {
    absl::StatusOr<DType> d = DTypeFromRaw(raw);
    ASSERT_FALSE(d.ok());
    EXPECT_NE(d.status().message().find(std::to_string(raw)), std::string::npos);
  }
  EXPECT_FALSE(IsValid(static_cast<DType>(200)));
  EXPECT_EQ(Name(static_cast<DType>(200)), "invalid");
}

TEST(DType, VisitDTypeSeesTheStorageType) {
  EXPECT_EQ(
      VisitDType(DType::kFloat64,
                 [](auto tag) { return std::is_same_v<typename decltype(tag)::type, double>; }),
      true);
  static_assert(DTypeOf<Complex<float>>::value == DType::kComplex64);
  static_assert(DTypeOf<int16_t>::value == DType::kInt16);
  for (DType d : kAllDTypes) {
    EXPECT_EQ(VisitDType(d, [](auto tag) { return DTypeOf<typename decltype(tag)::type>::value; }),
              d);
  }
}

TEST(DType, FmtWritesTheCanonicalName) {
  EXPECT_EQ(fmt::format("{}", DType::kBFloat16), "bfloat16");
  EXPECT_EQ(fmt::format("[{:>9}]", DType::kInt8), "[     int8]");
}

}  // namespace
}  // namespace oneflow_promote
