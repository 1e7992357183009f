// TensorProcessor on libtorch's at::Tensor: a PyTorch frontend can take
// promotion and casts from this library. The promoted dtypes must equal
// libtorch's own result_type, the cast values libtorch's Tensor::to (on
// values where the two casts agree by definition), and an add built on the
// processor must equal at::add on the mixed inputs.

#include "oneflow_promote/functional/torch_tensor_traits.h"

#include <ATen/ScalarOps.h>

#include "gtest/gtest.h"
#include "tests/torch_oracle.h"

namespace oneflow_promote {
namespace {

using testing::TorchDTypes;

at::Tensor Values(DType dtype, std::vector<int64_t> shape) {
  return at::arange(1, 1 + c10::multiply_integers(shape), at::kDouble)
      .reshape(shape)
      .to(*ToTorchScalarType(dtype));
}

// Equal dtypes and values (compared as complex128: at::equal has no
// complex32 kernel in libtorch 1.13).
bool Same(const at::Tensor& a, const at::Tensor& b) {
  return a.scalar_type() == b.scalar_type() &&
         at::equal(a.to(at::kComplexDouble), b.to(at::kComplexDouble));
}

TEST(TorchTensorTraits, MatchesResultTypeAndToAndAdd) {
  for (DType a : TorchDTypes()) {
    for (DType b : TorchDTypes()) {
      const at::Tensor x = Values(a, {2, 3});
      const at::Tensor y = Values(b, {3, 2}).t();  // non-contiguous
      TensorProcessor<at::Tensor> processor;
      ASSERT_TRUE(processor.AddInputs({x, y}).PromoteInputsToCommonDtype(true).Apply().ok());
      const at::ScalarType common = at::result_type(x, y);
      ASSERT_EQ(ToTorchScalarType(processor.common_dtype()), common) << Name(a) << " " << Name(b);
      const auto inputs = processor.GetInputs();
      EXPECT_TRUE(Same(inputs[0], x.to(common))) << Name(a) << " " << Name(b);
      EXPECT_TRUE(Same(inputs[1], y.to(common))) << Name(a) << " " << Name(b);
      if (common == at::kComplexHalf) continue;  // libtorch 1.13 has no CPU add for it
      EXPECT_TRUE(at::allclose(at::add(inputs[0], inputs[1]), at::add(x, y)))
          << Name(a) << " " << Name(b);
    }
  }
}

TEST(TorchTensorTraits, SameDtypeIsNotCopied) {
  const at::Tensor x = Values(DType::kFloat32, {4});
  TensorProcessor<at::Tensor> processor;
  ASSERT_TRUE(processor.AddInputs({x, x}).PromoteInputsToCommonDtype(true).Apply().ok());
  EXPECT_TRUE(processor.GetInputs()[0].is_same(x));
}

TEST(TorchTensorTraits, WrappedNumbersAreScalarsToThePromotionRules) {
  const at::Tensor x = Values(DType::kInt8, {4});
  for (const at::Scalar& s : {at::Scalar(2.5), at::Scalar(int64_t{300}), at::Scalar(true),
                              at::Scalar(c10::complex<double>(1, 2))}) {
    const at::Tensor wrapped = at::native::wrapped_scalar_tensor(s);
    TensorProcessor<at::Tensor> processor;
    ASSERT_TRUE(processor.AddInputs({x, wrapped}).PromoteInputsToCommonDtype(true).Apply().ok());
    const at::ScalarType common = at::result_type(x, s);
    EXPECT_EQ(ToTorchScalarType(processor.common_dtype()), common);
    EXPECT_TRUE(Same(processor.GetInputs()[1], wrapped.to(common)));
  }
}

TEST(TorchTensorTraits, UnknownDtypesAreErrors) {
  const at::Tensor q = at::quantize_per_tensor(at::ones({2}), 0.1, 0, at::kQInt8);
  TensorProcessor<at::Tensor> processor;
  EXPECT_FALSE(
      processor.AddInputs({q, Values(DType::kFloat32, {2})}).PromoteInputsToCommonDtype(true).Apply().ok());
}

}  // namespace
}  // namespace oneflow_promote
