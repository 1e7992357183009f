// Error messages and name lookups for promotion policies, and the laws of
// each policy's order, proved here once rather than in every includer.

#include "oneflow_promote/promotion/policy.h"

#include <array>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace oneflow_promote {
namespace {

namespace il = promotion_internal;

// Every lattice's join commutes, associates and is idempotent (Lattice<>
// has already proved that each is a lattice).
static_assert(il::SatisfiesJoinLaws(TorchLattice::kJoin));
static_assert(il::SatisfiesJoinLaws(ArrayApiLattice::kJoin));
static_assert(il::SatisfiesJoinLaws(JaxLattice::kJoin));
static_assert(il::SatisfiesJoinLaws(JaxX32Lattice::kJoin));
static_assert(il::SatisfiesJoinLaws(JaxStrictLattice::kJoin));
static_assert(il::SatisfiesJoinLaws(MlxLattice::kJoin));
static_assert(il::IsAcyclic(NumpyOrder::kUp), "NumPy's safe casts must form a partial order");

// kNumpyDepartures lists every pair of NumPy's order that has no least upper
// bound, and otherwise only pairs NumPy decides against the join; each
// answer is a common upper bound, and no pair is listed twice.
constexpr bool NumpyDeparturesAreExact() {
  for (int a = 0; a < kNumNodes; ++a) {
    for (int b = 0; b < kNumNodes; ++b) {
      int listed = 0;
      for (const Departure& d : kNumpyDepartures) {
        if ((d.a.index() == a && d.b.index() == b) || (d.a.index() == b && d.b.index() == a)) {
          ++listed;
          if (!NumpyOrder::Reaches(Node::FromIndex(a), d.result) ||
              !NumpyOrder::Reaches(Node::FromIndex(b), d.result) ||
              NumpyOrder::kJoin[a][b] == d.result.index()) {
            return false;
          }
        }
      }
      if (listed > 1) return false;
      if (NumpyOrder::kJoin[a][b] == il::kNoLeastUpperBound && listed == 0) return false;
    }
  }
  return true;
}
static_assert(NumpyDeparturesAreExact(),
              "kNumpyDepartures must list each pair without a least upper bound, and only "
              "pairs whose answer differs from the join");

// Why NumPy's promotion cannot be any order's join: it does not associate.
static_assert(!il::SatisfiesJoinLaws(promotion_internal::kNumpyJoin));
static_assert(PromoteTypes(PromoteTypes(DType::kInt8, DType::kUInt8, Policy::kNumpy).dtype(),
                           DType::kFloat16, Policy::kNumpy)
                  .dtype() == DType::kFloat32);
static_assert(PromoteTypes(DType::kInt8,
                           PromoteTypes(DType::kUInt8, DType::kFloat16, Policy::kNumpy).dtype(),
                           Policy::kNumpy)
                  .dtype() == DType::kFloat16);

// The dtypes InPolicy accepts, in enum order.
template <Policy kPolicy>
constexpr auto DTypesOf() {
  constexpr int kCount = [] {
    int n = 0;
    for (DType d : kAllDTypes) n += promotion_internal::InPolicy(d, kPolicy) ? 1 : 0;
    return n;
  }();
  std::array<DType, kCount> dtypes{};
  int i = 0;
  for (DType d : kAllDTypes) {
    if (promotion_internal::InPolicy(d, kPolicy)) dtypes[i++] = d;
  }
  return dtypes;
}

// The Array API's, in the standard's order (bool, signed, unsigned, ...).
constexpr DType kArrayApiDTypes[] = {
    DType::kBool,    DType::kInt8,      DType::kInt16,      DType::kInt32,  DType::kInt64,
    DType::kUInt8,   DType::kUInt16,    DType::kUInt32,     DType::kUInt64, DType::kFloat32,
    DType::kFloat64, DType::kComplex64, DType::kComplex128,
};
static_assert(std::size(kArrayApiDTypes) == DTypesOf<Policy::kArrayApi>().size());
constexpr auto kNumpyDTypes = DTypesOf<Policy::kNumpy>();
constexpr auto kJaxDTypes = DTypesOf<Policy::kJax>();
constexpr auto kMlxDTypes = DTypesOf<Policy::kMlx>();

std::string DescribeDType(DType dtype) {
  if (IsValid(dtype)) return std::string(Name(dtype));
  return absl::StrCat("<invalid dtype ", static_cast<int>(dtype), ">");
}

}  // namespace

absl::string_view PolicyName(Policy policy) {
  switch (policy) {
    case Policy::kTorch:
      return "torch";
    case Policy::kArrayApi:
      return "array_api";
    case Policy::kNumpy:
      return "numpy";
    case Policy::kJax:
      return "jax";
    case Policy::kJaxX32:
      return "jax_x32";
    case Policy::kJaxStrict:
      return "jax_strict";
    case Policy::kMlx:
      return "mlx";
  }
  return "invalid";
}

absl::StatusOr<Policy> ParsePolicy(absl::string_view name) {
  std::vector<absl::string_view> names;
  for (Policy policy : kAllPolicies) {
    if (PolicyName(policy) == name) return policy;
    names.push_back(PolicyName(policy));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown policy '", name, "'; expected ", absl::StrJoin(names, ", ")));
}

absl::Span<const DType> PolicyDTypes(Policy policy) {
  switch (policy) {
    case Policy::kTorch:
      return kAllDTypes;
    case Policy::kArrayApi:
      return kArrayApiDTypes;
    case Policy::kNumpy:
      return kNumpyDTypes;
    case Policy::kJax:
    case Policy::kJaxX32:
    case Policy::kJaxStrict:
      return kJaxDTypes;
    case Policy::kMlx:
      return kMlxDTypes;
  }
  return {};
}

std::string promotion_internal::NoPromotionMessage(absl::string_view a, absl::string_view b,
                                                   bool float8, Policy policy) {
  switch (policy) {
    case Policy::kJax:
    case Policy::kJaxX32:
    case Policy::kJaxStrict:
      // JAX's TypePromotionError, with our names for its types.
      return absl::StrCat(
          "Input dtypes ('", a, "', '", b, "') have no available implicit dtype promotion path",
          policy == Policy::kJaxStrict ? " when jax_numpy_dtype_promotion=strict" : "",
          float8 && policy != Policy::kJaxStrict
              ? ". To avoid unintended promotion, 8-bit floats do not support implicit promotion"
              : "");
    default:
      // array-api-strict's wording; torch's core lattice, NumPy and MLX have no such pair.
      return absl::StrCat(a, " and ", b, " cannot be type promoted together");
  }
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
    case PromotionError::kInvalidPolicy:
      return absl::InvalidArgumentError(absl::StrCat("cannot promote ", a, " and ", b, ": policy ",
                                                     static_cast<int>(policy_),
                                                     " is not a valid policy"));
    case PromotionError::kNotInPolicy: {
      const DType outside = promotion_internal::InPolicy(a_, policy_) ? b_ : a_;
      return absl::InvalidArgumentError(
          absl::StrCat(DescribeDType(outside), " is not a dtype of the ", PolicyName(policy_),
                       " policy, so ", a, " and ", b, " cannot be type promoted together"));
    }
    case PromotionError::kNoCommonType:
      return absl::InvalidArgumentError(
          promotion_internal::NoPromotionMessage(a, b, IsFloat8(a_) || IsFloat8(b_), policy_));
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
  const int complex = IsValid(dtype) ? promotion_internal::ComplexIndexOf(dtype) : -1;
  if (complex < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("there is no complex dtype for ", DescribeDType(dtype)));
  }
  return static_cast<DType>(complex);
}

}  // namespace oneflow_promote
