// Promotion policies and PromoteTypes: the dtype two operands of one kind
// promote to, derived at compile time from each policy's lattice edges.
//
//   constexpr Promotion p = PromoteTypes(DType::kUInt8, DType::kInt8, Policy::kTorch);
//   static_assert(p.ok() && p.dtype() == DType::kInt16);
//
// A failed promotion is a value (Promotion::ok() is false) that knows both
// dtypes and why, and turns into an absl::Status with PyTorch's or
// array-api-strict's wording. There is no "invalid dtype" that doubles as an
// identity element, so an error can never be absorbed mid-fold.

#ifndef ONEFLOW_PROMOTE_POLICY_H_
#define ONEFLOW_PROMOTE_POLICY_H_

#include <cstdint>
#include <iterator>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/internal/lattice.h"

namespace oneflow_promote {

enum class Policy : uint8_t {
  // PyTorch 2.15: its table for the core dtypes (bcomplex32 included), plus
  // its guards for float8 and uint16/uint32/uint64.
  kTorch,
  // The Python Array API standard, 2024.12.
  kArrayApi,
};

inline constexpr Policy kAllPolicies[] = {Policy::kTorch, Policy::kArrayApi};

// "torch" or "array_api".
[[nodiscard]] absl::string_view PolicyName(Policy policy);
[[nodiscard]] absl::StatusOr<Policy> ParsePolicy(absl::string_view name);

// The lattice edges of each policy.
inline constexpr Edge kTorchEdges[] = {
    {DType::kBool, DType::kUInt8},          {DType::kBool, DType::kInt8},
    {DType::kUInt8, DType::kInt16},         {DType::kInt8, DType::kInt16},
    {DType::kInt16, DType::kInt32},         {DType::kInt32, DType::kInt64},
    {DType::kInt64, DType::kFloat16},       {DType::kInt64, DType::kBFloat16},
    {DType::kFloat16, DType::kFloat32},     {DType::kBFloat16, DType::kFloat32},
    {DType::kFloat32, DType::kFloat64},     {DType::kFloat16, DType::kComplex32},
    {DType::kComplex32, DType::kComplex64}, {DType::kFloat32, DType::kComplex64},
    {DType::kComplex64, DType::kComplex128}, {DType::kFloat64, DType::kComplex128},
    {DType::kBFloat16, DType::kBComplex32}, {DType::kBComplex32, DType::kComplex64},
};

inline constexpr Edge kArrayApiEdges[] = {
    {DType::kInt8, DType::kInt16},          {DType::kInt16, DType::kInt32},
    {DType::kInt32, DType::kInt64},         {DType::kUInt8, DType::kUInt16},
    {DType::kUInt16, DType::kUInt32},       {DType::kUInt32, DType::kUInt64},
    {DType::kUInt8, DType::kInt16},         {DType::kUInt16, DType::kInt32},
    {DType::kUInt32, DType::kInt64},        {DType::kFloat32, DType::kFloat64},
    {DType::kComplex64, DType::kComplex128}, {DType::kFloat32, DType::kComplex64},
    {DType::kFloat64, DType::kComplex128},
};

using TorchLattice = Lattice<std::size(kTorchEdges), kTorchEdges>;
using ArrayApiLattice = Lattice<std::size(kArrayApiEdges), kArrayApiEdges>;

// The dtypes a policy gives meaning to; any other dtype is an error in it.
// Torch: all of them. Array API: the 13 the standard defines.
[[nodiscard]] absl::Span<const DType> PolicyDTypes(Policy policy);

// Why two dtypes have no promotion.
enum class PromotionError : uint8_t {
  kNone,
  kInvalidDType,        // an enum value outside DType (foreign ABI)
  kNotInPolicy,         // a dtype the policy does not define (Array API float16)
  kNoCommonType,        // no common upper bound in the lattice
  kFloat8,              // torch: float8 with anything else
  kBarebonesUnsigned,   // torch: uint16/32/64 with a non-floating dtype
};

// The outcome of PromoteTypes: a dtype, or an error that remembers the pair.
class Promotion {
 public:
  [[nodiscard]] static constexpr Promotion Of(DType dtype) {
    return Promotion(dtype, dtype, PromotionError::kNone, Policy::kTorch);
  }
  [[nodiscard]] static constexpr Promotion Failure(PromotionError error, DType a, DType b,
                                                   Policy policy) {
    return Promotion(a, b, error, policy);
  }

  [[nodiscard]] constexpr bool ok() const { return error_ == PromotionError::kNone; }
  // The promoted dtype; only meaningful when ok().
  [[nodiscard]] constexpr DType dtype() const { return a_; }
  [[nodiscard]] constexpr PromotionError error() const { return error_; }

  // OK, or InvalidArgument with a message naming both dtypes in the wording
  // of the library the policy follows.
  [[nodiscard]] absl::Status status() const;
  [[nodiscard]] absl::StatusOr<DType> ToStatusOr() const {
    if (ok()) return dtype();
    return status();
  }

  friend constexpr bool operator==(const Promotion& x, const Promotion& y) {
    return x.ok() ? (y.ok() && x.a_ == y.a_) : (!y.ok() && x.error_ == y.error_);
  }
  friend constexpr bool operator!=(const Promotion& x, const Promotion& y) { return !(x == y); }

 private:
  constexpr Promotion(DType a, DType b, PromotionError error, Policy policy)
      : a_(a), b_(b), error_(error), policy_(policy) {}

  DType a_;  // the result when ok(), else the first operand
  DType b_;
  PromotionError error_;
  Policy policy_;
};

namespace internal_policy {

// The derived tables, one byte per pair: a DType index, or kNumDTypes plus a
// PromotionError. Computed once by the compiler from the lattices.
using PromotionTable = std::array<std::array<uint8_t, kNumDTypes>, kNumDTypes>;

[[nodiscard]] constexpr uint8_t Encode(PromotionError error) {
  return static_cast<uint8_t>(kNumDTypes + static_cast<int>(error));
}

[[nodiscard]] constexpr bool InArrayApi(DType d) {
  return !IsFloat8(d) && d != DType::kFloat16 && d != DType::kBFloat16 &&
         d != DType::kComplex32 && d != DType::kBComplex32;
}

[[nodiscard]] constexpr bool IsBarebonesUnsigned(DType d) {
  return d == DType::kUInt16 || d == DType::kUInt32 || d == DType::kUInt64;
}

// PyTorch's promoteTypes: equal dtypes first, then the float8 guard, then
// the uint16/32/64 guard, then the table (here: the lattice join).
[[nodiscard]] constexpr uint8_t TorchEntry(DType a, DType b) {
  if (a == b) return static_cast<uint8_t>(Index(a));
  if (IsFloat8(a) || IsFloat8(b)) return Encode(PromotionError::kFloat8);
  if (IsBarebonesUnsigned(a) || IsBarebonesUnsigned(b)) {
    if (IsFloating(a)) return static_cast<uint8_t>(Index(a));
    if (IsFloating(b)) return static_cast<uint8_t>(Index(b));
    return Encode(PromotionError::kBarebonesUnsigned);
  }
  const int join = TorchLattice::kJoin[Index(a)][Index(b)];
  return join < 0 ? Encode(PromotionError::kNoCommonType) : static_cast<uint8_t>(join);
}

[[nodiscard]] constexpr uint8_t ArrayApiEntry(DType a, DType b) {
  if (!InArrayApi(a) || !InArrayApi(b)) return Encode(PromotionError::kNotInPolicy);
  const int join = ArrayApiLattice::kJoin[Index(a)][Index(b)];
  return join < 0 ? Encode(PromotionError::kNoCommonType) : static_cast<uint8_t>(join);
}

template <uint8_t (*kEntry)(DType, DType)>
[[nodiscard]] constexpr PromotionTable BuildTable() {
  PromotionTable table{};
  for (DType a : kAllDTypes) {
    for (DType b : kAllDTypes) table[Index(a)][Index(b)] = kEntry(a, b);
  }
  return table;
}

inline constexpr PromotionTable kTorchTable = BuildTable<TorchEntry>();
inline constexpr PromotionTable kArrayApiTable = BuildTable<ArrayApiEntry>();

}  // namespace internal_policy

// The dtype that a and b promote to under `policy`, or why there is none.
// Usable in constant expressions; a couple of nanoseconds at run time.
[[nodiscard]] constexpr Promotion PromoteTypes(DType a, DType b, Policy policy) {
  if (!IsValid(a) || !IsValid(b)) {
    return Promotion::Failure(PromotionError::kInvalidDType, a, b, policy);
  }
  const auto& table =
      policy == Policy::kTorch ? internal_policy::kTorchTable : internal_policy::kArrayApiTable;
  const uint8_t entry = table[Index(a)][Index(b)];
  if (entry < kNumDTypes) return Promotion::Of(static_cast<DType>(entry));
  return Promotion::Failure(static_cast<PromotionError>(entry - kNumDTypes), a, b, policy);
}

// Whether a value computed in `from` may be written to an output of dtype
// `to` (out= arguments, in-place ops).
// Torch (c10::canCast): false only for complex -> non-complex,
// floating -> integral, and non-bool -> bool.
// Array API: `to` must be what from and to promote to (can_cast's "safe").
[[nodiscard]] constexpr bool CanCast(DType from, DType to, Policy policy) {
  if (!IsValid(from) || !IsValid(to)) return false;
  if (policy == Policy::kArrayApi) {
    const Promotion p = PromoteTypes(from, to, policy);
    return p.ok() && p.dtype() == to;
  }
  if (IsComplex(from) && !IsComplex(to)) return false;
  if (IsFloating(from) && IsIntegral(to)) return false;
  if (from != DType::kBool && to == DType::kBool) return false;
  return true;
}

namespace internal_policy {

// Index of ToComplex(dtype), or -1 where there is none; constexpr for tables.
[[nodiscard]] constexpr int ComplexIndexOf(DType dtype) {
  switch (dtype) {
    case DType::kFloat16:
    case DType::kComplex32:
      return Index(DType::kComplex32);
    case DType::kBFloat16:
    case DType::kBComplex32:
      return Index(DType::kBComplex32);
    case DType::kFloat32:
    case DType::kComplex64:
      return Index(DType::kComplex64);
    case DType::kFloat64:
    case DType::kComplex128:
      return Index(DType::kComplex128);
    default:
      return -1;
  }
}

}  // namespace internal_policy

// The complex dtype whose parts have the precision of `dtype` (torch's
// toComplexType): float16 -> complex32, bfloat16 -> bcomplex32, float32 ->
// complex64, float64 -> complex128, complex dtypes map to themselves. Errors for
// dtypes that have no complex counterpart (integers, bool, float8).
[[nodiscard]] absl::StatusOr<DType> ToComplex(DType dtype);

}  // namespace oneflow_promote

#endif  // ONEFLOW_PROMOTE_POLICY_H_
