// The element functions of the functional frontend's ops, shared by the CPU
// kernels (op_kernels.cc) and the CUDA kernels (cuda_ops.cu): each op on a
// "math" type (float for float16 and bfloat16, a complex type for complex),
// with PyTorch's semantics (docs/ops.md). Free of Abseil, for nvcc.

#ifndef ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_OP_MATH_H_
#define ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_OP_MATH_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "functional/internal/float_atan2.h"
#include "functional/internal/float_fmod.h"
#include "functional/internal/narrow_rounding.h"
#include "oneflow_promote/convert.h"
#include "oneflow_promote/dtype_enum.h"
#include "oneflow_promote/ops/op_list.h"

#if defined(__CUDACC__)
#include <cuda/std/complex>
#define ONEFLOW_PROMOTE_OPS_INLINE __host__ __device__ inline
#define ONEFLOW_PROMOTE_OPS_ALWAYS_INLINE ONEFLOW_PROMOTE_OPS_INLINE
#else
#include <complex>
#define ONEFLOW_PROMOTE_OPS_INLINE inline
// For element functions the compiler would otherwise call: a call per
// element passes std::complex<float> through the stack.
#define ONEFLOW_PROMOTE_OPS_ALWAYS_INLINE inline __attribute__((always_inline))
#endif

namespace oneflow_promote::functional_internal {

using ops::Op;

// The complex math type: std::complex on the host, cuda::std::complex where
// nvcc compiles (same layout and arithmetic).
#if defined(__CUDACC__)
template <typename R>
using MathComplex = cuda::std::complex<R>;
#else
template <typename R>
using MathComplex = std::complex<R>;
#endif

template <typename T>
struct IsStdComplex : std::false_type {};
template <typename T>
struct IsStdComplex<MathComplex<T>> : std::true_type {};

// The type float and complex<float> transcendental functions run in:
// double and complex<double>, rounded once on the way back. The host's and
// the device's float libraries differ in the last bits, and so would the
// float16 and bfloat16 results rounded from them; computed wider, both
// devices round the same float32 (docs/ops.md).
template <typename M>
struct WideMath {
  using type = M;
};
template <>
struct WideMath<float> {
  using type = double;
};
template <>
struct WideMath<MathComplex<float>> {
  using type = MathComplex<double>;
};
template <typename M>
using Wide = typename WideMath<M>::type;

// pow, sqrt and abs for real and complex math types alike, atan2 for real
// ones (torch has no complex atan2), of elements stored as T. complex64 pow
// stays in complex<float>: exp(y log x) is ill-conditioned where it
// overflows (the sign of an infinite part follows a huge angle), and there
// the host's answer must stay PyTorch's, which computes in complex<float>
// too; docs/ops.md states its device bound.
template <typename T, typename M>
ONEFLOW_PROMOTE_OPS_INLINE M Pow(M a, M b) {
  using W = std::conditional_t<std::is_same_v<T, Complex<float>>, M, Wide<M>>;
#if defined(__CUDACC__)
  if constexpr (IsStdComplex<M>::value) return M(cuda::std::pow(W(a), W(b)));
#else
  if constexpr (IsStdComplex<M>::value) return M(std::pow(W(a), W(b)));
#endif
  else
    return M(std::pow(W(a), W(b)));
}
template <typename M>
ONEFLOW_PROMOTE_OPS_INLINE M Sqrt(M a) {
  // Real square roots are correctly rounded on both devices.
#if defined(__CUDACC__)
  if constexpr (IsStdComplex<M>::value) return M(cuda::std::sqrt(Wide<M>(a)));
#else
  if constexpr (IsStdComplex<M>::value) return M(std::sqrt(Wide<M>(a)));
#endif
  else
    return M(std::sqrt(a));
}
template <typename M>
ONEFLOW_PROMOTE_OPS_ALWAYS_INLINE M Atan2(M a, M b) {
#if !defined(__CUDA_ARCH__)
  // The same double computation, in a form a loop vectorizes.
  if constexpr (std::is_same_v<M, float>) return FloatAtan2(a, b);
#endif
  return M(std::atan2(Wide<M>(a), Wide<M>(b)));
}
template <typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto Abs(M a) {
  using R = typename M::value_type;  // complex only: real abs is exact
#if defined(__CUDACC__)
  return R(cuda::std::abs(Wide<M>(a)));
#else
  return R(std::abs(Wide<M>(a)));
#endif
}

// The type an element computes in, and the trips between it and storage:
// narrow floats (kIsNarrowFloat, dtype_enum.h) compute in float and round
// once on the way back, complex32 in complex64.
template <typename T, typename = void>
struct Math {
  using type = T;
  ONEFLOW_PROMOTE_OPS_INLINE static T Load(T x) { return x; }
  ONEFLOW_PROMOTE_OPS_INLINE static T Store(T m) { return m; }
};
template <typename T>
struct Math<T, std::enable_if_t<kIsNarrowFloat<T>>> {
  using type = float;
  ONEFLOW_PROMOTE_OPS_INLINE static float Load(T x) { return Convert<float>(x); }
  ONEFLOW_PROMOTE_OPS_INLINE static T Store(float m) { return Convert<T>(m); }
};
template <typename Part>
struct Math<Complex<Part>, void> {
  using Real = std::conditional_t<std::is_same_v<Part, double>, double, float>;
  using type = MathComplex<Real>;
  ONEFLOW_PROMOTE_OPS_INLINE static type Load(Complex<Part> x) {
    return {Convert<Real>(x.real), Convert<Real>(x.imag)};
  }
  ONEFLOW_PROMOTE_OPS_INLINE static Complex<Part> Store(type m) {
    return {Convert<Part>(m.real()), Convert<Part>(m.imag())};
  }
};

template <typename M>
inline constexpr bool kIsInt = std::is_integral_v<M> && !std::is_same_v<M, bool>;

// Wrapping integer arithmetic (signed overflow is undefined in C++).
template <typename M>
ONEFLOW_PROMOTE_OPS_INLINE M WrapAdd(M a, M b) {
  using U = std::make_unsigned_t<M>;
  return static_cast<M>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <typename M>
ONEFLOW_PROMOTE_OPS_INLINE M WrapSub(M a, M b) {
  using U = std::make_unsigned_t<M>;
  return static_cast<M>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
}
template <typename M>
ONEFLOW_PROMOTE_OPS_INLINE M WrapMul(M a, M b) {
  using U = std::make_unsigned_t<M>;
  using Wide = std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;
  return static_cast<M>(
      static_cast<U>(static_cast<Wide>(static_cast<U>(a)) * static_cast<Wide>(static_cast<U>(b))));
}

template <typename M>
ONEFLOW_PROMOTE_OPS_INLINE bool NonZero(M x) {
  if constexpr (IsStdComplex<M>::value) {
    return x.real() != 0 || x.imag() != 0;
  } else {
    return x != M(0);
  }
}

// c ? x : y without a branch on the host, where c is data a branch would
// mispredict half the time (the signs of remainders).
template <typename M>
ONEFLOW_PROMOTE_OPS_INLINE M Select(bool c, M x, M y) {
#if defined(__CUDA_ARCH__)
  return c ? x : y;
#else
  return SelectBits(c, x, y);
#endif
}

// std::fmod; on the host, float_fmod.h's exact answer for floats and
// doubles, without libm's loop.
template <typename M>
[[gnu::always_inline]] ONEFLOW_PROMOTE_OPS_INLINE M Fmod(M a, M b) {
#if !defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<M, float>) return FloatFmod(a, b);
  if constexpr (std::is_same_v<M, double>) return DoubleFmod(a, b);
#endif
  return std::fmod(a, b);
}

// x rounded to storage type T and back: PyTorch's float16 and bfloat16
// arithmetic rounds after each operation, which matters where a later step
// is discontinuous (trunc, floor). Branch-free, so that loops of these
// steps vectorize: Convert's round trip, and on the host float16's in
// float's bits (narrow_rounding.h).
template <typename T, typename M>
ONEFLOW_PROMOTE_OPS_ALWAYS_INLINE M RoundTo(M x) {
#if !defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<M, float> && std::is_same_v<T, Float16>) return RoundedToFloat16(x);
#endif
  return Math<T>::Load(Math<T>::Store(x));
}

// Integer division helpers; b == 0 is caught by the caller.
template <typename M>
ONEFLOW_PROMOTE_OPS_INLINE M TruncDiv(M a, M b) {
  if constexpr (std::is_signed_v<M>) {
    if (b == -1) return WrapSub(M(0), a);  // min / -1 wraps
  }
  return static_cast<M>(a / b);
}
template <typename M>
ONEFLOW_PROMOTE_OPS_INLINE M FloorDiv(M a, M b) {
  const M q = TruncDiv(a, b);
  if constexpr (std::is_signed_v<M>) {
    if (b != -1 && a % b != 0 && ((a < 0) != (b < 0))) return static_cast<M>(q - 1);
  }
  return q;
}
template <typename M>
ONEFLOW_PROMOTE_OPS_INLINE M IntRemainder(M a, M b) {
  if constexpr (std::is_signed_v<M>) {
    if (b == -1) return 0;
    M r = static_cast<M>(a % b);
    if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<M>(r + b);
    return r;
  } else {
    return static_cast<M>(a % b);
  }
}
// PyTorch's div_floor for floating point: exact floor of a/b where it can,
// from mod = fmod(a, b), for a nonzero b. kRound: round each step to the
// storage type T, as PyTorch 2.15's Half and BFloat16 arithmetic does for a
// tensor divisor (identity for float and double); without it the steps run
// in float, as its reduced-float kernel does for a single-element divisor.
template <typename T, bool kRound, typename M>
ONEFLOW_PROMOTE_OPS_ALWAYS_INLINE M FloorDivFromMod(M a, M b, M mod) {
  const auto r = [](M x) {
    if constexpr (kRound)
      return RoundTo<T>(x);
    else
      return x;
  };
  M div = r(r(a - mod) / b);
  div = Select((mod != 0) & ((b < 0) != (mod < 0)), r(div - 1), div);
  const M floor_div = std::floor(div);
  return Select(div == 0, std::copysign(M(0), a / b),
                Select(r(div - floor_div) > M(0.5), r(floor_div + 1), floor_div));
}
template <typename T, bool kRound, typename M>
ONEFLOW_PROMOTE_OPS_INLINE M FloatFloorDiv(M a, M b) {
  if (b == 0) return a / b;
  return FloorDivFromMod<T, kRound>(a, b, Fmod(a, b));
}
// Python's remainder (the divisor's sign) from mod = fmod(a, b).
template <typename M>
ONEFLOW_PROMOTE_OPS_ALWAYS_INLINE M RemainderFromMod(M b, M mod) {
  return Select((mod != 0) & ((b < 0) != (mod < 0)), M(mod + b), mod);
}
template <typename M>
ONEFLOW_PROMOTE_OPS_INLINE M IntPow(M base, M exponent) {
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

// (a + bi) / (c + di) as PyTorch 2.15's vectorized CPU kernels compute it:
// Smith's algorithm (NumPy's), scaled by the larger part of the divisor,
// with fused multiply-adds; x / 0 gives infinities or NaN part by part.
template <typename M>
ONEFLOW_PROMOTE_OPS_ALWAYS_INLINE M ComplexDivide(M x, M y) {
  using R = typename M::value_type;
  const R a = x.real(), b = x.imag(), c = y.real(), d = y.imag();
  const R abs_c = std::fabs(c), abs_d = std::fabs(d);
  if (abs_c >= abs_d) {
    if (abs_c == 0 && abs_d == 0) return M(a / abs_c, b / abs_d);
    const R rat = d / c;
    const R scl = R(1) / std::fma(d, rat, c);
    return M(std::fma(b, rat, a) * scl, std::fma(-a, rat, b) * scl);
  }
  const R rat = c / d;
  const R scl = R(1) / std::fma(c, rat, d);
  return M(std::fma(a, rat, b) * scl, std::fma(b, rat, -a) * scl);
}

// (a + bi) * (c + di) as PyTorch's CPU and CUDA kernels compute it:
// (ac - bd, ad + bc), with none of the C99 Annex G recovery of
// std::complex's operator*, so that (inf+infj) * (inf+nanj) is nan+nanj
// there too.
template <typename M>
ONEFLOW_PROMOTE_OPS_INLINE M ComplexMultiply(M x, M y) {
  return M(x.real() * y.real() - x.imag() * y.imag(), x.real() * y.imag() + x.imag() * y.real());
}

// self + alpha * other as PyTorch's add kernels compute it for any alpha
// (sub runs as add of -alpha; plain add and sub, alpha 1 and -1): one fused
// multiply-add for real floats (the CPU vector loop's fmadd, the
// contraction of its scalar and CUDA loops), the whole complex product (so
// that an infinite part gives a NaN partner exactly where PyTorch's does:
// 0j + inf is (inf, nan)), wrapping integers.
template <typename M>
ONEFLOW_PROMOTE_OPS_INLINE M ScaledAdd(M a, M b, M alpha) {
  if constexpr (std::is_same_v<M, bool>)
    return M(a || (alpha && b));
  else if constexpr (kIsInt<M>)
    return WrapAdd(a, WrapMul(alpha, b));
  else if constexpr (IsStdComplex<M>::value)
    return a + ComplexMultiply(alpha, b);
  else
    return M(std::fma(alpha, b, a));
}

// The ops for which PyTorch 2.15 treats a narrow float's single-element
// second operand specially (its reduced-float kernels): mul and the three
// divisions take it in float, unrounded (op_kernels passes it so), and floor
// and truncating division then run in float rather than step by step in T.
ONEFLOW_PROMOTE_OPS_INLINE constexpr bool TakesScalarInFloat(Op op) {
  return op == Op::kMul || op == Op::kDiv || op == Op::kDivFloor || op == Op::kFloorDivide ||
         op == Op::kDivTrunc;
}
template <Op kOp, typename T>
inline constexpr bool kTakesScalarInFloat = kIsNarrowFloat<T>&& TakesScalarInFloat(kOp);

// The element function of each binary op with a kernel, found by its op's
// tag: one overload an op, or a family's where its ops share their steps, so
// that a new binary op is its row in op_list.h and its function here. T is
// the storage type and M its math type; on the host `zero_division` is set
// by integer division by zero (the result is then 0), which PyTorch's CPU
// kernels raise. kScalarDivisor: b is one element for the whole op
// (kTakesScalarInFloat).
template <Op kOp>
using OpTag = std::integral_constant<Op, kOp>;

// Arithmetic.
template <typename T, bool kScalarDivisor, typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto BinaryMath(OpTag<Op::kAdd>, M a, M b, bool&) {
  if constexpr (std::is_same_v<M, bool>)
    return M(a || b);
  else if constexpr (kIsInt<M>)
    return WrapAdd(a, b);
  else if constexpr (IsStdComplex<M>::value)
    return ScaledAdd(a, b, M(1));
  else
    return M(a + b);
}
template <typename T, bool kScalarDivisor, typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto BinaryMath(OpTag<Op::kSub>, M a, M b, bool&) {
  if constexpr (kIsInt<M>)
    return WrapSub(a, b);
  else if constexpr (IsStdComplex<M>::value)
    return ScaledAdd(a, b, M(-1));
  else
    return M(a - b);
}
template <typename T, bool kScalarDivisor, typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto BinaryMath(OpTag<Op::kMul>, M a, M b, bool&) {
  if constexpr (std::is_same_v<M, bool>)
    return M(a && b);
  else if constexpr (kIsInt<M>)
    return WrapMul(a, b);
  else if constexpr (IsStdComplex<M>::value)
    return ComplexMultiply(a, b);
  else
    return M(a * b);
}
template <typename T, bool kScalarDivisor, typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto BinaryMath(OpTag<Op::kDiv>, M a, M b, bool&) {
  if constexpr (IsStdComplex<M>::value)
    return ComplexDivide(a, b);
  else
    return M(a / b);
}

// Floor, truncating and remainder division: integers divide exactly
// (CUDA kernels: cuda_op_math.h's DeviceBinary), floats as PyTorch rounds.
ONEFLOW_PROMOTE_OPS_INLINE constexpr bool IsRoundingDivision(Op op) {
  return op == Op::kDivFloor || op == Op::kFloorDivide || op == Op::kDivTrunc ||
         op == Op::kRemainder;
}
template <typename T, bool kScalarDivisor, Op kOp, typename M,
          std::enable_if_t<IsRoundingDivision(kOp), int> = 0>
ONEFLOW_PROMOTE_OPS_INLINE auto BinaryMath(OpTag<kOp>, M a, M b, bool& zero_division) {
  if constexpr (kIsInt<M>) {
    if (b == 0) {
      zero_division = true;
      return M(0);
    }
    if constexpr (kOp == Op::kDivTrunc)
      return TruncDiv(a, b);
    else if constexpr (kOp == Op::kRemainder)
      return IntRemainder(a, b);
    else
      return FloorDiv(a, b);
  } else if constexpr (kOp == Op::kDivTrunc && kScalarDivisor) {
    return M(std::trunc(a / b));
  } else if constexpr (kOp == Op::kDivTrunc) {
    return M(std::trunc(RoundTo<T>(M(a / b))));
  } else if constexpr (kOp == Op::kRemainder) {
    return RemainderFromMod(b, Fmod(a, b));
  } else {
    return FloatFloorDiv<T, !kScalarDivisor>(a, b);
  }
}

#if !defined(__CUDA_ARCH__)
// remainder and floor division of T (in float or double, M) as BinaryMath
// computes them, where Fmod's branch-free part holds (`exact` comes back
// true): without a branch, so that a loop of them vectorizes.
ONEFLOW_PROMOTE_OPS_INLINE constexpr bool IsFmodDivision(Op op) {
  return op == Op::kDivFloor || op == Op::kFloorDivide || op == Op::kRemainder;
}
template <Op kOp, typename T, bool kScalarDivisor, typename M,
          std::enable_if_t<IsFmodDivision(kOp), int> = 0>
[[gnu::always_inline]] inline M FmodDivisionInRange(M a, M b, bool& exact) {
  const M mod = FmodInRange(a, b, exact);  // in range: b is finite and nonzero
  if constexpr (kOp == Op::kRemainder) {
    return RemainderFromMod(b, mod);
  } else {
    return FloorDivFromMod<T, !kScalarDivisor>(a, b, mod);
  }
}
#endif

template <typename T, bool kScalarDivisor, typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto BinaryMath(OpTag<Op::kPow>, M a, M b, bool&) {
  if constexpr (std::is_same_v<M, bool>)
    return M(a || !b);  // 0**0 = 1, 0**1 = 0, 1**b = 1
  else if constexpr (kIsInt<M>)
    return IntPow(a, b);
  else
    return Pow<T>(a, b);
}
template <typename T, bool kScalarDivisor, typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto BinaryMath(OpTag<Op::kAtan2>, M a, M b, bool&) {
  return Atan2(a, b);
}

// maximum and minimum: a NaN operand wins.
template <typename T, bool kScalarDivisor, Op kOp, typename M,
          std::enable_if_t<kOp == Op::kMaximum || kOp == Op::kMinimum, int> = 0>
ONEFLOW_PROMOTE_OPS_INLINE auto BinaryMath(OpTag<kOp>, M a, M b, bool&) {
  constexpr bool kMax = kOp == Op::kMaximum;
  if constexpr (std::is_same_v<M, bool>) {
    return kMax ? M(a || b) : M(a && b);
  } else {
    if constexpr (std::is_floating_point_v<M>) {
      if (a != a) return a;
      if (b != b) return b;
    }
    return kMax ? (a < b ? b : a) : (b < a ? b : a);
  }
}

// Comparisons and logical ops: a bool.
template <typename T, bool kScalarDivisor, typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto BinaryMath(OpTag<Op::kEq>, M a, M b, bool&) {
  return a == b;
}
template <typename T, bool kScalarDivisor, typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto BinaryMath(OpTag<Op::kNe>, M a, M b, bool&) {
  return a != b;
}
template <typename T, bool kScalarDivisor, typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto BinaryMath(OpTag<Op::kLt>, M a, M b, bool&) {
  return a < b;
}
template <typename T, bool kScalarDivisor, typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto BinaryMath(OpTag<Op::kLe>, M a, M b, bool&) {
  return a <= b;
}
template <typename T, bool kScalarDivisor, typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto BinaryMath(OpTag<Op::kGt>, M a, M b, bool&) {
  return a > b;
}
template <typename T, bool kScalarDivisor, typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto BinaryMath(OpTag<Op::kGe>, M a, M b, bool&) {
  return a >= b;
}
template <typename T, bool kScalarDivisor, typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto BinaryMath(OpTag<Op::kLogicalAnd>, M a, M b, bool&) {
  return NonZero(a) && NonZero(b);
}
template <typename T, bool kScalarDivisor, typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto BinaryMath(OpTag<Op::kLogicalOr>, M a, M b, bool&) {
  return NonZero(a) || NonZero(b);
}
template <typename T, bool kScalarDivisor, typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto BinaryMath(OpTag<Op::kLogicalXor>, M a, M b, bool&) {
  return NonZero(a) != NonZero(b);
}

// Bitwise ops.
template <typename T, bool kScalarDivisor, typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto BinaryMath(OpTag<Op::kBitwiseAnd>, M a, M b, bool&) {
  return M(a & b);
}
template <typename T, bool kScalarDivisor, typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto BinaryMath(OpTag<Op::kBitwiseOr>, M a, M b, bool&) {
  return M(a | b);
}
template <typename T, bool kScalarDivisor, typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto BinaryMath(OpTag<Op::kBitwiseXor>, M a, M b, bool&) {
  return M(a ^ b);
}

// One binary op on math values of storage type T.
template <Op kOp, typename T, bool kScalarDivisor = false, typename M = typename Math<T>::type>
ONEFLOW_PROMOTE_OPS_INLINE auto Binary(M a, M b, bool& zero_division) {
  return BinaryMath<T, kScalarDivisor>(OpTag<kOp>{}, a, b, zero_division);
}

// The element function of each unary op with a kernel, as BinaryMath.
template <typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto UnaryMath(OpTag<Op::kNeg>, M a) {
  if constexpr (kIsInt<M>)
    return WrapSub(M(0), a);
  else
    return M(-a);
}
template <typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto UnaryMath(OpTag<Op::kAbs>, M a) {
  if constexpr (IsStdComplex<M>::value)
    return Abs(a);
  else if constexpr (std::is_unsigned_v<M>)
    return a;
  else if constexpr (kIsInt<M>)
    return a < 0 ? WrapSub(M(0), a) : a;
  else
    return M(std::fabs(a));
}
template <typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto UnaryMath(OpTag<Op::kSqrt>, M a) {
  return Sqrt(a);
}

template <Op kOp, typename M>
ONEFLOW_PROMOTE_OPS_INLINE auto Unary(M a) {
  return UnaryMath(OpTag<kOp>{}, a);
}

// Whether the op has an elementwise kernel for storage type T: an op of
// op_list.h with Kernel(), on every dtype of its categories that it can
// compute in (not integers for INT_TO_FLOAT ops). pow has a bool kernel too:
// x ** True and x ** False skip the category rule (PowSkipsKernel).
template <Op kOp, typename T>
ONEFLOW_PROMOTE_OPS_INLINE constexpr bool HasKernel() {
  constexpr ops::OpSpec kSpec = ops::SpecOf(kOp);
  if constexpr (!kSpec.has_kernel || kSpec.kind != ops::OpKind::kElementwise) {
    return false;
  } else {
    using M = typename Math<T>::type;
    constexpr bool kBool = std::is_same_v<M, bool>;
    if (kOp == Op::kPow && kBool) return true;
    constexpr uint8_t kCategory = kBool                         ? ops::kBoolCategory
                                  : kIsInt<M>                   ? ops::kIntegerCategories
                                  : std::is_floating_point_v<M> ? ops::kFloatingCategory
                                                                : ops::kComplexCategory;
    uint8_t categories = kSpec.categories;
    if (kSpec.promotion == ops::PromotionKind::kIntToFloat) {
      categories &= ~ops::kBitwiseCategories;
    }
    return (categories & kCategory) != 0;
  }
}

// The storage type of an op's result element, given its math result R:
// bool, T, or (abs of complex) the type of T's parts.
template <typename T, typename R>
using ResultStorage = std::conditional_t<
    std::is_same_v<R, bool>, bool,
    std::conditional_t<std::is_same_v<R, typename Math<T>::type>, T, typename PartOf<T>::type>>;

template <typename S, typename R>
ONEFLOW_PROMOTE_OPS_INLINE S StoreAs(R r) {
  if constexpr (std::is_same_v<S, R>) {
    return r;
  } else {
    return Math<S>::Store(r);
  }
}

// The accumulator of sums and products: 64-bit integers (wrapping), float64,
// or complex128.
template <typename T>
using Accumulator = std::conditional_t<
    kIsInt<T>, T,
    std::conditional_t<IsStdComplex<typename Math<T>::type>::value, MathComplex<double>, double>>;

template <typename T>
ONEFLOW_PROMOTE_OPS_INLINE Accumulator<T> LoadAccumulator(T x) {
  return static_cast<Accumulator<T>>(Math<T>::Load(x));
}

template <typename T, typename A>
ONEFLOW_PROMOTE_OPS_INLINE T StoreAccumulator(A a) {
  if constexpr (kIsInt<T>) {
    return a;
  } else if constexpr (IsStdComplex<A>::value) {
    return Convert<T>(Complex<double>{a.real(), a.imag()});
  } else {
    return Convert<T>(a);
  }
}

// Sums, products and prefix sums run in the op rules' accumulation dtypes:
// an integer dtype (PyTorch's int64; NumPy's uint64 for unsigned ones;
// jax.numpy's int32 or a cumsum's own dtype), or a floating or complex one.
template <typename T>
inline constexpr bool kAccumulates = !std::is_same_v<T, bool>;

// The steps of sums, products and dot products in an Accumulator, the same
// on the CPU and CUDA: integers wrap, as PyTorch's do.
template <typename A>
ONEFLOW_PROMOTE_OPS_INLINE A AccumulateAdd(A acc, A x) {
  if constexpr (kIsInt<A>) {
    return WrapAdd(acc, x);
  } else {
    return acc + x;
  }
}
template <typename A>
ONEFLOW_PROMOTE_OPS_INLINE A AccumulateMul(A acc, A x) {
  if constexpr (kIsInt<A>) {
    return WrapMul(acc, x);
  } else {
    return acc * x;
  }
}

}  // namespace oneflow_promote::functional_internal

#endif  // ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_OP_MATH_H_
