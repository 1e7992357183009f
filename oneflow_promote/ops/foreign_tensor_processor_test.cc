// TensorProcessor on a tensor type of the framework's own, as an adapter
// sees it: only tensor_processor.h, no library Tensor, no cast kernels. The
// dtypes expected are PyTorch's (checked against libtorch for the library's
// Tensor by //tests:ops_vs_torch).

#include "oneflow_promote/ops/tensor_processor.h"

#ifdef ONEFLOW_PROMOTE_FUNCTIONAL_TENSOR_H_
#error "tensor_processor.h brings the library's Tensor to an adapter of another tensor type"
#endif
#ifdef ONEFLOW_PROMOTE_KERNELS_CAST_H_
#error "tensor_processor.h brings the cast kernels to an adapter of another tensor type"
#endif

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"

namespace oneflow_promote {
namespace {

// A framework's tensor: a dtype, a rank, and for a wrapped Python scalar
// its value. Casts are recorded rather than computed.
struct ForeignTensor {
  DType dtype = DType::kFloat32;
  int64_t ndim = 1;
  std::optional<Operand> scalar;
  int casts = 0;           // how many casts made this tensor
  void* stream = nullptr;  // the stream of the last cast
};

}  // namespace

template <>
struct ops::TensorTraits<ForeignTensor> {
  static DType DTypeOf(const ForeignTensor& t) { return t.dtype; }
  static int64_t NDim(const ForeignTensor& t) { return t.ndim; }
  static bool IsWrappedNumber(const ForeignTensor& t) { return t.scalar.has_value(); }
  static Operand ScalarOf(const ForeignTensor& t) { return *t.scalar; }
  static absl::StatusOr<ForeignTensor> Cast(const ForeignTensor& t, DType dtype,
                                            const ExecutionContext& context) {
    ForeignTensor cast = t;
    cast.dtype = dtype;
    ++cast.casts;
    cast.stream = context.cuda_stream;
    return cast;
  }
};

namespace {

TEST(ForeignTensorProcessor, CastsOnlyWhatDiffers) {
  TensorProcessor<ForeignTensor> processor;
  ASSERT_TRUE(processor.AddInputs({ForeignTensor{DType::kInt8}, ForeignTensor{DType::kUInt8}})
                  .PromoteInputsToCommonDtype(true)
                  .Apply()
                  .ok());
  EXPECT_EQ(processor.common_dtype(), DType::kInt16);  // torch.int8 + torch.uint8
  for (const ForeignTensor& input : processor.GetInputs()) {
    EXPECT_EQ(input.dtype, DType::kInt16);
    EXPECT_EQ(input.casts, 1);
  }
}

TEST(ForeignTensorProcessor, WrappedScalarsFollowPyTorchBuckets) {
  // torch.tensor([1], dtype=torch.int32) + 1.5 is float32 (the default dtype).
  TensorProcessor<ForeignTensor> processor;
  ForeignTensor scalar{DType::kFloat64, 0, Operand::PyFloat(1.5)};
  ASSERT_TRUE(processor.AddInputs({ForeignTensor{DType::kInt32}, scalar})
                  .PromoteInputsToCommonDtype(true)
                  .Apply()
                  .ok());
  EXPECT_EQ(processor.common_dtype(), DType::kFloat32);
  // A float16 tensor with the same scalar stays float16: nothing to cast there.
  TensorProcessor<ForeignTensor> half;
  ASSERT_TRUE(half.AddInputs({ForeignTensor{DType::kFloat16}, scalar})
                  .PromoteInputsToCommonDtype(true)
                  .Apply()
                  .ok());
  EXPECT_EQ(half.common_dtype(), DType::kFloat16);
  EXPECT_EQ(half.GetInputs()[0].casts, 0);
}

TEST(ForeignTensorProcessor, PromotionErrorsComeBackAsStatus) {
  // PyTorch 2.15: float8_e4m3fn and float8_e5m2 have no common dtype.
  TensorProcessor<ForeignTensor> processor;
  const absl::Status status =
      processor.AddInputs({ForeignTensor{DType::kFloat8E4M3FN}, ForeignTensor{DType::kFloat8E5M2}})
          .PromoteInputsToCommonDtype(true)
          .Apply();
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("float8_e4m3fn"), std::string::npos) << status;
}

}  // namespace
TEST(ForeignTensorProcessor, ContextReachesEveryCast) {
  int stream_stand_in = 0;
  TensorProcessor<ForeignTensor> processor({}, Policy::kTorch, {1, &stream_stand_in});
  ASSERT_TRUE(processor.AddInputs({ForeignTensor{DType::kInt8}, ForeignTensor{DType::kFloat32}})
                  .PromoteInputsToCommonDtype(true)
                  .Apply()
                  .ok());
  EXPECT_EQ(processor.GetInputs()[0].stream, &stream_stand_in);
  EXPECT_EQ(processor.GetInputs()[1].casts, 0);
}

// array-api-strict: int8 + uint8 is int16, as in torch; int8 + float32 and
// an int8 array + 1.5 raise TypeError, where torch gives float32 twice.
TEST(ForeignTensorProcessor, ArrayApiPolicy) {
  TensorProcessor<ForeignTensor> ints({}, Policy::kArrayApi);
  ASSERT_TRUE(ints.AddInputs({ForeignTensor{DType::kInt8}, ForeignTensor{DType::kUInt8}})
                  .PromoteInputsToCommonDtype(true)
                  .Apply()
                  .ok());
  EXPECT_EQ(ints.common_dtype(), DType::kInt16);
  TensorProcessor<ForeignTensor> mixed_kinds({}, Policy::kArrayApi);
  EXPECT_FALSE(mixed_kinds.AddInputs({ForeignTensor{DType::kInt8}, ForeignTensor{DType::kFloat32}})
                   .PromoteInputsToCommonDtype(true)
                   .Apply()
                   .ok());
  TensorProcessor<ForeignTensor> float_scalar({}, Policy::kArrayApi);
  EXPECT_FALSE(float_scalar
                   .AddInputs({ForeignTensor{DType::kInt8},
                               ForeignTensor{DType::kFloat64, 0, Operand::PyFloat(1.5)}})
                   .PromoteInputsToCommonDtype(true)
                   .Apply()
                   .ok());
}

namespace {

// The policy parameter takes NumPy's and JAX's rules, Python scalars (the
// wrapped numbers) as their weak types:
// np.add(np.zeros(3, np.int8), 300) raises OverflowError, while
// jnp.add(jnp.zeros(3, jnp.int8), 300) is int8; np.add(np.zeros(3, np.uint8),
// np.int64(1)) is int64; jax_numpy_dtype_promotion='strict' refuses
// int8 + int16.
TEST(ForeignTensorProcessor, NumpyAndJaxPolicies) {
  const ForeignTensor int8{DType::kInt8};
  const ForeignTensor py300{DType::kInt64, 0, Operand::PyInt(300)};
  TensorProcessor<ForeignTensor> numpy({}, Policy::kNumpy);
  const absl::Status overflow =
      numpy.AddInputs({int8, py300}).PromoteInputsToCommonDtype(true).Apply();
  ASSERT_FALSE(overflow.ok());
  EXPECT_NE(overflow.message().find("Python int 300"), std::string::npos) << overflow;
  TensorProcessor<ForeignTensor> jax({}, Policy::kJax);
  ASSERT_TRUE(jax.AddInputs({int8, py300}).PromoteInputsToCommonDtype(true).Apply().ok());
  EXPECT_EQ(jax.common_dtype(), DType::kInt8);
  EXPECT_EQ(jax.GetInputs()[0].casts, 0);
  TensorProcessor<ForeignTensor> numpy_scalar({}, Policy::kNumpy);
  ASSERT_TRUE(
      numpy_scalar.AddInputs({ForeignTensor{DType::kUInt8}, ForeignTensor{DType::kInt64, 0}})
          .PromoteInputsToCommonDtype(true)
          .Apply()
          .ok());
  EXPECT_EQ(numpy_scalar.common_dtype(), DType::kInt64);
  TensorProcessor<ForeignTensor> strict({}, Policy::kJaxStrict);
  EXPECT_FALSE(strict.AddInputs({int8, ForeignTensor{DType::kInt16}})
                   .PromoteInputsToCommonDtype(true)
                   .Apply()
                   .ok());
}

// Inputs of one dtype are left alone only where the policy keeps that dtype:
// without x64, JAX computes int64 inputs in int32; NumPy checks a Python int
// whatever the inputs' dtype (np.add(np.zeros(3, np.int64), 2**63) raises).
TEST(ForeignTensorProcessor, OneDTypeStillFollowsThePolicy) {
  TensorProcessor<ForeignTensor> x32({}, Policy::kJaxX32);
  ASSERT_TRUE(x32.AddInputs({ForeignTensor{DType::kInt64}, ForeignTensor{DType::kInt64}})
                  .PromoteInputsToCommonDtype(true)
                  .Apply()
                  .ok());
  EXPECT_EQ(x32.common_dtype(), DType::kInt32);
  EXPECT_EQ(x32.GetInputs()[1].casts, 1);
  const ForeignTensor big{DType::kInt64, 0, Operand::PyInt(absl::int128(1) << 63)};
  TensorProcessor<ForeignTensor> numpy({}, Policy::kNumpy);
  EXPECT_FALSE(numpy.AddInputs({ForeignTensor{DType::kInt64}, big})
                   .PromoteInputsToCommonDtype(true)
                   .Apply()
                   .ok());
  TensorProcessor<ForeignTensor> torch;
  ASSERT_TRUE(torch.AddInputs({ForeignTensor{DType::kInt64}, ForeignTensor{DType::kInt64}})
                  .PromoteInputsToCommonDtype(true)
                  .Apply()
                  .ok());
  EXPECT_EQ(torch.common_dtype(), DType::kInt64);
}

}  // namespace
}  // namespace oneflow_promote
