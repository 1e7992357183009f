// PlanGlobalOp: the op's dtypes, then per input the cast signature, then
// the binary signature, with each boxing put on the cheaper side of the cast.

#include "oneflow_promote/sbp/global_op.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "oneflow_promote/status_macros.h"

namespace oneflow_promote::sbp {
namespace {

bool CastKeepsExactly(DType from, DType to, const NdSbp& nd_sbp) {
  for (const Sbp& sbp : nd_sbp) {
    if (CastKeeps(from, to, sbp.kind) != Exactness::kExact) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<GlobalPlan> PlanGlobalOp(ops::Op op, absl::Span<const GlobalOperand> inputs,
                                        const PromotionOptions& options, bool strict) {
  if (ops::OpArity(op) != 2 || inputs.size() != 2) {
    return absl::InvalidArgumentError(absl::StrCat("PlanGlobalOp: ", ops::OpName(op), " with ",
                                                   inputs.size(), " inputs; binary ops only"));
  }
  size_t dims = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].operand.is_tensor()) continue;
    const size_t n = inputs[i].nd_sbp.size();
    if (n == 0 || n > 2 || (dims != 0 && n != dims)) {
      return absl::InvalidArgumentError(
          absl::StrCat("input ", i + 1, " is laid out as ", ToString(inputs[i].nd_sbp),
                       "; every tensor input needs one SBP per dimension of one 1-D or 2-D "
                       "placement"));
    }
    dims = n;
  }
  dims = std::max<size_t>(dims, 1);

  const Operand operands[] = {inputs[0].operand, inputs[1].operand};
  ASSIGN_OR_RETURN(ops::OpDTypes dtypes, ops::InferOpDTypes(op, operands, options));

  GlobalPlan plan;
  plan.dtypes = dtypes;
  NdSbp cast_outputs[2];
  for (size_t i = 0; i < 2; ++i) {
    InputPlan input;
    input.from = inputs[i].operand.dtype();
    input.to = dtypes.compute;
    input.given = inputs[i].operand.is_tensor() ? inputs[i].nd_sbp : NdSbp(dims, Sbp::Broadcast());
    const CastSignature cast = InferCastSignature(input.from, input.to, input.given, strict);
    input.before_cast = cast.input;
    cast_outputs[i] = cast.output;
    plan.exactness = std::max(plan.exactness, cast.exactness);
    plan.inputs.push_back(input);
  }
  ASSIGN_OR_RETURN(BinarySignature binary, InferBinarySignature(op, dtypes.compute, cast_outputs[0],
                                                                cast_outputs[1], strict));
  plan.inputs[0].at_op = binary.a;
  plan.inputs[1].at_op = binary.b;
  plan.output = binary.output;
  plan.exactness = std::max(plan.exactness, binary.exactness);
  // Boxing that the op still needs after the cast moves fewer bytes in the
  // narrower dtype: before a widening cast that keeps the target layout.
  for (size_t i = 0; i < 2; ++i) {
    InputPlan& input = plan.inputs[i];
    if (input.at_op != cast_outputs[i] && input.from != input.to &&
        !CastBeforeBoxing(input.from, input.to, cast_outputs[i]) &&
        CastKeepsExactly(input.from, input.to, input.at_op)) {
      input.before_cast = input.at_op;
    }
  }
  return plan;
}

}  // namespace oneflow_promote::sbp
