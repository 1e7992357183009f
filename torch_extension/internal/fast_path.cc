// The short path of the CPU kernel (fast_path.h).

#include "torch_extension/internal/fast_path.h"

#include <ATen/EmptyTensor.h>
#include <ATen/MemoryOverlap.h>

#include <optional>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "functional/op_kernels.h"
#include "functional/tensor.h"
#include "functional/torch_tensor_traits.h"
#include "torch_extension/internal/complex_products.h"
#include "torch_extension/internal/kernels.h"
#include "torch_extension/internal/remainder_nans.h"

namespace oneflow_promote::torch_extension {
namespace {

// One call's promotion inputs: the op, the default dtype and each tensor's
// dtype and rank (0-d tensors promote apart).
struct DTypesKey {
  ops::Op op;
  DType default_dtype;
  int count = 0;
  at::ScalarType types[3];
  int64_t ranks[3];
  bool operator==(const DTypesKey& other) const {
    if (op != other.op || default_dtype != other.default_dtype || count != other.count) {
      return false;
    }
    for (int i = 0; i < count; ++i) {
      if (types[i] != other.types[i] || ranks[i] != other.ranks[i]) return false;
    }
    return true;
  }
};

// InferDTypes, remembered for the thread's last operand dtypes: a run of
// calls on the same dtypes (a model's layers) decides them once.
const ops::OpDTypes& CachedDTypes(const OpCall& call, DType default_dtype) {
  thread_local std::optional<DTypesKey> last_key;
  thread_local ops::OpDTypes last;
  DTypesKey key{call.op, default_dtype};
  for (const Operand& operand : call.operands) {
    key.types[key.count] = operand.tensor->scalar_type();
    key.ranks[key.count] = operand.tensor->dim();
    ++key.count;
  }
  if (!last_key.has_value() || !(*last_key == key)) {
    last_key.reset();  // a refused call leaves no entry
    last = InferDTypes(call, default_dtype);
    last_key = key;
  }
  return last;
}

// Whether a tensor's strides are the row-major ones torch gives a new
// tensor of its shape: a result of such operands gets them too. (A
// contiguous tensor may have others where an extent is 1, and torch's
// result follows them.)
bool RowMajor(const at::Tensor& t) {
  int64_t expected = 1;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    if (t.stride(d) != expected) return false;
    expected *= t.size(d);
  }
  return true;
}

Tensor FlatView(const at::Tensor& t, DType dtype) {
  absl::StatusOr<Tensor> view = Tensor::View(t.data_ptr(), dtype, {t.numel()}, Device::Cpu());
  ThrowIfError(view.status());
  return *std::move(view);
}

// A tensor operand of a call the short path takes, nullptr for any other
// call. The short path takes two operands: tensors of one shape,
// row-major, on the CPU, of the library's dtypes, or Python scalars (at
// least one a tensor); no alpha; maximum and minimum follow torch's two
// loops on ties (kernels.cc).
const at::Tensor* FlatOperands(const OpCall& call) {
  if (call.operands.size() != 2 || call.alpha.has_value() || call.op == ops::Op::kMaximum ||
      call.op == ops::Op::kMinimum) {
    return nullptr;
  }
  const at::Tensor* shaped =
      call.operands[0].tensor != nullptr ? call.operands[0].tensor : call.operands[1].tensor;
  if (shaped == nullptr) return nullptr;
  for (const Operand& operand : call.operands) {
    const at::Tensor* t = operand.tensor;
    if (t != nullptr &&
        (!t->is_cpu() || !RowMajor(*t) || t->is_conj() || t->is_neg() ||
         t->unsafeGetTensorImpl()->is_wrapped_number() || t->sizes() != shaped->sizes() ||
         !FromTorchScalarType(t->scalar_type()).has_value())) {
      return nullptr;
    }
  }
  return shaped->numel() > 0 ? shaped : nullptr;
}

// Whether out= (or self) takes the result as it stands: the operands'
// shape, contiguous, the result's dtype (no conversion, no resize, nothing
// CheckDestination refuses), and each operand either apart from it or the
// same tensor (torch refuses partial overlap; the general path says so).
bool TakesResultAsIs(const at::Tensor& destination, const at::Tensor& shaped,
                     at::ScalarType result_type, const OpCall& call) {
  if (!destination.is_cpu() || !destination.is_contiguous() ||
      destination.scalar_type() != result_type || destination.sizes() != shaped.sizes() ||
      destination.is_conj() || destination.is_neg()) {
    return false;
  }
  for (const Operand& operand : call.operands) {
    if (operand.tensor == nullptr) continue;
    const at::MemOverlapStatus overlap = at::get_overlap_status(destination, *operand.tensor);
    if (overlap != at::MemOverlapStatus::No && overlap != at::MemOverlapStatus::Full) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<at::Tensor> TryFastPath(const OpCall& call) {
  const at::Tensor* shaped = FlatOperands(call);
  if (shaped == nullptr) return std::nullopt;
  const DType default_dtype =
      *FromTorchScalarType(c10::typeMetaToScalarType(at::get_default_dtype()));
  const bool tensors_only =
      call.operands[0].tensor != nullptr && call.operands[1].tensor != nullptr;
  // A Python scalar's dtypes are decided per call: its value may matter.
  const ops::OpDTypes dtypes =
      tensors_only ? CachedDTypes(call, default_dtype) : InferDTypes(call, default_dtype);
  const std::optional<at::ScalarType> result_type = ToTorchScalarType(dtypes.result);
  TORCH_CHECK(result_type.has_value(), "libtorch has no ", std::string(Name(dtypes.result)));
  at::Tensor result;
  if (!call.destination.defined()) {
    result = at::detail::empty_cpu(shaped->sizes(), *result_type);
  } else if (TakesResultAsIs(call.destination, *shaped, *result_type, call)) {
    result = call.destination;
  } else {
    return std::nullopt;
  }
  const c10::Device cpu(c10::kCPU);
  // Read before the kernel writes: the destination may be an operand.
  const std::vector<int64_t> vector_loop_nans = VectorLoopNaNs(call, dtypes, cpu, shaped->sizes());
  const FusedProducts fused_products =
      TorchFusedProducts(call, dtypes, cpu, shaped->sizes(), result);
  // Where PyTorch's fused products are every element, they are the result.
  if (fused_products.count() < shaped->numel()) {
    absl::InlinedVector<Tensor, 2> inputs;
    for (const Operand& operand : call.operands) {
      inputs.push_back(
          operand.tensor == nullptr
              ? Tensor::WrappedNumber(ScalarOperand(operand.scalar))
              : FlatView(*operand.tensor, *FromTorchScalarType(operand.tensor->scalar_type())));
    }
    Tensor out = FlatView(result, dtypes.result);
    ThrowIfError(
        op_kernels::Elementwise(call.op, dtypes.compute, inputs, out, CurrentTorchContext(cpu)));
  }
  WriteNaNs(vector_loop_nans, result);
  WriteProducts(fused_products, result);
  return result;
}

}  // namespace oneflow_promote::torch_extension
