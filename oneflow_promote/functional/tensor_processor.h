// TensorProcessor: the builder a functor calls before its kernel, to bring
// the inputs to the dtype the kernel computes in, inserting casts where
// dtypes differ. It follows OneFlow's TensorProcessor, generic over the
// framework's tensor type through TensorTraits:
//
//   TensorProcessor<Tensor> processor(options);
//   absl::Status s = processor.AddInputs({x, y})
//                        .PromoteInputsToCommonDtype(true)
//                        .PromoteIntegerInputsToFloatDtype(true)
//                        .Apply();
//   // processor.GetInputs(): x and y, each cast to processor.common_dtype()
//
// Where it differs from OneFlow, on purpose:
//  - floors (AddInputs' lowest dtype) apply in promote mode too;
//  - integers become the configured default dtype, not a fixed float32;
//  - the policy (torch, array_api, numpy, jax, jax_x32, jax_strict) is a
//    parameter, and an execution context (stream, threads) reaches every
//    cast;
//  - the common dtype is the promotion lattice's join, with no invalid
//    dtype as an identity element;
//  - inputs that already have the dtype are neither cast nor copied, and a
//    call on inputs that all have it allocates nothing on the heap (up to
//    four inputs);
//  - wrapped numbers (Python scalars) are converted on the host by the
//    adapter, never by a kernel launch.
//
// A framework plugs in by specializing TensorTraits (tensor_traits.h) for its
// tensor type; this header brings neither the library's Tensor nor its kernels.

#ifndef ONEFLOW_PROMOTE_FUNCTIONAL_TENSOR_PROCESSOR_H_
#define ONEFLOW_PROMOTE_FUNCTIONAL_TENSOR_PROCESSOR_H_

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "oneflow_promote/device.h"
#include "oneflow_promote/functional/op_rules.h"
#include "oneflow_promote/functional/tensor_traits.h"
#include "oneflow_promote/result_type.h"

namespace oneflow_promote {

template <typename T, typename Traits = TensorTraits<T>>
class TensorProcessor {
 public:
  // `policy` decides the common dtype and which casts are allowed;
  // `context` is passed to every cast (the framework's stream and threads).
  explicit TensorProcessor(const PromotionOptions& options = {}, Policy policy = Policy::kTorch,
                           const ExecutionContext& context = {})
      : options_(options), policy_(policy), context_(context) {}

  // Adds inputs; with `lowest_dtype`, each is first raised to at least that
  // dtype (sum of int8 computes in int64). kBool, the lattice's bottom,
  // means no floor.
  TensorProcessor& AddInputs(absl::Span<const T> inputs, DType lowest_dtype = DType::kBool) {
    for (const T& input : inputs) {
      inputs_.push_back(input);
      floors_.push_back(lowest_dtype);
    }
    return *this;
  }
  TensorProcessor& AddInputs(std::initializer_list<T> inputs, DType lowest_dtype = DType::kBool) {
    return AddInputs(absl::MakeConstSpan(inputs.begin(), inputs.size()), lowest_dtype);
  }

  // true: cast every input to the inputs' common dtype (CommonDType in
  // op_rules.h). false: cast each input only as its floor and
  // PromoteIntegerInputsToFloatDtype require.
  TensorProcessor& PromoteInputsToCommonDtype(bool promote) {
    promote_ = promote;
    forced_dtype_.reset();
    return *this;
  }
  // As above, but every input is cast to `forced_dtype` (OneFlow's in-place
  // form, where it is the in-place tensor's dtype; the functional frontend
  // passes the op's compute dtype): Apply() fails unless the inputs' common
  // dtype can be cast to it (c10::canCast).
  TensorProcessor& PromoteInputsToCommonDtype(bool promote, DType forced_dtype) {
    promote_ = promote;
    forced_dtype_ = forced_dtype;
    return *this;
  }
  // true: integer and bool inputs compute in the default dtype.
  TensorProcessor& PromoteIntegerInputsToFloatDtype(bool promote) {
    integers_to_float_ = promote;
    return *this;
  }

  // Decides the dtypes and casts the inputs that need it. Errors name the
  // operands (promotion failures) or the cast that failed.
  absl::Status Apply() {
    if (inputs_.empty()) return absl::InvalidArgumentError("TensorProcessor: no inputs");
    if (NothingToCast()) return absl::OkStatus();
    absl::InlinedVector<Operand, 4> operands;
    for (const T& input : inputs_) operands.push_back(OperandOf<T, Traits>(input));
    if (promote_) {
      absl::StatusOr<DType> common =
          functional::CommonDType(operands, floors_, integers_to_float_, options_, policy_);
      if (!common.ok()) return common.status();
      common_dtype_ = *common;
      if (forced_dtype_.has_value()) {
        if (absl::Status s = functional::CheckCanCastToOutput(*common, *forced_dtype_, policy_);
            !s.ok()) {
          return s;
        }
        common_dtype_ = *forced_dtype_;
      }
    }
    for (size_t i = 0; i < inputs_.size(); ++i) {
      DType target = common_dtype_;
      if (!promote_) {
        absl::StatusOr<DType> own = functional::CommonDType(
            absl::MakeConstSpan(&operands[i], 1), absl::MakeConstSpan(&floors_[i], 1),
            integers_to_float_, options_, policy_);
        if (!own.ok()) return own.status();
        target = *own;
      }
      if (Traits::DTypeOf(inputs_[i]) == target) continue;
      absl::StatusOr<T> cast = Traits::Cast(inputs_[i], target, context_);
      if (!cast.ok()) return cast.status();
      inputs_[i] = *std::move(cast);
    }
    return absl::OkStatus();
  }

 private:
  // The common case, decided without building operands: every input has one
  // dtype, which no floor, integer promotion or forced dtype changes. Under
  // the other policies the dtype must also be one the policy keeps (not
  // jax_x32's int64, not the Array API's float16), and Python scalars take
  // the full path, which checks their values.
  bool NothingToCast() {
    const DType dtype = Traits::DTypeOf(inputs_[0]);
    if (!IsValid(dtype)) return false;
    if (policy_ != Policy::kTorch) {
      const Promotion self = PromoteTypes(dtype, dtype, policy_);
      if (!self.ok() || self.dtype() != dtype) return false;
      for (const T& input : inputs_) {
        if (Traits::IsWrappedNumber(input)) return false;
      }
    }
    for (size_t i = 0; i < inputs_.size(); ++i) {
      if (Traits::DTypeOf(inputs_[i]) != dtype) return false;
      if (floors_[i] != DType::kBool && floors_[i] != dtype) {
        const Promotion p = PromoteTypes(dtype, floors_[i], policy_);
        if (!p.ok() || p.dtype() != dtype) return false;
      }
    }
    if (integers_to_float_ && (IsIntegral(dtype) || IsBool(dtype))) return false;
    if (forced_dtype_.has_value() && *forced_dtype_ != dtype) return false;
    common_dtype_ = dtype;
    return true;
  }

 public:
  // The inputs, cast as Apply() decided (as added, before Apply()).
  [[nodiscard]] absl::Span<const T> GetInputs() const { return inputs_; }
  [[nodiscard]] absl::Span<T> GetMutableInputs() { return absl::MakeSpan(inputs_); }
  // The dtype Apply() cast the inputs to in promote mode (the forced dtype
  // when one was given).
  [[nodiscard]] DType common_dtype() const { return common_dtype_; }

 private:
  PromotionOptions options_;
  Policy policy_;
  ExecutionContext context_;
  absl::InlinedVector<T, 4> inputs_;
  absl::InlinedVector<DType, 4> floors_;
  bool promote_ = false;
  bool integers_to_float_ = false;
  std::optional<DType> forced_dtype_;
  DType common_dtype_ = DType::kBool;
};

}  // namespace oneflow_promote

#endif  // ONEFLOW_PROMOTE_FUNCTIONAL_TENSOR_PROCESSOR_H_
