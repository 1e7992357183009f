// An AutoTest for every op of the functional frontend against libtorch:
// random dtypes from all 13, random broadcastable shapes (some transposed,
// some 0-d) and Python scalars of every kind, both default dtypes. CI runs
// a bounded number of cases per op; ONEFLOW_PROMOTE_AUTOTEST_CASES=100000
// makes it a soak run.

#include "gtest/gtest.h"
#include "tests/autotest/autotest.h"

namespace oneflow_promote::autotest {
namespace {

using ops::Op;

constexpr int kCasesPerOp = 150;

Generator<OperandSpec> AnyTensor() {
  return TensorOperand(RandomDType(kAllDTypes), RandomShape(1, 3, 4));
}

// Half of the tensors hold special values (FilledTensor) for the binary
// and ternary elementwise ops, which agree with libtorch on them. pow, unary
// ops and reductions keep plain values: there libtorch takes shortcuts
// (pow(t, 0.5) is sqrt: -0.0 and NaN where pow gives +0.0 and inf) and its
// vector loops give their own signs of zeros and non-finite sums.
Generator<OperandSpec> WithSpecialValues(Op op, const Generator<OperandSpec>& specs) {
  return specs.Map([op](OperandSpec spec) {
    spec.special_values = op != Op::kPow && !spec.is_scalar && spec.value_seed % 2 == 0;
    return spec;
  });
}
Generator<OperandSpec> AnyScalar() { return ScalarOperand(RandomScalar(ScalarKind::kAny)); }

// A tensor two times in three, a Python scalar otherwise.
Generator<OperandSpec> TensorOrScalar(Op op) {
  const Generator<OperandSpec> tensors = WithSpecialValues(op, AnyTensor());
  const Generator<OperandSpec> scalars = AnyScalar();
  return {[tensors, scalars](Rng& rng) { return rng() % 3 == 0 ? scalars(rng) : tensors(rng); }, 0};
}

OperandsGenerator OperandsFor(Op op) {
  switch (ops::OpArity(op)) {
    case 1:
      return Operands({AnyTensor()});
    case 3: {
      const Generator<OperandSpec> conditions =
          TensorOperand(RandomDType(kBoolGroup) | RandomDType(kBoolGroup) |
                            RandomDType(kBoolGroup) | RandomDType(kUnsigned | kSigned),
                        RandomShape(1, 3, 4));
      return Operands({conditions, TensorOrScalar(op), TensorOrScalar(op)});
    }
    default:
      break;
  }
  if (op == Op::kDot) {
    // 1-D vectors of one length, usually of one dtype.
    return {[](Rng& rng) {
              const Generator<DType> dtypes = RandomDType(kAllDTypes);
              OperandSpec a, b;
              a.dtype = dtypes(rng);
              b.dtype = rng() % 4 == 0 ? dtypes(rng) : a.dtype;
              a.shape = b.shape = {1 + static_cast<int64_t>(rng() % 6)};
              a.value_seed = rng();
              b.value_seed = rng();
              return std::vector<OperandSpec>{a, b};
            },
            0};
  }
  return Operands({TensorOrScalar(op), TensorOrScalar(op)});
}

class OpsAutoTest : public ::testing::TestWithParam<Op> {};

TEST_P(OpsAutoTest, AgreesWithLibtorch) {
  AutoTestConfig config;
  config.op = GetParam();
  config.cases = kCasesPerOp;
  config.seed = 1000 * (static_cast<uint64_t>(config.op) + 1);
  const AutoTestResult result = RunAutoTest(config, OperandsFor(config.op));
  EXPECT_EQ(result.failed, 0) << result.first_failure;
  EXPECT_GT(result.compared, 0) << "every drawn case was rejected by both sides";
  std::cout << ops::OpName(config.op) << ": " << result.compared << " compared, " << result.skipped
            << " rejected by both, " << result.torch_lacks_kernel
            << " skipped where libtorch has no CPU kernel and the library computes, "
            << result.torch_special_cases << " where it special-cases a scalar exponent\n";
  for (const auto& [key, ulps] : LargestUlps()) {
    if (key.first == config.op) {
      std::cout << "  " << Name(key.second) << ": " << ulps << " ulp at most (bound "
                << BoundText(config.op, key.second) << ")\n";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllOps, OpsAutoTest, ::testing::ValuesIn(ops::kKernelOps),
                         [](const ::testing::TestParamInfo<Op>& info) {
                           return std::string(ops::OpName(info.param));
                         });

}  // namespace
}  // namespace oneflow_promote::autotest
