// Compile-time promotion orders: a policy is a list of edges, and the
// promotion of two nodes is their least upper bound in the order the edges
// generate (as JAX's dtypes.py derives its table).
//
// A node is a dtype or one of the three weak types of Python scalars (JAX's
// `int`, `float` and `complex` nodes): a Python int is weaker than every
// integer dtype, so joining it with int8 gives int8 rather than a wider type.
// Scalar handling is then a join like any other.
//
// Everything here is constexpr: reachability is the reflexive-transitive
// closure of the edges (Warshall over bitsets), and Lattice<> proves at
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

// The weak types of Python scalars (a Python bool is the bool dtype).
enum class WeakScalar : uint8_t { kInt, kFloat, kComplex };

inline constexpr int kNumWeakScalars = 3;
inline constexpr int kNumNodes = kNumDTypes + kNumWeakScalars;

// A node of a promotion order: a dtype (index = its DType value) or a weak
// scalar type (indices after the dtypes).
class Node {
 public:
  constexpr Node() = default;  // bool, for arrays of edges built at compile time
  constexpr Node(DType dtype) : index_(static_cast<uint8_t>(Index(dtype))) {}  // NOLINT
  constexpr Node(WeakScalar weak)                                              // NOLINT
      : index_(static_cast<uint8_t>(kNumDTypes + static_cast<int>(weak))) {}
  [[nodiscard]] static constexpr Node FromIndex(int index) { return Node(index); }

  [[nodiscard]] constexpr int index() const { return index_; }
  [[nodiscard]] constexpr bool is_dtype() const { return index_ < kNumDTypes; }
  // Only meaningful when is_dtype().
  [[nodiscard]] constexpr DType dtype() const { return static_cast<DType>(index_); }
  // Only meaningful when !is_dtype().
  [[nodiscard]] constexpr WeakScalar weak() const {
    return static_cast<WeakScalar>(index_ - kNumDTypes);
  }

  friend constexpr bool operator==(Node a, Node b) { return a.index_ == b.index_; }
  friend constexpr bool operator!=(Node a, Node b) { return a.index_ != b.index_; }

 private:
  explicit constexpr Node(int index) : index_(static_cast<uint8_t>(index)) {}
  uint8_t index_ = 0;
};

// "from is safely representable in to" (or the policy declares it so).
struct Edge {
  Node from;
  Node to;
};

namespace promotion_internal {

// A set of nodes as a bitmask, bit i for the node with index i.
using NodeSet = uint32_t;
static_assert(kNumNodes <= 32, "NodeSet holds at most 32 nodes");

[[nodiscard]] constexpr NodeSet Bit(int index) { return NodeSet{1} << index; }

// up[i] = every node reachable from node i, including itself.
using UpperSets = std::array<NodeSet, kNumNodes>;

// `edges`: a C array or std::array of Edge.
template <typename Edges>
[[nodiscard]] constexpr UpperSets Closure(const Edges& edges) {
  UpperSets up{};
  for (int i = 0; i < kNumNodes; ++i) up[i] = Bit(i);
  for (const Edge& e : edges) up[e.from.index()] |= Bit(e.to.index());
  for (int k = 0; k < kNumNodes; ++k) {
    for (int i = 0; i < kNumNodes; ++i) {
      if (up[i] & Bit(k)) up[i] |= up[k];
    }
  }
  return up;
}

inline constexpr int kNoUpperBound = -1;
inline constexpr int kNoLeastUpperBound = -2;

// The least element of the common upper bounds of a and b: kNoUpperBound
// when there is none, kNoLeastUpperBound when there are some but no least.
[[nodiscard]] constexpr int LeastUpperBound(const UpperSets& up, int a, int b) {
  const NodeSet common = up[a] & up[b];
  if (common == 0) return kNoUpperBound;
  for (int c = 0; c < kNumNodes; ++c) {
    if ((common & Bit(c)) && (common & ~up[c]) == 0) return c;
  }
  return kNoLeastUpperBound;
}

// The join table: join[a][b] is the LUB's index, or one of the two codes above.
using JoinTable = std::array<std::array<int8_t, kNumNodes>, kNumNodes>;

[[nodiscard]] constexpr JoinTable Joins(const UpperSets& up) {
  JoinTable table{};
  for (int a = 0; a < kNumNodes; ++a) {
    for (int b = a; b < kNumNodes; ++b) {
      table[a][b] = table[b][a] = static_cast<int8_t>(LeastUpperBound(up, a, b));
    }
  }
  return table;
}

[[nodiscard]] constexpr bool IsAcyclic(const UpperSets& up) {
  for (int a = 0; a < kNumNodes; ++a) {
    for (int b = a + 1; b < kNumNodes; ++b) {
      if ((up[a] & Bit(b)) && (up[b] & Bit(a))) return false;
    }
  }
  return true;
}

[[nodiscard]] constexpr bool EveryUpperBoundIsLeast(const JoinTable& join) {
  for (const auto& row : join) {
    for (int8_t entry : row) {
      if (entry == kNoLeastUpperBound) return false;
    }
  }
  return true;
}

// Commutativity, idempotence and associativity of a join table, where "no
// join" is absorbing. They follow from the lattice check; policy.cc makes the
// compiler prove them once per policy (here they would cost every includer).
[[nodiscard]] constexpr bool SatisfiesJoinLaws(const JoinTable& join) {
  for (int a = 0; a < kNumNodes; ++a) {
    if (join[a][a] != a) return false;
    for (int b = 0; b < kNumNodes; ++b) {
      if (join[a][b] != join[b][a]) return false;
      const int ab = join[a][b];
      for (int c = 0; c < kNumNodes; ++c) {
        const int bc = join[b][c];
        const int left = ab < 0 ? kNoUpperBound : join[ab][c];
        const int right = bc < 0 ? kNoUpperBound : join[a][bc];
        if (left != right) return false;
      }
    }
  }
  return true;
}

}  // namespace promotion_internal

// The partial order a list of edges generates, with its joins (LUBs, or
// promotion_internal's codes where there is none). NumPy's promotion is
// declared on such an order: it is not a lattice (see policy_edges.h).
template <const auto& kEdges>
struct Order {
  static constexpr promotion_internal::UpperSets kUp = promotion_internal::Closure(kEdges);
  static constexpr promotion_internal::JoinTable kJoin = promotion_internal::Joins(kUp);

  // True when `to` is reachable from `from` (from <= to in the order).
  [[nodiscard]] static constexpr bool Reaches(Node from, Node to) {
    return (kUp[from.index()] >> to.index()) & 1;
  }
};

// The lattice a list of edges (a C array or std::array of Edge with static
// storage) generates; compiling Lattice<kEdges> for a list
// that is not a lattice is an error naming the reason.
template <const auto& kEdges>
struct Lattice : Order<kEdges> {
  static_assert(promotion_internal::IsAcyclic(Order<kEdges>::kUp) &&
                    promotion_internal::EveryUpperBoundIsLeast(Order<kEdges>::kJoin),
                "a promotion policy's edges must form a lattice");
};

}  // namespace oneflow_promote

#endif  // ONEFLOW_PROMOTE_INTERNAL_LATTICE_H_
