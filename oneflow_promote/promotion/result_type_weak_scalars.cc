// ResultType under NumPy's and JAX's policies: each operand is a node of the
// policy's order (a dtype, or a Python scalar's weak node), the nodes are
// joined, a weak result stands for the policy's default dtype of its kind,
// and Python ints are then checked as the library checks them.

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
      const IntRange range = RangeOf(bound);
      return absl::InvalidArgumentError(absl::StrCat(
          OperandLabel(operands, i), " is out of bounds for ", Name(bound),
          numpy ? ", the dtype NumPy computes in" : ", JAX's default int",
          absl::StrCat(" (", FormatInt128(range.min), " to ", FormatInt128(range.max), ")"),
          numpy ? "" : absl::StrCat(", with which the result is ", Name(result)),
          numpy ? ": NumPy raises OverflowError" : ": JAX raises OverflowError"));
    }
    TRACE(trace, OperandLabel(operands, i), " fits ", Name(bound),
          numpy ? "" : ", JAX's default int");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<DType> WeakScalarResultType(absl::Span<const Operand> operands, Policy policy,
                                           Trace& trace) {
  TRACE(trace, PolicyHeading(policy));
  if (operands.empty()) {
    return absl::InvalidArgumentError("ResultType needs at least one operand");
  }
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
