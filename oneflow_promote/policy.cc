// Error messages and name lookups for promotion policies.

#include "oneflow_promote/policy.h"

#include "absl/strings/str_cat.h"

namespace oneflow_promote {
namespace {

constexpr DType kArrayApiDTypes[] = {
    DType::kBool,    DType::kInt8,    DType::kInt16,     DType::kInt32,      DType::kInt64,
    DType::kUInt8,   DType::kUInt16,  DType::kUInt32,    DType::kUInt64,     DType::kFloat32,
    DType::kFloat64, DType::kComplex64, DType::kComplex128,
};

std::string DescribeDType(DType dtype) {
  if (IsValid(dtype)) return std::string(Name(dtype));
  return absl::StrCat("<invalid dtype ", static_cast<int>(dtype), ">");
}

}  // namespace

absl::string_view PolicyName(Policy policy) {
  return policy == Policy::kTorch ? "torch" : "array_api";
}

absl::StatusOr<Policy> ParsePolicy(absl::string_view name) {
  for (Policy policy : kAllPolicies) {
    if (PolicyName(policy) == name) return policy;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown policy '", name, "'; expected torch or array_api"));
}

absl::Span<const DType> PolicyDTypes(Policy policy) {
  if (policy == Policy::kTorch) return kAllDTypes;
  return kArrayApiDTypes;
}

absl::Status Promotion::status() const {
  const std::string a = DescribeDType(a_);
  const std::string b = DescribeDType(b_);
  switch (error_) {
    case PromotionError::kNone:
      return absl::OkStatus();
    case PromotionError::kInvalidDType:
      return absl::InvalidArgumentError(
          absl::StrCat("cannot promote ", a, " and ", b, ": not a valid dtype"));
    case PromotionError::kNotInPolicy: {
      const DType outside = IsValid(a_) && internal_policy::InArrayApi(a_) ? b_ : a_;
      return absl::InvalidArgumentError(absl::StrCat(
          DescribeDType(outside), " is not a dtype of the ", PolicyName(policy_),
          " policy, so ", a, " and ", b, " cannot be type promoted together"));
    }
    case PromotionError::kNoCommonType:
      // array-api-strict's wording; torch's core lattice has no such pair.
      return absl::InvalidArgumentError(
          absl::StrCat(a, " and ", b, " cannot be type promoted together"));
    case PromotionError::kFloat8:
      return absl::InvalidArgumentError(absl::StrCat(
          "Promotion for Float8 Types is not supported, attempted to promote ", a, " and ", b));
    case PromotionError::kBarebonesUnsigned:
      return absl::InvalidArgumentError(
          absl::StrCat("Promotion for uint16, uint32, uint64 types is not supported, "
                       "attempted to promote ",
                       a, " and ", b));
  }
  return absl::InternalError("unknown promotion error");
}

absl::StatusOr<DType> ToComplex(DType dtype) {
  const int complex = IsValid(dtype) ? internal_policy::ComplexIndexOf(dtype) : -1;
  if (complex < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("there is no complex dtype for ", DescribeDType(dtype)));
  }
  return static_cast<DType>(complex);
}

}  // namespace oneflow_promote
