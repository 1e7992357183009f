// Complex products of PyTorch's fused loops (complex_products.h).

#include "torch_extension/internal/complex_products.h"

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace oneflow_promote::torch_extension {
namespace {

// An operand's elements as c10::complex<T>, read at a result's row-major
// index: broadcast in place, or copied out whole where most elements are
// read (`dense`).
template <typename T>
class ComplexOperand {
 public:
  ComplexOperand(const Operand& operand, at::IntArrayRef shape, bool dense) {
    // A Python number in its own type, so that an int converts to T once.
    const at::Tensor t = operand.tensor != nullptr
                             ? *operand.tensor
                             : at::scalar_tensor(operand.scalar, operand.scalar.type());
    values_ = t.resolve_conj()
                  .resolve_neg()
                  .to(c10::CppTypeToScalarType<c10::complex<T>>::value)
                  .expand(shape);
    if (dense) values_ = values_.contiguous();
    contiguous_ = values_.is_contiguous();
    data_ = values_.data_ptr<c10::complex<T>>();
  }

  c10::complex<T> At(int64_t index) const {
    if (contiguous_) return data_[index];
    int64_t offset = 0;
    for (int64_t d = values_.dim() - 1; d >= 0; --d) {
      offset += (index % values_.size(d)) * values_.stride(d);
      index /= values_.size(d);
    }
    return data_[offset];
  }

 private:
  at::Tensor values_;
  bool contiguous_ = false;
  const c10::complex<T>* data_;
};

template <typename T>
void AddProducts(const OpCall& call, at::IntArrayRef shape, FusedProducts& products) {
  int64_t count = 0;
  for (const auto& [begin, end] : products.ranges) count += end - begin;
  const bool dense = 2 * count >= c10::multiply_integers(shape);
  products.values.reserve(count);
  const ComplexOperand<T> a(call.operands[0], shape, dense), b(call.operands[1], shape, dense);
  for (const auto& [begin, end] : products.ranges) {
    for (int64_t i = begin; i < end; ++i) {
      const c10::complex<T> x = a.At(i), y = b.At(i);
      products.values.emplace_back(std::fma(x.real(), y.real(), -(x.imag() * y.imag())),
                                   std::fma(x.real(), y.imag(), x.imag() * y.real()));
    }
  }
}

}  // namespace

FusedProducts TorchFusedProducts(const OpCall& call, const ops::OpDTypes& dtypes,
                                 const c10::Device& device, at::IntArrayRef shape) {
  FusedProducts products;
  const bool single = dtypes.compute == DType::kComplex64;
  if (!device.is_cpu() || call.op != ops::Op::kMul ||
      (!single && dtypes.compute != DType::kComplex128)) {
    return products;
  }
  products.ranges =
      TorchFusedProductRanges(call, shape, single ? at::kComplexFloat : at::kComplexDouble);
  if (products.ranges.empty()) return products;
  if (single) {
    AddProducts<float>(call, shape, products);
  } else {
    AddProducts<double>(call, shape, products);
  }
  return products;
}

void WriteProducts(const FusedProducts& products, const at::Tensor& result) {
  if (products.ranges.empty()) return;
  const auto write = [&](auto* data) {
    using T = std::remove_pointer_t<decltype(data)>;
    size_t next = 0;
    for (const auto& [begin, end] : products.ranges) {
      for (int64_t i = begin; i < end; ++i) data[i] = static_cast<T>(products.values[next++]);
    }
  };
  if (result.scalar_type() == at::kComplexFloat) {
    write(result.data_ptr<c10::complex<float>>());
  } else {
    write(result.data_ptr<c10::complex<double>>());
  }
}

}  // namespace oneflow_promote::torch_extension
