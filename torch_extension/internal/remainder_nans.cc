// remainder's NaNs of PyTorch's vector loop (remainder_nans.h).

#include "torch_extension/internal/remainder_nans.h"

#include <c10/util/bit_cast.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "torch_extension/internal/vector_loops.h"

namespace oneflow_promote::torch_extension {
namespace {

// The next float toward zero of x >= 0 (0 stays 0).
template <typename W>
W TowardZero(W x) {
  using Bits = std::conditional_t<std::is_same_v<W, float>, uint32_t, uint64_t>;
  return x == 0 ? W(0) : c10::bit_cast<W>(static_cast<Bits>(c10::bit_cast<Bits>(x) - 1));
}

// Whether Sleef's vector fmod (the one PyTorch's AVX2 build links) gives NaN
// for fmod(a, b) where the exact answer is a number: its first quotient,
// |a| times 1 / |b| each taken one step toward zero, overflows (a divisor
// below the smallest normal scales both first). Where it gives NaN for
// other reasons (b zero, a infinite, NaN operands), so does fmod.
template <typename W>
bool QuotientOverflows(W a, W b) {
  constexpr bool kFloat = std::is_same_v<W, float>;
  constexpr W kSubnormalScale = kFloat ? W(1u << 25) : W(uint64_t{1} << 54);
  // Far from overflowing (and NaN): a product, not a division, per element.
  constexpr W kFar = kFloat ? W(0x1p120f) : W(0x1p1000);
  W numerator = std::abs(a);
  W denominator = std::abs(b);
  if (!(numerator >= denominator * kFar)) return false;
  if (denominator < std::numeric_limits<W>::min()) {
    numerator *= kSubnormalScale;
    denominator *= kSubnormalScale;
  }
  // A quotient in [1, 2) Sleef takes as 1, without multiplying.
  if (denominator + denominator > numerator && numerator >= denominator) return false;
  return std::isinf(TowardZero(numerator) * TowardZero(W(1) / denominator));
}

// An operand's values in `wide` as the kernel reads them: converted to the
// compute dtype first (a Python scalar as torch wraps it), then to `wide`
// exactly; one element, or every element of the result, row-major.
at::Tensor Values(const Operand& operand, at::ScalarType compute, at::ScalarType wide,
                  at::IntArrayRef shape) {
  at::Tensor t =
      operand.tensor != nullptr ? *operand.tensor : c10::scalar_to_tensor(operand.scalar);
  t = t.to(compute).to(wide);
  return t.numel() == 1 ? t.reshape({1}) : t.expand(shape).contiguous();
}

template <typename W>
std::vector<int64_t> Overflowing(const at::Tensor& a, const at::Tensor& b,
                                 const ElementRanges& ranges) {
  const W* x = a.const_data_ptr<W>();
  const W* y = b.const_data_ptr<W>();
  const int64_t step_x = a.numel() == 1 ? 0 : 1;
  const int64_t step_y = b.numel() == 1 ? 0 : 1;
  std::vector<int64_t> elements;
  for (const auto& [begin, end] : ranges) {
    for (int64_t i = begin; i < end; ++i) {
      if (QuotientOverflows(x[i * step_x], y[i * step_y])) elements.push_back(i);
    }
  }
  return elements;
}

}  // namespace

std::vector<int64_t> VectorLoopNaNs(const OpCall& call, const ops::OpDTypes& dtypes,
                                    const c10::Device& device, at::IntArrayRef shape) {
  if (call.op != ops::Op::kRemainder || !device.is_cpu()) return {};
  at::ScalarType compute;
  switch (dtypes.compute) {
    case DType::kFloat32:
      compute = at::kFloat;
      break;
    case DType::kFloat64:
      compute = at::kDouble;
      break;
    // PyTorch computes bfloat16 in float32; float16's quotients cannot
    // overflow float32.
    case DType::kBFloat16:
      compute = at::kBFloat16;
      break;
    default:
      return {};
  }
  const ElementRanges ranges = TorchVectorRanges(call, shape, compute);
  if (ranges.empty()) return {};
  const at::ScalarType wide = compute == at::kDouble ? at::kDouble : at::kFloat;
  const at::Tensor a = Values(call.operands[0], compute, wide, shape);
  const at::Tensor b = Values(call.operands[1], compute, wide, shape);
  return wide == at::kDouble ? Overflowing<double>(a, b, ranges) : Overflowing<float>(a, b, ranges);
}

void WriteNaNs(const std::vector<int64_t>& elements, const at::Tensor& result) {
  if (elements.empty()) return;
  AT_DISPATCH_FLOATING_TYPES_AND(at::kBFloat16, result.scalar_type(), "WriteNaNs", [&] {
    scalar_t* out = result.data_ptr<scalar_t>();
    for (const int64_t i : elements) out[i] = std::numeric_limits<scalar_t>::quiet_NaN();
  });
}

}  // namespace oneflow_promote::torch_extension
