// Operand words parse as Python parses the same literals.

#include "cli/operand_parser.h"

#include <cmath>

#include "gtest/gtest.h"

namespace oneflow_promote::cli {
namespace {

TEST(ParseOperand, Tensors) {
  EXPECT_EQ(ParseOperand("int8")->ndim(), 1);
  EXPECT_EQ(ParseOperand("int8[]")->ndim(), 0);
  EXPECT_EQ(ParseOperand("float32[2,3]")->ndim(), 2);
  EXPECT_EQ(ParseOperand("complex32")->dtype(), DType::kComplex32);
  EXPECT_FALSE(ParseOperand("int9").ok());
  EXPECT_FALSE(ParseOperand("int8[").ok());
  EXPECT_FALSE(ParseOperand("int8[x]").ok());
}

TEST(ParseOperand, PythonIntsAsPythonReadsThem) {
  EXPECT_EQ(ParseOperand("-1")->int_value(), -1);
  EXPECT_EQ(*ParsePyInt("0x_ff"), 255);
  EXPECT_EQ(*ParsePyInt("0b101"), 5);
  EXPECT_EQ(*ParsePyInt("0o17"), 15);
  EXPECT_EQ(*ParsePyInt("1_000"), 1000);
  EXPECT_EQ(*ParsePyInt("18446744073709551615"), absl::int128(UINT64_MAX));
  EXPECT_EQ(*ParsePyInt("-170141183460469231731687303715884105728"),
            std::numeric_limits<absl::int128>::min());
  EXPECT_EQ(ParsePyInt("170141183460469231731687303715884105728").status().code(),
            absl::StatusCode::kOutOfRange);
  EXPECT_FALSE(ParsePyInt("007").ok());
  EXPECT_FALSE(ParsePyInt("1__0").ok());
  EXPECT_FALSE(ParsePyInt("0x").ok());
}

TEST(ParseOperand, PythonFloats) {
  EXPECT_EQ(ParseOperand("1.5")->kind(), Operand::Kind::kPyFloat);
  EXPECT_EQ(*ParsePyFloat("1e300"), 1e300);
  EXPECT_EQ(*ParsePyFloat(".5"), 0.5);
  EXPECT_EQ(*ParsePyFloat("5."), 5.0);
  EXPECT_TRUE(std::isinf(*ParsePyFloat("1e400")));
  EXPECT_TRUE(std::signbit(*ParsePyFloat("-0.0")));
  EXPECT_TRUE(std::isnan(*ParsePyFloat("nan")));
  EXPECT_EQ(*ParsePyFloat("-inf"), -HUGE_VAL);
  EXPECT_EQ(ParseOperand("inf")->kind(), Operand::Kind::kPyFloat);
  // 0.1 rounds to nearest like Python's float('0.1').
  EXPECT_EQ(*ParsePyFloat("0.1"), 0.1);
  EXPECT_FALSE(ParseOperand("1.2.3").ok());
  EXPECT_FALSE(ParseOperand("1e").ok());
  EXPECT_FALSE(ParseOperand("0x1p3").ok());
}

TEST(ParseOperand, PythonComplex) {
  const Operand a = *ParseOperand("1+2j");
  EXPECT_EQ(a.kind(), Operand::Kind::kPyComplex);
  EXPECT_EQ(a.real_value(), 1);
  EXPECT_EQ(a.imag_value(), 2);
  const std::complex<double> b = *ParsePyComplex("(1.5-2e3J)");
  EXPECT_EQ(b, std::complex<double>(1.5, -2000));
  EXPECT_EQ(*ParsePyComplex("-1j"), std::complex<double>(0, -1));
  EXPECT_EQ(*ParsePyComplex("1e-3+1e+3j"), std::complex<double>(1e-3, 1e3));
  EXPECT_FALSE(ParseOperand("1+j").ok());
  EXPECT_FALSE(ParseOperand("j").ok());
}

TEST(ParseOperand, BoolsAndGarbage) {
  EXPECT_EQ(ParseOperand("True")->int_value(), 1);
  EXPECT_EQ(ParseOperand("False")->dtype(), DType::kBool);
  EXPECT_FALSE(ParseOperand("true").ok());
  EXPECT_FALSE(ParseOperand("").ok());
  EXPECT_FALSE(ParseOperand("--").ok());
}

}  // namespace
}  // namespace oneflow_promote::cli
