// ResultType under NumPy's, JAX's and MLX's policies: each operand is a node
// of the policy's order (a dtype, or a Python scalar's weak node), the nodes
// are joined (MLX's two at a time, left to right), a weak result stands for
// the policy's default dtype of its kind, and Python ints are checked as the
// library checks them.

#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "oneflow_promote/promotion/internal/result_type_steps.h"
#include "oneflow_promote/promotion/policy.h"
#include "oneflow_promote/status_macros.h"

namespace oneflow_promote::promotion_internal {
namespace {

using promotion_internal::CanonicalDType;
using promotion_internal::InPolicy;
using promotion_internal::Materialize;
using promotion_internal::NodeJoins;

std::string NodeName(Node node) {
  if (node.is_dtype()) return std::string(Name(node.dtype()));
  switch (node.weak()) {
    case WeakScalar::kInt:
      return "Python int";
    case WeakScalar::kFloat:
      return "Python float";
    case WeakScalar::kComplex:
      return "Python complex";
  }
  return "invalid";
}

absl::string_view PolicyHeading(Policy policy) {
  switch (policy) {
    case Policy::kNumpy:
      return "policy numpy (NEP 50: Python scalars are weak nodes; NumPy scalars and 0-d arrays "
             "are arrays)";
    case Policy::kJax:
      return "policy jax (x64; Python int, float and complex are weak nodes of the lattice)";
    case Policy::kJaxX32:
      return "policy jax_x32 (x64 off: 64-bit dtypes are canonicalized to 32 bits; Python int, "
             "float and complex are weak nodes of the lattice)";
    case Policy::kMlx:
      return "policy mlx (JAX's lattice without complex128; Python int, float and complex are "
             "weak nodes standing for int32, float32 and complex64)";
    default:
      return "policy jax_strict (only Python scalars, the weak nodes, promote with other types)";
  }
}

// The node an operand is under `policy`, or why it has none.
absl::StatusOr<Node> NodeOf(absl::Span<const Operand> operands, size_t i, Policy policy,
                            Trace& trace) {
  const Operand& op = operands[i];
  switch (op.kind()) {
    case Operand::Kind::kTensor: {
      const DType dtype = op.dtype();
      if (!IsValid(dtype)) {
        return absl::InvalidArgumentError(
            absl::StrCat(OperandLabel(operands, i), " has no valid dtype"));
      }
      if (!InPolicy(dtype, policy)) {
        return absl::InvalidArgumentError(absl::StrCat(OperandLabel(operands, i), ": ", Name(dtype),
                                                       " is not a dtype of the ",
                                                       PolicyName(policy), " policy"));
      }
      const DType canonical = CanonicalDType(dtype, policy);
      TRACE(trace, OperandLabel(operands, i), ": ", Name(dtype),
            canonical == dtype ? "" : absl::StrCat(", canonicalized to ", Name(canonical)));
      return Node(canonical);
    }
    case Operand::Kind::kPyBool:
      TRACE(trace, OperandLabel(operands, i), ": bool (a Python bool is not weak)");
      return Node(DType::kBool);
    case Operand::Kind::kPyInt:
      TRACE(trace, OperandLabel(operands, i), ": the weak node Python int");
      return Node(WeakScalar::kInt);
    case Operand::Kind::kPyFloat:
      TRACE(trace, OperandLabel(operands, i), ": the weak node Python float");
      return Node(WeakScalar::kFloat);
    case Operand::Kind::kPyComplex:
      TRACE(trace, OperandLabel(operands, i), ": the weak node Python complex");
      return Node(WeakScalar::kComplex);
  }
  return absl::InvalidArgumentError(absl::StrCat(OperandLabel(operands, i), " is invalid"));
}

// np.result_type promotes every operand with the highest-ranked dtype operand
// (NumpyTypeNumber; bool and Python scalars rank below all) before joining.
std::optional<size_t> NumpyLeader(absl::Span<const Operand> operands) {
  std::optional<size_t> leader;
  int best = 0;  // bool's number: a leader must rank above it
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!operands[i].is_tensor()) continue;
    const int rank = NumpyTypeNumber(operands[i].dtype());
    if (rank > best) {
      best = rank;
      leader = i;
    }
  }
  return leader;
}

absl::Status OutOfBounds(absl::Span<const Operand> operands, size_t i, DType bound,
                         absl::string_view whose, absl::string_view tail) {
  const IntRange range = RangeOf(bound);
  return absl::InvalidArgumentError(
      absl::StrCat(OperandLabel(operands, i), " is out of bounds for ", Name(bound), ", ", whose,
                   " (", FormatInt128(range.min), " to ", FormatInt128(range.max), ")", tail));
}

// NumPy converts a Python int to the dtype it computes in; JAX first to its
// default int, whatever the other operands are.
absl::Status CheckPythonInts(absl::Span<const Operand> operands, DType result, Policy policy,
                             Trace& trace) {
  const bool numpy = policy == Policy::kNumpy;
  const DType bound = numpy ? result : promotion_internal::WeakDefault(WeakScalar::kInt, policy);
  if (numpy && !IsIntegral(bound)) return absl::OkStatus();
  for (size_t i = 0; i < operands.size(); ++i) {
    const Operand& op = operands[i];
    if (op.kind() != Operand::Kind::kPyInt) continue;
    if (!InRange(op.int_value(), bound)) {
      return numpy ? OutOfBounds(operands, i, bound, "the dtype NumPy computes in",
                                 ": NumPy raises OverflowError")
                   : OutOfBounds(operands, i, bound, "JAX's default int",
                                 absl::StrCat(", with which the result is ", Name(result),
                                              ": JAX raises OverflowError"));
    }
    TRACE(trace, OperandLabel(operands, i), " fits ", Name(bound),
          numpy ? "" : ", JAX's default int");
  }
  return absl::OkStatus();
}

// MLX reads a Python int as an int64 (std::bad_cast beyond) and converts it
// to the array dtype it meets, checking the range of integer dtypes narrower
// than 64 bits only; beside a bool array it becomes an int32 unchecked.
absl::Status CheckMlxInt(absl::Span<const Operand> operands, size_t i, Node met) {
  const Operand& op = operands[i];
  if (op.kind() != Operand::Kind::kPyInt) return absl::OkStatus();
  if (!InRange(op.int_value(), DType::kInt64)) {
    return OutOfBounds(operands, i, DType::kInt64, "which MLX reads it as",
                       ": MLX raises RuntimeError (std::bad_cast)");
  }
  if (met.is_dtype() && IsIntegral(met.dtype()) && ItemSize(met.dtype()) < 8 &&
      !InRange(op.int_value(), met.dtype())) {
    return OutOfBounds(operands, i, met.dtype(), "the array dtype MLX converts it to",
                       ": MLX raises ValueError");
  }
  return absl::OkStatus();
}

// A Python int alone, or among Python scalars only, is an int32 array, or
// an int64 one beyond int32's range.
bool MlxWideInt(const Operand& op) {
  return op.kind() == Operand::Kind::kPyInt && !InRange(op.int_value(), DType::kInt32);
}

// MLX promotes as its binary ops and mx.result_type do, left to right, and
// each step's result is an array: a weak join stands for its default dtype
// at once, so (int8 + uint64) + float16 is float32 where the join of all
// three is float16.
absl::StatusOr<DType> MlxResultType(absl::Span<const Operand> operands, Trace& trace) {
  constexpr Policy kMlx = Policy::kMlx;
  ASSIGN_OR_RETURN(Node result, NodeOf(operands, 0, kMlx, trace));
  if (operands.size() == 1) {
    RETURN_IF_ERROR(CheckMlxInt(operands, 0, result));
    return MlxWideInt(operands[0]) ? DType::kInt64 : Materialize(result, kMlx);
  }
  for (size_t i = 1; i < operands.size(); ++i) {
    ASSIGN_OR_RETURN(const Node node, NodeOf(operands, i, kMlx, trace));
    const Node join = Node::FromIndex(MlxLattice::kJoin[result.index()][node.index()]);
    if (i == 1) RETURN_IF_ERROR(CheckMlxInt(operands, 0, join));
    RETURN_IF_ERROR(CheckMlxInt(operands, i, join));
    DType dtype = Materialize(join, kMlx);
    if (i == 1 && !operands[0].is_tensor() && !operands[1].is_tensor() &&
        join == Node(WeakScalar::kInt) && (MlxWideInt(operands[0]) || MlxWideInt(operands[1]))) {
      dtype = DType::kInt64;
    }
    TRACE(trace, "promote(", NodeName(result), ", ", NodeName(node), ") = ", Name(dtype),
          join.is_dtype() ? "" : ": MLX's result is an array of the weak node's dtype");
    result = Node(dtype);
  }
  return result.dtype();
}

}  // namespace

absl::StatusOr<DType> WeakScalarResultType(absl::Span<const Operand> operands, Policy policy,
                                           Trace& trace) {
  TRACE(trace, PolicyHeading(policy));
  if (operands.empty()) {
    return absl::InvalidArgumentError("ResultType needs at least one operand");
  }
  if (policy == Policy::kMlx) return MlxResultType(operands, trace);
  const promotion_internal::JoinTable& joins = NodeJoins(policy);
  const std::optional<size_t> leader =
      policy == Policy::kNumpy ? NumpyLeader(operands) : std::nullopt;
  Node leader_node = DType::kBool;
  if (leader.has_value()) {
    ASSIGN_OR_RETURN(leader_node, NodeOf(operands, *leader, policy, trace));
    TRACE(trace, "NumPy promotes every operand with operand ", *leader + 1, " (",
          NodeName(leader_node), "), the dtype it ranks highest, then joins the results");
  }

  // An index, not the optional: GCC 12 reads `leader == i` as maybe unset.
  const size_t leader_index = leader.value_or(operands.size());
  Node result = DType::kBool;
  for (size_t i = 0; i < operands.size(); ++i) {
    ASSIGN_OR_RETURN(Node node, leader_index == i ? absl::StatusOr<Node>(leader_node)
                                                  : NodeOf(operands, i, policy, trace));
    if (leader.has_value()) {
      // NumPy promotes every pair of its dtypes, so the join exists.
      const Node paired = Node::FromIndex(joins[leader_node.index()][node.index()]);
      TRACE(trace, "  promote(", NodeName(leader_node), ", ", NodeName(node),
            ") = ", NodeName(paired));
      node = paired;
    }
    if (i == 0) {
      result = node;
      continue;
    }
    const int join = joins[result.index()][node.index()];
    if (join < 0) {
      const bool float8 = (result.is_dtype() && IsFloat8(result.dtype())) ||
                          (node.is_dtype() && IsFloat8(node.dtype()));
      return absl::InvalidArgumentError(
          absl::StrCat("cannot promote ", OperandLabel(operands, i), " with ", NodeName(result),
                       " (", i == 1 ? "operand 1" : absl::StrCat("the join of operands 1 to ", i),
                       ") under the ", PolicyName(policy), " policy: ",
                       promotion_internal::NoPromotionMessage(NodeName(result), NodeName(node),
                                                              float8, policy)));
    }
    TRACE(trace, "join(", NodeName(result), ", ", NodeName(node),
          ") = ", NodeName(Node::FromIndex(join)));
    result = Node::FromIndex(join);
  }
  const DType dtype = Materialize(result, policy);
  if (!result.is_dtype()) {
    TRACE(trace, "the weak ", NodeName(result), " stands for ", Name(dtype),
          ", the default dtype of its kind");
  }
  RETURN_IF_ERROR(CheckPythonInts(operands, dtype, policy, trace));
  return dtype;
}

}  // namespace oneflow_promote::promotion_internal
