// Compile-time promotion lattices: a policy is a list of edges, and the
// promotion of two dtypes is their least upper bound in the order the edges
// generate (as JAX's dtypes.py derives its table).
//
// Everything here is constexpr: reachability is the reflexive-transitive
// closure of the edges (Warshall over bitsets), and LatticeCheck proves at
// compile time that the order is a partial order (no cycles) in which every
// pair with a common upper bound has a least one. Pairs with no common upper
// bound are not a defect: they are exactly the combinations a policy refuses
// (the Array API's int32 with float32).

#ifndef ONEFLOW_PROMOTE_INTERNAL_LATTICE_H_
#define ONEFLOW_PROMOTE_INTERNAL_LATTICE_H_

#include <array>
#include <cstddef>
#include <cstdint>

#include "oneflow_promote/dtype.h"

namespace oneflow_promote {

// "from is safely representable in to" (or the policy declares it so).
struct Edge {
  DType from;
  DType to;
};

namespace internal_lattice {

// A set of dtypes as a bitmask, bit i for the dtype with Index i.
using DTypeSet = uint32_t;
static_assert(kNumDTypes <= 32, "DTypeSet holds at most 32 dtypes");

[[nodiscard]] constexpr DTypeSet Bit(DType d) { return DTypeSet{1} << Index(d); }

// up[i] = every dtype reachable from dtype i, including itself.
using UpperSets = std::array<DTypeSet, kNumDTypes>;

template <size_t N>
[[nodiscard]] constexpr UpperSets Closure(const Edge (&edges)[N]) {
  UpperSets up{};
  for (int i = 0; i < kNumDTypes; ++i) up[i] = DTypeSet{1} << i;
  for (const Edge& e : edges) up[Index(e.from)] |= Bit(e.to);
  for (int k = 0; k < kNumDTypes; ++k) {
    for (int i = 0; i < kNumDTypes; ++i) {
      if (up[i] & (DTypeSet{1} << k)) up[i] |= up[k];
    }
  }
  return up;
}

// The least element of the common upper bounds of a and b: -1 when there is
// no common upper bound, -2 when there are some but no least one.
[[nodiscard]] constexpr int LeastUpperBound(const UpperSets& up, int a, int b) {
  const DTypeSet common = up[a] & up[b];
  if (common == 0) return -1;
  for (int c = 0; c < kNumDTypes; ++c) {
    if ((common & (DTypeSet{1} << c)) && (common & ~up[c]) == 0) return c;
  }
  return -2;
}

// The first violation of the lattice laws, if any, for a static_assert.
struct LatticeCheck {
  bool ok = true;
  int a = -1;  // offending pair
  int b = -1;
  const char* why = "";
};

[[nodiscard]] constexpr LatticeCheck Check(const UpperSets& up) {
  for (int a = 0; a < kNumDTypes; ++a) {
    for (int b = 0; b < kNumDTypes; ++b) {
      if (a != b && (up[a] >> b & 1) && (up[b] >> a & 1)) {
        return {false, a, b, "the edges form a cycle"};
      }
      if (LeastUpperBound(up, a, b) == -2) {
        return {false, a, b, "two dtypes have upper bounds but no least one"};
      }
    }
  }
  return {};
}

// The join table: join[a][b] is the LUB's index, or -1 where none exists.
using JoinTable = std::array<std::array<int8_t, kNumDTypes>, kNumDTypes>;

[[nodiscard]] constexpr JoinTable Joins(const UpperSets& up) {
  JoinTable table{};
  for (int a = 0; a < kNumDTypes; ++a) {
    for (int b = 0; b < kNumDTypes; ++b) {
      table[a][b] = static_cast<int8_t>(LeastUpperBound(up, a, b));
    }
  }
  return table;
}

// Commutativity, idempotence and associativity of a join table, where "no
// join" is absorbing. They follow from Check(); this makes the compiler say so.
[[nodiscard]] constexpr bool SatisfiesJoinLaws(const JoinTable& join) {
  for (int a = 0; a < kNumDTypes; ++a) {
    if (join[a][a] != a) return false;
    for (int b = 0; b < kNumDTypes; ++b) {
      if (join[a][b] != join[b][a]) return false;
      for (int c = 0; c < kNumDTypes; ++c) {
        const int ab = join[a][b];
        const int bc = join[b][c];
        const int left = ab < 0 ? -1 : join[ab][c];
        const int right = bc < 0 ? -1 : join[a][bc];
        if (left != right) return false;
      }
    }
  }
  return true;
}

}  // namespace internal_lattice

// The lattice a list of edges generates; compiling Lattice<kEdges> for a list
// that is not a lattice is an error naming the reason.
template <size_t N, const Edge (&kEdges)[N]>
struct Lattice {
  static constexpr internal_lattice::UpperSets kUp = internal_lattice::Closure(kEdges);
  static constexpr internal_lattice::LatticeCheck kCheck = internal_lattice::Check(kUp);
  static_assert(kCheck.ok, "a promotion policy's edges must form a lattice");
  static constexpr internal_lattice::JoinTable kJoin = internal_lattice::Joins(kUp);
  static_assert(internal_lattice::SatisfiesJoinLaws(kJoin),
                "join must be commutative, idempotent and associative");

  // True when `to` is reachable from `from` (from <= to in the order).
  [[nodiscard]] static constexpr bool Reaches(DType from, DType to) {
    return (kUp[Index(from)] >> Index(to)) & 1;
  }
};

}  // namespace oneflow_promote

#endif  // ONEFLOW_PROMOTE_INTERNAL_LATTICE_H_
