// TensorTraits: how TensorProcessor sees a framework's tensor type. A
// framework specializes it for its own tensor (torch_tensor_traits.h does for
// at::Tensor, tensor.h for the library's Tensor); nothing here depends on
// either.

#ifndef ONEFLOW_PROMOTE_OPS_TENSOR_TRAITS_H_
#define ONEFLOW_PROMOTE_OPS_TENSOR_TRAITS_H_

#include "oneflow_promote/device.h"
#include "oneflow_promote/promotion/result_type.h"

namespace oneflow_promote::ops {

// What TensorProcessor needs to know about a tensor type T. Specialize with:
//   static DType DTypeOf(const T&);
//   static int64_t NDim(const T&);
//   static bool IsWrappedNumber(const T&);   // a tensor made from a Python scalar
//   static Operand ScalarOf(const T&);       // that scalar (called only when wrapped)
//   // A new tensor of that dtype, made on the context's stream or threads:
//   static absl::StatusOr<T> Cast(const T&, DType, const ExecutionContext&);
template <typename T>
struct TensorTraits;

// How the promotion rules see `input`: the Python scalar it wraps, or a
// tensor of its dtype and number of dimensions.
template <typename T, typename Traits = TensorTraits<T>>
[[nodiscard]] Operand OperandOf(const T& input) {
  return Traits::IsWrappedNumber(input)
             ? Traits::ScalarOf(input)
             : Operand::Tensor(Traits::DTypeOf(input), Traits::NDim(input));
}

}  // namespace oneflow_promote::ops

// The names frameworks used before the rules layer had a folder of its own
// (specializations of TensorTraits go in oneflow_promote::ops).
namespace oneflow_promote {
using ops::OperandOf;
using ops::TensorTraits;
}  // namespace oneflow_promote

#endif  // ONEFLOW_PROMOTE_OPS_TENSOR_TRAITS_H_
