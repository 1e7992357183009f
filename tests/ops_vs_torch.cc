// Cross-checks the functional frontend's op dtype rules (InferOpDTypes, and
// `promote op` on top of it) against libtorch's operators, exhaustively:
// every op on every operand, pair of operands (and, for where, every
// condition with every pair of values) drawn from libtorch's dtypes as 1-d, 2-d
// and 0-d tensors plus Python scalars of every kind, including the values
// PyTorch checks (0, 1, negative ints), under both default dtypes. Where
// PyTorch raises, the rules must return an error; elsewhere the dtypes must
// be equal. PyTorch's CPU kernels raise ZeroDivisionError as they meet a
// zero divisor; the rules leave that to the kernels, so there the
// functional frontend must raise it on the same values.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/cli.h"
#include "functional/functional.h"
#include "gtest/gtest.h"
#include "oneflow_promote/ops/op_rules.h"
#include "tests/torch_kernel_gaps.h"
#include "tests/torch_oracle.h"

namespace oneflow_promote::functional {
namespace {

using testing::SetTorchDefaultDType;
using testing::TorchAnswer;
using testing::TorchDTypes;
using testing::TorchOpDType;

constexpr DType kDefaultDTypes[] = {DType::kFloat32, DType::kFloat64};

std::vector<Operand> ScalarPool() {
  return {Operand::PyBool(true),
          Operand::PyBool(false),
          Operand::PyInt(0),
          Operand::PyInt(1),
          Operand::PyInt(2),
          Operand::PyInt(-2),
          Operand::PyInt(255),
          Operand::PyInt(70000),
          Operand::PyInt(int64_t{1} << 40),
          Operand::PyFloat(-1.5),
          Operand::PyFloat(1e300),
          Operand::PyFloat(-1e39),
          Operand::PyComplex({1e300, 0}),
          Operand::PyFloat(1.5),
          Operand::PyFloat(0.0),
          Operand::PyFloat(1.0),
          Operand::PyComplex({0, 2}),
          Operand::PyComplex({0, 0}),
          Operand::PyComplex({1, 0})};
}

std::vector<Operand> OperandPool() {
  std::vector<Operand> pool = testing::TensorOperandPool();
  pool.push_back(Operand::Tensor(DType::kInt16, 2));
  pool.push_back(Operand::Tensor(DType::kFloat32, 2));
  for (const Operand& scalar : ScalarPool()) pool.push_back(scalar);
  return pool;
}

std::string Spell(ops::Op op, const std::vector<Operand>& operands, DType default_dtype) {
  std::vector<std::string> words = {std::string(ops::OpName(op))};
  for (const Operand& operand : operands) words.push_back(operand.ToString());
  return absl::StrCat(absl::StrJoin(words, " "), " (default ", Name(default_dtype), ")");
}

// The functional frontend's error, or "", on the values TorchOpDType gives
// libtorch: tensors of ones of shape [2, ...], Python scalars as wrapped numbers.
std::string FrontendErrorOnOnes(ops::Op op, const std::vector<Operand>& operands,
                                DType default_dtype) {
  std::vector<Tensor> inputs;
  for (const Operand& operand : operands) {
    if (!operand.is_tensor()) {
      inputs.push_back(Tensor::WrappedNumber(operand));
      continue;
    }
    const std::vector<int64_t> shape(operand.ndim(), 2);
    const Tensor ones = *Tensor::FromValues<double>(
        std::vector<double>(static_cast<size_t>(1) << operand.ndim(), 1.0), shape);
    inputs.push_back(*ones.To(operand.dtype()));
  }
  OpOptions options;
  options.promotion.default_dtype = default_dtype;
  const absl::StatusOr<Tensor> result = Call(op, inputs, options);
  return result.ok() ? "" : std::string(result.status().message());
}

// Whether libtorch's answer is its CPU kernel's ZeroDivisionError, which the
// rules leave to the kernels, and the functional frontend's kernel raises
// it on the same values.
bool KernelRefusesZeroDivisorLikeTorch(ops::Op op, const std::vector<Operand>& operands,
                                       DType default_dtype, const TorchAnswer& torch) {
  return !torch.ok && torch.error == "ZeroDivisionError" &&
         FrontendErrorOnOnes(op, operands, default_dtype) == "ZeroDivisionError";
}

// Compares one call; counts and reports (the first few) mismatches.
class Checker {
 public:
  void Check(ops::Op op, const std::vector<Operand>& operands, DType default_dtype) {
    ++calls_;
    const TorchAnswer torch = TorchOpDType(op, operands);
    const absl::StatusOr<ops::OpDTypes> ours = ops::InferOpDTypes(op, operands, {default_dtype});
    bool agree = torch.ok ? ours.ok() && ours->result == torch.dtype : torch.raised() && !ours.ok();
    if (!agree && ours.ok() && torch.error == "ZeroDivisionError") {
      ++kernel_refusals_;
      agree = KernelRefusesZeroDivisorLikeTorch(op, operands, default_dtype, torch);
    }
    if (agree) return;
    if (!torch.ok &&
        gaps_.Skip(op, ours.ok() ? ours->compute : DType::kBool, torch.error, ours.ok())) {
      return;
    }
    if (++mismatches_ <= 40) {
      ADD_FAILURE() << Spell(op, operands, default_dtype) << ": libtorch " << torch.Describe()
                    << ", ours "
                    << (ours.ok() ? std::string(Name(ours->result))
                                  : "error: " + std::string(ours.status().message()));
    }
  }
  int64_t calls() const { return calls_; }
  int64_t mismatches() const { return mismatches_; }
  int64_t kernel_refusals() const { return kernel_refusals_; }
  const testing::TorchKernelGaps& gaps() const { return gaps_; }

 private:
  testing::TorchKernelGaps gaps_;
  int64_t calls_ = 0;
  int64_t mismatches_ = 0;
  int64_t kernel_refusals_ = 0;  // ZeroDivisionError: compared through the kernel
};

class OpsVsTorch : public ::testing::TestWithParam<ops::Op> {};

TEST_P(OpsVsTorch, EveryOperandCombination) {
  const ops::Op op = GetParam();
  const std::vector<Operand> pool = OperandPool();
  Checker checker;
  for (DType default_dtype : kDefaultDTypes) {
    SetTorchDefaultDType(default_dtype);
    switch (ops::OpArity(op)) {
      case 1:
        for (const Operand& a : pool) checker.Check(op, {a}, default_dtype);
        break;
      case 2:
        for (const Operand& a : pool) {
          for (const Operand& b : pool) checker.Check(op, {a, b}, default_dtype);
        }
        break;
      case 3: {
        for (const Operand& c : pool) {
          for (const Operand& a : pool) {
            for (const Operand& b : pool) checker.Check(op, {c, a, b}, default_dtype);
          }
        }
        break;
      }
    }
  }
  SetTorchDefaultDType(DType::kFloat32);
  EXPECT_EQ(checker.mismatches(), 0) << "of " << checker.calls() << " calls";
  std::cout << ops::OpName(op) << ": " << checker.calls() - checker.gaps().skipped()
            << " calls compared (" << checker.kernel_refusals()
            << " of them zero divisors the kernel must refuse)\n"
            << checker.gaps().Summary();
}

INSTANTIATE_TEST_SUITE_P(AllOps, OpsVsTorch, ::testing::ValuesIn(ops::kKernelOps),
                         [](const ::testing::TestParamInfo<ops::Op>& info) {
                           return std::string(ops::OpName(info.param));
                         });

// `promote op` on random invocations, as a user types them, against
// libtorch directly.
TEST(OpsCliVsTorch, RandomInvocations) {
  std::mt19937_64 rng(20261122);
  const std::vector<Operand> pool = OperandPool();
  testing::TorchKernelGaps gaps;
  int mismatches = 0;
  constexpr int kInvocations = 6000;
  for (int i = 0; i < kInvocations; ++i) {
    const ops::Op op = ops::kKernelOps[rng() % std::size(ops::kKernelOps)];
    const DType default_dtype = kDefaultDTypes[rng() % 2];
    std::vector<Operand> operands;
    std::vector<std::string> words = {"op", std::string(ops::OpName(op)),
                                      absl::StrCat("--default-dtype=", Name(default_dtype))};
    if ((op == ops::Op::kDivFloor || op == ops::Op::kDivTrunc) && rng() % 2) {
      // PyTorch's spelling: div with a rounding mode.
      words[1] = "div";
      words.push_back(op == ops::Op::kDivFloor ? "--rounding-mode=floor" : "--rounding_mode=trunc");
    }
    for (int k = 0; k < ops::OpArity(op); ++k) {
      operands.push_back(pool[rng() % pool.size()]);
      words.push_back(operands.back().ToString());
    }
    // The CLI follows Python's signature, which refuses scalars that
    // libtorch's C++ API wraps.
    if (!ops::CheckPythonSignature(ops::RuleOf(op), operands).ok()) continue;
    SetTorchDefaultDType(default_dtype);
    const TorchAnswer torch = TorchOpDType(op, operands);
    const std::vector<absl::string_view> views(words.begin(), words.end());
    const cli::Answer answer = cli::RunInvocation(views, {});
    const bool agree = torch.ok ? answer.ok && answer.text == Name(torch.dtype)
                       : answer.ok
                           ? KernelRefusesZeroDivisorLikeTorch(op, operands, default_dtype, torch)
                           : torch.raised() && absl::StartsWith(answer.text, "error: ");
    const absl::StatusOr<ops::OpDTypes> ours = ops::InferOpDTypes(op, operands, {default_dtype});
    if (!agree && !torch.ok &&
        gaps.Skip(op, ours.ok() ? ours->compute : DType::kBool, torch.error, answer.ok)) {
      continue;
    }
    if (!agree && ++mismatches <= 20) {
      ADD_FAILURE() << absl::StrJoin(words, " ") << ": libtorch " << torch.Describe() << ", CLI "
                    << answer.text;
    }
  }
  SetTorchDefaultDType(DType::kFloat32);
  EXPECT_EQ(mismatches, 0) << "of " << kInvocations;
  std::cout << gaps.Summary();
}

// `promote op` with explicit extents ("float32[2,3]"): shapes that do not
// broadcast, and dot of vectors of different lengths, are errors exactly
// where libtorch raises; random ranks 0 to 3 and extents 1 to 3.
TEST(OpsCliVsTorch, ExplicitShapes) {
  std::mt19937_64 rng(7);
  testing::TorchKernelGaps gaps;
  int mismatches = 0;
  constexpr int kInvocations = 4000;
  const std::vector<DType>& dtypes = TorchDTypes();
  for (int i = 0; i < kInvocations; ++i) {
    const ops::Op op = ops::kKernelOps[rng() % std::size(ops::kKernelOps)];
    std::vector<std::string> words = {"op", std::string(ops::OpName(op))};
    std::vector<Operand> operands;
    std::vector<at::Tensor> tensors;
    for (int k = 0; k < ops::OpArity(op); ++k) {
      const DType dtype =
          k == 0 && op == ops::Op::kWhere ? DType::kBool : dtypes[rng() % dtypes.size()];
      std::vector<int64_t> shape(op == ops::Op::kDot ? 1 : rng() % 4);
      for (int64_t& extent : shape) extent = 1 + static_cast<int64_t>(rng() % 3);
      words.push_back(absl::StrCat(Name(dtype), "[", absl::StrJoin(shape, ","), "]"));
      operands.push_back(Operand::Tensor(dtype, static_cast<int64_t>(shape.size())));
      tensors.push_back(testing::TorchFilled(shape, dtype, 1));
    }
    bool torch_ok = true;
    std::string torch_answer;
    try {
      torch_answer =
          testing::TorchDTypeName(testing::RunTorchOp(op, operands, tensors).scalar_type());
    } catch (const std::exception& e) {
      torch_ok = false;
      torch_answer = e.what();
    }
    const std::vector<absl::string_view> views(words.begin(), words.end());
    const cli::Answer answer = cli::RunInvocation(views, {});
    const bool agree = torch_ok ? answer.ok && answer.text == torch_answer : !answer.ok;
    const absl::StatusOr<ops::OpDTypes> ours = ops::InferOpDTypes(op, operands);
    if (!agree && !torch_ok &&
        gaps.Skip(op, ours.ok() ? ours->compute : DType::kBool, torch_answer, answer.ok)) {
      continue;
    }
    if (!agree && ++mismatches <= 20) {
      ADD_FAILURE() << absl::StrJoin(words, " ") << ": libtorch "
                    << (torch_ok ? torch_answer : "error: " + torch_answer.substr(0, 120))
                    << ", CLI " << answer.text;
    }
  }
  EXPECT_EQ(mismatches, 0) << "of " << kInvocations;
  std::cout << gaps.Summary();
}

// out= under PyTorch's can-cast rule, for every pair of dimensioned inputs
// and every output dtype.
TEST(OutputCastVsTorch, AddDivEqIntoEveryDType) {
  testing::TorchKernelGaps gaps;
  int mismatches = 0;
  for (ops::Op op : {ops::Op::kAdd, ops::Op::kDiv, ops::Op::kEq}) {
    for (DType a : TorchDTypes()) {
      for (DType b : TorchDTypes()) {
        const absl::StatusOr<ops::OpDTypes> dtypes =
            ops::InferOpDTypes(op, {Operand::Tensor(a, 1), Operand::Tensor(b, 1)});
        if (!dtypes.ok()) continue;
        for (DType out : TorchDTypes()) {
          const at::Tensor x = testing::TorchFilled({2}, a, 1);
          const at::Tensor y = testing::TorchFilled({2}, b, 1);
          at::Tensor result = at::empty({2}, at::TensorOptions().dtype(*testing::ToTorch(out)));
          bool torch_ok = true;
          std::string torch_error;
          try {
            if (op == ops::Op::kAdd) at::add_out(result, x, y);
            if (op == ops::Op::kDiv) at::div_out(result, x, y);
            if (op == ops::Op::kEq) at::eq_out(result, x, y);
          } catch (const c10::Error& e) {
            torch_ok = false;
            torch_error = e.what();
          }
          const bool ours = ops::CheckCanCastToOutput(dtypes->result, out).ok();
          if (ours && !torch_ok && gaps.Skip(op, dtypes->compute, torch_error, true)) continue;
          if (ours != torch_ok && ++mismatches <= 20) {
            ADD_FAILURE() << ops::OpName(op) << "(" << Name(a) << ", " << Name(b)
                          << ", out=" << Name(out) << "): libtorch " << (torch_ok ? "ok" : "error")
                          << ", ours " << (ours ? "ok" : "error");
          }
        }
      }
    }
  }
  EXPECT_EQ(mismatches, 0);
  std::cout << gaps.Summary();
}

}  // namespace
}  // namespace oneflow_promote::functional
