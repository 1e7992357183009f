// The DType enum and dtype dispatch, from one X-macro list, with no
// dependencies beyond numeric_types.h.
//
// ONEFLOW_PROMOTE_FOR_EACH_DTYPE is the single source of truth (as
// c10/core/ScalarType.h's list is for PyTorch): the DType enum, canonical
// names, item sizes, categories and host storage types are all expanded from
// it. Adding a dtype starts with one line here; its storage type
// (numeric_types.h), its conversions (oneflow_promote/convert.h), its place in each
// policy's edges (internal/policy_edges.h) and the adapters' dtype maps
// (torch_tensor_traits.cc, the PyTorch extension) follow.
// New dtypes go at the end, as in c10's list, so that the enum values a
// foreign ABI has stored keep their meaning.
// This header is separate from dtype.h so that nvcc, which compiles the CUDA
// kernels, can dispatch on dtypes without reading Abseil or fmt.

#ifndef ONEFLOW_PROMOTE_DTYPE_ENUM_H_
#define ONEFLOW_PROMOTE_DTYPE_ENUM_H_

#include <cstdint>
#include <type_traits>

#include "oneflow_promote/numeric_types.h"

// X(Enumerator, canonical_name, host storage type, Category)
#define ONEFLOW_PROMOTE_FOR_EACH_DTYPE(X)                        \
  X(kBool, bool, bool, kBool)                                    \
  X(kUInt8, uint8, uint8_t, kUnsigned)                           \
  X(kInt8, int8, int8_t, kSigned)                                \
  X(kInt16, int16, int16_t, kSigned)                             \
  X(kInt32, int32, int32_t, kSigned)                             \
  X(kInt64, int64, int64_t, kSigned)                             \
  X(kUInt16, uint16, uint16_t, kUnsigned)                        \
  X(kUInt32, uint32, uint32_t, kUnsigned)                        \
  X(kUInt64, uint64, uint64_t, kUnsigned)                        \
  X(kFloat8E4M3FN, float8_e4m3fn, Float8E4M3FN, kFloating)       \
  X(kFloat8E5M2, float8_e5m2, Float8E5M2, kFloating)             \
  X(kFloat16, float16, Float16, kFloating)                       \
  X(kBFloat16, bfloat16, BFloat16, kFloating)                    \
  X(kFloat32, float32, float, kFloating)                         \
  X(kFloat64, float64, double, kFloating)                        \
  X(kComplex32, complex32, Complex<Float16>, kComplex)           \
  X(kComplex64, complex64, Complex<float>, kComplex)             \
  X(kComplex128, complex128, Complex<double>, kComplex)          \
  X(kBComplex32, bcomplex32, Complex<BFloat16>, kComplex)        \
  X(kFloat8E4M3FNUZ, float8_e4m3fnuz, Float8E4M3FNUZ, kFloating) \
  X(kFloat8E5M2FNUZ, float8_e5m2fnuz, Float8E5M2FNUZ, kFloating) \
  X(kFloat8E8M0FNU, float8_e8m0fnu, Float8E8M0FNU, kFloating)

namespace oneflow_promote {

// The kinds that promotion rules talk about, in PyTorch's order of "higher
// category" (bool < integer < floating < complex); unsigned and signed are
// both integers there but the Array API tells them apart. The list's last
// column.
enum class Category : uint8_t { kBool, kUnsigned, kSigned, kFloating, kComplex };

enum class DType : uint8_t {
#define ONEFLOW_PROMOTE_ENUMERATOR(e, name, type, category) e,
  ONEFLOW_PROMOTE_FOR_EACH_DTYPE(ONEFLOW_PROMOTE_ENUMERATOR)
#undef ONEFLOW_PROMOTE_ENUMERATOR
};

inline constexpr int kNumDTypes = 0
#define ONEFLOW_PROMOTE_COUNT(e, name, type, category) +1
    ONEFLOW_PROMOTE_FOR_EACH_DTYPE(ONEFLOW_PROMOTE_COUNT);
#undef ONEFLOW_PROMOTE_COUNT

// Every dtype, in enum order.
inline constexpr DType kAllDTypes[] = {
#define ONEFLOW_PROMOTE_LIST(e, name, type, category) DType::e,
    ONEFLOW_PROMOTE_FOR_EACH_DTYPE(ONEFLOW_PROMOTE_LIST)
#undef ONEFLOW_PROMOTE_LIST
};

// The dtype's position in kAllDTypes, for table lookups.
[[nodiscard]] constexpr int Index(DType dtype) { return static_cast<int>(dtype); }

// True for the values an enum variable may legally hold. A DType received
// through a foreign ABI (a framework's own enum cast to ours, a C caller) may
// hold anything; check it with this or DTypeFromRaw before using it.
[[nodiscard]] constexpr bool IsValid(DType dtype) {
  return static_cast<unsigned>(dtype) < static_cast<unsigned>(kNumDTypes);
}

// Whether a host storage type is that of a real floating dtype, from the
// list; false for every other type (the ops' math types, say).
template <typename T>
inline constexpr bool kIsFloatingStorage = false;
#define ONEFLOW_PROMOTE_FLOATING_STORAGE(e, name, type, category) \
  template <>                                                     \
  inline constexpr bool kIsFloatingStorage<type> = Category::category == Category::kFloating;
ONEFLOW_PROMOTE_FOR_EACH_DTYPE(ONEFLOW_PROMOTE_FLOATING_STORAGE)
#undef ONEFLOW_PROMOTE_FLOATING_STORAGE

// The real floating types narrower than float32 (float16, bfloat16 and the
// float8 formats), which compute in float32 and round once on the way back.
template <typename T>
inline constexpr bool kIsNarrowFloat = kIsFloatingStorage<T> && sizeof(T) < 4;

// The float8 formats: the one-byte floating types.
template <typename T>
inline constexpr bool kIsFloat8 = kIsFloatingStorage<T> && sizeof(T) == 1;

// Carries a storage type into a generic lambda: `typename decltype(tag)::type`.
template <typename T>
struct TypeTag {
  using type = T;
};

// Calls fn(TypeTag<T>{}) with T the storage type of `dtype`, so that dtype
// dispatch reads like ordinary generic code (as XLA's primitive_util does):
//   size_t bytes = VisitDType(d, [](auto tag) { return sizeof(typename decltype(tag)::type); });
// `dtype` must be valid (check IsValid first for foreign values).
template <typename Fn>
ONEFLOW_PROMOTE_HOST_DEVICE constexpr decltype(auto) VisitDType(DType dtype, Fn&& fn) {
  switch (dtype) {
#define ONEFLOW_PROMOTE_VISIT(e, name, type, category) \
  case DType::e:                                       \
    return fn(TypeTag<type>{});
    ONEFLOW_PROMOTE_FOR_EACH_DTYPE(ONEFLOW_PROMOTE_VISIT)
#undef ONEFLOW_PROMOTE_VISIT
  }
  return fn(TypeTag<bool>{});  // unreachable for valid dtypes
}

}  // namespace oneflow_promote

#endif  // ONEFLOW_PROMOTE_DTYPE_ENUM_H_
