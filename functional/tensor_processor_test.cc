// TensorProcessor on the library's Tensor: what it casts, what it leaves
// alone, and that the no-cast path allocates nothing. The dtypes expected
// here are PyTorch's (docs/ops.md's examples, checked against libtorch by
// //tests:ops_vs_torch).

#include "oneflow_promote/ops/tensor_processor.h"

#include <atomic>
#include <cstdlib>
#include <new>

#include "functional/tensor.h"
#include "gtest/gtest.h"

// Counts heap allocations made while `g_counting` is set.
namespace {
std::atomic<bool> g_counting{false};
std::atomic<int> g_allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  if (g_counting) ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace oneflow_promote {
namespace {

Tensor Int8s() { return *Tensor::FromValues<int8_t>({-1, 2, 3}, {3}); }
Tensor Floats() { return *Tensor::FromValues<float>({0.5f, 1.5f, -2.0f}, {3}); }

TEST(TensorProcessor, PromotesToCommonDtypeAndCastsOnlyWhatDiffers) {
  const Tensor a = Int8s(), b = Floats();
  TensorProcessor<Tensor> processor;
  ASSERT_TRUE(processor.AddInputs({a, b}).PromoteInputsToCommonDtype(true).Apply().ok());
  EXPECT_EQ(processor.common_dtype(), DType::kFloat32);
  const auto inputs = processor.GetInputs();
  EXPECT_EQ(inputs[0].dtype(), DType::kFloat32);
  EXPECT_EQ(inputs[0].data_as<float>()[0], -1.0f);
  EXPECT_EQ(inputs[1].data(), b.data()) << "an input of the common dtype must not be copied";
}

TEST(TensorProcessor, ScalarsFollowPyTorchBuckets) {
  // int8[3] * 2.5 -> float32; int8[3] * (2**40) stays int8.
  TensorProcessor<Tensor> with_float;
  ASSERT_TRUE(with_float.AddInputs({Int8s(), Tensor::WrappedNumber(Operand::PyFloat(2.5))})
                  .PromoteInputsToCommonDtype(true)
                  .Apply()
                  .ok());
  EXPECT_EQ(with_float.common_dtype(), DType::kFloat32);
  EXPECT_EQ(*with_float.GetInputs()[1].data_as<float>(), 2.5f);
  EXPECT_FALSE(with_float.GetInputs()[1].is_wrapped_number());

  TensorProcessor<Tensor> with_int;
  ASSERT_TRUE(with_int.AddInputs({Int8s(), Tensor::WrappedNumber(Operand::PyInt(int64_t{1} << 40))})
                  .PromoteInputsToCommonDtype(true)
                  .Apply()
                  .ok());
  EXPECT_EQ(with_int.common_dtype(), DType::kInt8);
}

TEST(TensorProcessor, FloorsApplyInPromoteMode) {
  // OneFlow ignores lowest_dtype when promoting; sum(int8) must still
  // accumulate in int64.
  TensorProcessor<Tensor> processor;
  ASSERT_TRUE(
      processor.AddInputs({Int8s()}, DType::kInt64).PromoteInputsToCommonDtype(true).Apply().ok());
  EXPECT_EQ(processor.common_dtype(), DType::kInt64);
  EXPECT_EQ(processor.GetInputs()[0].data_as<int64_t>()[0], -1);
}

TEST(TensorProcessor, NoFloorLeavesGuardedDtypesAlone) {
  // The default floor (kBool, none) was promoted with, which PyTorch's
  // guards refuse for uint16/32/64 and float8: casting two uint64 inputs
  // failed with "attempted to promote uint64 and bool".
  const Tensor u = *Tensor::FromValues<uint64_t>({1, 2, 3}, {3});
  TensorProcessor<Tensor> forced;
  ASSERT_TRUE(
      forced.AddInputs({u, u}).PromoteInputsToCommonDtype(true, DType::kFloat32).Apply().ok());
  EXPECT_EQ(forced.GetInputs()[0].dtype(), DType::kFloat32);
  EXPECT_EQ(forced.GetInputs()[1].data_as<float>()[2], 3.0f);

  TensorProcessor<Tensor> to_float;
  ASSERT_TRUE(to_float.AddInputs({u})
                  .PromoteInputsToCommonDtype(false)
                  .PromoteIntegerInputsToFloatDtype(true)
                  .Apply()
                  .ok());
  EXPECT_EQ(to_float.GetInputs()[0].dtype(), DType::kFloat32);

  const Tensor f8 = *Tensor::FromValues<Float8E4M3FN>({Float8E4M3FN{0x38}, Float8E4M3FN{0x40}},
                                                      {2});  // 1.0 and 2.0
  TensorProcessor<Tensor> from_float8;
  ASSERT_TRUE(
      from_float8.AddInputs({f8}).PromoteInputsToCommonDtype(true, DType::kFloat32).Apply().ok());
  EXPECT_EQ(from_float8.GetInputs()[0].data_as<float>()[1], 2.0f);
}

TEST(TensorProcessor, FloorsApplyPerInputWithoutPromotion) {
  TensorProcessor<Tensor> processor;
  ASSERT_TRUE(processor.AddInputs({Int8s()}, DType::kInt32)
                  .AddInputs({Floats()})
                  .PromoteInputsToCommonDtype(false)
                  .Apply()
                  .ok());
  EXPECT_EQ(processor.GetInputs()[0].dtype(), DType::kInt32);
  EXPECT_EQ(processor.GetInputs()[1].dtype(), DType::kFloat32);
}

TEST(TensorProcessor, IntegersBecomeTheConfiguredDefaultDtype) {
  for (DType default_dtype : {DType::kFloat32, DType::kFloat64}) {
    TensorProcessor<Tensor> processor({default_dtype});
    ASSERT_TRUE(processor.AddInputs({Int8s(), Int8s()})
                    .PromoteInputsToCommonDtype(true)
                    .PromoteIntegerInputsToFloatDtype(true)
                    .Apply()
                    .ok());
    EXPECT_EQ(processor.common_dtype(), default_dtype);
  }
}

TEST(TensorProcessor, ForcedDtypeMustBeReachableByCanCast) {
  TensorProcessor<Tensor> processor;
  const absl::Status status = processor.AddInputs({Int8s(), Floats()})
                                  .PromoteInputsToCommonDtype(true, DType::kInt32)
                                  .Apply();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "result type float32 can't be cast to the desired output type int32");

  TensorProcessor<Tensor> widened;
  ASSERT_TRUE(widened.AddInputs({Int8s(), Int8s()})
                  .PromoteInputsToCommonDtype(true, DType::kFloat64)
                  .Apply()
                  .ok());
  EXPECT_EQ(widened.GetInputs()[0].dtype(), DType::kFloat64);
}

TEST(TensorProcessor, PromotionErrorsNameTheOperands) {
  const Tensor big = Tensor::WrappedNumber(Operand::PyInt(absl::MakeInt128(1, 0)));
  TensorProcessor<Tensor> processor;
  const absl::Status status =
      processor.AddInputs({Int8s(), big}).PromoteInputsToCommonDtype(true).Apply();
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("18446744073709551616"), absl::string_view::npos)
      << status.message();
}

TEST(TensorProcessor, NoCastNeededAllocatesNothing) {
  const Tensor a = Floats(), b = Floats();
  g_allocations = 0;
  g_counting = true;
  TensorProcessor<Tensor> processor;
  const absl::Status status = processor.AddInputs({a, b}).PromoteInputsToCommonDtype(true).Apply();
  g_counting = false;
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(g_allocations, 0);
}

TEST(TensorProcessor, RejectsNoInputs) {
  TensorProcessor<Tensor> processor;
  EXPECT_EQ(processor.PromoteInputsToCommonDtype(true).Apply().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace oneflow_promote
