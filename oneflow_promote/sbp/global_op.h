// PlanGlobalOp: what TensorProcessor decides for an op on global tensors.
// Given each input's dtype, rank and nd-SBP, it picks the op's dtypes as on
// one device, then the SBP each input is cast under, the boxing each needs
// before its cast and before the op, and the output's SBP. It performs no
// communication: the framework runs the boxing it reports.
//
//   GlobalOperand x{Operand::Tensor(DType::kInt8, 1), {Sbp::PartialSum()}};
//   GlobalOperand y{Operand::Tensor(DType::kInt32, 1), {Sbp::Broadcast()}};
//   absl::StatusOr<GlobalPlan> plan = PlanGlobalOp(ops::Op::kAdd, {x, y});
//   // int8 partials can't become int32 ones: x is reduced to B, then cast.

#ifndef ONEFLOW_PROMOTE_SBP_GLOBAL_OP_H_
#define ONEFLOW_PROMOTE_SBP_GLOBAL_OP_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/ops/op_rules.h"
#include "oneflow_promote/promotion/result_type.h"
#include "oneflow_promote/sbp/sbp.h"

namespace oneflow_promote::sbp {

// An input of a global op: how promotion sees it, and its layout (ignored
// for Python scalars, which every rank holds).
struct GlobalOperand {
  Operand operand;
  NdSbp nd_sbp;
};

// One input's way to the kernel: boxed from `given` to `before_cast`, cast
// from `from` to `to` (when they differ), then boxed to `at_op`.
struct InputPlan {
  DType from;
  DType to;
  NdSbp given;
  NdSbp before_cast;
  NdSbp at_op;
};

struct GlobalPlan {
  ops::OpDTypes dtypes;
  std::vector<InputPlan> inputs;
  NdSbp output;
  Exactness exactness = Exactness::kExact;
};

// The plan of binary op `op` on two global inputs; with `strict`, nothing
// is kept that holds only up to rounding. Errors: the op's dtype rules, an
// op that is not binary, layouts of different placement ranks.
[[nodiscard]] absl::StatusOr<GlobalPlan> PlanGlobalOp(ops::Op op,
                                                      absl::Span<const GlobalOperand> inputs,
                                                      const PromotionOptions& options = {},
                                                      bool strict = true);

}  // namespace oneflow_promote::sbp

#endif  // ONEFLOW_PROMOTE_SBP_GLOBAL_OP_H_
