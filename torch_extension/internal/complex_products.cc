// Complex products of PyTorch's fused loops (complex_products.h).

#include "torch_extension/internal/complex_products.h"

#include <c10/util/complex.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

// AddOddQuotients rounds every product but one on its own; with FMA
// instructions GCC would fuse them (its -ffp-contract=fast default).
#if defined(__x86_64__) && defined(__FP_FAST_FMAF)
#error "complex_products.cc is compiled without FMA (-mfma, -march): see AddOddQuotients"
#endif

namespace oneflow_promote::torch_extension {
namespace {

// An operand's elements as c10::complex<T>, read in place through its
// strides, broadcast to the result's shape.
template <typename T>
class ComplexOperand {
 public:
  ComplexOperand(const Operand& operand, at::IntArrayRef shape) {
    // A Python number in its own type, so that an int converts to T once.
    const at::Tensor t = operand.tensor != nullptr
                             ? *operand.tensor
                             : at::scalar_tensor(operand.scalar, operand.scalar.type());
    values_ = t.resolve_conj()
                  .resolve_neg()
                  .to(c10::CppTypeToScalarType<c10::complex<T>>::value)
                  .expand(shape);
    data_ = values_.data_ptr<c10::complex<T>>();
    inner_stride_ = values_.dim() == 0 ? 0 : values_.stride(-1);
  }

  // The element at a row-major index of the result.
  const c10::complex<T>* At(int64_t index) const {
    int64_t offset = 0;
    for (int64_t d = values_.dim() - 1; d >= 0; --d) {
      offset += (index % values_.size(d)) * values_.stride(d);
      index /= values_.size(d);
    }
    return data_ + offset;
  }

  // The distance between neighbours along the last dimension.
  int64_t inner_stride() const { return inner_stride_; }

  // Whether the operand's elements are the result's, position for
  // position: reading one before writing it over is then safe.
  bool SamePlacesAs(const at::Tensor& result) const {
    return values_.data_ptr() == result.data_ptr() && values_.strides() == result.strides();
  }

  const at::Tensor& tensor() const { return values_; }

 private:
  at::Tensor values_;
  const c10::complex<T>* data_;
  int64_t inner_stride_ = 0;
};

// Whether the products can go straight into `result`: they are all of it,
// and no operand shares memory with it but at the same positions.
template <typename T>
bool WritesResult(const ComplexOperand<T>& a, const ComplexOperand<T>& b, int64_t count,
                  const at::Tensor& result) {
  if (!result.defined() || count != result.numel() || !result.is_contiguous() ||
      result.scalar_type() != c10::CppTypeToScalarType<c10::complex<T>>::value) {
    return false;
  }
  for (const ComplexOperand<T>* operand : {&a, &b}) {
    if (operand->tensor().is_alias_of(result) && !operand->SamePlacesAs(result)) return false;
  }
  return true;
}

// Writes f(a's element, b's element) at `out` for each element of `ranges`,
// in order. Along a row the operands advance by their last strides; each
// row starts from its index.
template <typename T, typename F>
[[gnu::always_inline]] inline void ForEachPair(const ComplexOperand<T>& a,
                                               const ComplexOperand<T>& b,
                                               const ElementRanges& ranges, at::IntArrayRef shape,
                                               c10::complex<T>* out, F f) {
  const int64_t row = shape.empty() ? 1 : shape.back();
  const int64_t a_step = a.inner_stride(), b_step = b.inner_stride();
  for (const auto& [begin, end] : ranges) {
    for (int64_t i = begin; i < end;) {
      const int64_t row_end = std::min(end, (i / row + 1) * row);
      const c10::complex<T>* x = a.At(i);
      const c10::complex<T>* y = b.At(i);
      for (; i < row_end; ++i, x += a_step, y += b_step) *out++ = f(*x, *y);
    }
  }
}

// Ranges are found only under PyTorch's AVX2 and AVX-512 capabilities,
// which need FMA: std::fma is then one instruction, not a libm call.
template <typename T>
#if defined(__x86_64__)
__attribute__((target("fma")))
#endif
void AddProducts(const OpCall& call, at::IntArrayRef shape, const at::Tensor& result,
                 FusedProducts& products) {
  int64_t count = 0;
  for (const auto& [begin, end] : products.ranges) count += end - begin;
  const ComplexOperand<T> a(call.operands[0], shape), b(call.operands[1], shape);
  products.in_result = WritesResult(a, b, count, result);
  products.values = products.in_result
                        ? result.view(-1)
                        : at::empty({count}, c10::CppTypeToScalarType<c10::complex<T>>::value);
  ForEachPair(a, b, products.ranges, shape, products.values.data_ptr<c10::complex<T>>(),
              [](const c10::complex<T>& x, const c10::complex<T>& y) -> c10::complex<T> {
                return {std::fma(x.real(), y.real(), -(x.imag() * y.imag())),
                        std::fma(x.real(), y.imag(), x.imag() * y.real())};
              });
}

// The quotients of TorchOddQuotientRanges as c10::complex<float>'s
// division computes them (Smith's) with only the denominator's multiply-add
// fused. Compiled without FMA, so that no other multiply-add is fused (the
// check above); the one std::fma is libm's, exact, for a few elements a
// call.
void AddOddQuotients(const OpCall& call, at::IntArrayRef shape, FusedProducts& quotients) {
  const ComplexOperand<float> a(call.operands[0], shape), b(call.operands[1], shape);
  int64_t count = 0;
  for (const auto& [begin, end] : quotients.ranges) count += end - begin;
  quotients.values = at::empty({count}, at::kComplexFloat);
  using C = c10::complex<float>;
  ForEachPair(a, b, quotients.ranges, shape, quotients.values.data_ptr<C>(),
              [](const C& x, const C& y) -> C {
                const float ar = x.real(), ai = x.imag(), br = y.real(), bi = y.imag();
                if (std::fabs(br) >= std::fabs(bi)) {
                  if (br == 0 && bi == 0) return {ar / std::fabs(br), ai / std::fabs(bi)};
                  const float rat = bi / br;
                  const float scl = 1.0f / std::fma(bi, rat, br);
                  return {(ar + ai * rat) * scl, (ai - ar * rat) * scl};
                }
                const float rat = br / bi;
                const float scl = 1.0f / std::fma(br, rat, bi);
                return {(ar * rat + ai) * scl, (ai * rat - ar) * scl};
              });
}

}  // namespace

FusedProducts TorchFusedProducts(const OpCall& call, const ops::OpDTypes& dtypes,
                                 const c10::Device& device, at::IntArrayRef shape,
                                 const at::Tensor& result) {
  FusedProducts products;
  const bool single = dtypes.compute == DType::kComplex64;
  if (device.is_cpu() && call.op == ops::Op::kDiv && single) {
    products.ranges = TorchOddQuotientRanges(call, shape);
    if (!products.ranges.empty()) AddOddQuotients(call, shape, products);
    return products;
  }
  if (!device.is_cpu() || call.op != ops::Op::kMul ||
      (!single && dtypes.compute != DType::kComplex128)) {
    return products;
  }
  products.ranges =
      TorchFusedProductRanges(call, shape, single ? at::kComplexFloat : at::kComplexDouble);
  if (products.ranges.empty()) return products;
  if (single) {
    AddProducts<float>(call, shape, result, products);
  } else {
    AddProducts<double>(call, shape, result, products);
  }
  return products;
}

void WriteProducts(const FusedProducts& products, const at::Tensor& result) {
  if (products.count() == 0 || products.in_result) return;
  const int64_t size = products.values.element_size();
  const char* from = static_cast<const char*>(products.values.data_ptr());
  char* into = static_cast<char*>(result.data_ptr());
  for (const auto& [begin, end] : products.ranges) {
    std::memcpy(into + begin * size, from, (end - begin) * size);
    from += (end - begin) * size;
  }
}

}  // namespace oneflow_promote::torch_extension
