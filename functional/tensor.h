// Tensor: the library's own reference tensor, for users who bring no
// framework. A dtype, a shape, element strides and an offset into a shared
// host buffer; 0-d tensors; and "wrapped numbers", the 0-d tensors PyTorch
// makes from Python scalars, which remember the Python value so that the
// promotion rules see a scalar, not a tensor.
//
//   absl::StatusOr<Tensor> x = Tensor::FromValues<int8_t>({1, 2, 3}, {3});
//   Tensor half = Tensor::WrappedNumber(Operand::PyFloat(0.5));
//
// Copies share the buffer (like at::Tensor); Clone() copies the elements.

#ifndef ONEFLOW_PROMOTE_FUNCTIONAL_TENSOR_H_
#define ONEFLOW_PROMOTE_FUNCTIONAL_TENSOR_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "kernels/cast.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/ops/tensor_traits.h"
#include "oneflow_promote/promotion/result_type.h"

namespace oneflow_promote {

// Sizes and strides up to rank 6 live inside the tensor; higher ranks use
// the heap.
using TensorDims = absl::InlinedVector<int64_t, 6>;

class Tensor {
 public:
  // An undefined tensor (defined() is false).
  Tensor() = default;

  // A contiguous tensor of `shape` whose elements are uninitialized, in host
  // memory or on a CUDA device. Errors for an invalid dtype, a negative
  // extent, a size that overflows, or an unavailable device.
  [[nodiscard]] static absl::StatusOr<Tensor> Empty(DType dtype, absl::Span<const int64_t> shape,
                                                    Device device = Device::Cpu());
  // Like Empty, with every byte zero (0, false, +0.0).
  [[nodiscard]] static absl::StatusOr<Tensor> Zeros(DType dtype, absl::Span<const int64_t> shape);
  // A contiguous tensor holding `values` (row-major); their count must be
  // the shape's element count. T is a storage type (int8_t, float, Float16,
  // Complex<double>, ...).
  template <typename T>
  [[nodiscard]] static absl::StatusOr<Tensor> FromValues(absl::Span<const T> values,
                                                         absl::Span<const int64_t> shape);
  // A contiguous tensor over memory the caller owns and keeps alive for as
  // long as the tensor or any copy of it is used (host memory, or memory
  // on the CUDA device `device`). Errors for an invalid dtype or shape, a
  // null `data`, or `data` not aligned to the dtype's element type.
  [[nodiscard]] static absl::StatusOr<Tensor> View(void* data, DType dtype,
                                                   absl::Span<const int64_t> shape,
                                                   Device device = Device::Cpu());
  // A 0-d tensor made from a Python scalar, as PyTorch wraps one: its dtype
  // is the Python type's (bool, int64, float64, complex128; ints beyond
  // int64 wrap), and AsOperand() gives back the scalar.
  [[nodiscard]] static Tensor WrappedNumber(const Operand& scalar);

  [[nodiscard]] bool defined() const { return buffer_ != nullptr; }
  [[nodiscard]] DType dtype() const { return dtype_; }
  [[nodiscard]] int64_t ndim() const { return static_cast<int64_t>(shape_.size()); }
  [[nodiscard]] absl::Span<const int64_t> shape() const { return shape_; }
  // Element strides (not bytes); 0 repeats an element along a dimension.
  [[nodiscard]] absl::Span<const int64_t> strides() const { return strides_; }
  [[nodiscard]] int64_t numel() const;
  // Row-major with no gaps (any tensor of at most one element is).
  [[nodiscard]] bool is_contiguous() const;
  [[nodiscard]] bool is_wrapped_number() const { return wrapped_; }
  // Where the elements live (kind and ordinal; stream and threads unused:
  // an ExecutionContext gives them per call).
  [[nodiscard]] const Device& device() const { return device_; }
  [[nodiscard]] bool is_cuda() const { return device_.kind == Device::Kind::kCuda; }

  // How the promotion rules see this tensor: Operand::Tensor(dtype, ndim),
  // or the Python scalar of a wrapped number.
  [[nodiscard]] Operand AsOperand() const {
    return wrapped_ ? scalar_ : Operand::Tensor(dtype_, ndim());
  }

  // The first element's address.
  [[nodiscard]] void* data() const { return buffer_.get() + offset_bytes_; }
  template <typename T>
  [[nodiscard]] T* data_as() const {
    return static_cast<T*>(data());
  }

  // A view of the same buffer with another shape, strides and element
  // offset (no copy); errors when it would reach outside the buffer.
  [[nodiscard]] absl::StatusOr<Tensor> AsStrided(absl::Span<const int64_t> shape,
                                                 absl::Span<const int64_t> strides,
                                                 int64_t offset_elements) const;
  // A view with dimensions `a` and `b` swapped (non-contiguous in general).
  [[nodiscard]] absl::StatusOr<Tensor> Transpose(int64_t a, int64_t b) const;

  // The elements in a new contiguous buffer; the copy is not a wrapped number.
  [[nodiscard]] absl::StatusOr<Tensor> Clone(const ExecutionContext& context = {}) const;
  // A new contiguous tensor of `dtype` with the elements converted (the
  // library's cast kernels; a wrapped number converts on the host, with no
  // kernel dispatch, into a plain 0-d tensor). The same dtype returns this
  // tensor, sharing storage.
  [[nodiscard]] absl::StatusOr<Tensor> To(DType dtype, const ExecutionContext& context = {}) const;

  // The elements copied to `device` (a contiguous tensor; the same device
  // returns a contiguous copy as well).
  [[nodiscard]] absl::StatusOr<Tensor> ToDevice(Device device) const;

  // "int8[2, 3]", "float32[] cuda:0", "float64[] (Python 2.5)".
  [[nodiscard]] std::string Describe() const;

 private:
  static absl::StatusOr<Tensor> Allocate(DType dtype, absl::Span<const int64_t> shape, bool zero,
                                         Device device = Device::Cpu());
  // The contiguous layout of `count` elements on `device` (stream left
  // unset), with no buffer yet.
  static Tensor Unbacked(DType dtype, absl::Span<const int64_t> shape, int64_t count,
                         const Device& device);

  std::shared_ptr<std::byte[]> buffer_;
  int64_t buffer_bytes_ = 0;
  int64_t offset_bytes_ = 0;
  DType dtype_ = DType::kFloat32;
  Device device_ = Device::Cpu();
  TensorDims shape_;
  TensorDims strides_;
  bool wrapped_ = false;
  Operand scalar_ = Operand::PyBool(false);
};

// TensorProcessor<Tensor>: the library's own Tensor.
template <>
struct ops::TensorTraits<Tensor> {
  static DType DTypeOf(const Tensor& t) { return t.dtype(); }
  static int64_t NDim(const Tensor& t) { return t.ndim(); }
  static bool IsWrappedNumber(const Tensor& t) { return t.is_wrapped_number(); }
  static Operand ScalarOf(const Tensor& t) { return t.AsOperand(); }
  static absl::StatusOr<Tensor> Cast(const Tensor& t, DType dtype,
                                     const ExecutionContext& context) {
    return t.To(dtype, context);
  }
};

template <typename T>
absl::StatusOr<Tensor> Tensor::FromValues(absl::Span<const T> values,
                                          absl::Span<const int64_t> shape) {
  absl::StatusOr<Tensor> tensor = Empty(DTypeOf<T>::value, shape);
  if (!tensor.ok()) return tensor;
  if (static_cast<int64_t>(values.size()) != tensor->numel()) {
    return absl::InvalidArgumentError("Tensor::FromValues: " + std::to_string(values.size()) +
                                      " values for " + tensor->Describe() + ", which has " +
                                      std::to_string(tensor->numel()) + " elements");
  }
  T* out = tensor->template data_as<T>();
  for (size_t i = 0; i < values.size(); ++i) out[i] = values[i];
  return tensor;
}

}  // namespace oneflow_promote

#endif  // ONEFLOW_PROMOTE_FUNCTIONAL_TENSOR_H_
