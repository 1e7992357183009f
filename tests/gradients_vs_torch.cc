// Cross-checks the gradient rules of op_rules.h (ResultRequiresGrad,
// GradientDType, OpRule::derivative) against libtorch's autograd: every op
// on every pair of operands (for where, a bool condition and every pair of
// values) drawn from libtorch's dtypes as 1-d and 0-d tensors and from
// Python scalars. Tensors of the dtypes that can require grad do; then
// whether the result requires grad, whether backward raises, and which
// operand receives a gradient of which dtype must be libtorch's.

#include <torch/csrc/autograd/autograd.h>

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "oneflow_promote/ops/op_rules.h"
#include "tests/torch_oracle.h"

namespace oneflow_promote::functional {
namespace {

std::string Spell(ops::Op op, const std::vector<Operand>& operands) {
  std::vector<std::string> words = {std::string(ops::OpName(op))};
  for (const Operand& operand : operands) words.push_back(operand.ToString());
  return absl::StrJoin(words, " ");
}

std::string DescribeGradient(const std::optional<DType>& dtype) {
  return dtype.has_value() ? std::string(Name(*dtype)) : "none";
}

// The rule's answer against libtorch's for one call; "" when they agree or
// libtorch (or the rules) refuse the call.
std::string Mismatch(ops::Op op, const std::vector<Operand>& operands) {
  const absl::StatusOr<ops::OpDTypes> dtypes = ops::InferOpDTypes(op, operands);
  if (!dtypes.ok()) return "";
  std::vector<at::Tensor> inputs;
  std::vector<at::Tensor> differentiable;
  std::vector<size_t> positions;
  for (size_t i = 0; i < operands.size(); ++i) {
    inputs.push_back(testing::ToTorchOperand(operands[i]));
    const at::ScalarType type = inputs.back().scalar_type();
    if (operands[i].is_tensor() && (at::isFloatingType(type) || at::isComplexType(type))) {
      inputs.back().set_requires_grad(true);
      differentiable.push_back(inputs.back());
      positions.push_back(i);
    }
  }
  std::vector<std::optional<DType>> expected;
  bool any_gradient = false;
  for (size_t i = 0; i < operands.size(); ++i) {
    expected.push_back(ops::GradientDType(ops::RuleOf(op), operands, i, *dtypes));
    any_gradient |= expected.back().has_value();
  }
  at::Tensor result;
  try {
    result = testing::RunTorchOp(op, operands, inputs);
  } catch (const std::exception&) {
    return "";  // torch refuses what the rules accept: ops_vs_torch's business
  }
  if (result.requires_grad() != any_gradient) {
    return absl::StrCat("result requires grad: torch ", result.requires_grad(), ", rules ",
                        any_gradient);
  }
  if (!any_gradient) return "";
  const bool backward_raises =
      ops::BackwardRaises(ops::RuleOf(op).derivative, operands[0].is_scalar());
  std::vector<at::Tensor> gradients;
  try {
    gradients = torch::autograd::grad({result}, differentiable, {at::ones_like(result)},
                                      /*retain_graph=*/false, /*create_graph=*/false,
                                      /*allow_unused=*/true);
  } catch (const c10::Error& e) {
    const std::string message = e.what_without_backtrace();
    if (absl::StrContains(message, "derivative for")) {
      if (backward_raises) return "";
      return absl::StrCat("torch's backward raised: ", message);
    }
    // libtorch's backward lacks a kernel ("sum_cpu" not implemented for
    // 'ComplexHalf') or a promotion (uint16 * complex64 in mul's formula):
    // nothing to compare.
    return "";
  }
  if (backward_raises) {
    return "torch's backward computed; the rule says it is not implemented";
  }
  std::vector<std::optional<DType>> torch_dtypes(operands.size());
  for (size_t k = 0; k < positions.size(); ++k) {
    if (gradients[k].defined())
      torch_dtypes[positions[k]] = testing::FromTorch(gradients[k].scalar_type());
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    if (torch_dtypes[i] != expected[i]) {
      return absl::StrCat("operand ", i + 1, " receives ", DescribeGradient(torch_dtypes[i]),
                          " from torch, ", DescribeGradient(expected[i]), " by the rules");
    }
  }
  return "";
}

TEST(GradientsVsTorch, EveryOpOnEveryPairOfOperands) {
  std::vector<Operand> pool;
  for (DType dtype : testing::TorchDTypes()) {
    pool.push_back(Operand::Tensor(dtype, 1));
    pool.push_back(Operand::Tensor(dtype, 0));
  }
  for (const Operand& scalar : {Operand::PyInt(2), Operand::PyFloat(1.5),
                                Operand::PyComplex({0, 2}), Operand::PyBool(true)}) {
    pool.push_back(scalar);
  }
  int mismatches = 0;
  int compared = 0;
  for (ops::Op op : ops::kKernelOps) {
    std::vector<std::vector<Operand>> calls;
    for (const Operand& a : pool) {
      if (ops::OpArity(op) == 1) {
        if (a.is_tensor()) calls.push_back({a});
        continue;
      }
      for (const Operand& b : pool) {
        if (!a.is_tensor() && !b.is_tensor()) continue;
        if (op == ops::Op::kWhere) {
          calls.push_back({Operand::Tensor(DType::kBool, 1), a, b});
        } else {
          calls.push_back({a, b});
        }
      }
    }
    for (const std::vector<Operand>& operands : calls) {
      const std::string mismatch = Mismatch(op, operands);
      ++compared;
      if (mismatch.empty()) continue;
      if (++mismatches <= 20) ADD_FAILURE() << Spell(op, operands) << ": " << mismatch;
    }
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_GT(compared, 10000);
}

}  // namespace
}  // namespace oneflow_promote::functional
