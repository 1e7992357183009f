// TensorProcessorPipe: the stages a functor runs its inputs through before
// the kernel, after OneFlow's pipe of the same name: AutoCast (mixed
// precision, as torch.autocast and OneFlow's TensorAutoCastProcessor do),
// Promote (an op rule's compute dtype, as TensorProcessor), and a check of
// the out= or in-place outputs (c10::canCast).
//
//   TensorProcessorPipe<Tensor> pipe({x, y}, context);
//   if (absl::Status s = pipe.AutoCast(TorchAutoCastKind(Op::kAtan2, Device::Kind::kCuda), state);
//       !s.ok()) ...
//   if (absl::Status s = pipe.Promote(RuleOf(Op::kAtan2)); !s.ok()) ...
//   if (absl::Status s = pipe.CheckOutputs({out}); !s.ok()) ...
//   // pipe.inputs(): x and y in pipe.dtypes().compute
//
// Every stage casts through TensorTraits<T>::Cast with the pipe's execution
// context, and only inputs whose dtype changes.

#ifndef ONEFLOW_PROMOTE_OPS_TENSOR_PROCESSOR_PIPE_H_
#define ONEFLOW_PROMOTE_OPS_TENSOR_PROCESSOR_PIPE_H_

#include <cstdint>
#include <initializer_list>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "oneflow_promote/device.h"
#include "oneflow_promote/ops/op_rules.h"
#include "oneflow_promote/ops/tensor_traits.h"
#include "oneflow_promote/promotion/policy.h"
#include "oneflow_promote/promotion/result_type.h"

namespace oneflow_promote::ops {

// Whether autocast is on, and its lower-precision dtype (torch's defaults:
// float16 on CUDA, bfloat16 on the CPU).
struct AutoCastState {
  bool enabled = false;
  DType lower_precision = DType::kFloat16;
};

// PyTorch 2.15's autocast list for a built-in op on `device`, from its row
// of op_list.h: on CUDA its fp32 list (pow), fp32-with-output-dtype list
// (sum, prod, cumsum) and promote list (atan2, dot); on the CPU prod runs in
// float32. The others are on no list.
[[nodiscard]] constexpr AutoCastKind TorchAutoCastKind(ops::Op op, Device::Kind device) {
  return ops::AutoCastKindOf(op, device == Device::Kind::kCuda);
}

template <typename T, typename Traits = TensorTraits<T>>
class TensorProcessorPipe {
 public:
  explicit TensorProcessorPipe(absl::Span<const T> inputs, const ExecutionContext& context = {})
      : inputs_(inputs.begin(), inputs.end()), context_(context) {}
  TensorProcessorPipe(std::initializer_list<T> inputs, const ExecutionContext& context = {})
      : inputs_(inputs.begin(), inputs.end()), context_(context) {}

  // With autocast on, casts the floating inputs (not float64; nor Python
  // scalars, which stay weak) as `kind` says, like torch.autocast's
  // cached_cast.
  absl::Status AutoCast(AutoCastKind kind, const AutoCastState& state) {
    if (!state.enabled || kind == AutoCastKind::kNone) return absl::OkStatus();
    DType target = kind == AutoCastKind::kFloat32 ? DType::kFloat32 : state.lower_precision;
    if (kind == AutoCastKind::kPromote) {
      for (const T& input : inputs_) {
        if (!Eligible(input)) continue;
        const Promotion p = PromoteTypes(target, Traits::DTypeOf(input), Policy::kTorch);
        if (!p.ok()) return p.status();
        target = p.dtype();
      }
    }
    for (T& input : inputs_) {
      if (Eligible(input)) {
        if (absl::Status s = CastTo(input, target); !s.ok()) return s;
      }
    }
    return absl::OkStatus();
  }

  // Decides the op's dtypes under `rule` and casts every promoted input
  // (where's values, not its condition) to the compute dtype.
  absl::Status Promote(const ops::OpRule& rule, const PromotionOptions& options = {},
                       Policy policy = Policy::kTorch) {
    absl::InlinedVector<Operand, 4> operands;
    for (const T& input : inputs_) operands.push_back(OperandOf<T, Traits>(input));
    absl::StatusOr<ops::OpDTypes> dtypes = ops::InferOpDTypes(rule, operands, options, policy);
    if (!dtypes.ok()) return dtypes.status();
    dtypes_ = *dtypes;
    policy_ = policy;
    promoted_ = true;
    for (size_t i = rule.first_promoted; i < inputs_.size(); ++i) {
      if (absl::Status s = CastTo(inputs_[i], dtypes_.compute); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

  // After Promote: whether each out= or in-place output can take the
  // result (c10::canCast under the rule's policy); the error names it.
  absl::Status CheckOutputs(absl::Span<const T> outputs) const {
    if (!promoted_) return absl::FailedPreconditionError("CheckOutputs before Promote");
    for (size_t i = 0; i < outputs.size(); ++i) {
      absl::Status s =
          ops::CheckCanCastToOutput(dtypes_.result, Traits::DTypeOf(outputs[i]), policy_);
      if (!s.ok()) return absl::Status(s.code(), absl::StrCat("output ", i + 1, ": ", s.message()));
    }
    return absl::OkStatus();
  }
  absl::Status CheckOutputs(std::initializer_list<T> outputs) const {
    return CheckOutputs(absl::MakeConstSpan(outputs.begin(), outputs.size()));
  }

  [[nodiscard]] absl::Span<const T> inputs() const { return inputs_; }
  // The op's dtypes, once Promote succeeded.
  [[nodiscard]] const ops::OpDTypes& dtypes() const { return dtypes_; }

 private:
  static bool Eligible(const T& input) {
    const DType d = Traits::DTypeOf(input);
    return !Traits::IsWrappedNumber(input) && IsFloating(d) && d != DType::kFloat64;
  }

  absl::Status CastTo(T& input, DType dtype) {
    if (Traits::DTypeOf(input) == dtype) return absl::OkStatus();
    absl::StatusOr<T> cast = Traits::Cast(input, dtype, context_);
    if (!cast.ok()) return cast.status();
    input = *std::move(cast);
    return absl::OkStatus();
  }

  absl::InlinedVector<T, 4> inputs_;
  ExecutionContext context_;
  ops::OpDTypes dtypes_{DType::kBool, DType::kBool, DType::kBool};
  Policy policy_ = Policy::kTorch;
  bool promoted_ = false;
};

}  // namespace oneflow_promote::ops

// The names frameworks used before the rules layer had a folder of its own
// (specializations of TensorTraits go in oneflow_promote::ops).
namespace oneflow_promote {
using ops::AutoCastKind;
using ops::AutoCastState;
using ops::TensorProcessorPipe;
using ops::TorchAutoCastKind;
}  // namespace oneflow_promote

#endif  // ONEFLOW_PROMOTE_OPS_TENSOR_PROCESSOR_PIPE_H_
