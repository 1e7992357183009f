// Each promotion policy as data: the edges of its order, and for NumPy the
// pairs where its promotion is not the order's join. policy.h derives the
// promotion tables from these at compile time; policy.cc proves the laws.
//
// Python scalars are the weak nodes WeakScalar::kInt, kFloat and kComplex
// (JAX's `int`, `float`, `complex`). Each list was read from the library it
// follows and is checked against it live (tests/numpy, tests/jax).

#ifndef ONEFLOW_PROMOTE_INTERNAL_POLICY_EDGES_H_
#define ONEFLOW_PROMOTE_INTERNAL_POLICY_EDGES_H_

#include <array>
#include <cstddef>

#include "oneflow_promote/dtype.h"
#include "oneflow_promote/promotion/internal/lattice.h"

namespace oneflow_promote {
namespace promotion_internal {

inline constexpr Node kWeakInt = WeakScalar::kInt;
inline constexpr Node kWeakFloat = WeakScalar::kFloat;
inline constexpr Node kWeakComplex = WeakScalar::kComplex;

// `edges` with the edge `old_edge` replaced by `new_edge`.
template <size_t N>
[[nodiscard]] constexpr std::array<Edge, N> WithEdgeReplaced(const Edge (&edges)[N], Edge old_edge,
                                                             Edge new_edge) {
  std::array<Edge, N> out{};
  for (size_t i = 0; i < N; ++i) {
    const bool match = edges[i].from == old_edge.from && edges[i].to == old_edge.to;
    out[i] = match ? new_edge : edges[i];
  }
  return out;
}

}  // namespace promotion_internal

// PyTorch 2.15's table on its core dtypes (the float8 and uint16/32/64 guards
// are in policy.h). Python scalars do not enter it: torch's bucket rule
// (internal/torch_buckets.h) is not a join.
inline constexpr Edge kTorchEdges[] = {
    {DType::kBool, DType::kUInt8},           {DType::kBool, DType::kInt8},
    {DType::kUInt8, DType::kInt16},          {DType::kInt8, DType::kInt16},
    {DType::kInt16, DType::kInt32},          {DType::kInt32, DType::kInt64},
    {DType::kInt64, DType::kFloat16},        {DType::kInt64, DType::kBFloat16},
    {DType::kFloat16, DType::kFloat32},      {DType::kBFloat16, DType::kFloat32},
    {DType::kFloat32, DType::kFloat64},      {DType::kFloat16, DType::kComplex32},
    {DType::kComplex32, DType::kComplex64},  {DType::kFloat32, DType::kComplex64},
    {DType::kComplex64, DType::kComplex128}, {DType::kFloat64, DType::kComplex128},
    {DType::kBFloat16, DType::kBComplex32},  {DType::kBComplex32, DType::kComplex64},
};

// The Array API standard's table (2024.12, unchanged in 2025.12). Its Python
// scalar rule takes the arrays' dtype after a range check, not a join.
inline constexpr Edge kArrayApiEdges[] = {
    {DType::kInt8, DType::kInt16},           {DType::kInt16, DType::kInt32},
    {DType::kInt32, DType::kInt64},          {DType::kUInt8, DType::kUInt16},
    {DType::kUInt16, DType::kUInt32},        {DType::kUInt32, DType::kUInt64},
    {DType::kUInt8, DType::kInt16},          {DType::kUInt16, DType::kInt32},
    {DType::kUInt32, DType::kInt64},         {DType::kFloat32, DType::kFloat64},
    {DType::kComplex64, DType::kComplex128}, {DType::kFloat32, DType::kComplex64},
    {DType::kFloat64, DType::kComplex128},
};

// JAX 0.10 with jax_enable_x64: jax/_src/dtypes.py's _type_promotion_lattice
// (strict=False, x64=True) on the dtypes both have. Every real float
// (bfloat16, float16 and the five float8 formats) sits directly above the
// weak float, so an integer array with a float8 array gives the float8.
inline constexpr Edge kJaxEdges[] = {
    {DType::kBool, promotion_internal::kWeakInt},
    {promotion_internal::kWeakInt, DType::kUInt8},
    {promotion_internal::kWeakInt, DType::kInt8},
    {DType::kUInt8, DType::kInt16},
    {DType::kUInt8, DType::kUInt16},
    {DType::kUInt16, DType::kInt32},
    {DType::kUInt16, DType::kUInt32},
    {DType::kUInt32, DType::kInt64},
    {DType::kUInt32, DType::kUInt64},
    {DType::kUInt64, promotion_internal::kWeakFloat},
    {DType::kInt8, DType::kInt16},
    {DType::kInt16, DType::kInt32},
    {DType::kInt32, DType::kInt64},
    {DType::kInt64, promotion_internal::kWeakFloat},
    {promotion_internal::kWeakFloat, DType::kFloat8E4M3FN},
    {promotion_internal::kWeakFloat, DType::kFloat8E5M2},
    {promotion_internal::kWeakFloat, DType::kFloat8E4M3FNUZ},
    {promotion_internal::kWeakFloat, DType::kFloat8E5M2FNUZ},
    {promotion_internal::kWeakFloat, DType::kFloat8E8M0FNU},
    {promotion_internal::kWeakFloat, DType::kBFloat16},
    {promotion_internal::kWeakFloat, DType::kFloat16},
    {promotion_internal::kWeakFloat, promotion_internal::kWeakComplex},
    {DType::kBFloat16, DType::kFloat32},
    {DType::kFloat16, DType::kFloat32},
    {DType::kFloat32, DType::kFloat64},
    {DType::kFloat32, DType::kComplex64},
    {DType::kFloat64, DType::kComplex128},
    {promotion_internal::kWeakComplex, DType::kComplex64},
    {DType::kComplex64, DType::kComplex128},
};

// JAX's default (x64 off): the same lattice but uint32 -> int32 instead of
// int64, so that no join of 32-bit dtypes is 64-bit. Operands are first
// canonicalized to 32 bits (policy.h, CanonicalDType).
inline constexpr std::array<Edge, std::size(kJaxEdges)> kJaxX32Edges =
    promotion_internal::WithEdgeReplaced(kJaxEdges, {DType::kUInt32, DType::kInt64},
                                         {DType::kUInt32, DType::kInt32});

// The dtypes JAX has: all but complex32 and bcomplex32.
[[nodiscard]] constexpr bool InJax(DType dtype) {
  return dtype != DType::kComplex32 && dtype != DType::kBComplex32;
}

// The dtypes MLX has: bool, the integers, float16, bfloat16, float32,
// float64 and complex64.
[[nodiscard]] constexpr bool InMlx(DType dtype) {
  return InJax(dtype) && !IsFloat8(dtype) && dtype != DType::kComplex128;
}

namespace promotion_internal {

[[nodiscard]] constexpr bool EdgeInMlx(const Edge& edge) {
  return (!edge.from.is_dtype() || InMlx(edge.from.dtype())) &&
         (!edge.to.is_dtype() || InMlx(edge.to.dtype()));
}

[[nodiscard]] constexpr int CountMlxEdges() {
  int count = 1;  // float64 -> complex64
  for (const Edge& edge : kJaxEdges) count += EdgeInMlx(edge) ? 1 : 0;
  return count;
}

[[nodiscard]] constexpr std::array<Edge, CountMlxEdges()> MlxEdges() {
  std::array<Edge, CountMlxEdges()> edges{};
  size_t i = 0;
  for (const Edge& edge : kJaxEdges) {
    if (EdgeInMlx(edge)) edges[i++] = edge;
  }
  edges[i] = {DType::kFloat64, DType::kComplex64};
  return edges;
}

}  // namespace promotion_internal

// MLX 0.32 (mlx/dtype.cpp, "following JAX"): JAX's x64 lattice on the
// dtypes MLX has, which lack the float8 formats and complex128, plus
// float64 -> complex64, so that complex64 is the top (float64 + complex64 is
// complex64). Its weak nodes stand for int32, float32 and complex64
// (policy.h, WeakDefault): uint64 + int8 is float32.
inline constexpr auto kMlxEdges = promotion_internal::MlxEdges();

namespace promotion_internal {

// JAX's strict lattice, {i*: [f*] + int types, f*: [c*] + float types,
// c*: complex types}, over the dtypes JAX has.
[[nodiscard]] constexpr bool StrictEdgeFrom(Node weak, DType to) {
  if (!InJax(to)) return false;
  if (weak == kWeakInt) return IsIntegral(to);
  if (weak == kWeakFloat) return IsFloating(to);
  return IsComplex(to);
}

[[nodiscard]] constexpr int CountStrictEdges() {
  int count = 2;  // Python int -> Python float -> Python complex
  for (Node weak : {kWeakInt, kWeakFloat, kWeakComplex}) {
    for (DType d : kAllDTypes) count += StrictEdgeFrom(weak, d) ? 1 : 0;
  }
  return count;
}

[[nodiscard]] constexpr std::array<Edge, CountStrictEdges()> StrictEdges() {
  std::array<Edge, CountStrictEdges()> edges{};
  size_t i = 0;
  edges[i++] = {kWeakInt, kWeakFloat};
  edges[i++] = {kWeakFloat, kWeakComplex};
  for (Node weak : {kWeakInt, kWeakFloat, kWeakComplex}) {
    for (DType d : kAllDTypes) {
      if (StrictEdgeFrom(weak, d)) edges[i++] = {weak, d};
    }
  }
  return edges;
}

}  // namespace promotion_internal

// jax_numpy_dtype_promotion='strict' (with x64): the weak nodes reach every
// dtype of their kind and above, and no two different dtypes promote.
inline constexpr auto kJaxStrictEdges = promotion_internal::StrictEdges();

// NumPy 2.4 (NEP 50): its safe casts (np.can_cast(a, b, "safe"), the
// covering pairs) and the Python scalars' abstract DTypes placed as JAX
// places its weak nodes. NumPy's promotion is not a lattice: its table is
// commutative but not associative ((int8 + uint8) + float16 is float32,
// int8 + (uint8 + float16) is float16), so no order's join can reproduce it.
// It is this order's join except on kNumpyDepartures.
inline constexpr Edge kNumpyEdges[] = {
    {DType::kBool, DType::kInt8},
    {DType::kBool, DType::kUInt8},
    {DType::kInt8, DType::kInt16},
    {DType::kInt8, DType::kFloat16},
    {DType::kUInt8, DType::kInt16},
    {DType::kUInt8, DType::kUInt16},
    {DType::kUInt8, DType::kFloat16},
    {DType::kInt16, DType::kInt32},
    {DType::kInt16, DType::kFloat32},
    {DType::kUInt16, DType::kInt32},
    {DType::kUInt16, DType::kUInt32},
    {DType::kUInt16, DType::kFloat32},
    {DType::kInt32, DType::kInt64},
    {DType::kUInt32, DType::kInt64},
    {DType::kUInt32, DType::kUInt64},
    {DType::kInt64, DType::kFloat64},
    {DType::kUInt64, DType::kFloat64},
    {DType::kFloat16, DType::kFloat32},
    {DType::kFloat32, DType::kFloat64},
    {DType::kFloat32, DType::kComplex64},
    {DType::kFloat64, DType::kComplex128},
    {DType::kComplex64, DType::kComplex128},
    {DType::kBool, promotion_internal::kWeakInt},
    {promotion_internal::kWeakInt, DType::kInt8},
    {promotion_internal::kWeakInt, DType::kUInt8},
    {promotion_internal::kWeakInt, promotion_internal::kWeakFloat},
    {promotion_internal::kWeakFloat, DType::kFloat16},
    {promotion_internal::kWeakFloat, promotion_internal::kWeakComplex},
    {promotion_internal::kWeakComplex, DType::kComplex64},
};

// A pair whose promotion a policy decides other than by the join: `result`
// is a common upper bound of a and b, but not (or not uniquely) the least.
struct Departure {
  Node a;
  Node b;
  Node result;
};

// Where NumPy's promotion is not kNumpyEdges' join (policy.cc proves that
// these are exactly the pairs without a least upper bound or whose answer
// differs from it):
// - a signed and an unsigned integer of at most 16 bits whose minimal upper
//   bounds are an integer and a float of one width ({int16, float16} for
//   int8 and uint8): NumPy's table takes the integer;
// - a Python float or complex with an integer of 8 or 16 bits: NEP 50 gives
//   the default float64 or complex128, not the narrow float the order allows.
inline constexpr Departure kNumpyDepartures[] = {
    {DType::kInt8, DType::kUInt8, DType::kInt16},
    {DType::kInt8, DType::kUInt16, DType::kInt32},
    {DType::kInt16, DType::kUInt16, DType::kInt32},
    {DType::kInt8, promotion_internal::kWeakFloat, DType::kFloat64},
    {DType::kUInt8, promotion_internal::kWeakFloat, DType::kFloat64},
    {DType::kInt16, promotion_internal::kWeakFloat, DType::kFloat64},
    {DType::kUInt16, promotion_internal::kWeakFloat, DType::kFloat64},
    {DType::kInt8, promotion_internal::kWeakComplex, DType::kComplex128},
    {DType::kUInt8, promotion_internal::kWeakComplex, DType::kComplex128},
    {DType::kInt16, promotion_internal::kWeakComplex, DType::kComplex128},
    {DType::kUInt16, promotion_internal::kWeakComplex, DType::kComplex128},
};

// NumPy's type numbers (np.dtype(d).num), which rank its DTypes for
// promoting three or more operands: np.result_type promotes every operand
// with the highest-ranked dtype operand first (PyArray_PromoteDTypeSequence),
// then joins the results. float16 ranks highest. -1: not a NumPy dtype.
[[nodiscard]] constexpr int NumpyTypeNumber(DType dtype) {
  switch (dtype) {
    case DType::kBool:
      return 0;
    case DType::kInt8:
      return 1;
    case DType::kUInt8:
      return 2;
    case DType::kInt16:
      return 3;
    case DType::kUInt16:
      return 4;
    case DType::kInt32:
      return 5;
    case DType::kUInt32:
      return 6;
    case DType::kInt64:
      return 7;
    case DType::kUInt64:
      return 8;
    case DType::kFloat32:
      return 11;
    case DType::kFloat64:
      return 12;
    case DType::kComplex64:
      return 14;
    case DType::kComplex128:
      return 15;
    case DType::kFloat16:
      return 23;
    default:
      return -1;
  }
}

}  // namespace oneflow_promote

#endif  // ONEFLOW_PROMOTE_INTERNAL_POLICY_EDGES_H_
