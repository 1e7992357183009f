// The dtypes oneflow_promote knows, from one X-macro list.
//
// ONEFLOW_PROMOTE_FOR_EACH_DTYPE is the single source of truth (as
// c10/core/ScalarType.h's list is for PyTorch): the DType enum, canonical
// names, item sizes, categories and host storage types are all expanded from
// it, so adding a dtype is one line here plus its place in each policy.

#ifndef ONEFLOW_PROMOTE_DTYPE_H_
#define ONEFLOW_PROMOTE_DTYPE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "fmt/format.h"
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
  X(kComplex128, complex128, Complex<double>, kComplex)

namespace oneflow_promote {

enum class DType : uint8_t {
#define ONEFLOW_PROMOTE_ENUMERATOR(e, name, type, category) e,
  ONEFLOW_PROMOTE_FOR_EACH_DTYPE(ONEFLOW_PROMOTE_ENUMERATOR)
#undef ONEFLOW_PROMOTE_ENUMERATOR
};

// The kinds that promotion rules talk about, in PyTorch's order of "higher
// category" (bool < integer < floating < complex); unsigned and signed are
// both integers there but the Array API tells them apart.
enum class Category : uint8_t { kBool, kUnsigned, kSigned, kFloating, kComplex };

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

// Canonical lower-case name ("float32"), or "invalid" for a value outside
// the enum.
[[nodiscard]] constexpr absl::string_view Name(DType dtype) {
  switch (dtype) {
#define ONEFLOW_PROMOTE_NAME(e, name, type, category) \
  case DType::e:                                      \
    return #name;
    ONEFLOW_PROMOTE_FOR_EACH_DTYPE(ONEFLOW_PROMOTE_NAME)
#undef ONEFLOW_PROMOTE_NAME
  }
  return "invalid";
}

// Bytes per element.
[[nodiscard]] constexpr size_t ItemSize(DType dtype) {
  switch (dtype) {
#define ONEFLOW_PROMOTE_SIZE(e, name, type, category) \
  case DType::e:                                      \
    return sizeof(type);
    ONEFLOW_PROMOTE_FOR_EACH_DTYPE(ONEFLOW_PROMOTE_SIZE)
#undef ONEFLOW_PROMOTE_SIZE
  }
  return 0;
}

[[nodiscard]] constexpr Category CategoryOf(DType dtype) {
  switch (dtype) {
#define ONEFLOW_PROMOTE_CATEGORY(e, name, type, category) \
  case DType::e:                                          \
    return Category::category;
    ONEFLOW_PROMOTE_FOR_EACH_DTYPE(ONEFLOW_PROMOTE_CATEGORY)
#undef ONEFLOW_PROMOTE_CATEGORY
  }
  return Category::kBool;
}

[[nodiscard]] constexpr bool IsBool(DType d) { return CategoryOf(d) == Category::kBool; }
[[nodiscard]] constexpr bool IsIntegral(DType d) {
  return CategoryOf(d) == Category::kSigned || CategoryOf(d) == Category::kUnsigned;
}
// Real floating point (float8 through float64); complex is not "floating" here.
[[nodiscard]] constexpr bool IsFloating(DType d) { return CategoryOf(d) == Category::kFloating; }
[[nodiscard]] constexpr bool IsComplex(DType d) { return CategoryOf(d) == Category::kComplex; }
[[nodiscard]] constexpr bool IsFloat8(DType d) {
  return d == DType::kFloat8E4M3FN || d == DType::kFloat8E5M2;
}

// "Category" as the promotion rules order it: bool 0, integer 1, floating 2,
// complex 3 (signed and unsigned are one category there).
[[nodiscard]] constexpr int CategoryRank(DType d) {
  switch (CategoryOf(d)) {
    case Category::kBool:
      return 0;
    case Category::kUnsigned:
    case Category::kSigned:
      return 1;
    case Category::kFloating:
      return 2;
    case Category::kComplex:
      return 3;
  }
  return 0;
}

// Human-readable name of a category ("signed integer").
[[nodiscard]] absl::string_view CategoryName(Category category);

// Parses a canonical dtype name; the error names the text and lists the
// accepted names.
[[nodiscard]] absl::StatusOr<DType> ParseDType(absl::string_view name);

// Converts a raw enum value from a foreign ABI, rejecting out-of-range values.
[[nodiscard]] absl::StatusOr<DType> DTypeFromRaw(int raw);

// Maps a C++ storage type to its dtype: DTypeOf<float>::value == kFloat32.
template <typename T>
struct DTypeOf;
#define ONEFLOW_PROMOTE_DTYPE_OF(e, name, type, category) \
  template <>                                            \
  struct DTypeOf<type> : std::integral_constant<DType, DType::e> {};
ONEFLOW_PROMOTE_FOR_EACH_DTYPE(ONEFLOW_PROMOTE_DTYPE_OF)
#undef ONEFLOW_PROMOTE_DTYPE_OF

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
constexpr decltype(auto) VisitDType(DType dtype, Fn&& fn) {
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

// fmt::format("{}", dtype) writes the canonical name.
template <>
struct fmt::formatter<oneflow_promote::DType> : fmt::formatter<fmt::string_view> {
  template <typename FormatContext>
  auto format(oneflow_promote::DType dtype, FormatContext& ctx) const {
    const absl::string_view name = oneflow_promote::Name(dtype);
    return fmt::formatter<fmt::string_view>::format(fmt::string_view(name.data(), name.size()),
                                                    ctx);
  }
};

#endif  // ONEFLOW_PROMOTE_DTYPE_H_
