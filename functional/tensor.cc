// Tensor: allocation, views and conversion.

#include "functional/tensor.h"

#include <complex>
#include <cstring>
#include <limits>
#include <new>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "kernels/cast.h"
#include "kernels/cuda_device.h"
#include "oneflow_promote/convert.h"
#include "oneflow_promote/status_macros.h"

namespace oneflow_promote {
namespace {

// Buffers are aligned for 64-byte vector loads.
constexpr std::align_val_t kAlignment{64};

struct AlignedDelete {
  void operator()(std::byte* p) const { ::operator delete[](p, kAlignment); }
};

TensorDims ContiguousStrides(absl::Span<const int64_t> shape) {
  TensorDims strides(shape.size());
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i];
  }
  return strides;
}

}  // namespace

namespace {

// The element count of `shape`, or the error for an invalid dtype, a
// negative extent or a size that overflows.
absl::StatusOr<int64_t> CheckedElementCount(DType dtype, absl::Span<const int64_t> shape) {
  if (!IsValid(dtype)) {
    return absl::InvalidArgumentError(
        absl::StrCat("Tensor: invalid dtype enum value ", static_cast<int>(dtype)));
  }
  int64_t count = 1;
  for (int64_t extent : shape) {
    if (extent < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Tensor: negative extent in shape [", absl::StrJoin(shape, ", "), "]"));
    }
    if (extent != 0 && count > std::numeric_limits<int64_t>::max() / 64 / extent) {
      return absl::InvalidArgumentError(
          absl::StrCat("Tensor: shape [", absl::StrJoin(shape, ", "), "] is too large"));
    }
    count *= extent;
  }
  return count;
}

}  // namespace

Tensor Tensor::Unbacked(DType dtype, absl::Span<const int64_t> shape, int64_t count,
                        const Device& device) {
  Tensor tensor;
  tensor.dtype_ = dtype;
  tensor.shape_.assign(shape.begin(), shape.end());
  tensor.strides_ = ContiguousStrides(shape);
  tensor.buffer_bytes_ = std::max<int64_t>(count * static_cast<int64_t>(ItemSize(dtype)), 1);
  tensor.device_ = Device{device.kind, device.ordinal, nullptr, 0};
  return tensor;
}

absl::StatusOr<Tensor> Tensor::View(void* data, DType dtype, absl::Span<const int64_t> shape,
                                    Device device) {
  ASSIGN_OR_RETURN(int64_t count, CheckedElementCount(dtype, shape));
  if (data == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("Tensor::View: null data for ", Name(dtype), "[",
                                                   absl::StrJoin(shape, ", "), "]"));
  }
  const size_t alignment =
      VisitDType(dtype, [](auto tag) { return alignof(typename decltype(tag)::type); });
  if (reinterpret_cast<uintptr_t>(data) % alignment != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("Tensor::View: data ", absl::Hex(reinterpret_cast<uintptr_t>(data)),
                     " is not aligned to ", alignment, " bytes for ", Name(dtype)));
  }
  // A host pointer handed to a CUDA kernel would end the process's CUDA
  // context, not just this call.
  if (device.kind == Device::Kind::kCuda && count > 0) {
    RETURN_IF_ERROR(CheckCudaMemory(data, device.ordinal, "Tensor::View: the data"));
  }
  Tensor tensor = Unbacked(dtype, shape, count, device);
  // Not owned: a pointer with no owner (shared_ptr's aliasing constructor),
  // so making the view allocates nothing; the caller keeps the memory alive.
  tensor.buffer_ =
      std::shared_ptr<std::byte[]>(std::shared_ptr<std::byte[]>(), static_cast<std::byte*>(data));
  return tensor;
}

absl::StatusOr<Tensor> Tensor::Allocate(DType dtype, absl::Span<const int64_t> shape, bool zero,
                                        Device device) {
  ASSIGN_OR_RETURN(const int64_t count, CheckedElementCount(dtype, shape));
  Tensor tensor = Unbacked(dtype, shape, count, device);
  if (device.kind == Device::Kind::kCuda) {
    if (zero) return absl::UnimplementedError("Tensor::Zeros on a CUDA device");
    ASSIGN_OR_RETURN(tensor.buffer_,
                     AllocateCudaBuffer(tensor.buffer_bytes_, device.ordinal, device.stream));
    return tensor;
  }
  std::byte* bytes = static_cast<std::byte*>(
      ::operator new[](static_cast<size_t>(tensor.buffer_bytes_), kAlignment, std::nothrow));
  if (bytes == nullptr) {
    return absl::ResourceExhaustedError(
        absl::StrCat("Tensor: cannot allocate ", tensor.buffer_bytes_, " bytes"));
  }
  if (zero) std::memset(bytes, 0, static_cast<size_t>(tensor.buffer_bytes_));
  tensor.buffer_ = std::shared_ptr<std::byte[]>(bytes, AlignedDelete());
  return tensor;
}

absl::StatusOr<Tensor> Tensor::Empty(DType dtype, absl::Span<const int64_t> shape, Device device) {
  return Allocate(dtype, shape, /*zero=*/false, device);
}

absl::StatusOr<Tensor> Tensor::Zeros(DType dtype, absl::Span<const int64_t> shape) {
  return Allocate(dtype, shape, /*zero=*/true);
}

Tensor Tensor::WrappedNumber(const Operand& scalar) {
  // Allocation of one element of a valid dtype cannot fail short of
  // std::bad_alloc territory.
  Tensor tensor = *Allocate(scalar.dtype(), {}, /*zero=*/false);
  switch (scalar.kind()) {
    case Operand::Kind::kPyBool:
      *tensor.data_as<bool>() = scalar.int_value() != 0;
      break;
    case Operand::Kind::kPyInt:
      *tensor.data_as<int64_t>() = static_cast<int64_t>(static_cast<uint64_t>(scalar.int_value()));
      break;
    case Operand::Kind::kPyFloat:
      *tensor.data_as<double>() = scalar.real_value();
      break;
    case Operand::Kind::kPyComplex:
      *tensor.data_as<Complex<double>>() = {scalar.real_value(), scalar.imag_value()};
      break;
    case Operand::Kind::kTensor:
      return Tensor();
  }
  tensor.wrapped_ = true;
  tensor.scalar_ = scalar;
  return tensor;
}

int64_t Tensor::numel() const {
  int64_t count = 1;
  for (int64_t extent : shape_) count *= extent;
  return count;
}

bool Tensor::is_contiguous() const {
  int64_t expected = 1;
  for (size_t i = shape_.size(); i-- > 0;) {
    if (shape_[i] == 0) return true;
    if (shape_[i] != 1 && strides_[i] != expected) return false;
    expected *= shape_[i];
  }
  return true;
}

absl::StatusOr<Tensor> Tensor::AsStrided(absl::Span<const int64_t> shape,
                                         absl::Span<const int64_t> strides,
                                         int64_t offset_elements) const {
  if (!defined()) return absl::FailedPreconditionError("AsStrided on an undefined tensor");
  if (shape.size() != strides.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("AsStrided: ", shape.size(), " extents but ", strides.size(), " strides"));
  }
  const int64_t item = static_cast<int64_t>(ItemSize(dtype_));
  int64_t low = offset_elements, high = offset_elements;
  bool empty = false;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0) return absl::InvalidArgumentError("AsStrided: negative extent");
    if (shape[i] == 0) empty = true;
    const int64_t reach = (shape[i] - 1) * strides[i];
    (reach < 0 ? low : high) += reach;
  }
  if (!empty && (low < 0 || (high + 1) * item > buffer_bytes_)) {
    return absl::OutOfRangeError(
        absl::StrCat("AsStrided: the view [", absl::StrJoin(shape, ", "), "] with strides [",
                     absl::StrJoin(strides, ", "), "] at offset ", offset_elements,
                     " reaches outside the ", buffer_bytes_ / item, "-element buffer"));
  }
  Tensor view = *this;
  view.wrapped_ = false;
  view.shape_.assign(shape.begin(), shape.end());
  view.strides_.assign(strides.begin(), strides.end());
  view.offset_bytes_ = offset_elements * item;
  return view;
}

absl::StatusOr<Tensor> Tensor::Transpose(int64_t a, int64_t b) const {
  if (a < 0 || b < 0 || a >= ndim() || b >= ndim()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Transpose(", a, ", ", b, ") of a ", ndim(), "-d tensor"));
  }
  TensorDims shape = shape_, strides = strides_;
  std::swap(shape[a], shape[b]);
  std::swap(strides[a], strides[b]);
  return AsStrided(shape, strides, offset_bytes_ / static_cast<int64_t>(ItemSize(dtype_)));
}

absl::StatusOr<Tensor> Tensor::Clone(const ExecutionContext& context) const {
  ASSIGN_OR_RETURN(Tensor copy, Empty(dtype_, shape_, WithContext(device_, context)));
  RETURN_IF_ERROR(CastStrided(data(), dtype_, shape_, strides_, copy.data(), dtype_,
                              WithContext(device_, context)));
  return copy;
}

absl::StatusOr<Tensor> Tensor::ToDevice(Device device) const {
  ASSIGN_OR_RETURN(Tensor contiguous, Clone());
  if (device.kind == device_.kind && device.ordinal == device_.ordinal) return contiguous;
  ASSIGN_OR_RETURN(Tensor moved, Empty(dtype_, shape_, device));
  const int64_t bytes = numel() * static_cast<int64_t>(ItemSize(dtype_));
  if (bytes == 0) return moved;
  const CopyDirection direction = !is_cuda() ? CopyDirection::kHostToDevice
                                  : device.kind == Device::Kind::kCpu
                                      ? CopyDirection::kDeviceToHost
                                      : CopyDirection::kDeviceToDevice;
  RETURN_IF_ERROR(CudaCopyBytes(moved.data(), contiguous.data(), bytes, direction));
  return moved;
}

absl::StatusOr<Tensor> Tensor::To(DType dtype, const ExecutionContext& context) const {
  if (!defined()) return absl::FailedPreconditionError("To() on an undefined tensor");
  if (dtype == dtype_) return *this;
  const Device device = WithContext(device_, context);
  ASSIGN_OR_RETURN(Tensor out, Empty(dtype, shape_, device));
  if (wrapped_) {
    // A Python scalar converts on the host, with no kernel dispatch.
    VisitDType(dtype_, [&](auto from_tag) {
      using From = typename decltype(from_tag)::type;
      VisitDType(dtype, [&](auto to_tag) {
        using To = typename decltype(to_tag)::type;
        *out.data_as<To>() = Convert<To>(*data_as<From>());
      });
    });
    return out;
  }
  RETURN_IF_ERROR(is_contiguous()
                      ? CastElements(data(), dtype_, out.data(), dtype, numel(), device)
                      : CastStrided(data(), dtype_, shape_, strides_, out.data(), dtype, device));
  return out;
}

std::string Tensor::Describe() const {
  if (!defined()) return "undefined tensor";
  std::string text = absl::StrCat(Name(dtype_), "[", absl::StrJoin(shape_, ", "), "]");
  if (is_cuda()) absl::StrAppend(&text, " cuda:", device_.ordinal);
  if (wrapped_) absl::StrAppend(&text, " (Python ", scalar_.ToString(), ")");
  return text;
}

}  // namespace oneflow_promote
