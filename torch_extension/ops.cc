// PyTorch ops built on the library: TORCH_LIBRARY(oneflow_promote) defines
// add, sub, mul, div (every rounding mode), the other binary ops, where
// and the comparisons with aten's overloads (Tensor and Scalar operands,
// out= and in-place variants, add's and sub's alpha), and registers one
// boxed kernel per dispatch key for all of them:
//
//  - CPU and CUDA: dtypes from InferOpDTypes (PyTorch's rules, the default
//    dtype from torch.get_default_dtype()), then the library's functional
//    frontend on views of the tensors' storage, on the CPU with PyTorch's
//    intra-op threads, on CUDA on PyTorch's current stream;
//  - Meta: the same dtypes and the broadcast shape, for FakeTensor,
//    torch.compile and torch.export;
//  - Autograd: gradients by the library's gradient rules;
//  - ADInplaceOrView: out= and in-place calls count a write of the tensor
//    they write (its version);
//  - Functionalize: out= and in-place calls become their functional
//    overload and a copy, for compiled graphs.
//
//   torch.ops.load_library(".../_C.so")  # or: import oneflow_promote_torch
//   torch.ops.oneflow_promote.add(torch.ones(3, dtype=torch.int8), 2.5)  # float32

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/library.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "functional/torch_tensor_traits.h"
#include "oneflow_promote/ops/op_rules.h"
#include "oneflow_promote/sbp/sbp.h"
#include "torch_extension/internal/autograd.h"
#include "torch_extension/internal/functionalize.h"
#include "torch_extension/internal/kernels.h"
#include "torch_extension/internal/overloads.h"
#include "torch_extension/internal/scalar_scalar.h"

namespace oneflow_promote::torch_extension {
namespace {

DType DTypeOf(at::ScalarType type) {
  const std::optional<DType> dtype = FromTorchScalarType(type);
  TORCH_CHECK(dtype.has_value(), "dtype ", c10::toString(type), " is not one of oneflow_promote's");
  return *dtype;
}

// A boxed kernel for one overload at one dispatch key: reads the call from
// the stack and replaces its arguments with the result.
template <at::Tensor (*kRun)(const OpCall&)>
class BelowAutogradKernel final : public c10::OperatorKernel {
 public:
  explicit BelowAutogradKernel(const Overload& overload) : overload_(overload) {}
  void operator()(const c10::OperatorHandle&, c10::DispatchKeySet, torch::jit::Stack* stack) {
    at::Tensor result = kRun(ReadCall(overload_, *stack));
    torch::jit::drop(*stack, overload_.arguments());
    torch::jit::push(*stack, std::move(result));
  }

 private:
  const Overload& overload_;
};

class AutogradKernel final : public c10::OperatorKernel {
 public:
  explicit AutogradKernel(const Overload& overload) : overload_(overload) {}
  void operator()(const c10::OperatorHandle& op, c10::DispatchKeySet keys,
                  torch::jit::Stack* stack) {
    RunAutograd(overload_, op, keys, stack);
  }

 private:
  const Overload& overload_;
};

class InplaceOrViewKernel final : public c10::OperatorKernel {
 public:
  explicit InplaceOrViewKernel(const Overload& overload) : overload_(overload) {}
  void operator()(const c10::OperatorHandle& op, c10::DispatchKeySet keys,
                  torch::jit::Stack* stack) {
    CountWrite(ReadCall(overload_, *stack).destination, op, keys, stack);
  }

 private:
  const Overload& overload_;
};

class FunctionalizeKernel final : public c10::OperatorKernel {
 public:
  explicit FunctionalizeKernel(const Overload& overload) : overload_(overload) {}
  void operator()(const c10::OperatorHandle& op, c10::DispatchKeySet keys,
                  torch::jit::Stack* stack) {
    std::call_once(found_, [&] {
      const std::string& name = overload_.functional;
      const size_t dot = name.find('.');
      functional_ = c10::Dispatcher::singleton().findSchemaOrThrow(
          ("oneflow_promote::" + name.substr(0, dot)).c_str(), name.substr(dot + 1).c_str());
    });
    Functionalize(ReadCall(overload_, *stack), *functional_, op, keys, stack);
  }

 private:
  const Overload& overload_;
  std::once_flag found_;
  std::optional<c10::OperatorHandle> functional_;
};

template <typename Kernel>
void RegisterEach(torch::Library& m, bool writing_only = false) {
  for (const Overload& overload : Overloads()) {
    if (writing_only && overload.variant == Variant::kFunctional) continue;
    m.impl(overload.name.c_str(),
           torch::CppFunction::makeFromBoxedFunctor(std::make_unique<Kernel>(overload)));
  }
}

// at::Tag::out and at::Tag::inplace where the torch compiled against has
// them (torch.compile reads them; 2.11 has neither).
template <typename Tag, typename = void>
struct OutTag {
  static void AddTo(std::vector<Tag>&) {}
};
template <typename Tag>
struct OutTag<Tag, std::void_t<decltype(Tag::out)>> {
  static void AddTo(std::vector<Tag>& tags) { tags.push_back(Tag::out); }
};
template <typename Tag, typename = void>
struct InPlaceTag {
  static void AddTo(std::vector<Tag>&) {}
};
template <typename Tag>
struct InPlaceTag<Tag, std::void_t<decltype(Tag::inplace)>> {
  static void AddTo(std::vector<Tag>& tags) { tags.push_back(Tag::inplace); }
};

std::vector<at::Tag> TagsOf(const Overload& overload) {
  std::vector<at::Tag> tags = {at::Tag::pointwise, at::Tag::pt2_compliant_tag};
  if (overload.variant == Variant::kOut) OutTag<at::Tag>::AddTo(tags);
  if (overload.variant == Variant::kInPlace) InPlaceTag<at::Tag>::AddTo(tags);
  return tags;
}

// The promotion kind and the dtypes of an op on tensors of these dtypes and
// ranks, for tests against torch._prims_common: [kind, compute, opmath, result].
std::vector<std::string> OpDTypesOf(c10::string_view name, const std::vector<at::Tensor>& tensors) {
  const ops::Op op = ValueOrThrow(ops::ParseOp(std::string(name)));
  absl::InlinedVector<oneflow_promote::Operand, 3> operands;
  for (const at::Tensor& t : tensors) {
    operands.push_back(oneflow_promote::Operand::Tensor(DTypeOf(t.scalar_type()), t.dim()));
  }
  PromotionOptions promotion;
  promotion.default_dtype = DTypeOf(c10::typeMetaToScalarType(at::get_default_dtype()));
  const ops::OpDTypes d = InThisTorch(ValueOrThrow(ops::InferOpDTypes(op, operands, promotion)));
  return {std::string(ops::PromotionKindName(ops::RuleOf(op).kind)), std::string(Name(d.compute)),
          std::string(Name(d.opmath)), std::string(Name(d.result))};
}

// Whether a cast keeps partial layouts of a reduce op ("sum", "max",
// "min"): "exact", "up to rounding" or "needs boxing" (sbp.h's CastKeeps),
// for DTensor's sharding strategy (oneflow_promote_torch/dtensor.py).
std::string CastKeepsName(at::ScalarType source, at::ScalarType target,
                          c10::string_view reduce_op) {
  sbp::SbpKind kind = sbp::SbpKind::kPartialSum;
  if (reduce_op == "max") {
    kind = sbp::SbpKind::kPartialMax;
  } else if (reduce_op == "min") {
    kind = sbp::SbpKind::kPartialMin;
  } else {
    TORCH_CHECK(reduce_op == "sum", "cast_keeps: reduce_op is sum, max or min; got ",
                std::string(reduce_op));
  }
  return sbp::ExactnessName(sbp::CastKeeps(DTypeOf(source), DTypeOf(target), kind));
}

}  // namespace

TORCH_LIBRARY(oneflow_promote, m) {
  for (const Overload& overload : Overloads()) {
    const std::vector<at::Tag> tags = TagsOf(overload);
    m.def(overload.schema.c_str(), tags);
  }
  DefineScalarScalar(m);
  m.def("op_dtypes(str op, Tensor[] operands) -> str[]", &OpDTypesOf);
  m.def("cast_keeps(ScalarType source, ScalarType target, str reduce_op) -> str", &CastKeepsName);
}

TORCH_LIBRARY_IMPL(oneflow_promote, CPU, m) { RegisterEach<BelowAutogradKernel<&RunOnDevice>>(m); }
TORCH_LIBRARY_IMPL(oneflow_promote, CUDA, m) { RegisterEach<BelowAutogradKernel<&RunOnDevice>>(m); }
TORCH_LIBRARY_IMPL(oneflow_promote, Meta, m) { RegisterEach<BelowAutogradKernel<&RunOnMeta>>(m); }
TORCH_LIBRARY_IMPL(oneflow_promote, Autograd, m) { RegisterEach<AutogradKernel>(m); }
TORCH_LIBRARY_IMPL(oneflow_promote, ADInplaceOrView, m) {
  RegisterEach<InplaceOrViewKernel>(m, /*writing_only=*/true);
}
TORCH_LIBRARY_IMPL(oneflow_promote, Functionalize, m) {
  RegisterEach<FunctionalizeKernel>(m, /*writing_only=*/true);
}

}  // namespace oneflow_promote::torch_extension
