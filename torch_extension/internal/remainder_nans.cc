// remainder's NaNs of PyTorch's vector loop (remainder_nans.h).

#include "torch_extension/internal/remainder_nans.h"

#include <c10/util/bit_cast.h>

#include <algorithm>
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

// Far from overflowing (and NaN) where |a| < |b| * kFar: a product, not a
// division, per element.
template <typename W>
constexpr W kFar = std::is_same_v<W, float> ? W(0x1p120f) : W(0x1p1000);

// Whether Sleef's vector fmod (the one PyTorch's AVX2 build links) gives NaN
// for fmod(a, b) where the exact answer is a number: its first quotient,
// |a| times 1 / |b| each taken one step toward zero, overflows (a divisor
// below the smallest normal scales both first). Where it gives NaN for
// other reasons (b zero, a infinite, NaN operands), so does fmod.
template <typename W>
bool QuotientOverflows(W a, W b) {
  constexpr bool kFloat = std::is_same_v<W, float>;
  constexpr W kSubnormalScale = kFloat ? W(1u << 25) : W(uint64_t{1} << 54);
  W numerator = std::abs(a);
  W denominator = std::abs(b);
  if (!(numerator >= denominator * kFar<W>)) return false;
  if (denominator < std::numeric_limits<W>::min()) {
    numerator *= kSubnormalScale;
    denominator *= kSubnormalScale;
  }
  // A quotient in [1, 2) Sleef takes as 1, without multiplying.
  if (denominator + denominator > numerator && numerator >= denominator) return false;
  return std::isinf(TowardZero(numerator) * TowardZero(W(1) / denominator));
}

// The elements AnyFar looks at together.
constexpr int64_t kBlock = 1024;

// Whether an element of the kBlock from `begin` passes QuotientOverflows'
// first test, in a loop without branches that vectorizes (a fixed count:
// at -O2 GCC vectorizes only loops that need no scalar remainder): most
// calls have none, and then no element is tested one by one
// (docs/tuning.md).
template <typename W, bool kRepeatX, bool kRepeatY, typename S>
bool AnyFar(const S* x, const S* y, int64_t begin) {
  const S* xs = kRepeatX ? x : x + begin;
  const S* ys = kRepeatY ? y : y + begin;
  int any = 0;  // an int: GCC vectorizes no reduction into a bool
  for (int64_t i = 0; i < kBlock; ++i) {
    any |= std::abs(W(xs[kRepeatX ? 0 : i])) >= std::abs(W(ys[kRepeatY ? 0 : i])) * kFar<W>;
  }
  return any != 0;
}

// Appends the elements of `ranges` whose quotient overflows; the operands
// are stored as S (bfloat16 for W float) and read as W, one element
// (kRepeat) or each element of the result.
template <typename W, bool kRepeatX, bool kRepeatY, typename S>
void AddOverflowing(const S* x, const S* y, const ElementRanges& ranges,
                    std::vector<int64_t>& elements) {
  for (const auto& [begin, end] : ranges) {
    for (int64_t start = begin; start < end; start += kBlock) {
      const int64_t stop = std::min(end, start + kBlock);
      if (stop - start == kBlock && !AnyFar<W, kRepeatX, kRepeatY>(x, y, start)) continue;
      for (int64_t i = start; i < stop; ++i) {
        if (QuotientOverflows(W(x[kRepeatX ? 0 : i]), W(y[kRepeatY ? 0 : i]))) {
          elements.push_back(i);
        }
      }
    }
  }
}

// An operand's values as the kernel reads them, in the compute dtype (a
// Python scalar as torch wraps it); one element, or every element of the
// result, row-major. An operand of that dtype and layout is read in place.
at::Tensor Values(const Operand& operand, at::ScalarType compute, at::IntArrayRef shape) {
  at::Tensor t =
      operand.tensor != nullptr ? *operand.tensor : c10::scalar_to_tensor(operand.scalar);
  t = t.to(compute);
  return t.numel() == 1 ? t.reshape({1}) : t.expand(shape).contiguous();
}

// The overflowing elements of a and b (Values), stored as S, read as W.
template <typename W, typename S>
std::vector<int64_t> Overflowing(const at::Tensor& a, const at::Tensor& b,
                                 const ElementRanges& ranges) {
  const S* x = a.const_data_ptr<S>();
  const S* y = b.const_data_ptr<S>();
  const bool repeat_x = a.numel() == 1, repeat_y = b.numel() == 1;
  std::vector<int64_t> elements;
  if (repeat_x && repeat_y) {
    AddOverflowing<W, true, true>(x, y, ranges, elements);
  } else if (repeat_x) {
    AddOverflowing<W, true, false>(x, y, ranges, elements);
  } else if (repeat_y) {
    AddOverflowing<W, false, true>(x, y, ranges, elements);
  } else {
    AddOverflowing<W, false, false>(x, y, ranges, elements);
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
  const at::Tensor a = Values(call.operands[0], compute, shape);
  const at::Tensor b = Values(call.operands[1], compute, shape);
  switch (compute) {
    case at::kDouble:
      return Overflowing<double, double>(a, b, ranges);
    case at::kBFloat16:
      return Overflowing<float, c10::BFloat16>(a, b, ranges);
    default:
      return Overflowing<float, float>(a, b, ranges);
  }
}

void WriteNaNs(const std::vector<int64_t>& elements, const at::Tensor& result) {
  if (elements.empty()) return;
  AT_DISPATCH_FLOATING_TYPES_AND(at::kBFloat16, result.scalar_type(), "WriteNaNs", [&] {
    scalar_t* out = result.data_ptr<scalar_t>();
    for (const int64_t i : elements) out[i] = std::numeric_limits<scalar_t>::quiet_NaN();
  });
}

}  // namespace oneflow_promote::torch_extension
