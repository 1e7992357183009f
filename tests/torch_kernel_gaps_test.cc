// TorchKernelGaps on PyTorch 2.15's texts: missing kernels are skipped only
// where the library computes; rule errors are never skipped.

#include "tests/torch_kernel_gaps.h"

#include "gtest/gtest.h"
#include "oneflow_promote/ops/op_rules.h"

namespace oneflow_promote::testing {
namespace {

using ops::Op;

TEST(TorchKernelGaps, MissingKernelTexts) {
  EXPECT_TRUE(IsMissingTorchKernel("\"add_stub\" not implemented for 'UInt16'"));
  EXPECT_TRUE(
      IsMissingTorchKernel("\"mul_cpu_reduced_float\" not implemented for 'Float8_e4m3fn'"));
  EXPECT_TRUE(IsMissingTorchKernel("\"sqrt_vml_cpu\" not implemented for 'ComplexHalf'"));
  EXPECT_TRUE(IsMissingTorchKernel("\"pow\" not implemented for 'UInt64'"));
  EXPECT_FALSE(IsMissingTorchKernel("maximum not implemented for complex tensors."));
  EXPECT_FALSE(IsMissingTorchKernel(
      "Promotion for uint16, uint32, uint64 types is not supported, attempted to promote UInt16 "
      "and Char"));
  EXPECT_FALSE(IsMissingTorchKernel("\"a b\" not implemented for 'Int'"));
  EXPECT_FALSE(IsMissingTorchKernel("\"\" not implemented for 'Int'"));
  EXPECT_FALSE(IsMissingTorchKernel(""));
}

TEST(TorchKernelGaps, SkipsOnlyWhereTheLibraryComputes) {
  TorchKernelGaps gaps;
  // add(uint16, uint16): PyTorch lacks the kernel, the library computes.
  const auto add = ops::InferOpDTypes(
      Op::kAdd, {Operand::Tensor(DType::kUInt16, 1), Operand::Tensor(DType::kUInt16, 1)});
  ASSERT_TRUE(add.ok());
  EXPECT_TRUE(
      gaps.Skip(Op::kAdd, add->compute, "\"add_stub\" not implemented for 'UInt16'", add.ok()));
  // bitwise_and(float32, float32): the same kind of text, but a rule here too.
  const auto bitwise = ops::InferOpDTypes(
      Op::kBitwiseAnd, {Operand::Tensor(DType::kFloat32, 1), Operand::Tensor(DType::kFloat32, 1)});
  ASSERT_FALSE(bitwise.ok());
  EXPECT_FALSE(gaps.Skip(Op::kBitwiseAnd, DType::kFloat32,
                         "\"bitwise_and_cpu\" not implemented for 'Float'", bitwise.ok()));
  EXPECT_FALSE(gaps.Skip(Op::kMaximum, DType::kComplex64,
                         "maximum not implemented for complex tensors.", true));
  EXPECT_TRUE(
      gaps.Skip(Op::kAdd, DType::kUInt32, "\"add_stub\" not implemented for 'UInt32'", true));
  EXPECT_TRUE(gaps.Skip(Op::kSum, DType::kFloat8E4M3FN,
                        "\"sum_cpu\" not implemented for 'Float8_e4m3fn'", true));
  EXPECT_EQ(gaps.skipped(), 3);
  EXPECT_EQ(gaps.Summary(),
            "skipped 3 cases where PyTorch has no CPU kernel and the library computes: add "
            "(uint16, uint32), sum (float8_e4m3fn)\n");
  EXPECT_EQ(TorchKernelGaps().Summary(), "");
}

}  // namespace
}  // namespace oneflow_promote::testing
