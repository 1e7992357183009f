// Promotion policies and PromoteTypes: the dtype two operands of one kind
// promote to, derived at compile time from each policy's edges
// (internal/policy_edges.h): torch, array_api, numpy, jax, jax_x32,
// jax_strict and mlx.
//
//   constexpr Promotion p = PromoteTypes(DType::kUInt8, DType::kInt8, Policy::kTorch);
//   static_assert(p.ok() && p.dtype() == DType::kInt16);
//
// A failed promotion is a value (Promotion::ok() is false) that knows both
// dtypes and why, and turns into an absl::Status with the wording of the
// library the policy follows. There is no "invalid dtype" that doubles as an
// identity element, so an error can never be absorbed mid-fold.

#ifndef ONEFLOW_PROMOTE_POLICY_H_
#define ONEFLOW_PROMOTE_POLICY_H_

#include <array>
#include <cstdint>
#include <iterator>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/promotion/internal/lattice.h"
#include "oneflow_promote/promotion/internal/policy_edges.h"

namespace oneflow_promote {

enum class Policy : uint8_t {
  // PyTorch 2.15: its table for the core dtypes (bcomplex32 included), plus
  // its guards for float8 and uint16/uint32/uint64.
  kTorch,
  // The Python Array API standard, 2025.12 (its table is 2024.12's).
  kArrayApi,
  // NumPy 2 (NEP 50): Python scalars are weak, NumPy scalars and 0-d arrays
  // are not.
  kNumpy,
  // JAX with jax_enable_x64.
  kJax,
  // JAX's default configuration: 64-bit dtypes are canonicalized to 32 bits.
  kJaxX32,
  // JAX with jax_numpy_dtype_promotion='strict' (and x64): only weak
  // Python scalars promote.
  kJaxStrict,
  // MLX 0.32: JAX's lattice without complex128, Python scalars weak nodes
  // that stand for int32, float32 and complex64.
  kMlx,
};

inline constexpr Policy kAllPolicies[] = {Policy::kTorch, Policy::kArrayApi, Policy::kNumpy,
                                          Policy::kJax,   Policy::kJaxX32,   Policy::kJaxStrict,
                                          Policy::kMlx};
inline constexpr int kNumPolicies = static_cast<int>(std::size(kAllPolicies));

// True for the values a Policy variable may legally hold (foreign values
// arrive through the C ABI).
[[nodiscard]] constexpr bool IsValid(Policy policy) {
  return static_cast<unsigned>(policy) < static_cast<unsigned>(kNumPolicies);
}

// "torch", "array_api", "numpy", "jax", "jax_x32", "jax_strict" or "mlx".
[[nodiscard]] absl::string_view PolicyName(Policy policy);
[[nodiscard]] absl::StatusOr<Policy> ParsePolicy(absl::string_view name);

// Each policy's order (the edges are in internal/policy_edges.h). NumPy's is
// not a lattice; its promotion departs from the join on a few pairs.
using TorchLattice = Lattice<kTorchEdges>;
using ArrayApiLattice = Lattice<kArrayApiEdges>;
using JaxLattice = Lattice<kJaxEdges>;
using JaxX32Lattice = Lattice<kJaxX32Edges>;
using JaxStrictLattice = Lattice<kJaxStrictEdges>;
using MlxLattice = Lattice<kMlxEdges>;
using NumpyOrder = Order<kNumpyEdges>;

// The dtypes a policy gives meaning to; any other dtype is an error in it.
// Torch: all of them. Array API: the 13 the standard defines. NumPy: those
// and float16. JAX: all but complex32 and bcomplex32. MLX: JAX's without
// float8 and complex128.
[[nodiscard]] absl::Span<const DType> PolicyDTypes(Policy policy);

// Why two dtypes have no promotion.
enum class PromotionError : uint8_t {
  kNone,
  kInvalidDType,       // an enum value outside DType (foreign ABI)
  kNotInPolicy,        // a dtype the policy does not define (Array API float16)
  kNoCommonType,       // no common upper bound in the lattice
  kFloat8,             // torch: float8 with anything else
  kBarebonesUnsigned,  // torch: uint16/32/64 with a non-floating dtype
  kInvalidPolicy,      // a Policy value outside the enum (foreign ABI)
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

namespace promotion_internal {

// The derived tables, one byte per pair: a DType index, or kNumDTypes plus a
// PromotionError. Computed once by the compiler from the orders.
using PromotionTable = std::array<std::array<uint8_t, kNumDTypes>, kNumDTypes>;

[[nodiscard]] constexpr uint8_t Encode(PromotionError error) {
  return static_cast<uint8_t>(kNumDTypes + static_cast<int>(error));
}

[[nodiscard]] constexpr bool IsBarebonesUnsigned(DType d) {
  return d == DType::kUInt16 || d == DType::kUInt32 || d == DType::kUInt64;
}

[[nodiscard]] constexpr bool InPolicy(DType d, Policy policy) {
  switch (policy) {
    case Policy::kTorch:
      return true;
    case Policy::kArrayApi:
      return !IsFloat8(d) && d != DType::kFloat16 && d != DType::kBFloat16 &&
             d != DType::kComplex32 && d != DType::kBComplex32;
    case Policy::kNumpy:
      return NumpyTypeNumber(d) >= 0;
    case Policy::kJax:
    case Policy::kJaxX32:
    case Policy::kJaxStrict:
      return InJax(d);
    case Policy::kMlx:
      return InMlx(d);
  }
  return false;
}

// The dtype an operand of `dtype` has under the policy: JAX without x64
// canonicalizes 64-bit dtypes to 32 bits (jnp.asarray(np.int64(1)) is
// int32); every other policy keeps it.
[[nodiscard]] constexpr DType CanonicalDType(DType dtype, Policy policy) {
  if (policy != Policy::kJaxX32) return dtype;
  switch (dtype) {
    case DType::kInt64:
      return DType::kInt32;
    case DType::kUInt64:
      return DType::kUInt32;
    case DType::kFloat64:
      return DType::kFloat32;
    case DType::kComplex128:
      return DType::kComplex64;
    default:
      return dtype;
  }
}

// The dtype a weak node stands for once a result is weak: the default int,
// float and complex dtypes (NumPy's and JAX's with x64: int64, float64,
// complex128; MLX's: int32, float32, complex64).
[[nodiscard]] constexpr DType WeakDefault(WeakScalar weak, Policy policy) {
  if (policy == Policy::kMlx) {
    return weak == WeakScalar::kInt     ? DType::kInt32
           : weak == WeakScalar::kFloat ? DType::kFloat32
                                        : DType::kComplex64;
  }
  switch (weak) {
    case WeakScalar::kInt:
      return CanonicalDType(DType::kInt64, policy);
    case WeakScalar::kFloat:
      return CanonicalDType(DType::kFloat64, policy);
    case WeakScalar::kComplex:
      return CanonicalDType(DType::kComplex128, policy);
  }
  return DType::kBool;
}

[[nodiscard]] constexpr DType Materialize(Node node, Policy policy) {
  return node.is_dtype() ? node.dtype() : WeakDefault(node.weak(), policy);
}

// NumPy's promotion of two nodes: the join of its order, except on
// kNumpyDepartures.
[[nodiscard]] constexpr promotion_internal::JoinTable BuildNumpyJoin() {
  promotion_internal::JoinTable table = NumpyOrder::kJoin;
  for (const Departure& d : kNumpyDepartures) {
    table[d.a.index()][d.b.index()] = table[d.b.index()][d.a.index()] =
        static_cast<int8_t>(d.result.index());
  }
  return table;
}
inline constexpr promotion_internal::JoinTable kNumpyJoin = BuildNumpyJoin();

// How two nodes promote under a policy whose Python scalars are weak nodes
// (NumPy, JAX and MLX): a node index, or a negative promotion_internal code.
[[nodiscard]] constexpr const promotion_internal::JoinTable& NodeJoins(Policy policy) {
  switch (policy) {
    case Policy::kNumpy:
      return kNumpyJoin;
    case Policy::kJax:
      return JaxLattice::kJoin;
    case Policy::kJaxX32:
      return JaxX32Lattice::kJoin;
    case Policy::kJaxStrict:
      return JaxStrictLattice::kJoin;
    case Policy::kMlx:
      return MlxLattice::kJoin;
    case Policy::kTorch:
      return TorchLattice::kJoin;
    case Policy::kArrayApi:
      return ArrayApiLattice::kJoin;
  }
  return TorchLattice::kJoin;
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

// Every other policy: the join of the (canonical) dtypes, a weak result
// standing for its default dtype (JAX's uint64 + int64 is the weak float,
// float64).
template <Policy kPolicy>
[[nodiscard]] constexpr uint8_t JoinEntry(DType a, DType b) {
  if (!InPolicy(a, kPolicy) || !InPolicy(b, kPolicy)) {
    return Encode(PromotionError::kNotInPolicy);
  }
  const int join =
      NodeJoins(kPolicy)[Index(CanonicalDType(a, kPolicy))][Index(CanonicalDType(b, kPolicy))];
  if (join < 0) return Encode(PromotionError::kNoCommonType);
  return static_cast<uint8_t>(Index(Materialize(Node::FromIndex(join), kPolicy)));
}

template <uint8_t (*kEntry)(DType, DType)>
[[nodiscard]] constexpr PromotionTable BuildTable() {
  PromotionTable table{};
  for (DType a : kAllDTypes) {
    for (DType b : kAllDTypes) table[Index(a)][Index(b)] = kEntry(a, b);
  }
  return table;
}

// Indexed by Policy.
inline constexpr PromotionTable kTables[] = {
    BuildTable<TorchEntry>(),
    BuildTable<JoinEntry<Policy::kArrayApi>>(),
    BuildTable<JoinEntry<Policy::kNumpy>>(),
    BuildTable<JoinEntry<Policy::kJax>>(),
    BuildTable<JoinEntry<Policy::kJaxX32>>(),
    BuildTable<JoinEntry<Policy::kJaxStrict>>(),
    BuildTable<JoinEntry<Policy::kMlx>>(),
};
static_assert(std::size(kTables) == kNumPolicies, "one table per policy");

// NumPy's "same_kind" casting, the default of a ufunc's out=: the kind may
// only rise (bool < unsigned < signed < floating < complex).
[[nodiscard]] constexpr int NumpyKindRank(DType d) {
  switch (CategoryOf(d)) {
    case Category::kBool:
      return 0;
    case Category::kUnsigned:
      return 1;
    case Category::kSigned:
      return 2;
    case Category::kFloating:
      return 3;
    case Category::kComplex:
      return 4;
  }
  return 0;
}

// The message for two types with no common upper bound, in the wording of
// the library the policy follows; a and b name dtypes or weak scalars.
[[nodiscard]] std::string NoPromotionMessage(absl::string_view a, absl::string_view b, bool float8,
                                             Policy policy);

}  // namespace promotion_internal

// The dtype that a and b promote to under `policy`, or why there is none.
// Usable in constant expressions; a couple of nanoseconds at run time.
// Under jax_x32 the dtypes are canonicalized to 32 bits first.
[[nodiscard]] constexpr Promotion PromoteTypes(DType a, DType b, Policy policy) {
  if (!IsValid(a) || !IsValid(b) || !IsValid(policy)) {
    return Promotion::Failure(
        IsValid(policy) ? PromotionError::kInvalidDType : PromotionError::kInvalidPolicy, a, b,
        policy);
  }
  const uint8_t entry = promotion_internal::kTables[static_cast<int>(policy)][Index(a)][Index(b)];
  if (entry < kNumDTypes) return Promotion::Of(static_cast<DType>(entry));
  return Promotion::Failure(static_cast<PromotionError>(entry - kNumDTypes), a, b, policy);
}

// Whether a value computed in `from` may be written to an output of dtype
// `to` (out= arguments, in-place ops).
// Torch (c10::canCast): false only for complex -> non-complex,
// floating -> integral, and non-bool -> bool.
// NumPy: "same_kind" casting, the default of a ufunc's out=.
// Array API, JAX and MLX: `to` must be what from and to promote to
// (can_cast's "safe", JAX's dtypes.safe_to_cast, mx.can_cast), after
// JAX's canonicalization.
[[nodiscard]] constexpr bool CanCast(DType from, DType to, Policy policy) {
  if (!IsValid(from) || !IsValid(to) || !IsValid(policy)) return false;
  if (policy == Policy::kTorch) {
    if (IsComplex(from) && !IsComplex(to)) return false;
    if (IsFloating(from) && IsIntegral(to)) return false;
    if (from != DType::kBool && to == DType::kBool) return false;
    return true;
  }
  if (policy == Policy::kNumpy) {
    return promotion_internal::InPolicy(from, policy) && promotion_internal::InPolicy(to, policy) &&
           promotion_internal::NumpyKindRank(from) <= promotion_internal::NumpyKindRank(to);
  }
  const Promotion p = PromoteTypes(from, to, policy);
  return p.ok() && p.dtype() == promotion_internal::CanonicalDType(to, policy);
}

namespace promotion_internal {

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

}  // namespace promotion_internal

// The complex dtype whose parts have the precision of `dtype` (torch's
// toComplexType): float16 -> complex32, bfloat16 -> bcomplex32, float32 ->
// complex64, float64 -> complex128, complex dtypes map to themselves. Errors for
// dtypes that have no complex counterpart (integers, bool, float8).
[[nodiscard]] absl::StatusOr<DType> ToComplex(DType dtype);

}  // namespace oneflow_promote

#endif  // ONEFLOW_PROMOTE_POLICY_H_
