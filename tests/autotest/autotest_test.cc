// The AutoTest's judge (Mismatch) on planted results: what it must let
// through and what it must catch.

#include <cmath>
#include <limits>
#include <optional>

#include "gtest/gtest.h"
#include "tests/autotest/autotest.h"

namespace oneflow_promote::autotest {
namespace {

using ops::Op;

// The reductions' judge counts ulps of the terms' magnitude: a cancelling
// sum may differ from libtorch's by its terms' rounding, not by a term.
TEST(ReductionScale, PassesTheTermsRoundingAndCatchesADroppedTerm) {
  const at::Tensor terms = at::tensor({1e4f, 1.0f, -1e4f, 0.5f});
  const std::optional<ReductionScale> scale = ReductionScaleOf(Op::kSum, {terms}, DType::kFloat32);
  ASSERT_TRUE(scale.has_value());
  EXPECT_EQ(scale->ulps, 5);
  const at::Tensor theirs = at::tensor(1.5f).reshape({});
  const float ulp = std::ldexp(1.0f, -9);  // of 20001.5, the terms' magnitude
  const auto ours = [](float value) { return *Tensor::FromValues<float>({value}, {}); };
  EXPECT_EQ(Mismatch(ours(1.5f + 2 * ulp), theirs, Op::kSum, DType::kBool, scale), "");
  EXPECT_NE(Mismatch(ours(1.5f + 2 * ulp), theirs, Op::kSum), "");  // ulps of 1.5
  EXPECT_NE(Mismatch(ours(1.0f), theirs, Op::kSum, DType::kBool, scale), "");
  EXPECT_NE(Mismatch(ours(1.5f + 6 * ulp), theirs, Op::kSum, DType::kBool, scale), "");
}

// Complex mul and div: libtorch's loops give zeros of either sign and an
// overflowing product as NaN or infinity; everything else stays exact.
TEST(Exactness, ComplexProductsAndQuotientsAsTheLoopsDiffer) {
  using C = Complex<float>;
  const auto ours = [](C value) { return *Tensor::FromValues<C>({value}, {}); };
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const at::Tensor theirs = at::tensor(c10::complex<float>(-inf, 0.0f)).reshape({});
  for (Op op : {Op::kMul, Op::kDiv}) {
    EXPECT_EQ(Mismatch(ours({nan, -0.0f}), theirs, op), "") << OpName(op);
    EXPECT_NE(Mismatch(ours({1.0f, 0.0f}), theirs, op), "") << OpName(op);
  }
  const at::Tensor real = at::tensor(-inf).reshape({});
  EXPECT_NE(Mismatch(*Tensor::FromValues<float>({nan}, {}), real, Op::kMul), "");
  EXPECT_NE(Mismatch(ours({nan, -0.0f}), theirs, Op::kAdd), "");
}

}  // namespace
}  // namespace oneflow_promote::autotest
