// TensorProcessorPipe on the library's Tensor. Expected dtypes are PyTorch
// 2.15's: torch.autocast("cpu", dtype=torch.bfloat16) probed on the CPU;
// CUDA's lists as ATen/autocast_mode.h declares them, with cached_cast's
// rule (floating, not float64; promote starts from the autocast dtype).

#include "oneflow_promote/ops/tensor_processor_pipe.h"

#include <vector>

#include "functional/tensor.h"
#include "gtest/gtest.h"

namespace oneflow_promote {
namespace {

using ops::Op;
using ops::RuleOf;

Tensor Ones(DType dtype) { return *Tensor::Zeros(dtype, {4}); }

std::vector<DType> InputDTypes(const TensorProcessorPipe<Tensor>& pipe) {
  std::vector<DType> dtypes;
  for (const Tensor& t : pipe.inputs()) dtypes.push_back(t.dtype());
  return dtypes;
}

TEST(TensorProcessorPipe, CpuAutocastRunsProdInFloat32) {
  const AutoCastState bf16{true, DType::kBFloat16};
  // torch.prod(bfloat16) under CPU autocast is float32; torch.sum stays bfloat16.
  TensorProcessorPipe<Tensor> prod({Ones(DType::kBFloat16)});
  ASSERT_TRUE(prod.AutoCast(TorchAutoCastKind(Op::kProd, Device::Kind::kCpu), bf16).ok());
  ASSERT_TRUE(prod.Promote(RuleOf(Op::kProd)).ok());
  EXPECT_EQ(prod.dtypes().result, DType::kFloat32);
  TensorProcessorPipe<Tensor> sum({Ones(DType::kBFloat16)});
  ASSERT_TRUE(sum.AutoCast(TorchAutoCastKind(Op::kSum, Device::Kind::kCpu), bf16).ok());
  ASSERT_TRUE(sum.Promote(RuleOf(Op::kSum)).ok());
  EXPECT_EQ(sum.dtypes().result, DType::kBFloat16);
}

TEST(TensorProcessorPipe, CudaPromoteListWidensToTheWidestFloat) {
  const AutoCastState fp16{true, DType::kFloat16};
  const AutoCastKind atan2 = TorchAutoCastKind(Op::kAtan2, Device::Kind::kCuda);
  TensorProcessorPipe<Tensor> mixed({Ones(DType::kFloat16), Ones(DType::kFloat32)});
  ASSERT_TRUE(mixed.AutoCast(atan2, fp16).ok());
  EXPECT_EQ(InputDTypes(mixed), (std::vector<DType>{DType::kFloat32, DType::kFloat32}));
  // bfloat16 and float16 meet at float32; int32 is not eligible and stays.
  TensorProcessorPipe<Tensor> narrow({Ones(DType::kBFloat16), Ones(DType::kInt32)});
  ASSERT_TRUE(narrow.AutoCast(atan2, fp16).ok());
  EXPECT_EQ(InputDTypes(narrow), (std::vector<DType>{DType::kFloat32, DType::kInt32}));
}

TEST(TensorProcessorPipe, LowerPrecisionLeavesFloat64AndScalars) {
  // A framework's matmul-like op on autocast's lower-precision list.
  TensorProcessorPipe<Tensor> pipe(
      {Ones(DType::kFloat32), Ones(DType::kFloat64), Tensor::WrappedNumber(Operand::PyFloat(2.0))});
  ASSERT_TRUE(pipe.AutoCast(AutoCastKind::kLowerPrecision, {true, DType::kBFloat16}).ok());
  EXPECT_EQ(InputDTypes(pipe),
            (std::vector<DType>{DType::kBFloat16, DType::kFloat64, DType::kFloat64}));
  TensorProcessorPipe<Tensor> off({Ones(DType::kFloat32)});
  ASSERT_TRUE(off.AutoCast(AutoCastKind::kLowerPrecision, {false, DType::kBFloat16}).ok());
  EXPECT_EQ(off.inputs()[0].dtype(), DType::kFloat32);
}

TEST(TensorProcessorPipe, PromotesAsThePolicysFramework) {
  // np.sin(int8 array) computes in float16, its first loop int8 casts to
  // safely; torch.sin in float32.
  TensorProcessorPipe<Tensor> numpy({Ones(DType::kInt8)});
  ASSERT_TRUE(numpy.Promote(RuleOf(Op::kSin), {}, Policy::kNumpy).ok());
  EXPECT_EQ(InputDTypes(numpy), (std::vector<DType>{DType::kFloat16}));
  TensorProcessorPipe<Tensor> torch({Ones(DType::kInt8)});
  ASSERT_TRUE(torch.Promote(RuleOf(Op::kSin)).ok());
  EXPECT_EQ(InputDTypes(torch), (std::vector<DType>{DType::kFloat32}));
}

TEST(TensorProcessorPipe, PromoteThenCheckOutputs) {
  // torch.add(int8, float32) is float32, and can't be written to int64.
  TensorProcessorPipe<Tensor> pipe({Ones(DType::kInt8), Ones(DType::kFloat32)});
  EXPECT_EQ(pipe.CheckOutputs({Ones(DType::kFloat32)}).code(),
            absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(pipe.Promote(RuleOf(Op::kAdd)).ok());
  EXPECT_EQ(InputDTypes(pipe), (std::vector<DType>{DType::kFloat32, DType::kFloat32}));
  EXPECT_TRUE(pipe.CheckOutputs({Ones(DType::kFloat64)}).ok());
  EXPECT_EQ(pipe.CheckOutputs({Ones(DType::kFloat32), Ones(DType::kInt64)}).message(),
            "output 2: result type float32 can't be cast to the desired output type int64");
  // where keeps its condition and promotes its values.
  TensorProcessorPipe<Tensor> where(
      {Ones(DType::kUInt8), Ones(DType::kInt16), Tensor::WrappedNumber(Operand::PyFloat(0.5))});
  ASSERT_TRUE(where.Promote(RuleOf(Op::kWhere)).ok());
  EXPECT_EQ(InputDTypes(where),
            (std::vector<DType>{DType::kUInt8, DType::kFloat32, DType::kFloat32}));
}

}  // namespace
}  // namespace oneflow_promote
