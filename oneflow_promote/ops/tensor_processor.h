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
//  - the policy (torch, array_api, numpy, jax, jax_x32, jax_strict, mlx) is a
//    parameter, and an execution context (stream, threads) reaches every
//    cast;
//  - the common dtype is the promotion lattice's join, with no invalid
//    dtype as an identity element;
//  - inputs that already have the dtype are neither cast nor copied (inputs
//    from a span are borrowed), and a call on inputs that all have it
//    allocates nothing on the heap (up to four inputs);
//  - wrapped numbers (Python scalars) are converted on the host by the
//    adapter, never by a kernel launch.
//
// A framework plugs in by specializing TensorTraits (tensor_traits.h) for its
// tensor type; this header brings neither the library's Tensor nor its kernels.

#ifndef ONEFLOW_PROMOTE_OPS_TENSOR_PROCESSOR_H_
#define ONEFLOW_PROMOTE_OPS_TENSOR_PROCESSOR_H_

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "oneflow_promote/device.h"
#include "oneflow_promote/ops/op_rules.h"
#include "oneflow_promote/ops/tensor_traits.h"
#include "oneflow_promote/promotion/result_type.h"

namespace oneflow_promote::ops {

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
  // means no floor. The inputs are borrowed, not copied: the caller keeps
  // them alive while it uses the processor (a functor's arguments are).
  TensorProcessor& AddInputs(absl::Span<const T> inputs, DType lowest_dtype = DType::kBool) {
    for (const T& input : inputs) slots_.push_back({&input, 0, lowest_dtype});
    return *this;
  }
  // AddInputs({x, y}): the braced list's temporaries die with the statement,
  // so the processor keeps them, moved in (an initializer_list's elements
  // could only be copied again).
  template <size_t N>
  TensorProcessor& AddInputs(T (&&inputs)[N], DType lowest_dtype = DType::kBool) {
    for (T& input : inputs) {
      slots_.push_back({nullptr, static_cast<uint32_t>(owned_.size()), lowest_dtype});
      owned_.push_back(std::move(input));
    }
    return *this;
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
    if (slots_.empty()) return absl::InvalidArgumentError("TensorProcessor: no inputs");
    if (NothingToCast()) return absl::OkStatus();
    absl::InlinedVector<Operand, 4> operands;
    absl::InlinedVector<DType, 4> floors;
    for (size_t i = 0; i < slots_.size(); ++i) {
      operands.push_back(OperandOf<T, Traits>(Input(i)));
      floors.push_back(slots_[i].floor);
    }
    if (promote_) {
      absl::StatusOr<DType> common =
          ops::CommonDType(operands, floors, integers_to_float_, options_, policy_);
      if (!common.ok()) return common.status();
      common_dtype_ = *common;
      if (forced_dtype_.has_value()) {
        if (absl::Status s = ops::CheckCanCastToOutput(*common, *forced_dtype_, policy_); !s.ok()) {
          return s;
        }
        common_dtype_ = *forced_dtype_;
      }
    }
    for (size_t i = 0; i < slots_.size(); ++i) {
      DType target = common_dtype_;
      if (!promote_) {
        absl::StatusOr<DType> own = ops::CommonDType(absl::MakeConstSpan(&operands[i], 1),
                                                     absl::MakeConstSpan(&floors[i], 1),
                                                     integers_to_float_, options_, policy_);
        if (!own.ok()) return own.status();
        target = *own;
      }
      const T& input = Input(i);
      if (Traits::DTypeOf(input) == target) continue;
      absl::StatusOr<T> cast = Traits::Cast(input, target, context_);
      if (!cast.ok()) return cast.status();
      slots_[i].borrowed = nullptr;
      slots_[i].owned = static_cast<uint32_t>(owned_.size());
      owned_.push_back(*std::move(cast));
    }
    return absl::OkStatus();
  }

  // The inputs, cast as Apply() decided (as added, before Apply()): the
  // caller's own tensors where no cast was needed. A view, valid while the
  // processor and the borrowed inputs live.
  class Inputs {
   public:
    class Iterator {
     public:
      using iterator_category = std::forward_iterator_tag;
      using value_type = T;
      using difference_type = std::ptrdiff_t;
      using pointer = const T*;
      using reference = const T&;

      reference operator*() const { return processor_->Input(index_); }
      pointer operator->() const { return &processor_->Input(index_); }
      Iterator& operator++() {
        ++index_;
        return *this;
      }
      Iterator operator++(int) {
        Iterator before = *this;
        ++index_;
        return before;
      }
      friend bool operator==(const Iterator& a, const Iterator& b) { return a.index_ == b.index_; }
      friend bool operator!=(const Iterator& a, const Iterator& b) { return a.index_ != b.index_; }

     private:
      friend class Inputs;
      Iterator(const TensorProcessor* processor, size_t index)
          : processor_(processor), index_(index) {}
      const TensorProcessor* processor_;
      size_t index_;
    };

    [[nodiscard]] size_t size() const { return processor_->slots_.size(); }
    [[nodiscard]] bool empty() const { return size() == 0; }
    [[nodiscard]] const T& operator[](size_t i) const { return processor_->Input(i); }
    [[nodiscard]] Iterator begin() const { return Iterator(processor_, 0); }
    [[nodiscard]] Iterator end() const { return Iterator(processor_, size()); }

   private:
    friend class TensorProcessor;
    explicit Inputs(const TensorProcessor* processor) : processor_(processor) {}
    const TensorProcessor* processor_;
  };
  [[nodiscard]] Inputs GetInputs() const { return Inputs(this); }
  // The dtype Apply() cast the inputs to in promote mode (the forced dtype
  // when one was given).
  [[nodiscard]] DType common_dtype() const { return common_dtype_; }

 private:
  // The common case, decided without building operands: every input has one
  // dtype, which no floor, integer promotion or forced dtype changes. Under
  // the other policies the dtype must also be one the policy keeps (not
  // jax_x32's int64, not the Array API's float16), and Python scalars take
  // the full path, which checks their values.
  const T& Input(size_t i) const {
    const Slot& slot = slots_[i];
    return slot.borrowed != nullptr ? *slot.borrowed : owned_[slot.owned];
  }

  bool NothingToCast() {
    const DType dtype = Traits::DTypeOf(Input(0));
    if (!IsValid(dtype)) return false;
    if (policy_ != Policy::kTorch) {
      const Promotion self = PromoteTypes(dtype, dtype, policy_);
      if (!self.ok() || self.dtype() != dtype) return false;
      for (const T& input : GetInputs()) {
        if (Traits::IsWrappedNumber(input)) return false;
      }
    }
    for (size_t i = 0; i < slots_.size(); ++i) {
      if (Traits::DTypeOf(Input(i)) != dtype) return false;
      const DType floor = slots_[i].floor;
      if (floor != DType::kBool && floor != dtype) {
        const Promotion p = PromoteTypes(dtype, floor, policy_);
        if (!p.ok() || p.dtype() != dtype) return false;
      }
    }
    if (integers_to_float_ && (IsIntegral(dtype) || IsBool(dtype))) return false;
    if (forced_dtype_.has_value() && *forced_dtype_ != dtype) return false;
    common_dtype_ = dtype;
    return true;
  }

  PromotionOptions options_;
  Policy policy_;
  ExecutionContext context_;
  // An input: the caller's tensor, or one the processor holds (a braced
  // input, or a cast) at owned_[owned]; and its floor.
  struct Slot {
    const T* borrowed;
    uint32_t owned;
    DType floor;
  };
  absl::InlinedVector<Slot, 4> slots_;
  absl::InlinedVector<T, 2> owned_;
  bool promote_ = false;
  bool integers_to_float_ = false;
  std::optional<DType> forced_dtype_;
  DType common_dtype_ = DType::kBool;
};

}  // namespace oneflow_promote::ops

// The names frameworks used before the rules layer had a folder of its own
// (specializations of TensorTraits go in oneflow_promote::ops).
namespace oneflow_promote {
using ops::TensorProcessor;
}  // namespace oneflow_promote

#endif  // ONEFLOW_PROMOTE_OPS_TENSOR_PROCESSOR_H_
