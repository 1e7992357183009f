// Name parsing and validation for DType.

#include "oneflow_promote/dtype.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace oneflow_promote {

absl::string_view CategoryName(Category category) {
  switch (category) {
    case Category::kBool:
      return "bool";
    case Category::kUnsigned:
      return "unsigned integer";
    case Category::kSigned:
      return "signed integer";
    case Category::kFloating:
      return "floating";
    case Category::kComplex:
      return "complex";
  }
  return "invalid";
}

absl::StatusOr<DType> ParseDType(absl::string_view name) {
  for (DType dtype : kAllDTypes) {
    if (Name(dtype) == name) return dtype;
  }
  std::vector<absl::string_view> names;
  for (DType dtype : kAllDTypes) names.push_back(Name(dtype));
  return absl::InvalidArgumentError(
      absl::StrCat("unknown dtype '", name, "'; expected one of: ", absl::StrJoin(names, ", ")));
}

absl::StatusOr<DType> DTypeFromRaw(int raw) {
  if (raw < 0 || raw >= kNumDTypes) {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid dtype enum value ", raw, "; valid values are 0 to ", kNumDTypes - 1));
  }
  return static_cast<DType>(raw);
}

}  // namespace oneflow_promote
