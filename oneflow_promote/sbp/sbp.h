// SBP signatures of casts and promoted binary ops on global tensors: which
// split / broadcast / partial layouts a cast or an elementwise op keeps
// exactly, which it keeps only up to floating rounding, and which need
// boxing first. OneFlow's SBP (and PyTorch DTensor's Shard / Replicate /
// Partial placements) describe how a global tensor lies on the ranks of a
// 1-D or 2-D placement.
//
//   // int8 partial sums, cast to int32: the int8 sum wraps, so the partials
//   // must be reduced first.
//   CastKeeps(DType::kInt8, DType::kInt32, SbpKind::kPartialSum)  // kNeedsBoxing
//   CastKeeps(DType::kInt32, DType::kInt8, SbpKind::kPartialSum)  // kExact: mod 2^8
//
// The rules follow from properties of the conversion, not from a table:
// partial sums survive a cast that is an additive homomorphism (integer
// narrowing modulo 2^n, real <-> complex of one part type) and, up to the
// rounding of the sum, a value-preserving widening between floating
// formats; partial max and min survive a monotone cast. sbp_test checks
// every claim, and that every refusal has a counterexample, on all pairs of
// 8-bit values and on 16-bit ones.

#ifndef ONEFLOW_PROMOTE_SBP_SBP_H_
#define ONEFLOW_PROMOTE_SBP_SBP_H_

#include <cstdint>
#include <string>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/ops/op_list.h"
#include "oneflow_promote/sbp/internal/cast_facts.h"

namespace oneflow_promote::sbp {

enum class SbpKind : uint8_t { kSplit, kBroadcast, kPartialSum, kPartialMax, kPartialMin };

// How a global tensor lies along one dimension of a placement.
struct Sbp {
  SbpKind kind = SbpKind::kBroadcast;
  int axis = 0;  // the tensor axis of kSplit

  [[nodiscard]] static constexpr Sbp Split(int axis) { return {SbpKind::kSplit, axis}; }
  [[nodiscard]] static constexpr Sbp Broadcast() { return {SbpKind::kBroadcast, 0}; }
  [[nodiscard]] static constexpr Sbp PartialSum() { return {SbpKind::kPartialSum, 0}; }
  [[nodiscard]] static constexpr Sbp PartialMax() { return {SbpKind::kPartialMax, 0}; }
  [[nodiscard]] static constexpr Sbp PartialMin() { return {SbpKind::kPartialMin, 0}; }

  [[nodiscard]] constexpr bool is_partial() const {
    return kind == SbpKind::kPartialSum || kind == SbpKind::kPartialMax ||
           kind == SbpKind::kPartialMin;
  }
  constexpr bool operator==(const Sbp& other) const {
    return kind == other.kind && (kind != SbpKind::kSplit || axis == other.axis);
  }
  constexpr bool operator!=(const Sbp& other) const { return !(*this == other); }
  // "S(0)", "B", "P(sum)", "P(max)", "P(min)".
  [[nodiscard]] std::string ToString() const;
};

// One Sbp per dimension of a 1-D or 2-D placement (ranks [0, 1] or
// [[0, 1], [2, 3]]).
using NdSbp = absl::InlinedVector<Sbp, 2>;
[[nodiscard]] std::string ToString(const NdSbp& nd_sbp);

[[nodiscard]] const char* ExactnessName(Exactness exactness);

// Whether casting each rank's part from `from` to `to` keeps `kind`.
// Split and broadcast always do (a cast is elementwise). constexpr: the
// rules are derived at compile time where the dtypes are known.
[[nodiscard]] constexpr Exactness CastKeeps(DType from, DType to, SbpKind kind) {
  if (kind == SbpKind::kSplit || kind == SbpKind::kBroadcast || from == to) {
    return Exactness::kExact;
  }
  const sbp_internal::Facts f = sbp_internal::FactsOf(from);
  const sbp_internal::Facts t = sbp_internal::FactsOf(to);
  // A dtype without zero (float8_e8m0fnu) converts to a constant true.
  if (t.is_bool && !f.has_zero) return Exactness::kExact;
  if (kind == SbpKind::kPartialSum) return sbp_internal::Additivity(f, t);
  return sbp_internal::KeepsExtreme(f, t, kind == SbpKind::kPartialMax) ? Exactness::kExact
                                                                        : Exactness::kNeedsBoxing;
}

// CastKeeps for every pair of dtypes and each partial kind, as Markdown
// tables (docs/sbp_rules.md is this text; `promote sbp` prints it).
[[nodiscard]] std::string CastRulesMarkdown();

// The signature a cast gets. Each dimension keeps its SBP where CastKeeps
// allows it (kUpToRounding only when !strict); the others are boxed to
// broadcast before the cast. `input` is what the cast reads, `output` what
// it writes, `exactness` the weakest over the dimensions kept.
struct CastSignature {
  NdSbp input;
  NdSbp output;
  Exactness exactness = Exactness::kExact;
};
[[nodiscard]] CastSignature InferCastSignature(DType from, DType to, const NdSbp& in,
                                               bool strict = true);

// Where an inserted cast goes relative to boxing `in` into another SBP:
// true when the cast keeps `in` exactly and makes elements narrower, so the
// boxing moves the smaller dtype (cast, then all-gather); false when it
// widens or must wait for the partials to be reduced.
[[nodiscard]] bool CastBeforeBoxing(DType from, DType to, const NdSbp& in);

// The signature of an elementwise binary op computing in `compute` on
// operands laid out as `a` and `b` (after their casts to `compute`).
// Per dimension: equal splits and broadcasts pass through (S with B gives
// S, the broadcast operand sliced on each rank, for operands of one shape);
// partial sums survive add and sub of two partials, and mul of a
// partial by a broadcast (exactly for integers, which wrap; up to rounding
// for floats); partial max and min survive maximum and minimum of two like
// partials; anything else is boxed: partials to broadcast, a second split
// to the first's axis. `a` and `b` in the result are the operands' SBPs
// after that boxing.
struct BinarySignature {
  NdSbp a;
  NdSbp b;
  NdSbp output;
  Exactness exactness = Exactness::kExact;
};
[[nodiscard]] absl::StatusOr<BinarySignature> InferBinarySignature(ops::Op op, DType compute,
                                                                   const NdSbp& a, const NdSbp& b,
                                                                   bool strict = true);

}  // namespace oneflow_promote::sbp

#endif  // ONEFLOW_PROMOTE_SBP_SBP_H_
