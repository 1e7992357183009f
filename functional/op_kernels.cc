// The functional frontend's CPU kernels: element functions in a "math" type
// (float for the 16-bit floats, std::complex for complex), block loops over
// them, and one engine that walks broadcast operands and, for mixed-dtype
// inputs, converts them block by block with the cast kernels.

#include "functional/op_kernels.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "kernels/cast.h"
#include "kernels/cpu_cast.h"
#include "kernels/cuda_cast.h"
#include "kernels/cuda_status.h"
#include "kernels/parallel_for.h"
#include "oneflow_promote/convert.h"
#if ONEFLOW_PROMOTE_HAVE_CUDA
#include "functional/internal/cuda_ops.h"
#endif
#include "functional/internal/narrow_float_groups.h"
#include "functional/internal/op_blocks.h"
#include "functional/internal/op_math.h"
#include "oneflow_promote/status_macros.h"

namespace oneflow_promote::functional_internal {
namespace {
std::atomic<bool> baseline_forced{false};
}  // namespace

bool BaselineBlocksForced() { return baseline_forced.load(std::memory_order_relaxed); }
void ForceBaselineBlocks(bool force) { baseline_forced.store(force, std::memory_order_relaxed); }

}  // namespace oneflow_promote::functional_internal

namespace oneflow_promote::op_kernels {
namespace {

using ops::Op;
using namespace functional_internal;  // NOLINT: the element functions

// A block kernel: n elements, each input either advancing (broadcast[i]
// false) or repeating its first element.
using BlockFn = void (*)(const void* const* inputs, const bool* broadcast, void* out, int64_t n,
                         bool& zero_division);

template <typename F>
[[gnu::always_inline]] inline void LoopTwo(bool broadcast_a, bool broadcast_b, int64_t n, F&& f) {
  // Separate loops for each broadcast pattern, so each one vectorizes.
  if (!broadcast_a && !broadcast_b) {
    for (int64_t i = 0; i < n; ++i) f(i, i, i);
  } else if (broadcast_a && !broadcast_b) {
    for (int64_t i = 0; i < n; ++i) f(i, 0, i);
  } else if (!broadcast_a) {
    for (int64_t i = 0; i < n; ++i) f(i, i, 0);
  } else {
    for (int64_t i = 0; i < n; ++i) f(i, 0, 0);
  }
}

template <ops::Op kOp, typename T, bool kScalarDivisor = false>
[[gnu::always_inline]] inline void BinaryBlockBody(const void* const* inputs, const bool* broadcast,
                                                   void* out, int64_t n, bool& zero_division) {
  using M = typename Math<T>::type;
  using R = decltype(Binary<kOp, T, kScalarDivisor>(M(), M(), zero_division));
  using S = ResultStorage<T, R>;
  const T* a = static_cast<const T*>(inputs[0]);
  S* o = static_cast<S*>(out);
  bool zero = false;
  if constexpr (kScalarDivisor) {
    // The one element, already in the math type (ScalarInputDType).
    const M b = *static_cast<const M*>(inputs[1]);
    for (int64_t i = 0; i < n; ++i) {
      o[i] = StoreAs<S>(Binary<kOp, T, true>(Math<T>::Load(a[broadcast[0] ? 0 : i]), b, zero));
    }
  } else {
    const T* b = static_cast<const T*>(inputs[1]);
    LoopTwo(
        broadcast[0], broadcast[1],
        n, [&](int64_t i, int64_t ia, int64_t ib) __attribute__((always_inline)) {
          o[i] = StoreAs<S>(Binary<kOp, T>(Math<T>::Load(a[ia]), Math<T>::Load(b[ib]), zero));
        });
  }
  if (zero) zero_division = true;
}

// A block body (always inlined) as a block kernel of the baseline ISA.
template <BlockFn kBody>
void BaselineBlock(const void* const* inputs, const bool* broadcast, void* out, int64_t n,
                   bool& zero_division) {
  kBody(inputs, broadcast, out, n, zero_division);
}

#if defined(__x86_64__)
// The same body compiled for AVX2 (no FMA: the results are the baseline's
// bit for bit).
template <BlockFn kBody>
__attribute__((target("avx2"))) void Avx2Block(const void* const* inputs, const bool* broadcast,
                                               void* out, int64_t n, bool& zero_division) {
  kBody(inputs, broadcast, out, n, zero_division);
}

bool UseAvx2Blocks() {
  static const bool avx2 = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return avx2 && !functional_internal::BaselineBlocksForced();
}
#endif

// remainder and floor division of floats and doubles (the narrow floats'
// in float, their rounding steps by RoundTo): r[i] = Binary of x's and y's
// i-th elements (or first, where one repeats) for i < m, on Fmod's branch-free
// path (FmodDivisionInRange), a loop that vectorizes, then by Binary for
// the few elements off it (quotients too large for it, zero or non-finite
// divisors, NaN). x and y are read after r is written: they must not
// overlap it.
template <ops::Op kOp, typename T, bool kScalarDivisor, typename M>
[[gnu::always_inline]] inline void FmodDivisionLoop(const M* x, bool repeat_x, const M* y,
                                                    bool repeat_y, int64_t m, M* r,
                                                    bool& zero_division) {
  int off_path = 0;  // an int: GCC 12 vectorizes no reduction into a bool
  LoopTwo(
      repeat_x, repeat_y, m, [&](int64_t i, int64_t ix, int64_t iy) __attribute__((always_inline)) {
        bool exact;
        r[i] = FmodDivisionInRange<kOp, T, kScalarDivisor>(x[ix], y[iy], exact);
        off_path |= !exact;
      });
  for (int64_t i = 0; off_path != 0 && i < m; ++i) {
    const M xi = x[repeat_x ? 0 : i], yi = y[repeat_y ? 0 : i];
    bool exact;
    FmodInRange(xi, yi, exact);
    if (!exact) r[i] = Binary<kOp, T, kScalarDivisor>(xi, yi, zero_division);
  }
}

// Whether FmodDivisionLoop computes op of T.
template <ops::Op kOp, typename T>
constexpr bool kFmodDivisionLoops = IsFmodDivision(kOp) &&
                                    (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                                     kIsNarrowFloat<T>);

// FmodDivisionLoop over float32 and float64 inputs, a chunk at a time into
// the stack (out= may be an input).
template <ops::Op kOp, typename T, bool kScalarDivisor = false>
[[gnu::always_inline]] inline void FmodDivisionBody(const void* const* inputs,
                                                    const bool* broadcast, void* out, int64_t n,
                                                    bool& zero_division) {
  constexpr int64_t kChunk = 64;
  const T* a = static_cast<const T*>(inputs[0]);
  const T* b = static_cast<const T*>(inputs[1]);
  const bool repeat_b = kScalarDivisor || broadcast[1];
  T* o = static_cast<T*>(out);
  for (int64_t begin = 0; begin < n; begin += kChunk) {
    const int64_t m = std::min(kChunk, n - begin);
    T answers[kChunk];
    FmodDivisionLoop<kOp, T, kScalarDivisor>(broadcast[0] ? a : a + begin, broadcast[0],
                                             repeat_b ? b : b + begin, repeat_b, m, answers,
                                             zero_division);
    std::memcpy(o + begin, answers, m * sizeof(T));
  }
}

// A body's block kernel: with kAvx2, its AVX2 copy where the CPU has AVX2
// (the bodies whose loops vectorize: over bool, integers, float32 and
// float64, and the narrow floats' float32 loops).
template <BlockFn kBody, bool kAvx2>
BlockFn BestBlock() {
#if defined(__x86_64__)
  if constexpr (kAvx2) {
    if (UseAvx2Blocks()) return &Avx2Block<kBody>;
  }
#endif
  return &BaselineBlock<kBody>;
}

// The narrow floats (float16, bfloat16, float8): Math<T> converts one
// element a call. These blocks widen a chunk of each input to float32 and
// narrow the results back with the cast kernels (the same conversions,
// vectorized), and compute the same element function in between.
constexpr int64_t kNarrowChunk = 256;

cast_internal::ContiguousCastFn CpuCastKernel(DType from, DType to) {
  return cast_internal::BestCpuCastKernels().contiguous[Index(from)][Index(to)];
}

// Widens chunks of two narrow-float inputs into `a` and `b` (float32,
// kNarrowChunk each) and calls compute(start, len) on each. A single input
// (single_a, single_b) is the element in its chunk's first place for good,
// which the caller puts there.
template <typename T, typename Compute>
[[gnu::always_inline]] inline void ForEachWidenedChunk(const T* a_in, const T* b_in, bool single_a,
                                                       bool single_b, int64_t n, float* a, float* b,
                                                       Compute&& compute) {
  const cast_internal::ContiguousCastFn widen = CpuCastKernel(DTypeOf<T>::value, DType::kFloat32);
  for (int64_t start = 0; start < n; start += kNarrowChunk) {
    const int64_t len = std::min(kNarrowChunk, n - start);
    if (!single_a) widen(a_in + start, a, 0, len);
    if (!single_b) widen(b_in + start, b, 0, len);
    compute(start, len);
  }
}

template <ops::Op kOp, typename T, bool kScalarDivisor = false>
[[gnu::always_inline]] inline void NarrowFloatBinaryBody(const void* const* inputs,
                                                         const bool* broadcast, void* out,
                                                         int64_t n, bool& zero_division) {
  using R = decltype(Binary<kOp, T, kScalarDivisor>(float(), float(), zero_division));
  using S = ResultStorage<T, R>;
  const cast_internal::ContiguousCastFn narrow = CpuCastKernel(DType::kFloat32, DTypeOf<T>::value);
  const T* a_in = static_cast<const T*>(inputs[0]);
  const T* b_in = static_cast<const T*>(inputs[1]);
  const bool single_b = kScalarDivisor || broadcast[1];
  alignas(64) float a[kNarrowChunk], b[kNarrowChunk];
  alignas(64) float r[kNarrowChunk];
  if (broadcast[0]) a[0] = Math<T>::Load(a_in[0]);
  if constexpr (kScalarDivisor) {
    b[0] = *static_cast<const float*>(inputs[1]);  // already float (ScalarInputDType)
  } else if (broadcast[1]) {
    b[0] = Math<T>::Load(b_in[0]);
  }
  bool zero = false;
  // Inlined, so that the loops are compiled for the block's ISA.
  const auto compute = [&](int64_t start, int64_t len) __attribute__((always_inline)) {
    S* o = static_cast<S*>(out) + start;
    if constexpr (kFmodDivisionLoops<kOp, T>) {
      FmodDivisionLoop<kOp, T, kScalarDivisor>(a, broadcast[0], b, single_b, len, r, zero);
    } else {
      LoopTwo(
          broadcast[0], single_b,
          len, [&](int64_t i, int64_t ia, int64_t ib) __attribute__((always_inline)) {
            const R value = Binary<kOp, T, kScalarDivisor>(a[ia], b[ib], zero);
            if constexpr (std::is_same_v<S, T>) {
              r[i] = value;
            } else {
              o[i] = value;
            }
          });
    }
    if constexpr (std::is_same_v<S, T>) narrow(r, o, 0, len);
  };
  ForEachWidenedChunk(a_in, b_in, broadcast[0], single_b, n, a, b, compute);
  if (zero) zero_division = true;
}

#if defined(__x86_64__)
// The narrow floats' group blocks
// (functional/internal/narrow_float_groups.h), compiled with F16C.
template <BlockFn kBody>
__attribute__((target("avx2,f16c"))) void F16cBlock(const void* const* inputs,
                                                    const bool* broadcast, void* out, int64_t n,
                                                    bool& zero_division) {
  kBody(inputs, broadcast, out, n, zero_division);
}

bool UseF16cBlocks() {
  static const bool f16c = [] {
    unsigned eax, ebx, ecx, edx;  // F16C: cpuid leaf 1, ecx bit 29
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_F16C) != 0;
  }();
  return f16c && UseAvx2Blocks();
}
#endif

// add with alpha: inputs[2] is alpha, one element of T (PyTorch's CPU
// kernel takes alpha in the compute dtype).
template <typename T>
[[gnu::always_inline]] inline void ScaledAddBody(const void* const* inputs, const bool* broadcast,
                                                 void* out, int64_t n, bool&) {
  using M = typename Math<T>::type;
  using S = ResultStorage<T, M>;
  const T* a = static_cast<const T*>(inputs[0]);
  const T* b = static_cast<const T*>(inputs[1]);
  const M alpha = Math<T>::Load(*static_cast<const T*>(inputs[2]));
  S* o = static_cast<S*>(out);
  LoopTwo(broadcast[0], broadcast[1], n, [&](int64_t i, int64_t ia, int64_t ib) {
    o[i] = StoreAs<S>(ScaledAdd(Math<T>::Load(a[ia]), Math<T>::Load(b[ib]), alpha));
  });
}

// The same for the narrow floats, in chunks widened and narrowed by the
// cast kernels (as NarrowFloatBinaryBody).
template <typename T>
[[gnu::always_inline]] inline void NarrowFloatScaledAddBody(const void* const* inputs,
                                                            const bool* broadcast, void* out,
                                                            int64_t n, bool&) {
  const cast_internal::ContiguousCastFn narrow = CpuCastKernel(DType::kFloat32, DTypeOf<T>::value);
  const T* a_in = static_cast<const T*>(inputs[0]);
  const T* b_in = static_cast<const T*>(inputs[1]);
  const float alpha = Math<T>::Load(*static_cast<const T*>(inputs[2]));
  alignas(64) float a[kNarrowChunk], b[kNarrowChunk];
  alignas(64) float r[kNarrowChunk];
  if (broadcast[0]) a[0] = Math<T>::Load(a_in[0]);
  if (broadcast[1]) b[0] = Math<T>::Load(b_in[0]);
  T* o = static_cast<T*>(out);
  ForEachWidenedChunk(
      a_in, b_in, broadcast[0], broadcast[1], n, a, b, [&](int64_t start, int64_t len) {
        LoopTwo(broadcast[0], broadcast[1], len,
                [&](int64_t i, int64_t ia, int64_t ib) { r[i] = ScaledAdd(a[ia], b[ib], alpha); });
        narrow(r, o + start, 0, len);
      });
}

#if defined(__x86_64__)
// With the FMA instructions, std::fma is one instruction rather than a call.
template <BlockFn kBody>
__attribute__((target("avx2,fma"))) void FmaBlock(const void* const* inputs, const bool* broadcast,
                                                  void* out, int64_t n, bool& zero_division) {
  kBody(inputs, broadcast, out, n, zero_division);
}

bool UseFmaBlocks() {
  static const bool fma = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0 && __builtin_cpu_supports("fma") != 0;
  }();
  return fma && !functional_internal::BaselineBlocksForced();
}
#endif

// A body's block kernel: its FMA build where the CPU has FMA.
template <BlockFn kBody>
BlockFn FmaOrBaselineBlock() {
#if defined(__x86_64__)
  if (UseFmaBlocks()) return &FmaBlock<kBody>;
#endif
  return &BaselineBlock<kBody>;
}

// add with alpha's block: the floats' with FMA, the narrow floats' in
// widened chunks but where tests force the baseline.
template <typename T>
BlockFn ScaledAddBlockFor() {
  if constexpr (!std::is_floating_point_v<typename Math<T>::type>) {
    return &BaselineBlock<&ScaledAddBody<T>>;
  } else {
    if constexpr (kIsNarrowFloat<T>) {
      if (!BaselineBlocksForced()) return FmaOrBaselineBlock<&NarrowFloatScaledAddBody<T>>();
    }
    return FmaOrBaselineBlock<&ScaledAddBody<T>>();
  }
}

template <ops::Op kOp, typename T>
void UnaryBlock(const void* const* inputs, const bool* broadcast, void* out, int64_t n, bool&) {
  using M = typename Math<T>::type;
  using R = decltype(Unary<kOp, M>(M()));
  using S = ResultStorage<T, R>;
  const T* a = static_cast<const T*>(inputs[0]);
  S* o = static_cast<S*>(out);
  const int64_t step = broadcast[0] ? 0 : 1;
  for (int64_t i = 0; i < n; ++i) o[i] = StoreAs<S>(Unary<kOp, M>(Math<T>::Load(a[i * step])));
}

template <typename T>
void WhereBlock(const void* const* inputs, const bool* broadcast, void* out, int64_t n, bool&) {
  const bool* c = static_cast<const bool*>(inputs[0]);
  const T* a = static_cast<const T*>(inputs[1]);
  const T* b = static_cast<const T*>(inputs[2]);
  T* o = static_cast<T*>(out);
  const int64_t sc = broadcast[0] ? 0 : 1, sa = broadcast[1] ? 0 : 1, sb = broadcast[2] ? 0 : 1;
  for (int64_t i = 0; i < n; ++i) o[i] = c[i * sc] ? a[i * sa] : b[i * sb];
}

// A binary op's block. The narrow floats convert with the cast kernels
// but where tests force the baseline, which keeps Math<T>'s element path.
template <ops::Op kOp, typename T, bool kScalarDivisor = false>
BlockFn BinaryBlockFor() {
  if constexpr (kIsNarrowFloat<T>) {
    if (!BaselineBlocksForced()) {
#if defined(__x86_64__)
      if constexpr ((std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>)&&GroupsPay(kOp)) {
        if (UseF16cBlocks()) return &F16cBlock<&NarrowFloatGroupBody<kOp, T, kScalarDivisor>>;
      }
#endif
      return BestBlock<&NarrowFloatBinaryBody<kOp, T, kScalarDivisor>, true>();
    }
  }
  if constexpr (kFmodDivisionLoops<kOp, T> && !kIsNarrowFloat<T>) {
    if (!BaselineBlocksForced())
      return BestBlock<&FmodDivisionBody<kOp, T, kScalarDivisor>, true>();
  }
  return BestBlock<&BinaryBlockBody<kOp, T, kScalarDivisor>, std::is_arithmetic_v<T>>();
}

// scalar_divisor: the op's second input is one element, passed in the math
// type where kTakesScalarInFloat. scaled: add's third input is alpha.
template <ops::Op kOp>
BlockFn BlockFor(DType compute, bool scalar_divisor, bool scaled) {
  return VisitDType(compute, [scalar_divisor, scaled](auto tag) -> BlockFn {
    using T = typename decltype(tag)::type;
    if constexpr (!HasKernel<kOp, T>()) {
      return nullptr;
    } else if constexpr (kOp == ops::Op::kAdd) {
      return scaled ? ScaledAddBlockFor<T>() : BinaryBlockFor<kOp, T>();
    } else if constexpr (kTakesScalarInFloat<kOp, T>) {
      return scalar_divisor ? BinaryBlockFor<kOp, T, true>() : BinaryBlockFor<kOp, T>();
    } else if constexpr (kOp == ops::Op::kWhere) {
      return &WhereBlock<T>;
    } else if constexpr (ops::IsUnaryElementwise(kOp)) {
      return &UnaryBlock<kOp, T>;
    } else {
      return BinaryBlockFor<kOp, T>();
    }
  });
}

BlockFn SelectBlock(ops::Op op, DType compute, bool scalar_divisor, bool scaled) {
  switch (op) {
#define ONEFLOW_PROMOTE_OP_BLOCK(name, spec) \
  case ops::Op::k##name:                     \
    return BlockFor<ops::Op::k##name>(compute, scalar_divisor, scaled);
    ONEFLOW_PROMOTE_FOR_EACH_KERNEL_OP(ONEFLOW_PROMOTE_OP_BLOCK)
#undef ONEFLOW_PROMOTE_OP_BLOCK
    default:  // the ops with a dtype rule only
      break;
  }
  return nullptr;
}

// Elements per block: a block of the widest dtype (16 bytes) per input stays
// in L1 alongside the output.
constexpr int64_t kBlock = 1024;
constexpr int64_t kParallelGrain = int64_t{1} << 15;
constexpr int kMaxInputs = 3;

// Right-aligned contiguous strides of `shape` inside `out_shape`, 0 where
// the input repeats (missing or size-1 dimensions).
TensorDims BroadcastStrides(absl::Span<const int64_t> shape, absl::Span<const int64_t> out_shape) {
  TensorDims strides(out_shape.size(), 0);
  int64_t stride = 1;
  for (size_t k = 0; k < shape.size(); ++k) {
    const size_t in_dim = shape.size() - 1 - k;
    const size_t out_dim = out_shape.size() - 1 - k;
    strides[out_dim] = shape[in_dim] == 1 ? 0 : stride;
    stride *= shape[in_dim];
  }
  return strides;
}

// Copies `bytes` bytes of a block computed in L1 to `dst` with
// non-temporal stores where dst is 16-byte aligned (ordinary ones for the
// ends): an output too large to stay in cache then skips the read of each
// of its lines that an ordinary store makes first. The caller fences.
void StreamOut(const unsigned char* staged, char* dst, int64_t bytes) {
#if defined(__SSE2__)
  const int64_t misalignment = static_cast<int64_t>(reinterpret_cast<uintptr_t>(dst) % 16);
  const int64_t head = std::min(bytes, misalignment == 0 ? int64_t{0} : 16 - misalignment);
  std::memcpy(dst, staged, head);
  int64_t at = head;
  for (; at + 16 <= bytes; at += 16) {
    __m128i v;
    std::memcpy(&v, staged + at, 16);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + at), v);
  }
  std::memcpy(dst + at, staged + at, bytes - at);
#else
  std::memcpy(dst, staged, bytes);
#endif
}

// Streaming stores are weakly ordered: fence them before the caller
// signals that the output is written.
void FenceStreamedStores() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

}  // namespace

namespace {

// add with a third input: alpha, one element (self + alpha * other).
bool IsScaledAdd(ops::Op op, absl::Span<const Tensor> inputs) {
  return op == ops::Op::kAdd && inputs.size() == 3;
}

absl::Status CheckInputCount(ops::Op op, absl::Span<const Tensor> inputs) {
  const bool arity = static_cast<int>(inputs.size()) == ops::OpArity(op);
  if (arity || (IsScaledAdd(op, inputs) && inputs[2].numel() == 1)) return absl::OkStatus();
  return absl::InternalError(absl::StrCat(ops::OpName(op), ": wrong input count"));
}

// Whether a binary op's second input is one element for the whole op, as
// PyTorch's CPU scalar (a Python scalar, a 0-d or one-element tensor).
bool IsScalarDivisor(ops::Op op, absl::Span<const Tensor> inputs) {
  return ops::OpArity(op) == 2 && inputs.size() == 2 && inputs[1].numel() == 1;
}

// The dtype the kernel reads input i as: where's condition as bool; a
// single-element second operand that kTakesScalarInFloat as float32 (the
// narrow floats' math type), straight from its own dtype; else `compute`.
// `scalar_divisor`: the kernel takes the second input as such (IsScalarDivisor
// on the CPU, IsHostScalarDivisor on CUDA).
DType InputDType(ops::Op op, DType compute, size_t i, bool scalar_divisor) {
  if (op == ops::Op::kWhere && i == 0) return DType::kBool;
  if (i == 1 && TakesScalarInFloat(op) && scalar_divisor &&
      VisitDType(compute, [](auto tag) { return kIsNarrowFloat<typename decltype(tag)::type>; })) {
    return DType::kFloat32;
  }
  return compute;
}

}  // namespace

DType MathDType(DType dtype) {
  return VisitDType(dtype, [dtype](auto tag) {
    using T = typename decltype(tag)::type;
    using M = typename Math<T>::type;
    if constexpr (kIsNarrowFloat<T>) {
      return DType::kFloat32;
    } else if constexpr (IsStdComplex<M>::value) {
      return sizeof(M) == 8 ? DType::kComplex64 : DType::kComplex128;
    } else {
      return dtype;
    }
  });
}

bool CanFuseCasts(absl::Span<const Tensor> inputs, absl::Span<const int64_t> shape) {
  for (const Tensor& input : inputs) {
    // The output's shape and contiguous (the common case, tested first), or
    // one element.
    if (input.shape() == shape && input.is_contiguous()) continue;
    if (input.numel() != 1) return false;
  }
  return true;
}

#if ONEFLOW_PROMOTE_HAVE_CUDA
namespace {

// Whether a CUDA op's second input is a host scalar (a Python scalar or a
// CPU 0-d tensor): PyTorch's CUDA kernels treat only those apart (a
// one-element CUDA tensor broadcasts like any other).
bool IsHostScalarDivisor(ops::Op op, absl::Span<const Tensor> inputs) {
  return IsScalarDivisor(op, inputs) && !inputs[1].is_cuda();
}

absl::Status CudaElementwise(ops::Op op, DType compute, absl::Span<const Tensor> inputs,
                             Tensor& out, void* stream) {
  using functional_internal::CudaElementwiseArgs;
  if (out.ndim() > functional_internal::kMaxRank) {
    return absl::UnimplementedError(absl::StrCat(
        "CUDA ops take rank up to ", functional_internal::kMaxRank, "; got ", out.ndim()));
  }
  RETURN_IF_ERROR(CheckInputCount(op, inputs));
  CudaElementwiseArgs args;
  args.op = op;
  args.compute = compute;
  args.scalar_divisor = IsHostScalarDivisor(op, inputs);
  args.scaled = IsScaledAdd(op, inputs);
  args.rank = static_cast<int>(out.ndim());
  for (int d = 0; d < args.rank; ++d) args.shape[d] = out.shape()[d];
  args.numel = out.numel();
  args.out = out.data();
  for (size_t i = 0; i < inputs.size(); ++i) {
    // PyTorch's CUDA add takes alpha in the math type.
    const DType needed = args.scaled && i == 2 ? MathDType(compute)
                                               : InputDType(op, compute, i, args.scalar_divisor);
    const Tensor& input = inputs[i];
    if (args.scaled && i == 2 && input.is_cuda()) {
      return absl::InvalidArgumentError("add: alpha must be a number, not a CUDA tensor");
    }
    if (!input.is_cuda() && input.numel() == 1) {
      // A host scalar: converted here, passed by value with the launch.
      RETURN_IF_ERROR(CastElements(input.data(), input.dtype(), args.inputs[i].value, needed, 1));
      continue;
    }
    if (!input.is_cuda() || input.device().ordinal != out.device().ordinal) {
      return absl::InternalError(
          absl::StrCat("CUDA elementwise: input ", i + 1, " (", input.Describe(),
                       ") must be on the output's device (", out.Describe(), ")"));
    }
    // The view's own strides (any layout), 0 where it repeats; another
    // dtype is converted as each element is read (a fused cast).
    args.inputs[i].data = input.data();
    args.inputs[i].dtype = input.dtype();
    const size_t offset = static_cast<size_t>(args.rank) - input.shape().size();
    for (size_t k = 0; k < input.shape().size(); ++k) {
      args.inputs[i].strides[offset + k] = input.shape()[k] == 1 ? 0 : input.strides()[k];
    }
  }
  return cast_internal::CudaStatus(
      functional_internal::CudaElementwise(args, out.device().ordinal, stream), "CUDA ",
      ops::OpName(op), " in ", Name(compute));
}

}  // namespace
#endif

// What the two CPU loops share: the block kernel, the inputs and the dtype
// each is read as, the output, and where a division by zero is recorded.
struct CpuLoop {
  BlockFn block;
  absl::Span<const Tensor> inputs;
  Tensor* out;
  Device host;
  size_t count = inputs.size();
  int64_t n = out->numel();
  size_t out_size = ItemSize(out->dtype());
  char* out_bytes = static_cast<char*>(out->data());
  DType needed[kMaxInputs] = {};  // the dtype the kernel reads each input as
  bool single[kMaxInputs] = {};   // one element
  std::atomic<bool> zero_division{false};
};

// Contiguous inputs and output of one shape: one flat loop.
absl::Status RunFlat(CpuLoop& loop) {
  // Single elements are converted once here, other inputs of another dtype
  // block by block below.
  alignas(16) unsigned char scalar_values[kMaxInputs][16];
  const void* scalar_pointers[kMaxInputs] = {};
  for (size_t i = 0; i < loop.count; ++i) {
    if (!loop.single[i]) continue;
    RETURN_IF_ERROR(CastElements(loop.inputs[i].data(), loop.inputs[i].dtype(), scalar_values[i],
                                 loop.needed[i], 1));
    scalar_pointers[i] = scalar_values[i];
  }
  const auto& casts = cast_internal::BestCpuCastKernels();
  // Outputs as large as the cast kernels stream are computed a block at a
  // time in L1 and streamed out from there (StreamOut).
  int64_t read_bytes = 0;
  for (size_t i = 0; i < loop.count; ++i) {
    if (!loop.single[i])
      read_bytes += loop.n * static_cast<int64_t>(ItemSize(loop.inputs[i].dtype()));
  }
  const bool stream =
      cast_internal::StreamsDestination(read_bytes, loop.n * static_cast<int64_t>(loop.out_size));
  cast_internal::ParallelFor(loop.host, loop.n, kParallelGrain, [&](int64_t begin, int64_t end) {
    alignas(64) unsigned char buffers[kMaxInputs][kBlock * 16];
    alignas(64) unsigned char staged[kBlock * 16];
    const void* pointers[kMaxInputs];
    bool broadcast[kMaxInputs];
    bool zero = false;
    for (int64_t start = begin; start < end; start += kBlock) {
      const int64_t len = std::min(kBlock, end - start);
      for (size_t i = 0; i < loop.count; ++i) {
        broadcast[i] = scalar_pointers[i] != nullptr;
        if (broadcast[i]) {
          pointers[i] = scalar_pointers[i];
          continue;
        }
        const char* source = static_cast<const char*>(loop.inputs[i].data()) +
                             start * static_cast<int64_t>(ItemSize(loop.inputs[i].dtype()));
        if (loop.inputs[i].dtype() == loop.needed[i]) {
          pointers[i] = source;
        } else {
          casts.contiguous[Index(loop.inputs[i].dtype())][Index(loop.needed[i])](source, buffers[i],
                                                                                 0, len);
          pointers[i] = buffers[i];
        }
      }
      char* block_out = loop.out_bytes + start * static_cast<int64_t>(loop.out_size);
      if (stream) {
        loop.block(pointers, broadcast, staged, len, zero);
        StreamOut(staged, block_out, len * static_cast<int64_t>(loop.out_size));
      } else {
        loop.block(pointers, broadcast, block_out, len, zero);
      }
    }
    if (stream) FenceStreamedStores();
    if (zero) loop.zero_division = true;
  });
  return absl::OkStatus();
}

// General broadcasting: rows of the last dimension.
absl::Status RunRows(CpuLoop& loop, const ExecutionContext& context) {
  Tensor contiguous[kMaxInputs];
  TensorDims strides[kMaxInputs];
  for (size_t i = 0; i < loop.count; ++i) {
    if (loop.inputs[i].dtype() != loop.needed[i] && loop.single[i]) {
      // A single element of another dtype (a Python scalar) converts here.
      ASSIGN_OR_RETURN(contiguous[i], loop.inputs[i].To(loop.needed[i], context));
    } else if (loop.inputs[i].dtype() != loop.needed[i]) {
      return absl::InternalError("Elementwise: a strided input must be cast beforehand");
    } else if (loop.inputs[i].is_contiguous()) {
      contiguous[i] = loop.inputs[i];
    } else {
      ASSIGN_OR_RETURN(contiguous[i], loop.inputs[i].Clone(context));
    }
    strides[i] = BroadcastStrides(contiguous[i].shape(), loop.out->shape());
  }
  const absl::Span<const int64_t> shape = loop.out->shape();
  const int64_t inner = shape.back();
  const int64_t rows = loop.n / inner;
  cast_internal::ParallelFor(
      loop.host, rows, std::max<int64_t>(1, kParallelGrain / inner),
      [&](int64_t row_begin, int64_t row_end) {
        const void* pointers[kMaxInputs];
        bool broadcast[kMaxInputs];
        bool zero = false;
        for (int64_t row = row_begin; row < row_end; ++row) {
          for (size_t i = 0; i < loop.count; ++i) {
            int64_t offset = 0, rest = row;
            for (size_t d = shape.size() - 1; d-- > 0;) {
              offset += (rest % shape[d]) * strides[i][d];
              rest /= shape[d];
            }
            pointers[i] = static_cast<const char*>(contiguous[i].data()) +
                          offset * static_cast<int64_t>(ItemSize(loop.needed[i]));
            broadcast[i] = strides[i].back() == 0;
          }
          loop.block(pointers, broadcast,
                     loop.out_bytes + row * inner * static_cast<int64_t>(loop.out_size), inner,
                     zero);
        }
        if (zero) loop.zero_division = true;
      });
  return absl::OkStatus();
}

absl::Status Elementwise(ops::Op op, DType compute, absl::Span<const Tensor> inputs, Tensor& out,
                         const ExecutionContext& context) {
  if (out.is_cuda()) {
#if ONEFLOW_PROMOTE_HAVE_CUDA
    return CudaElementwise(op, compute, inputs, out, context.cuda_stream);
#else
    return absl::UnavailableError("CUDA tensors, but the library was built without CUDA");
#endif
  }
  RETURN_IF_ERROR(CheckInputCount(op, inputs));
  const bool scalar_divisor = IsScalarDivisor(op, inputs);
  const BlockFn block = SelectBlock(op, compute, scalar_divisor, IsScaledAdd(op, inputs));
  if (block == nullptr) {
    return absl::InternalError(
        absl::StrCat("no CPU kernel for ", ops::OpName(op), " in ", Name(compute)));
  }
  if (out.numel() == 0) return absl::OkStatus();
  CpuLoop loop{block, inputs, &out, Device::Cpu(context.cpu_threads, context.cpu_pool)};
  for (size_t i = 0; i < inputs.size(); ++i) {
    loop.needed[i] = InputDType(op, compute, i, scalar_divisor);
    loop.single[i] = inputs[i].numel() == 1;
  }
  RETURN_IF_ERROR(CanFuseCasts(inputs, out.shape()) ? RunFlat(loop) : RunRows(loop, context));
  if (loop.zero_division) return absl::InvalidArgumentError("ZeroDivisionError");
  return absl::OkStatus();
}

namespace {

#if !ONEFLOW_PROMOTE_HAVE_CUDA
// Without the toolkit no tensor can be on a device; these keep one code path.
namespace functional_internal {
inline cast_internal::CudaResult Unavailable() {
  return {cast_internal::CudaOutcome::kNoKernel, "built without CUDA"};
}
inline cast_internal::CudaResult CudaReduceAll(ops::Op, DType, const void*, int64_t, void*, int,
                                               void*) {
  return Unavailable();
}
inline cast_internal::CudaResult CudaCumsum(DType, const void*, void*, int64_t, int64_t, int64_t,
                                            int, void*) {
  return Unavailable();
}
inline cast_internal::CudaResult CudaDot(DType, const void*, int64_t, const void*, int64_t, int64_t,
                                         void*, int, void*) {
  return Unavailable();
}
}  // namespace functional_internal
#endif

absl::StatusOr<Tensor> Contiguous(const Tensor& t, const ExecutionContext& context) {
  if (t.is_contiguous()) return t;
  return t.Clone(context);
}

}  // namespace

absl::Status ReduceAll(ops::Op op, const Tensor& input, Tensor& out,
                       const ExecutionContext& context) {
  ASSIGN_OR_RETURN(Tensor in, Contiguous(input, context));
  if (in.dtype() != out.dtype()) return absl::InternalError("ReduceAll: dtype mismatch");
  const int64_t n = in.numel();
  if (in.is_cuda()) {
    return cast_internal::CudaStatus(
        functional_internal::CudaReduceAll(op, in.dtype(), in.data(), n, out.data(),
                                           out.device().ordinal, context.cuda_stream),
        "CUDA ", ops::OpName(op), " of ", Name(in.dtype()));
  }
  return VisitDType(in.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if constexpr (!kAccumulates<T>) {
      return absl::InternalError(absl::StrCat("ReduceAll: no kernel for ", Name(in.dtype())));
    } else {
      using A = Accumulator<T>;
      const T* x = in.template data_as<T>();
      A acc = op == ops::Op::kProd ? A(1) : A(0);
      for (int64_t i = 0; i < n; ++i) {
        const A value = LoadAccumulator(x[i]);
        acc = op == ops::Op::kProd ? AccumulateMul(acc, value) : AccumulateAdd(acc, value);
      }
      if constexpr (!kIsInt<T>) {
        if (op == ops::Op::kMean) acc = acc / static_cast<double>(n);
      }
      *out.template data_as<T>() = StoreAccumulator<T>(acc);
      return absl::OkStatus();
    }
  });
}

absl::Status Cumsum(const Tensor& input, int64_t dim, Tensor& out,
                    const ExecutionContext& context) {
  ASSIGN_OR_RETURN(Tensor in, Contiguous(input, context));
  if (in.dtype() != out.dtype()) return absl::InternalError("Cumsum: dtype mismatch");
  const int64_t n = in.numel();
  if (in.ndim() == 0) {
    return CastElements(in.data(), in.dtype(), out.data(), out.dtype(), 1,
                        WithContext(out.device(), context));
  }
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= in.shape()[d];
  for (int64_t d = dim + 1; d < in.ndim(); ++d) inner *= in.shape()[d];
  const int64_t length = in.shape()[dim];
  if (n == 0) return absl::OkStatus();
  if (in.is_cuda()) {
    return cast_internal::CudaStatus(
        functional_internal::CudaCumsum(in.dtype(), in.data(), out.data(), outer, length, inner,
                                        out.device().ordinal, context.cuda_stream),
        "CUDA cumsum of ", Name(in.dtype()));
  }
  return VisitDType(in.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if constexpr (!kAccumulates<T>) {
      return absl::InternalError(absl::StrCat("Cumsum: no kernel for ", Name(in.dtype())));
    } else {
      const T* x = in.template data_as<T>();
      T* y = out.template data_as<T>();
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
          Accumulator<T> acc = 0;
          for (int64_t k = 0; k < length; ++k) {
            const int64_t at = (o * length + k) * inner + i;
            acc = AccumulateAdd(acc, LoadAccumulator(x[at]));
            y[at] = StoreAccumulator<T>(acc);
          }
        }
      }
      return absl::OkStatus();
    }
  });
}

absl::Status Dot(const Tensor& a, const Tensor& b, Tensor& out, const ExecutionContext& context) {
  if (a.ndim() != 1 || b.ndim() != 1 || a.dtype() != out.dtype() || b.dtype() != out.dtype()) {
    return absl::InternalError("Dot: expects two 1-d tensors of the output's dtype");
  }
  if (a.shape()[0] != b.shape()[0]) {
    return absl::InvalidArgumentError(
        absl::StrCat("inconsistent tensor size, expected tensor [", a.shape()[0], "] and src [",
                     b.shape()[0], "] to have the same number of elements, but got ", a.shape()[0],
                     " and ", b.shape()[0], " elements respectively"));
  }
  if (a.is_cuda() != out.is_cuda() || b.is_cuda() != out.is_cuda()) {
    return absl::InvalidArgumentError(
        absl::StrCat("dot: expected both vectors to be on the same device, but found ",
                     a.Describe(), " and ", b.Describe()));
  }
  if (out.is_cuda()) {
    return cast_internal::CudaStatus(
        functional_internal::CudaDot(a.dtype(), a.data(), a.strides()[0], b.data(), b.strides()[0],
                                     a.shape()[0], out.data(), out.device().ordinal,
                                     context.cuda_stream),
        "CUDA dot of ", Name(a.dtype()));
  }
  return VisitDType(a.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      return absl::InternalError(absl::StrCat("Dot: no kernel for ", Name(a.dtype())));
    } else {
      const T* x = a.template data_as<T>();
      const T* y = b.template data_as<T>();
      const int64_t sx = a.strides()[0], sy = b.strides()[0];
      Accumulator<T> acc = 0;
      for (int64_t i = 0; i < a.shape()[0]; ++i) {
        acc = AccumulateAdd(acc,
                            AccumulateMul(LoadAccumulator(x[i * sx]), LoadAccumulator(y[i * sy])));
      }
      *out.template data_as<T>() = StoreAccumulator<T>(acc);
      return absl::OkStatus();
    }
  });
}

}  // namespace oneflow_promote::op_kernels
