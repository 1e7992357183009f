// The Scalar_Scalar overloads (scalar_scalar.h): wrapped numbers on the
// CPU, then oneflow_promote::op.Tensor through the dispatcher.

#include "torch_extension/internal/scalar_scalar.h"

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>

#include <optional>
#include <string>

#include "absl/strings/str_cat.h"

namespace oneflow_promote::torch_extension {
namespace {

constexpr const char* kOps[] = {"add", "sub", "mul", "div", "floor_divide"};

// A Python number as torch's argument parser passes it for a Tensor.
at::Tensor Wrapped(const c10::Scalar& value) {
  at::Tensor t = c10::scalar_to_tensor(value);
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  return t;
}

c10::OperatorHandle Find(const char* op, const char* overload) {
  return c10::Dispatcher::singleton().findSchemaOrThrow(
      absl::StrCat("oneflow_promote::", op).c_str(), overload);
}

template <size_t kOp>
at::Tensor ScalarScalar(const c10::Scalar& self, const c10::Scalar& other) {
  static const auto op =
      Find(kOps[kOp], "Tensor").typed<at::Tensor(const at::Tensor&, const at::Tensor&)>();
  return op.call(Wrapped(self), Wrapped(other));
}

template <size_t kOp>
at::Tensor ScalarScalarAlpha(const c10::Scalar& self, const c10::Scalar& other,
                             const c10::Scalar& alpha) {
  static const auto op =
      Find(kOps[kOp], "Tensor_alpha")
          .typed<at::Tensor(const at::Tensor&, const at::Tensor&, const c10::Scalar&)>();
  return op.call(Wrapped(self), Wrapped(other), alpha);
}

at::Tensor DivScalarScalarMode(const c10::Scalar& self, const c10::Scalar& other,
                               std::optional<c10::string_view> rounding_mode) {
  static const auto op = Find("div", "Tensor_mode")
                             .typed<at::Tensor(const at::Tensor&, const at::Tensor&,
                                               std::optional<c10::string_view>)>();
  return op.call(Wrapped(self), Wrapped(other), rounding_mode);
}

}  // namespace

void DefineScalarScalar(torch::Library& m) {
  const std::vector<at::Tag> tags = {at::Tag::pointwise, at::Tag::pt2_compliant_tag};
  for (const char* op : kOps) {
    m.def(absl::StrCat(op, ".Scalar_Scalar(Scalar self, Scalar other) -> Tensor").c_str(), tags);
  }
  for (const char* op : {"add", "sub"}) {
    m.def(
        absl::StrCat(op, ".Scalar_Scalar_alpha(Scalar self, Scalar other, Scalar alpha) -> Tensor")
            .c_str(),
        tags);
  }
  m.def("div.Scalar_Scalar_mode(Scalar self, Scalar other, str? rounding_mode) -> Tensor", tags);
}

TORCH_LIBRARY_IMPL(oneflow_promote, CompositeImplicitAutograd, m) {
  m.impl("add.Scalar_Scalar", TORCH_FN(ScalarScalar<0>));
  m.impl("sub.Scalar_Scalar", TORCH_FN(ScalarScalar<1>));
  m.impl("mul.Scalar_Scalar", TORCH_FN(ScalarScalar<2>));
  m.impl("div.Scalar_Scalar", TORCH_FN(ScalarScalar<3>));
  m.impl("floor_divide.Scalar_Scalar", TORCH_FN(ScalarScalar<4>));
  m.impl("add.Scalar_Scalar_alpha", TORCH_FN(ScalarScalarAlpha<0>));
  m.impl("sub.Scalar_Scalar_alpha", TORCH_FN(ScalarScalarAlpha<1>));
  m.impl("div.Scalar_Scalar_mode", TORCH_FN(DivScalarScalarMode));
}

}  // namespace oneflow_promote::torch_extension
