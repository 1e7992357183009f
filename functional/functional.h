// The functional frontend: PyTorch's ops with PyTorch's dtype rules on the
// library's Tensor, on the CPU or a CUDA device (where the inputs are). Each
// call decides its dtypes with InferOpDTypes (ops/op_rules.h), brings the
// inputs to the compute dtype, runs a
// same-dtype kernel, and returns a new tensor, writes into an out= tensor,
// or updates its first input in place.
//
//   Tensor x = *Tensor::FromValues<int8_t>({1, 2, 3}, {3});
//   absl::StatusOr<Tensor> y = functional::Add(x, Tensor::WrappedNumber(Operand::PyFloat(0.5)));
//   // float32 [1.5, 2.5, 3.5]
//
// Mixed dtypes are cast one of two ways (CastPath): materialized, as the
// design describes — TensorProcessor casts whole inputs into new tensors
// and the kernel then reads one dtype — or fused, where the elementwise
// kernel converts cache-sized blocks of each input as it reads them, which
// moves fewer bytes. kAuto fuses where the operands allow it (each input
// contiguous with the output's shape, or a single element).

#ifndef ONEFLOW_PROMOTE_FUNCTIONAL_FUNCTIONAL_H_
#define ONEFLOW_PROMOTE_FUNCTIONAL_FUNCTIONAL_H_

#include <cstdint>
#include <optional>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "functional/tensor.h"
#include "oneflow_promote/ops/op_rules.h"

namespace oneflow_promote::functional {

enum class CastPath : uint8_t { kAuto, kMaterialized, kFused };

struct OpOptions {
  PromotionOptions promotion;  // the default dtype
  // Whose op rules decide the dtypes: PyTorch's, or under another policy
  // NumPy's, jax.numpy's or the Array API's (docs/op_policies.md), by whose
  // rule the inputs are cast and out= is checked.
  Policy policy = Policy::kTorch;
  CastPath cast_path = CastPath::kAuto;
  ExecutionContext context;  // CPU threads (0 uses all); the CUDA stream
  int64_t dim = 0;           // cumsum's dimension (negative counts from the end)
  // add and sub: self + alpha * other and self - alpha * other, a Python
  // number checked as PyTorch checks it (CheckAlpha), computed as its
  // kernels compute it: one fused multiply-add for real floats, sub as add
  // of -alpha. On the CPU alpha is taken in the compute dtype, on CUDA in
  // its math type (float32 for float16 and bfloat16).
  std::optional<Operand> alpha;
};

// Runs `op` on `inputs` (tensors, and wrapped numbers for Python scalars) in
// the order PyTorch's function takes them (where: condition, self, other).
// Errors: the op rules' (PyTorch's messages), shapes that do not broadcast,
// integer division by zero, and a kFused request on operands that cannot
// be fused.
[[nodiscard]] absl::StatusOr<Tensor> Call(ops::Op op, absl::Span<const Tensor> inputs,
                                          const OpOptions& options = {});

// alpha of add or sub as the add kernel takes it on `device`: checked as
// PyTorch checks it (CheckAlpha, then c10::Scalar::to's range: "value
// cannot be converted to type int8_t without overflow"), and for sub
// negated in its own type, as PyTorch's sub runs add with -alpha (so that
// a real alpha keeps a +0 imaginary part).
[[nodiscard]] absl::StatusOr<Operand> KernelAlpha(ops::Op op, DType compute, const Operand& alpha,
                                                  const Device& device);

// out=: computes as Call does, then writes into `out`, which must have the
// result's shape and a dtype the result can be cast to (c10::canCast:
// "result type float32 can't be cast to the desired output type int64").
[[nodiscard]] absl::Status CallOut(ops::Op op, absl::Span<const Tensor> inputs, Tensor& out,
                                   const OpOptions& options = {});

// CallOut for a caller that has inferred the dtypes already, as an adapter
// does that needs them to allocate `out` (the PyTorch extension): the same
// work, without inferring them a second time. `dtypes` must be
// InferOpDTypes(op, the inputs' operands, options.promotion, options.policy).
[[nodiscard]] absl::Status CallOutWithDTypes(ops::Op op, absl::Span<const Tensor> inputs,
                                             const ops::OpDTypes& dtypes, Tensor& out,
                                             const OpOptions& options = {});

// In place (self.add_(other)): computes op(self, others...) in the promoted
// dtype and writes the result back into `self`, under the same can-cast
// rule; the result must have self's shape.
[[nodiscard]] absl::Status CallInPlace(ops::Op op, Tensor& self, absl::Span<const Tensor> others,
                                       const OpOptions& options = {});

// The named forms of Call, one per op of the op table's kernel list
// (ops/op_list.h): functional::Atan2(a, b) is Call(Op::kAtan2, {a, b}). Each
// takes the op's operands in PyTorch's order (Where: condition, self,
// other; Cumsum: the tensor and its dim). DivFloor and DivTrunc are div
// with rounding_mode "floor" and "trunc".
template <ops::Op kOp>
struct NamedOp {
  static constexpr int kArity = ops::OpArity(kOp);
  static constexpr bool kScan = ops::KindOf(kOp) == ops::OpKind::kScan;

  template <int N = kArity, std::enable_if_t<N == 1 && !kScan, int> = 0>
  [[nodiscard]] absl::StatusOr<Tensor> operator()(const Tensor& a,
                                                  const OpOptions& options = {}) const {
    return Call(kOp, absl::MakeConstSpan(&a, 1), options);
  }
  template <int N = kArity, std::enable_if_t<N == 2, int> = 0>
  [[nodiscard]] absl::StatusOr<Tensor> operator()(const Tensor& a, const Tensor& b,
                                                  const OpOptions& options = {}) const {
    const Tensor inputs[] = {a, b};
    return Call(kOp, inputs, options);
  }
  template <int N = kArity, std::enable_if_t<N == 3, int> = 0>
  [[nodiscard]] absl::StatusOr<Tensor> operator()(const Tensor& a, const Tensor& b, const Tensor& c,
                                                  const OpOptions& options = {}) const {
    const Tensor inputs[] = {a, b, c};
    return Call(kOp, inputs, options);
  }
  // A scan along `dim` (negative counts from the end).
  template <bool kIsScan = kScan, std::enable_if_t<kIsScan, int> = 0>
  [[nodiscard]] absl::StatusOr<Tensor> operator()(const Tensor& a, int64_t dim,
                                                  OpOptions options = {}) const {
    options.dim = dim;
    return Call(kOp, absl::MakeConstSpan(&a, 1), options);
  }
};

#define ONEFLOW_PROMOTE_NAMED_FORM(name, spec) inline constexpr NamedOp<ops::Op::k##name> name{};
ONEFLOW_PROMOTE_FOR_EACH_KERNEL_OP(ONEFLOW_PROMOTE_NAMED_FORM)
#undef ONEFLOW_PROMOTE_NAMED_FORM

}  // namespace oneflow_promote::functional

#endif  // ONEFLOW_PROMOTE_FUNCTIONAL_FUNCTIONAL_H_
