// Device-side pieces shared by the CUDA cast kernels (cast_cuda.cu) and the
// functional frontend's elementwise kernels (cuda_ops.cu): packs of elements
// moved in whole vector accesses, and DeviceConvert, convert.h's element
// semantics with the hardware's exact conversions. nvcc only: include it
// from .cu files.

#ifndef ONEFLOW_PROMOTE_KERNELS_INTERNAL_CUDA_PACK_H_
#define ONEFLOW_PROMOTE_KERNELS_INTERNAL_CUDA_PACK_H_

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "oneflow_promote/convert.h"

namespace oneflow_promote::cast_internal {

// N consecutive elements (N * sizeof(T) a power of two).
template <typename T, int N>
struct alignas(N * sizeof(T)) Pack {
  T values[N];
};

// The built-in vector type of each access width. Loads and stores go
// through it because nvcc splits a plain struct copy of a Pack into element
// accesses in some kernels (8 two-byte stores instead of one 16-byte store
// made bool -> int16 run at a quarter of copy bandwidth).
template <int kBytes>
struct AccessWord;
template <>
struct AccessWord<16> {
  using type = uint4;
};
template <>
struct AccessWord<8> {
  using type = uint2;
};
template <>
struct AccessWord<4> {
  using type = uint32_t;
};
template <>
struct AccessWord<2> {
  using type = uint16_t;
};
template <>
struct AccessWord<1> {
  using type = uint8_t;
};

// The widest access a pack of N elements of T is moved in: the whole pack up
// to 16 bytes, 16-byte pieces of larger ones. A pack at an address aligned to
// this many bytes can be moved whole.
template <typename T, int N>
inline constexpr int kPackAccessBytes = N * sizeof(T) < 16 ? N * sizeof(T) : 16;

// Loads N elements: in kPackAccessBytes accesses when `whole` (the address
// is aligned to them), else element by element.
template <typename T, int N>
__device__ __forceinline__ Pack<T, N> LoadPack(const T* p, bool whole) {
  Pack<T, N> pack;
  if (whole) {
    constexpr int kBytes = kPackAccessBytes<T, N>;
    using Word = typename AccessWord<kBytes>::type;
#pragma unroll
    for (int k = 0; k < static_cast<int>(sizeof(pack)) / kBytes; ++k) {
      const Word word = reinterpret_cast<const Word*>(p)[k];
      memcpy(reinterpret_cast<char*>(&pack) + k * kBytes, &word, kBytes);
    }
  } else {
#pragma unroll
    for (int i = 0; i < N; ++i) pack.values[i] = p[i];
  }
  return pack;
}

// Stores N elements, as LoadPack loads them.
template <typename T, int N>
__device__ __forceinline__ void StorePack(T* p, const Pack<T, N>& pack, bool whole) {
  if (whole) {
    constexpr int kBytes = kPackAccessBytes<T, N>;
    using Word = typename AccessWord<kBytes>::type;
#pragma unroll
    for (int k = 0; k < static_cast<int>(sizeof(pack)) / kBytes; ++k) {
      Word word;
      memcpy(&word, reinterpret_cast<const char*>(&pack) + k * kBytes, kBytes);
      reinterpret_cast<Word*>(p)[k] = word;
    }
  } else {
#pragma unroll
    for (int i = 0; i < N; ++i) p[i] = pack.values[i];
  }
}

__device__ __forceinline__ float HalfBitsToFloat(uint16_t bits) {
  return __half2float(__ushort_as_half(bits));
}

// Sources whose every value float32 holds exactly.
template <typename T>
inline constexpr bool kExactInFloat =
    std::is_same_v<T, bool> ||
    (std::is_integral_v<T> && sizeof(T) <= 2) || convert_internal::kIsMiniFloat<T>;

// The float32 value of a kExactInFloat source, by its cheapest exact route.
template <typename T>
__device__ __forceinline__ float ExactFloat(T value) {
  if constexpr (std::is_same_v<T, Float16>) {
    return HalfBitsToFloat(value.bits);  // cvt.f32.f16
  } else if constexpr (convert_internal::kIsMiniFloat<T>) {
    return convert_internal::MiniFloatToFloat(value);
  } else {
    return static_cast<float>(value);
  }
}

// Rounds a float32 to float16 or bfloat16 on the hardware (cvt.rn.f16.f32,
// cvt.rn.bf16.f32): nearest-even, overflow to inf, as convert.h rounds.
template <typename To>
__device__ __forceinline__ To RoundFloat(float value) {
  if constexpr (std::is_same_v<To, Float16>) {
    return To{__half_as_ushort(__float2half_rn(value))};
  } else {
    return To{__bfloat16_as_ushort(__float2bfloat16_rn(value))};
  }
}

// Convert<To>(from) on the device, with the hardware doing what it does
// exactly: float16 (alone or as complex32's parts) is widened by cvt.f32.f16
// and the float32 converted on, and sources exact in float32 are rounded to
// float16 / bfloat16 by one cvt. The values are convert.h's (NaN payloads
// aside) in a few instructions, where its integer decoding and rounding kept
// those pairs below copy bandwidth (docs/tuning.md, DeviceConvert).
template <typename To, typename From>
__device__ __forceinline__ To DeviceConvert(From from) {
  constexpr bool kToHalfWidth = std::is_same_v<To, Float16> || std::is_same_v<To, BFloat16>;
  if constexpr (std::is_same_v<To, From>) {
    return from;
  } else if constexpr (kToHalfWidth && kExactInFloat<From>) {
    return RoundFloat<To>(ExactFloat(from));
  } else if constexpr (std::is_same_v<From, Float16>) {
    return Convert<To>(HalfBitsToFloat(from.bits));
  } else if constexpr (std::is_same_v<From, Complex<Float16>>) {
    return Convert<To>(
        Complex<float>{HalfBitsToFloat(from.real.bits), HalfBitsToFloat(from.imag.bits)});
  } else {
    return Convert<To>(from);
  }
}

}  // namespace oneflow_promote::cast_internal

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_CUDA_PACK_H_
