// The element functions of the CUDA kernels where PyTorch's CUDA kernels
// compute otherwise than its CPU kernels (which op_math.h follows): integer
// division with no check of the divisor, floor division rounding its floor
// into the storage type, atan2 in the math type's own function, and a
// divisor that is a host scalar (a Python number or a CPU 0-d tensor)
// applied as a multiplication by its reciprocal, and complex32 division by
// libc++'s algorithm (the jiterator's). Read from PyTorch's
// BinaryDivFloorKernel.cu, BinaryDivTrueKernel.cu, BinaryDivTruncKernel.cu,
// BinaryRemainderKernel.cu and BinaryGeometricKernels.cu; docs/ops.md
// states each difference from the CPU. For nvcc only.

#ifndef ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_CUDA_OP_MATH_H_
#define ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_CUDA_OP_MATH_H_

#include <type_traits>

#include "functional/internal/op_math.h"

namespace oneflow_promote::functional_internal {

inline constexpr bool IsDivision(Op op) {
  return op == Op::kDiv || op == Op::kDivFloor || op == Op::kFloorDivide || op == Op::kDivTrunc;
}

// Integer division as c10::div_floor_integer and the remainder kernel write
// it, with no check of the divisor: a zero divisor gives the device's own
// answer, as there.
template <Op kOp, typename M>
__device__ inline M DeviceIntDivide(M a, M b) {
  if constexpr (kOp == Op::kDivTrunc || std::is_unsigned_v<M>) {
    if constexpr (kOp == Op::kRemainder)
      return static_cast<M>(a % b);
    else
      return static_cast<M>(a / b);
  } else if constexpr (kOp == Op::kRemainder) {
    M r = static_cast<M>(a % b);
    if (r != 0 && (r < 0) != (b < 0)) r = static_cast<M>(r + b);
    return r;
  } else {
    if ((a < 0) == (b < 0)) return static_cast<M>(a / b);
    const M quotient = static_cast<M>(a / b);
    return static_cast<M>(a % b) != 0 ? static_cast<M>(quotient - 1) : quotient;
  }
}

// c10::div_floor_floating on the storage type T: the quotient in the math
// type, its floor rounded into T (a Half or BFloat16 variable there).
// `by_reciprocal`: the host-scalar kernel's (a - mod) * (1 / b).
template <typename T, typename M>
__device__ inline M DeviceFloatFloorDiv(M a, M b, M inverse_b, bool by_reciprocal) {
  if (b == 0) return by_reciprocal ? a * inverse_b : a / b;
  const M mod = std::fmod(a, b);
  M div = by_reciprocal ? (a - mod) * inverse_b : (a - mod) / b;
  if (mod != 0 && (b < 0) != (mod < 0)) div -= M(1);
  if (div == 0) return std::copysign(M(0), by_reciprocal ? a * inverse_b : a / b);
  M floor_div = RoundTo<T>(std::floor(div));
  if (div - floor_div > M(0.5)) floor_div = RoundTo<T>(floor_div + M(1));
  return floor_div;
}

// complex32 (and bcomplex32) division as PyTorch's jitted CUDA kernel
// computes it: in complex<float>, by libc++'s std::complex operator/ (the
// jiterator compiles libc++'s <complex>): the divisor scaled by a power of
// two, then C99 Annex G's recovery of infinities and zeros.
template <typename M>
__device__ inline M LibcxxComplexDivide(M z, M w) {
  using R = typename M::value_type;
  int ilogbw = 0;
  R a = z.real(), b = z.imag(), c = w.real(), d = w.imag();
  const R logbw = logb(fmax(fabs(c), fabs(d)));
  if (isfinite(logbw)) {
    ilogbw = static_cast<int>(logbw);
    c = scalbn(c, -ilogbw);
    d = scalbn(d, -ilogbw);
  }
  const R denom = c * c + d * d;
  R x = scalbn((a * c + b * d) / denom, -ilogbw);
  R y = scalbn((b * c - a * d) / denom, -ilogbw);
  if (isnan(x) && isnan(y)) {
    if (denom == R(0) && (!isnan(a) || !isnan(b))) {
      x = copysign(R(INFINITY), c) * a;
      y = copysign(R(INFINITY), c) * b;
    } else if ((isinf(a) || isinf(b)) && isfinite(c) && isfinite(d)) {
      a = copysign(isinf(a) ? R(1) : R(0), a);
      b = copysign(isinf(b) ? R(1) : R(0), b);
      x = R(INFINITY) * (a * c + b * d);
      y = R(INFINITY) * (b * c - a * d);
    } else if (isinf(logbw) && logbw > R(0) && isfinite(a) && isfinite(b)) {
      c = copysign(isinf(c) ? R(1) : R(0), c);
      d = copysign(isinf(d) ? R(1) : R(0), d);
      x = R(0) * (a * c + b * d);
      y = R(0) * (b * c - a * d);
    }
  }
  return M(x, y);
}

template <typename T>
inline constexpr bool kIsNarrowComplex =
    std::is_same_v<T, Complex<Float16>> || std::is_same_v<T, Complex<BFloat16>>;

// One binary op on math values of storage type T, as PyTorch's CUDA
// kernel computes it for tensor operands.
template <Op kOp, typename T, typename M = typename Math<T>::type>
__device__ inline auto DeviceBinary(M a, M b) {
  constexpr bool kIntDivision = kIsInt<M> && (IsDivision(kOp) || kOp == Op::kRemainder);
  if constexpr (kIntDivision) {
    return DeviceIntDivide<kOp>(a, b);
  } else if constexpr ((kOp == Op::kDivFloor || kOp == Op::kFloorDivide) &&
                       std::is_floating_point_v<M>) {
    return DeviceFloatFloorDiv<T>(a, b, M(0), false);
  } else if constexpr (kOp == Op::kDiv && kIsNarrowComplex<T>) {
    return LibcxxComplexDivide(a, b);
  } else if constexpr (kOp == Op::kAtan2 && std::is_floating_point_v<M>) {
    return M(::atan2(a, b));  // atan2f for float, float16 and bfloat16
  } else {
    bool unused = false;
    return Binary<kOp, T>(a, b, unused);
  }
}

// Whether PyTorch's CUDA kernel applies a host-scalar divisor through its
// reciprocal: true, floor and truncating division of floating types, and
// true division of complex64 and complex128 (complex32 has a kernel of its
// own, which divides; bcomplex32 is taken to follow it).
template <Op kOp, typename T, typename M = typename Math<T>::type>
inline constexpr bool kDividesByReciprocal = IsDivision(kOp) &&
                                             (std::is_floating_point_v<M> ||
                                              (kOp == Op::kDiv && IsStdComplex<M>::value &&
                                               !kIsNarrowComplex<T>));

// 1 / b as PyTorch computes it on the host before the launch: for complex,
// c10::complex's operator/ step by step, with no fused multiply-add (the
// host code's), which nvcc would otherwise contract.
template <typename M>
__device__ inline M HostReciprocal(M b) {
  if constexpr (IsStdComplex<M>::value) {
    using R = typename M::value_type;
    constexpr bool kFloat = std::is_same_v<R, float>;
    const auto mul = [](R x, R y) { return kFloat ? __fmul_rn(x, y) : __dmul_rn(x, y); };
    const auto add = [](R x, R y) { return kFloat ? __fadd_rn(x, y) : __dadd_rn(x, y); };
    const auto sub = [](R x, R y) { return kFloat ? __fsub_rn(x, y) : __dsub_rn(x, y); };
    const R a = 1, bi = 0, c = b.real(), d = b.imag();
    const R abs_c = c < 0 ? -c : c, abs_d = d < 0 ? -d : d;
    if (abs_c >= abs_d) {
      if (abs_c == 0 && abs_d == 0) return M(a / abs_c, bi / abs_d);
      const R rat = d / c;
      const R scl = R(1) / add(c, mul(d, rat));
      return M(mul(add(a, mul(bi, rat)), scl), mul(sub(bi, mul(a, rat)), scl));
    }
    const R rat = c / d;
    const R scl = R(1) / add(d, mul(c, rat));
    return M(mul(add(mul(a, rat), bi), scl), mul(sub(mul(bi, rat), a), scl));
  } else {
    return M(1) / b;
  }
}

// a / b for a host-scalar b, given 1 / b in the math type.
template <Op kOp, typename T, typename M = typename Math<T>::type>
__device__ inline M DeviceDivideByHostScalar(M a, M b, M inverse_b) {
  if constexpr (kOp == Op::kDiv) {
    if constexpr (IsStdComplex<M>::value)
      return ComplexMultiply(a, inverse_b);
    else
      return a * inverse_b;
  } else if constexpr (kOp == Op::kDivTrunc) {
    return std::trunc(a * inverse_b);
  } else {
    return DeviceFloatFloorDiv<T>(a, b, inverse_b, true);
  }
}

}  // namespace oneflow_promote::functional_internal

#endif  // ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_CUDA_OP_MATH_H_
