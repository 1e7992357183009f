// The library's views of torch tensors (tensor_views.h).

#include "torch_extension/internal/tensor_views.h"

#include <cstdint>
#include <string>

#include "absl/types/span.h"
#include "torch_extension/internal/kernels.h"

namespace oneflow_promote::torch_extension {

at::ScalarType TorchType(DType dtype) {
  const std::optional<at::ScalarType> type = ToTorchScalarType(dtype);
  TORCH_CHECK(type.has_value(), "libtorch has no ", std::string(Name(dtype)));
  return *type;
}

int64_t ElementExtent(const at::Tensor& t) {
  int64_t extent = 1;
  for (int64_t d = 0; d < t.dim(); ++d) extent += (t.size(d) - 1) * t.stride(d);
  return extent;
}

Tensor ViewOf(const at::Tensor& t, size_t position) {
  const DType dtype = DTypeOf(t.scalar_type(), position);
  if (TensorTraits<at::Tensor>::IsWrappedNumber(t)) {
    return Tensor::WrappedNumber(TensorTraits<at::Tensor>::ScalarOf(t));
  }
  TORCH_CHECK(t.is_cpu() || t.is_cuda(), "operand ", position + 1, " is on ", t.device().str(),
              "; only cpu and cuda");
  const Device device = t.is_cuda() ? Device::Cuda(t.device().index()) : Device::Cpu();
  const absl::Span<const int64_t> sizes = absl::MakeConstSpan(t.sizes().data(), t.dim());
  if (t.is_contiguous()) return ValueOrThrow(Tensor::View(t.data_ptr(), dtype, sizes, device));
  const Tensor storage =
      ValueOrThrow(Tensor::View(t.data_ptr(), dtype, {ElementExtent(t)}, device));
  return ValueOrThrow(
      storage.AsStrided(sizes, absl::MakeConstSpan(t.strides().data(), t.dim()), 0));
}

}  // namespace oneflow_promote::torch_extension
