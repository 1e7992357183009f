// The short path of the CPU kernel (fast_path.h).

#include "torch_extension/internal/fast_path.h"

#include <ATen/EmptyTensor.h>

#include <optional>
#include <string>

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

Tensor FlatView(const at::Tensor& t, DType dtype) {
  absl::StatusOr<Tensor> view = Tensor::View(t.data_ptr(), dtype, {t.numel()}, Device::Cpu());
  ThrowIfError(view.status());
  return *std::move(view);
}

}  // namespace

bool TakesFastPath(const OpCall& call) {
  // maximum and minimum follow torch's two loops on ties (kernels.cc).
  if (call.destination.defined() || call.operands.size() != 2 || call.alpha.has_value() ||
      call.op == ops::Op::kMaximum || call.op == ops::Op::kMinimum) {
    return false;
  }
  const at::Tensor* first = call.operands[0].tensor;
  if (first == nullptr) return false;
  for (const Operand& operand : call.operands) {
    const at::Tensor* t = operand.tensor;
    if (t == nullptr || !t->is_cpu() || !t->is_contiguous() || t->is_conj() || t->is_neg() ||
        t->unsafeGetTensorImpl()->is_wrapped_number() || t->sizes() != first->sizes() ||
        !FromTorchScalarType(t->scalar_type()).has_value()) {
      return false;
    }
  }
  return first->numel() > 0;
}

at::Tensor RunFastPath(const OpCall& call) {
  const DType default_dtype =
      *FromTorchScalarType(c10::typeMetaToScalarType(at::get_default_dtype()));
  const ops::OpDTypes& dtypes = CachedDTypes(call, default_dtype);
  const std::optional<at::ScalarType> result_type = ToTorchScalarType(dtypes.result);
  TORCH_CHECK(result_type.has_value(), "libtorch has no ", std::string(Name(dtypes.result)));
  const at::Tensor& first = *call.operands[0].tensor;
  at::Tensor result = at::detail::empty_cpu(first.sizes(), *result_type);
  const Tensor inputs[] = {
      FlatView(first, *FromTorchScalarType(first.scalar_type())),
      FlatView(*call.operands[1].tensor,
               *FromTorchScalarType(call.operands[1].tensor->scalar_type())),
  };
  Tensor out = FlatView(result, dtypes.result);
  ThrowIfError(op_kernels::Elementwise(call.op, dtypes.compute, inputs, out,
                                       CurrentTorchContext(c10::Device(c10::kCPU))));
  WriteNaNs(VectorLoopNaNs(call, dtypes, c10::Device(c10::kCPU), first.sizes()), result);
  WriteProducts(TorchFusedProducts(call, dtypes, c10::Device(c10::kCPU), first.sizes(), result),
                result);
  return result;
}

}  // namespace oneflow_promote::torch_extension
