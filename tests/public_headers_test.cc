// Every public header of the library (not internal/) in one translation unit,
// built twice: as C++17, the library's language (public_headers_cxx17_test),
// and as C++20 together with libtorch's headers, as the oracle tests and the
// benchmark compile them (public_headers_cxx20_test; PyTorch 2.15's ATen needs
// C++20). A header that needs a newer language, or that clashes with ATen,
// fails here rather than in a user's build.

#include "cli/cast_command.h"
#include "cli/cli.h"
#include "cli/operand_parser.h"
#include "functional/functional.h"
#include "functional/functional_c_api.h"
#include "functional/op_kernels.h"
#include "functional/tensor.h"
#include "kernels/cast.h"
#include "kernels/cast_c_api.h"
#include "kernels/cuda_device.h"
#include "oneflow_promote/convert.h"
#include "oneflow_promote/device.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/dtype_enum.h"
#include "oneflow_promote/dtype_format.h"
#include "oneflow_promote/numeric_types.h"
#include "oneflow_promote/ops/op_list.h"
#include "oneflow_promote/ops/op_rules.h"
#include "oneflow_promote/ops/tensor_processor.h"
#include "oneflow_promote/ops/tensor_processor_pipe.h"
#include "oneflow_promote/ops/tensor_traits.h"
#include "oneflow_promote/promotion/policy.h"
#include "oneflow_promote/promotion/result_type.h"
#include "oneflow_promote/sbp/sbp.h"

// The libtorch adapter needs C++20 itself (it includes ATen).
#if __cplusplus >= 202002L
#include "functional/torch_tensor_traits.h"
#endif

#include "gtest/gtest.h"

static_assert(__cplusplus == ONEFLOW_PROMOTE_EXPECTED_CPLUSPLUS,
              "compiled in another language version than the target asks for");

namespace oneflow_promote {
namespace {

constexpr Promotion kUInt8AndInt8 = PromoteTypes(DType::kUInt8, DType::kInt8, Policy::kTorch);
static_assert(kUInt8AndInt8.ok() && kUInt8AndInt8.dtype() == DType::kInt16);

TEST(PublicHeaders, PromoteTypes) {
  EXPECT_EQ(Name(PromoteTypes(DType::kUInt8, DType::kInt8, Policy::kTorch).dtype()), "int16");
  EXPECT_EQ(Name(PromoteTypes(DType::kInt32, DType::kFloat16, Policy::kTorch).dtype()), "float16");
  EXPECT_FALSE(PromoteTypes(DType::kUInt16, DType::kInt8, Policy::kTorch).ok());
}

#if __cplusplus >= 202002L
TEST(PublicHeaders, TorchScalarTypes) {
  EXPECT_EQ(ToTorchScalarType(DType::kInt16), at::kShort);
  EXPECT_EQ(FromTorchScalarType(at::kBFloat16), DType::kBFloat16);
}
#endif

}  // namespace
}  // namespace oneflow_promote
