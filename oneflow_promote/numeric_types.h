// Host storage types for the dtypes that C++ has no built-in type for.
//
// float16, bfloat16 and the float8 formats are stored as their raw bits,
// and complex numbers as a pair of parts, in plain trivially copyable structs:
//  - the same struct layout is valid in host code, in CUDA device code and
//    across a C ABI, so a tensor's bytes can be reinterpreted without copies;
//  - no arithmetic is implied: every conversion goes through the cast kernels
//    (kernels/), which define one rounding and overflow behaviour for all
//    devices, instead of whatever a compiler's _Float16 or __half does;
//  - the core library depends on no CUDA header.
// Complex<T> has the layout of std::complex<T> (and of c10::complex<T>), with
// alignment twice the part's, which is what 16-byte vector loads rely on.

#ifndef ONEFLOW_PROMOTE_NUMERIC_TYPES_H_
#define ONEFLOW_PROMOTE_NUMERIC_TYPES_H_

#include <cstdint>

#if defined(__CUDACC__)
#define ONEFLOW_PROMOTE_HOST_DEVICE __host__ __device__
#else
#define ONEFLOW_PROMOTE_HOST_DEVICE
#endif

namespace oneflow_promote {

// IEEE 754 binary16: 1 sign, 5 exponent, 10 mantissa bits.
struct Float16 {
  uint16_t bits;
};

// bfloat16: the upper half of a float32 (1 sign, 8 exponent, 7 mantissa bits).
struct BFloat16 {
  uint16_t bits;
};

// OCP FP8 E4M3 "fn" (finite, NaN = S.1111.111): no infinities, max 448.
struct Float8E4M3FN {
  uint8_t bits;
};

// OCP FP8 E5M2: IEEE-like, with infinities and NaNs, max 57344.
struct Float8E5M2 {
  uint8_t bits;
};

// The "fnuz" float8 formats (as on AMD and Graphcore hardware): exponent
// bias one higher than IEEE's, no infinities, no negative zero, and one NaN,
// 1000.0000. E4M3 with bias 8 (max 240), E5M2 with bias 16 (max 57344).
struct Float8E4M3FNUZ {
  uint8_t bits;
};
struct Float8E5M2FNUZ {
  uint8_t bits;
};

// OCP MX scale format E8M0: an unsigned power of two, 2^(bits - 127), with
// no zero, no sign and NaN = 1111.1111.
struct Float8E8M0FNU {
  uint8_t bits;
};

// A complex number as two parts of type T.
template <typename T>
struct alignas(2 * sizeof(T)) Complex {
  T real;
  T imag;
};

// The storage type of a complex type's parts (T itself for the others).
template <typename T>
struct PartOf {
  using type = T;
};
template <typename P>
struct PartOf<Complex<P>> {
  using type = P;
};

static_assert(sizeof(Float16) == 2 && sizeof(BFloat16) == 2, "16-bit storage");
static_assert(sizeof(Float8E4M3FN) == 1 && sizeof(Float8E5M2) == 1 && sizeof(Float8E4M3FNUZ) == 1 &&
                  sizeof(Float8E5M2FNUZ) == 1 && sizeof(Float8E8M0FNU) == 1,
              "8-bit storage");
static_assert(sizeof(Complex<Float16>) == 4 && alignof(Complex<Float16>) == 4, "complex32");
static_assert(sizeof(Complex<BFloat16>) == 4 && alignof(Complex<BFloat16>) == 4, "bcomplex32");
static_assert(sizeof(Complex<double>) == 16 && alignof(Complex<double>) == 16, "complex128");

}  // namespace oneflow_promote

#endif  // ONEFLOW_PROMOTE_NUMERIC_TYPES_H_
