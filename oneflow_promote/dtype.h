// The dtypes oneflow_promote knows: names, sizes, categories, parsing.
//
// Everything here is expanded from the X-macro list in dtype_enum.h (the
// enum, the dtype visitor and the list itself live there, free of Abseil and
// fmt, for nvcc).

#ifndef ONEFLOW_PROMOTE_DTYPE_H_
#define ONEFLOW_PROMOTE_DTYPE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "oneflow_promote/dtype_enum.h"
#include "oneflow_promote/numeric_types.h"

namespace oneflow_promote {

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
// The float8 formats: the one-byte floating dtypes of the list (as
// kIsFloat8 is for storage types, dtype_enum.h).
[[nodiscard]] constexpr bool IsFloat8(DType d) { return IsFloating(d) && ItemSize(d) == 1; }

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
  template <>                                             \
  struct DTypeOf<type> : std::integral_constant<DType, DType::e> {};
ONEFLOW_PROMOTE_FOR_EACH_DTYPE(ONEFLOW_PROMOTE_DTYPE_OF)
#undef ONEFLOW_PROMOTE_DTYPE_OF

}  // namespace oneflow_promote

#endif  // ONEFLOW_PROMOTE_DTYPE_H_
