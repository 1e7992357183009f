// Complex products of PyTorch's fused loops (complex_products.h).

#include "torch_extension/internal/complex_products.h"

#include <c10/util/complex.h>

#include <cmath>
#include <cstdint>
#include <cstring>

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

// Ranges are found only under PyTorch's AVX2 and AVX-512 capabilities,
// which need FMA: std::fma is then one instruction, not a libm call.
template <typename T>
#if defined(__x86_64__)
__attribute__((target("fma")))
#endif
void AddProducts(const OpCall& call, at::IntArrayRef shape, FusedProducts& products) {
  int64_t count = 0;
  for (const auto& [begin, end] : products.ranges) count += end - begin;
  const bool dense = 2 * count >= c10::multiply_integers(shape);
  const ComplexOperand<T> a(call.operands[0], shape, dense), b(call.operands[1], shape, dense);
  products.values = at::empty({count}, c10::CppTypeToScalarType<c10::complex<T>>::value);
  auto* out = products.values.data_ptr<c10::complex<T>>();
  for (const auto& [begin, end] : products.ranges) {
    for (int64_t i = begin; i < end; ++i) {
      const c10::complex<T> x = a.At(i), y = b.At(i);
      *out++ = {std::fma(x.real(), y.real(), -(x.imag() * y.imag())),
                std::fma(x.real(), y.imag(), x.imag() * y.real())};
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
  if (products.count() == 0) return;
  const int64_t size = products.values.element_size();
  const char* from = static_cast<const char*>(products.values.data_ptr());
  char* into = static_cast<char*>(result.data_ptr());
  for (const auto& [begin, end] : products.ranges) {
    std::memcpy(into + begin * size, from, (end - begin) * size);
    from += (end - begin) * size;
  }
}

}  // namespace oneflow_promote::torch_extension
