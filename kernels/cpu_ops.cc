// The functional frontend's CPU kernels: element functions in a "math" type
// (float for the 16-bit floats, std::complex for complex), block loops over
// them, and one engine that walks broadcast operands and, for mixed-dtype
// inputs, converts them block by block with the cast kernels.

#include "kernels/cpu_ops.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "kernels/cast.h"
#include "kernels/convert.h"
#include "kernels/internal/cpu_cast.h"
#include "kernels/internal/parallel_for.h"

namespace oneflow_promote::cpu_ops {
namespace {

using functional::Op;

template <typename T>
struct IsStdComplex : std::false_type {};
template <typename T>
struct IsStdComplex<std::complex<T>> : std::true_type {};

// The type an element computes in, and the trips between it and storage.
template <typename T>
struct Math {
  using type = T;
  static T Load(T x) { return x; }
  static T Store(T m) { return m; }
};
template <>
struct Math<Float16> {
  using type = float;
  static float Load(Float16 x) { return Convert<float>(x); }
  static Float16 Store(float m) { return Convert<Float16>(m); }
};
template <>
struct Math<BFloat16> {
  using type = float;
  static float Load(BFloat16 x) { return Convert<float>(x); }
  static BFloat16 Store(float m) { return Convert<BFloat16>(m); }
};
template <typename Part>
struct Math<Complex<Part>> {
  using Real = std::conditional_t<std::is_same_v<Part, double>, double, float>;
  using type = std::complex<Real>;
  static type Load(Complex<Part> x) { return {Convert<Real>(x.real), Convert<Real>(x.imag)}; }
  static Complex<Part> Store(type m) { return {Convert<Part>(m.real()), Convert<Part>(m.imag())}; }
};

// The storage types the frontend computes in: the 13 dtypes libtorch has
// (op_rules.h never picks float8 or the wide unsigned types).
template <typename T>
inline constexpr bool kComputable =
    !std::is_same_v<T, uint16_t> && !std::is_same_v<T, uint32_t> &&
    !std::is_same_v<T, uint64_t> && !std::is_same_v<T, Float8E4M3FN> &&
    !std::is_same_v<T, Float8E5M2>;

template <typename M>
inline constexpr bool kIsInt = std::is_integral_v<M> && !std::is_same_v<M, bool>;

// Wrapping integer arithmetic (signed overflow is undefined in C++).
template <typename M>
M WrapAdd(M a, M b) {
  using U = std::make_unsigned_t<M>;
  return static_cast<M>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <typename M>
M WrapSub(M a, M b) {
  using U = std::make_unsigned_t<M>;
  return static_cast<M>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
}
template <typename M>
M WrapMul(M a, M b) {
  using U = std::make_unsigned_t<M>;
  using Wide = std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;
  return static_cast<M>(static_cast<U>(static_cast<Wide>(static_cast<U>(a)) *
                                       static_cast<Wide>(static_cast<U>(b))));
}

template <typename M>
bool NonZero(M x) {
  if constexpr (IsStdComplex<M>::value) {
    return x.real() != 0 || x.imag() != 0;
  } else {
    return x != M(0);
  }
}

// Integer division helpers; b == 0 is caught by the caller.
template <typename M>
M TruncDiv(M a, M b) {
  if constexpr (std::is_signed_v<M>) {
    if (b == -1) return WrapSub(M(0), a);  // min / -1 wraps
  }
  return static_cast<M>(a / b);
}
template <typename M>
M FloorDiv(M a, M b) {
  const M q = TruncDiv(a, b);
  if constexpr (std::is_signed_v<M>) {
    if (b != -1 && a % b != 0 && ((a < 0) != (b < 0))) return static_cast<M>(q - 1);
  }
  return q;
}
template <typename M>
M IntRemainder(M a, M b) {
  if constexpr (std::is_signed_v<M>) {
    if (b == -1) return 0;
    M r = static_cast<M>(a % b);
    if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<M>(r + b);
    return r;
  } else {
    return static_cast<M>(a % b);
  }
}
// PyTorch's div_floor for floating point: exact floor of a/b where it can.
template <typename M>
M FloatFloorDiv(M a, M b) {
  if (b == 0) return a / b;
  const M mod = std::fmod(a, b);
  M div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1;
  if (div == 0) return std::copysign(M(0), a / b);
  M floor_div = std::floor(div);
  if (div - floor_div > M(0.5)) floor_div += 1;
  return floor_div;
}
template <typename M>
M IntPow(M base, M exponent) {
  if constexpr (std::is_signed_v<M>) {
    if (exponent < 0) {
      if (base == 1) return 1;
      if (base == -1) return (exponent & 1) ? M(-1) : M(1);
      return 0;
    }
  }
  M result = 1;
  while (exponent != 0) {
    if (exponent & 1) result = WrapMul(result, base);
    exponent = static_cast<M>(exponent >> 1);
    base = WrapMul(base, base);
  }
  return result;
}

// x rounded to storage type T and back: PyTorch's float16 and bfloat16
// arithmetic rounds after each operation, which matters where a later step
// is discontinuous (trunc).
template <typename T, typename M>
M RoundTo(M x) {
  return Math<T>::Load(Math<T>::Store(x));
}

// (a + bi) / (c + di) as libtorch 1.13's CPU kernels compute it:
// a * conj(b) / |b|^2, so x / 0 is NaN (not the infinity std::complex gives).
template <typename M>
M ComplexDivide(M x, M y) {
  const auto c = y.real(), d = y.imag();
  const auto scale = c * c + d * d;
  return M((x.real() * c + x.imag() * d) / scale, (x.imag() * c - x.real() * d) / scale);
}

// alpha * b for complex b as PyTorch's add and sub compute it (a + alpha * b
// with alpha = 1 or -1, multiplied out in full), so that an infinite part
// gives a NaN partner exactly where PyTorch's does: 0j + inf is (inf, nan).
template <typename M>
M ScaleByAlpha(M b, typename M::value_type alpha) {
  using R = typename M::value_type;
  return M(b.real() * alpha - b.imag() * R(0), b.real() * R(0) + b.imag() * alpha);
}

// One binary op on math values of storage type T; `zero_division` is set
// by integer division by zero (the result is then 0).
template <Op kOp, typename T, typename M = typename Math<T>::type>
auto Binary(M a, M b, bool& zero_division) {
  if constexpr (kOp == Op::kAdd) {
    if constexpr (std::is_same_v<M, bool>) return M(a || b);
    else if constexpr (kIsInt<M>) return WrapAdd(a, b);
    else if constexpr (IsStdComplex<M>::value) return a + ScaleByAlpha(b, 1);
    else return M(a + b);
  } else if constexpr (kOp == Op::kSub) {
    if constexpr (kIsInt<M>) return WrapSub(a, b);
    else if constexpr (IsStdComplex<M>::value) return a + ScaleByAlpha(b, -1);
    else return M(a - b);
  } else if constexpr (kOp == Op::kMul) {
    if constexpr (std::is_same_v<M, bool>) return M(a && b);
    else if constexpr (kIsInt<M>) return WrapMul(a, b);
    else return M(a * b);
  } else if constexpr (kOp == Op::kDiv) {
    if constexpr (IsStdComplex<M>::value) return ComplexDivide(a, b);
    else return M(a / b);
  } else if constexpr (kOp == Op::kDivFloor || kOp == Op::kFloorDivide || kOp == Op::kDivTrunc ||
                       kOp == Op::kRemainder) {
    if constexpr (kIsInt<M>) {
      if (b == 0) {
        zero_division = true;
        return M(0);
      }
      if constexpr (kOp == Op::kDivTrunc) return TruncDiv(a, b);
      else if constexpr (kOp == Op::kRemainder) return IntRemainder(a, b);
      else return FloorDiv(a, b);
    } else {
      if constexpr (kOp == Op::kDivTrunc) return M(std::trunc(RoundTo<T>(M(a / b))));
      else if constexpr (kOp == Op::kRemainder) {
        M mod = std::fmod(a, b);
        if (mod != 0 && ((b < 0) != (mod < 0))) mod += b;
        return mod;
      } else {
        return FloatFloorDiv(a, b);
      }
    }
  } else if constexpr (kOp == Op::kPow) {
    if constexpr (kIsInt<M>) return IntPow(a, b);
    else return M(std::pow(a, b));
  } else if constexpr (kOp == Op::kMaximum || kOp == Op::kMinimum) {
    constexpr bool kMax = kOp == Op::kMaximum;
    if constexpr (std::is_same_v<M, bool>) return kMax ? M(a || b) : M(a && b);
    else if constexpr (std::is_floating_point_v<M>) {
      if (a != a) return a;
      if (b != b) return b;
      return kMax ? std::max(a, b) : std::min(a, b);
    } else {
      return kMax ? std::max(a, b) : std::min(a, b);
    }
  } else if constexpr (kOp == Op::kAtan2) {
    return M(std::atan2(a, b));
  } else if constexpr (kOp == Op::kEq) {
    return a == b;
  } else if constexpr (kOp == Op::kNe) {
    return a != b;
  } else if constexpr (kOp == Op::kLt) {
    return a < b;
  } else if constexpr (kOp == Op::kLe) {
    return a <= b;
  } else if constexpr (kOp == Op::kGt) {
    return a > b;
  } else if constexpr (kOp == Op::kGe) {
    return a >= b;
  } else if constexpr (kOp == Op::kLogicalAnd) {
    return NonZero(a) && NonZero(b);
  } else if constexpr (kOp == Op::kLogicalOr) {
    return NonZero(a) || NonZero(b);
  } else if constexpr (kOp == Op::kLogicalXor) {
    return NonZero(a) != NonZero(b);
  } else if constexpr (kOp == Op::kBitwiseAnd) {
    return M(a & b);
  } else if constexpr (kOp == Op::kBitwiseOr) {
    return M(a | b);
  } else {
    static_assert(kOp == Op::kBitwiseXor);
    return M(a ^ b);
  }
}

template <Op kOp, typename M>
auto Unary(M a) {
  if constexpr (kOp == Op::kNeg) {
    if constexpr (kIsInt<M>) return WrapSub(M(0), a);
    else return M(-a);
  } else if constexpr (kOp == Op::kAbs) {
    if constexpr (IsStdComplex<M>::value) return std::abs(a);
    else if constexpr (std::is_unsigned_v<M>) return a;
    else if constexpr (kIsInt<M>) return a < 0 ? WrapSub(M(0), a) : a;
    else return M(std::fabs(a));
  } else {
    static_assert(kOp == Op::kSqrt);
    return M(std::sqrt(a));
  }
}

// Whether the op has a kernel for storage type T (op_rules.h decides which
// of these PyTorch's CPU kernels actually offer).
template <Op kOp, typename T>
constexpr bool HasKernel() {
  if constexpr (!kComputable<T>) {
    return false;
  } else {
    using M = typename Math<T>::type;
    constexpr bool kComplex = IsStdComplex<M>::value;
    constexpr bool kFloat = std::is_floating_point_v<M>;
    constexpr bool kBool = std::is_same_v<M, bool>;
    switch (kOp) {
      case Op::kAdd: case Op::kMul: case Op::kEq: case Op::kNe: case Op::kLogicalAnd:
      case Op::kLogicalOr: case Op::kLogicalXor: case Op::kWhere:
        return true;
      case Op::kSub: case Op::kNeg: case Op::kPow:
        return !kBool;
      case Op::kDiv:
        return kFloat || kComplex;
      case Op::kDivFloor: case Op::kDivTrunc: case Op::kFloorDivide: case Op::kRemainder:
        return kFloat || kIsInt<M>;
      case Op::kMaximum: case Op::kMinimum: case Op::kLt: case Op::kLe: case Op::kGt:
      case Op::kGe:
        return !kComplex;
      case Op::kAtan2:
        return kFloat;
      case Op::kBitwiseAnd: case Op::kBitwiseOr: case Op::kBitwiseXor:
        return kBool || kIsInt<M>;
      case Op::kAbs:
        return !kBool;
      case Op::kSqrt:
        return kFloat || kComplex;
      default:
        return false;  // reductions and dot have their own loops
    }
  }
}

// The storage type of an op's result element, given its math result R.
template <typename T, typename R>
using ResultStorage = std::conditional_t<
    std::is_same_v<R, bool>, bool,
    std::conditional_t<std::is_same_v<R, typename Math<T>::type>, T,
                       // abs of complex: the real part's storage
                       std::conditional_t<std::is_same_v<T, Complex<Float16>>, Float16, R>>>;

template <typename S, typename R>
S StoreAs(R r) {
  if constexpr (std::is_same_v<S, R>) {
    return r;
  } else {
    return Math<S>::Store(r);
  }
}

// A block kernel: n elements, each input either advancing (broadcast[i]
// false) or repeating its first element.
using BlockFn = void (*)(const void* const* inputs, const bool* broadcast, void* out, int64_t n,
                         bool& zero_division);

template <typename F>
inline void LoopTwo(bool broadcast_a, bool broadcast_b, int64_t n, F&& f) {
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

template <Op kOp, typename T>
void BinaryBlock(const void* const* inputs, const bool* broadcast, void* out, int64_t n,
                 bool& zero_division) {
  using M = typename Math<T>::type;
  using R = decltype(Binary<kOp, T>(M(), M(), zero_division));
  using S = ResultStorage<T, R>;
  const T* a = static_cast<const T*>(inputs[0]);
  const T* b = static_cast<const T*>(inputs[1]);
  S* o = static_cast<S*>(out);
  bool zero = false;
  LoopTwo(broadcast[0], broadcast[1], n, [&](int64_t i, int64_t ia, int64_t ib) {
    o[i] = StoreAs<S>(Binary<kOp, T>(Math<T>::Load(a[ia]), Math<T>::Load(b[ib]), zero));
  });
  if (zero) zero_division = true;
}

template <Op kOp, typename T>
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

template <Op kOp>
BlockFn BlockFor(DType compute) {
  return VisitDType(compute, [](auto tag) -> BlockFn {
    using T = typename decltype(tag)::type;
    if constexpr (!HasKernel<kOp, T>()) {
      return nullptr;
    } else if constexpr (kOp == Op::kWhere) {
      return &WhereBlock<T>;
    } else if constexpr (kOp == Op::kNeg || kOp == Op::kAbs || kOp == Op::kSqrt) {
      return &UnaryBlock<kOp, T>;
    } else {
      return &BinaryBlock<kOp, T>;
    }
  });
}

BlockFn SelectBlock(Op op, DType compute) {
  switch (op) {
#define ONEFLOW_PROMOTE_OP_BLOCK(e, name, arity) \
  case Op::e:                                    \
    return BlockFor<Op::e>(compute);
    ONEFLOW_PROMOTE_FOR_EACH_OP(ONEFLOW_PROMOTE_OP_BLOCK)
#undef ONEFLOW_PROMOTE_OP_BLOCK
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

}  // namespace

absl::StatusOr<TensorDims> BroadcastShapes(absl::Span<const absl::Span<const int64_t>> shapes) {
  size_t rank = 0;
  for (const auto& shape : shapes) rank = std::max(rank, shape.size());
  TensorDims out(rank, 1);
  for (size_t k = 0; k < rank; ++k) {
    const size_t out_dim = rank - 1 - k;
    for (size_t i = 0; i < shapes.size(); ++i) {
      const auto& shape = shapes[i];
      if (k >= shape.size()) continue;
      const int64_t extent = shape[shape.size() - 1 - k];
      if (extent == 1) continue;
      if (out[out_dim] != 1 && out[out_dim] != extent) {
        return absl::InvalidArgumentError(absl::StrCat(
            "The size of tensor ", i == 0 ? "a" : "b", " (", i == 0 ? extent : out[out_dim],
            ") must match the size of tensor b (", i == 0 ? out[out_dim] : extent,
            ") at non-singleton dimension ", out_dim));
      }
      out[out_dim] = extent;
    }
  }
  return out;
}

bool CanFuseCasts(absl::Span<const Tensor> inputs, absl::Span<const int64_t> shape) {
  for (const Tensor& input : inputs) {
    if (input.numel() == 1) continue;
    if (!input.is_contiguous() || input.shape() != shape) return false;
  }
  return true;
}

absl::Status Elementwise(Op op, DType compute, absl::Span<const Tensor> inputs, Tensor& out,
                         int threads) {
  const BlockFn block = SelectBlock(op, compute);
  if (block == nullptr) {
    return absl::InternalError(
        absl::StrCat("no CPU kernel for ", functional::OpName(op), " in ", Name(compute)));
  }
  if (inputs.size() > kMaxInputs || static_cast<int>(inputs.size()) != functional::OpArity(op)) {
    return absl::InternalError(absl::StrCat(functional::OpName(op), ": wrong input count"));
  }
  const int64_t n = out.numel();
  if (n == 0) return absl::OkStatus();
  const auto needed = [&](size_t i) {
    return op == Op::kWhere && i == 0 ? DType::kBool : compute;
  };
  const size_t count = inputs.size();
  const size_t out_size = ItemSize(out.dtype());
  char* out_bytes = static_cast<char*>(out.data());
  std::atomic<bool> zero_division{false};

  if (CanFuseCasts(inputs, out.shape())) {
    // One flat loop; single elements are converted once here, other inputs
    // of another dtype block by block below.
    alignas(16) unsigned char scalar_values[kMaxInputs][16];
    const void* scalar_pointers[kMaxInputs] = {};
    for (size_t i = 0; i < count; ++i) {
      if (inputs[i].numel() != 1) continue;
      if (absl::Status s = CastElements(inputs[i].data(), inputs[i].dtype(), scalar_values[i],
                                        needed(i), 1);
          !s.ok()) {
        return s;
      }
      scalar_pointers[i] = scalar_values[i];
    }
    const auto& casts = cast_internal::BestCpuCastKernels();
    cast_internal::ParallelFor(n, kParallelGrain, threads, [&](int64_t begin, int64_t end) {
      alignas(64) unsigned char buffers[kMaxInputs][kBlock * 16];
      const void* pointers[kMaxInputs];
      bool broadcast[kMaxInputs];
      bool zero = false;
      for (int64_t start = begin; start < end; start += kBlock) {
        const int64_t len = std::min(kBlock, end - start);
        for (size_t i = 0; i < count; ++i) {
          broadcast[i] = scalar_pointers[i] != nullptr;
          if (broadcast[i]) {
            pointers[i] = scalar_pointers[i];
            continue;
          }
          const char* source = static_cast<const char*>(inputs[i].data()) +
                               start * static_cast<int64_t>(ItemSize(inputs[i].dtype()));
          if (inputs[i].dtype() == needed(i)) {
            pointers[i] = source;
          } else {
            casts.contiguous[Index(inputs[i].dtype())][Index(needed(i))](source, buffers[i], 0,
                                                                          len);
            pointers[i] = buffers[i];
          }
        }
        block(pointers, broadcast, out_bytes + start * static_cast<int64_t>(out_size), len, zero);
      }
      if (zero) zero_division = true;
    });
  } else {
    // General broadcasting: rows of the last dimension.
    Tensor contiguous[kMaxInputs];
    TensorDims strides[kMaxInputs];
    for (size_t i = 0; i < count; ++i) {
      if (inputs[i].dtype() != needed(i)) {
        return absl::InternalError("Elementwise: a strided input must be cast beforehand");
      }
      if (inputs[i].is_contiguous()) {
        contiguous[i] = inputs[i];
      } else {
        absl::StatusOr<Tensor> copy = inputs[i].Clone();
        if (!copy.ok()) return copy.status();
        contiguous[i] = *std::move(copy);
      }
      strides[i] = BroadcastStrides(contiguous[i].shape(), out.shape());
    }
    const absl::Span<const int64_t> shape = out.shape();
    const int64_t inner = shape.back();
    const int64_t rows = n / inner;
    cast_internal::ParallelFor(
        rows, std::max<int64_t>(1, kParallelGrain / inner), threads,
        [&](int64_t row_begin, int64_t row_end) {
          const void* pointers[kMaxInputs];
          bool broadcast[kMaxInputs];
          bool zero = false;
          for (int64_t row = row_begin; row < row_end; ++row) {
            for (size_t i = 0; i < count; ++i) {
              int64_t offset = 0, rest = row;
              for (size_t d = shape.size() - 1; d-- > 0;) {
                offset += (rest % shape[d]) * strides[i][d];
                rest /= shape[d];
              }
              pointers[i] = static_cast<const char*>(contiguous[i].data()) +
                            offset * static_cast<int64_t>(ItemSize(needed(i)));
              broadcast[i] = strides[i].back() == 0;
            }
            block(pointers, broadcast, out_bytes + row * inner * static_cast<int64_t>(out_size),
                  inner, zero);
          }
          if (zero) zero_division = true;
        });
  }
  if (zero_division) return absl::InvalidArgumentError("ZeroDivisionError");
  return absl::OkStatus();
}

namespace {

// The accumulator of sums and products: 64-bit integers (wrapping), float64,
// or complex128.
template <typename T>
using Accumulator = std::conditional_t<
    kIsInt<T>, T,
    std::conditional_t<IsStdComplex<typename Math<T>::type>::value, std::complex<double>,
                       double>>;

template <typename T>
Accumulator<T> LoadAccumulator(T x) {
  return static_cast<Accumulator<T>>(Math<T>::Load(x));
}

template <typename T, typename A>
T StoreAccumulator(A a) {
  if constexpr (kIsInt<T>) {
    return a;
  } else if constexpr (IsStdComplex<A>::value) {
    return Convert<T>(Complex<double>{a.real(), a.imag()});
  } else {
    return Convert<T>(a);
  }
}

// Sums, products and prefix sums run in the op rules' accumulation dtypes:
// int64 for integers (and bool), or a floating or complex dtype.
template <typename T>
inline constexpr bool kAccumulates =
    kComputable<T> && !std::is_same_v<T, bool> && (!kIsInt<T> || std::is_same_v<T, int64_t>);

absl::StatusOr<Tensor> Contiguous(const Tensor& t) {
  if (t.is_contiguous()) return t;
  return t.Clone();
}

}  // namespace

absl::Status ReduceAll(Op op, const Tensor& input, Tensor& out) {
  absl::StatusOr<Tensor> in = Contiguous(input);
  if (!in.ok()) return in.status();
  if (in->dtype() != out.dtype()) return absl::InternalError("ReduceAll: dtype mismatch");
  const int64_t n = in->numel();
  return VisitDType(in->dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if constexpr (!kAccumulates<T>) {
      return absl::InternalError(absl::StrCat("ReduceAll: no kernel for ", Name(in->dtype())));
    } else {
      using A = Accumulator<T>;
      const T* x = in->template data_as<T>();
      A acc = op == Op::kProd ? A(1) : A(0);
      for (int64_t i = 0; i < n; ++i) {
        if constexpr (kIsInt<T>) {
          acc = op == Op::kProd ? WrapMul(acc, x[i]) : WrapAdd(acc, x[i]);
        } else {
          acc = op == Op::kProd ? acc * LoadAccumulator(x[i]) : acc + LoadAccumulator(x[i]);
        }
      }
      if constexpr (!kIsInt<T>) {
        if (op == Op::kMean) acc = acc / static_cast<double>(n);
      }
      *out.template data_as<T>() = StoreAccumulator<T>(acc);
      return absl::OkStatus();
    }
  });
}

absl::Status Cumsum(const Tensor& input, int64_t dim, Tensor& out) {
  absl::StatusOr<Tensor> in = Contiguous(input);
  if (!in.ok()) return in.status();
  if (in->dtype() != out.dtype()) return absl::InternalError("Cumsum: dtype mismatch");
  const int64_t n = in->numel();
  if (in->ndim() == 0) return CastElements(in->data(), in->dtype(), out.data(), out.dtype(), 1);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= in->shape()[d];
  for (int64_t d = dim + 1; d < in->ndim(); ++d) inner *= in->shape()[d];
  const int64_t length = in->shape()[dim];
  if (n == 0) return absl::OkStatus();
  return VisitDType(in->dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if constexpr (!kAccumulates<T>) {
      return absl::InternalError(absl::StrCat("Cumsum: no kernel for ", Name(in->dtype())));
    } else {
      const T* x = in->template data_as<T>();
      T* y = out.template data_as<T>();
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
          Accumulator<T> acc = 0;
          for (int64_t k = 0; k < length; ++k) {
            const int64_t at = (o * length + k) * inner + i;
            if constexpr (kIsInt<T>) {
              acc = WrapAdd(acc, x[at]);
            } else {
              acc += LoadAccumulator(x[at]);
            }
            y[at] = StoreAccumulator<T>(acc);
          }
        }
      }
      return absl::OkStatus();
    }
  });
}

absl::Status Dot(const Tensor& a, const Tensor& b, Tensor& out) {
  if (a.ndim() != 1 || b.ndim() != 1 || a.dtype() != out.dtype() || b.dtype() != out.dtype()) {
    return absl::InternalError("Dot: expects two 1-d tensors of the output's dtype");
  }
  if (a.shape()[0] != b.shape()[0]) {
    return absl::InvalidArgumentError(absl::StrCat(
        "inconsistent tensor size, expected tensor [", a.shape()[0],
        "] and src [", b.shape()[0], "] to have the same number of elements, but got ",
        a.shape()[0], " and ", b.shape()[0], " elements respectively"));
  }
  return VisitDType(a.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if constexpr (!kComputable<T> || std::is_same_v<T, bool>) {
      return absl::InternalError(absl::StrCat("Dot: no kernel for ", Name(a.dtype())));
    } else {
      const T* x = a.template data_as<T>();
      const T* y = b.template data_as<T>();
      const int64_t sx = a.strides()[0], sy = b.strides()[0];
      Accumulator<T> acc = 0;
      for (int64_t i = 0; i < a.shape()[0]; ++i) {
        if constexpr (kIsInt<T>) {
          acc = WrapAdd(acc, WrapMul(x[i * sx], y[i * sy]));
        } else {
          acc += LoadAccumulator(x[i * sx]) * LoadAccumulator(y[i * sy]);
        }
      }
      *out.template data_as<T>() = StoreAccumulator<T>(acc);
      return absl::OkStatus();
    }
  });
}

}  // namespace oneflow_promote::cpu_ops
