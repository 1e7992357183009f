// The functional frontend against libtorch's operators on the same
// inputs: every op, every dtype pair of the libtorch dtypes (and every
// condition dtype with every pair for where), every operand kind
// (dimensioned with broadcasting, non-contiguous, 0-d, Python scalar),
// both default dtypes, and both cast paths (fused and materialized). Our
// result's dtype, shape and values must equal libtorch's — integers and
// bools exactly, floating values within per-dtype tolerances — and where
// libtorch raises, we must return an error.

#include <cmath>
#include <complex>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "functional/functional.h"
#include "gtest/gtest.h"
#include "kernels/cpu_cast.h"
#include "oneflow_promote/convert.h"
#include "tests/autotest/autotest.h"
#include "tests/torch_kernel_gaps.h"
#include "tests/torch_oracle.h"

namespace oneflow_promote::functional {
namespace {

using testing::FromTorch;
using testing::RunTorchOp;
using testing::SetTorchDefaultDType;
using testing::TorchDTypes;
using testing::ToTorch;

// One input as both libraries see it.
struct Input {
  Tensor ours;
  at::Tensor torch;
  Operand operand = Operand::PyBool(false);
};

Tensor RandomTensor(DType dtype, std::vector<int64_t> shape, std::mt19937_64& rng) {
  return autotest::FilledTensor(dtype, shape, rng());
}

at::Tensor Mirror(const Tensor& t) {
  std::vector<int64_t> shape(t.shape().begin(), t.shape().end());
  std::vector<int64_t> strides(t.strides().begin(), t.strides().end());
  return at::from_blob(t.data(), shape, strides, at::TensorOptions().dtype(*ToTorch(t.dtype())))
      .clone();
}

Input MakeTensor(DType dtype, int kind, std::mt19937_64& rng) {
  Input input;
  switch (kind) {
    case 0:  // [3, 4]
      input.ours = RandomTensor(dtype, {3, 4}, rng);
      input.torch = Mirror(input.ours);
      break;
    case 1:  // [4], broadcast against [3, 4]
      input.ours = RandomTensor(dtype, {4}, rng);
      input.torch = Mirror(input.ours);
      break;
    case 2: {  // a transposed (non-contiguous) [3, 4]
      const Tensor base = RandomTensor(dtype, {4, 3}, rng);
      input.ours = *base.Transpose(0, 1);
      input.torch = Mirror(base).t();
      break;
    }
    default:  // 0-d
      input.ours = RandomTensor(dtype, {}, rng);
      input.torch = Mirror(input.ours);
      break;
  }
  input.operand = input.ours.AsOperand();
  return input;
}

Input MakeScalar(const Operand& scalar) {
  Input input;
  input.ours = Tensor::WrappedNumber(scalar);
  input.torch = testing::ToTorchOperand(scalar);
  input.operand = scalar;
  return input;
}

using autotest::Mismatch;

class Comparison {
 public:
  void Run(ops::Op op, const std::vector<Input>& inputs, DType default_dtype, CastPath path) {
    ++calls_;
    std::vector<Tensor> ours_in;
    std::vector<at::Tensor> torch_in;
    std::vector<Operand> operands;
    for (const Input& input : inputs) {
      ours_in.push_back(input.ours);
      torch_in.push_back(input.torch);
      operands.push_back(input.operand);
    }
    OpOptions options;
    options.promotion.default_dtype = default_dtype;
    options.cast_path = path;
    const absl::StatusOr<Tensor> ours = Call(op, ours_in, options);
    std::string torch_error;
    at::Tensor theirs;
    try {
      theirs = RunTorchOp(op, operands, torch_in);
    } catch (const std::exception& e) {
      torch_error = e.what();
      torch_error = torch_error.substr(0, torch_error.find('\n'));
    }
    const std::string what = Describe(op, inputs, default_dtype, path);
    if (!torch_error.empty() && ours.ok()) {
      const absl::StatusOr<ops::OpDTypes> dtypes =
          ops::InferOpDTypes(op, operands, options.promotion);
      if (dtypes.ok() && gaps_.Skip(op, dtypes->compute, torch_error, true)) return;
    }
    if (!torch_error.empty() || !ours.ok()) {
      if (torch_error.empty() || ours.ok()) {
        Fail(absl::StrCat(what, ": libtorch ", torch_error.empty() ? "ok" : torch_error, ", ours ",
                          ours.ok() ? "ok" : ours.status().ToString()));
      }
      return;
    }
    if (autotest::TorchSpecialCasesScalarPow(op, operands, ours->dtype())) {
      ++torch_special_cases_;
      return;
    }
    ++compared_;
    if (const std::string mismatch =
            Mismatch(*ours, theirs, op, DType::kBool,
                     autotest::ReductionScaleOf(op, torch_in, ours->dtype()));
        !mismatch.empty()) {
      Fail(absl::StrCat(what, ": ", mismatch));
    }
  }

  int64_t calls() const { return calls_; }
  int64_t compared() const { return compared_; }
  int64_t torch_special_cases() const { return torch_special_cases_; }
  int64_t failures() const { return failures_; }
  const testing::TorchKernelGaps& gaps() const { return gaps_; }

 private:
  static std::string Describe(ops::Op op, const std::vector<Input>& inputs, DType default_dtype,
                              CastPath path) {
    std::vector<std::string> parts;
    for (const Input& input : inputs) parts.push_back(input.ours.Describe());
    return absl::StrCat(ops::OpName(op), "(", absl::StrJoin(parts, ", "), ") default ",
                        Name(default_dtype),
                        path == CastPath::kMaterialized ? ", materialized" : ", auto");
  }
  void Fail(const std::string& message) {
    if (++failures_ <= 30) ADD_FAILURE() << message;
  }

  testing::TorchKernelGaps gaps_;
  int64_t calls_ = 0;
  int64_t compared_ = 0;
  int64_t torch_special_cases_ = 0;
  int64_t failures_ = 0;
};

std::vector<Operand> Scalars() {
  return {Operand::PyBool(true), Operand::PyInt(2), Operand::PyInt(-3), Operand::PyFloat(1.5),
          Operand::PyComplex({0.5, -2})};
}

class FunctionalVsTorch : public ::testing::TestWithParam<ops::Op> {};

TEST_P(FunctionalVsTorch, EveryDTypeAndOperandKind) {
  const ops::Op op = GetParam();
  std::mt19937_64 rng(static_cast<uint64_t>(op) * 7919 + 1);
  Comparison comparison;
  const std::vector<DType>& dtypes = TorchDTypes();
  for (DType default_dtype : {DType::kFloat32, DType::kFloat64}) {
    SetTorchDefaultDType(default_dtype);
    for (CastPath path : {CastPath::kAuto, CastPath::kMaterialized}) {
      const int arity = ops::OpArity(op);
      if (arity == 1) {
        for (DType a : dtypes) {
          for (int kind : {0, 2, 3})
            comparison.Run(op, {MakeTensor(a, kind, rng)}, default_dtype, path);
        }
        // Python cannot reduce a number (torch.sum(1.5) is a TypeError), and
        // libtorch 2.15 reads garbage for a reduction of a wrapped number.
        if (ops::IsUnaryElementwise(op)) {
          for (const Operand& s : Scalars())
            comparison.Run(op, {MakeScalar(s)}, default_dtype, path);
        }
        continue;
      }
      if (op == ops::Op::kDot) {
        for (DType a : dtypes) {
          for (DType b : dtypes) {
            comparison.Run(op, {MakeTensor(a, 1, rng), MakeTensor(b, 1, rng)}, default_dtype, path);
          }
        }
        continue;
      }
      // Kinds of (a, b): both [3,4]; [3,4] and [4]; transposed and [3,4];
      // [3,4] and 0-d; 0-d and [4]; 0-d and 0-d.
      const std::pair<int, int> kinds[] = {{0, 0}, {0, 1}, {2, 0}, {0, 3}, {3, 1}, {3, 3}};
      const std::vector<DType> conditions =
          arity == 3 ? std::vector<DType>{DType::kBool, DType::kUInt8, DType::kInt32}
                     : std::vector<DType>{DType::kBool};
      for (DType c : conditions) {
        const auto with_condition = [&](std::vector<Input> values) {
          if (arity == 3) values.insert(values.begin(), MakeTensor(c, 0, rng));
          return values;
        };
        for (DType a : dtypes) {
          for (DType b : dtypes) {
            for (const auto& [ka, kb] : kinds) {
              comparison.Run(op, with_condition({MakeTensor(a, ka, rng), MakeTensor(b, kb, rng)}),
                             default_dtype, path);
            }
          }
          for (const Operand& s : Scalars()) {
            comparison.Run(op, with_condition({MakeTensor(a, 0, rng), MakeScalar(s)}),
                           default_dtype, path);
            comparison.Run(op, with_condition({MakeScalar(s), MakeTensor(a, 1, rng)}),
                           default_dtype, path);
          }
        }
      }
    }
  }
  SetTorchDefaultDType(DType::kFloat32);
  EXPECT_EQ(comparison.failures(), 0) << "of " << comparison.calls() << " calls";
  EXPECT_GT(comparison.compared(), 0);
  std::cout << ops::OpName(op) << ": " << comparison.calls() << " calls, " << comparison.compared()
            << " results compared, " << comparison.torch_special_cases()
            << " where libtorch special-cases a scalar exponent\n"
            << comparison.gaps().Summary();
  for (const auto& [key, ulps] : autotest::LargestUlps()) {
    if (key.first == op) {
      std::cout << "  " << Name(key.second) << ": " << ulps << " ulp at most (bound "
                << autotest::BoundText(op, key.second) << ")\n";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllOps, FunctionalVsTorch, ::testing::ValuesIn(ops::kKernelOps),
                         [](const ::testing::TestParamInfo<ops::Op>& info) {
                           return std::string(ops::OpName(info.param));
                         });

// out= and in place, under PyTorch's can-cast rule: every pair of input
// dtypes into every output dtype.
TEST(FunctionalVsTorch, OutAndInPlace) {
  std::mt19937_64 rng(99);
  testing::TorchKernelGaps gaps;
  int failures = 0, compared = 0, e8m0_false = 0;
  const auto fail = [&](const std::string& message) {
    if (++failures <= 30) ADD_FAILURE() << message;
  };
  // Compares one out= or in-place call: `written` is ours, `theirs` libtorch's.
  const auto check = [&](const std::string& what, ops::Op op, const absl::Status& ours,
                         bool torch_ok, const std::string& torch_error, const Tensor& written,
                         const at::Tensor& theirs, const ops::OpDTypes& dtypes) {
    if (!torch_ok && ours.ok() && gaps.Skip(op, dtypes.compute, torch_error, true)) return;
    // float8_e8m0fnu has no zero: libtorch writes a comparison's false through
    // it (2^-127) into a non-bool out=; the library writes 0 (docs/ops.md).
    if (op == ops::Op::kEq && dtypes.compute == DType::kFloat8E8M0FNU &&
        written.dtype() != DType::kBool) {
      ++e8m0_false;
      return;
    }
    if (torch_ok != ours.ok()) {
      return fail(
          absl::StrCat(what, ": libtorch ", torch_ok ? "ok" : "error", ", ours ", ours.ToString()));
    }
    if (!torch_ok) return;
    ++compared;
    if (const std::string m = Mismatch(written, theirs, op, dtypes.result); !m.empty()) {
      fail(what + ": " + m);
    }
  };
  for (ops::Op op : {ops::Op::kAdd, ops::Op::kSub, ops::Op::kMul, ops::Op::kDiv,
                     ops::Op::kRemainder, ops::Op::kBitwiseAnd, ops::Op::kEq}) {
    for (DType a : TorchDTypes()) {
      for (DType b : TorchDTypes()) {
        const Input x = MakeTensor(a, 0, rng), y = MakeTensor(b, 1, rng);
        const absl::StatusOr<ops::OpDTypes> inferred =
            ops::InferOpDTypes(op, {x.operand, y.operand});
        const ops::OpDTypes dtypes = inferred.ok() ? *inferred : ops::OpDTypes{a, a};
        for (DType out_dtype : TorchDTypes()) {
          const std::string what = absl::StrCat(ops::OpName(op), "(", Name(a), ", ", Name(b),
                                                ", out=", Name(out_dtype), ")");
          Tensor out = *Tensor::Zeros(out_dtype, {3, 4});
          const absl::Status ours = CallOut(op, {x.ours, y.ours}, out);
          at::Tensor theirs = testing::TorchFilled({3, 4}, out_dtype, 0);
          bool torch_ok = true;
          std::string torch_error;
          try {
            switch (op) {
              case ops::Op::kAdd:
                at::add_out(theirs, x.torch, y.torch);
                break;
              case ops::Op::kSub:
                at::sub_out(theirs, x.torch, y.torch);
                break;
              case ops::Op::kMul:
                at::mul_out(theirs, x.torch, y.torch);
                break;
              case ops::Op::kDiv:
                at::div_out(theirs, x.torch, y.torch);
                break;
              case ops::Op::kRemainder:
                at::remainder_out(theirs, x.torch, y.torch);
                break;
              case ops::Op::kBitwiseAnd:
                at::bitwise_and_out(theirs, x.torch, y.torch);
                break;
              default:
                at::eq_out(theirs, x.torch, y.torch);
                break;
            }
          } catch (const std::exception& e) {
            torch_ok = false;
            torch_error = e.what();
          }
          check(what, op, ours, torch_ok, torch_error, out, theirs, dtypes);
        }
        // In place: x op= y.
        const std::string what = absl::StrCat(Name(a), ".", ops::OpName(op), "_(", Name(b), ")");
        Tensor self = *x.ours.Clone();
        const absl::Status ours = CallInPlace(op, self, {y.ours});
        at::Tensor theirs = x.torch.clone();
        bool torch_ok = true;
        std::string torch_error;
        try {
          switch (op) {
            case ops::Op::kAdd:
              theirs.add_(y.torch);
              break;
            case ops::Op::kSub:
              theirs.sub_(y.torch);
              break;
            case ops::Op::kMul:
              theirs.mul_(y.torch);
              break;
            case ops::Op::kDiv:
              theirs.div_(y.torch);
              break;
            case ops::Op::kRemainder:
              theirs.remainder_(y.torch);
              break;
            case ops::Op::kBitwiseAnd:
              theirs.bitwise_and_(y.torch);
              break;
            default:
              theirs.eq_(y.torch);
              break;
          }
        } catch (const std::exception& e) {
          torch_ok = false;
          torch_error = e.what();
        }
        check(what, op, ours, torch_ok, torch_error, self, theirs, dtypes);
      }
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(compared, 1000);
  std::printf("%s%d float8_e8m0fnu comparisons into non-bool outputs skipped\n",
              gaps.Summary().c_str(), e8m0_false);
}

// Outputs too large for the caches are computed a block at a time and
// streamed out with non-temporal stores (forced here, so that the test's size
// does not follow the machine's caches): results on both cast paths, on one
// thread and two, and out= into a view whose data starts 5 or 8 bytes past a
// 16-byte boundary, must equal libtorch's.
TEST(FunctionalVsTorch, StreamedOutputs) {
  const cast_internal::ForcedStoreKind streamed(cast_internal::StoreKind::kStreaming);
  std::mt19937_64 rng(5);
  constexpr int64_t kElements = (int64_t{3} << 16) + 13;  // several threads' shares and a tail
  struct Case {
    ops::Op op;
    DType a, b;
  };
  for (const Case& c : {Case{ops::Op::kAdd, DType::kInt8, DType::kFloat32},
                        Case{ops::Op::kMul, DType::kFloat32, DType::kFloat32},
                        Case{ops::Op::kEq, DType::kInt32, DType::kFloat64},
                        Case{ops::Op::kSub, DType::kInt16, DType::kInt64}}) {
    const Tensor x = RandomTensor(c.a, {kElements}, rng), y = RandomTensor(c.b, {kElements}, rng);
    at::Tensor theirs = RunTorchOp(c.op, {x.AsOperand(), y.AsOperand()}, {Mirror(x), Mirror(y)});
    for (CastPath path : {CastPath::kAuto, CastPath::kMaterialized}) {
      for (int threads : {1, 2}) {
        OpOptions options;
        options.cast_path = path;
        options.context.cpu_threads = threads;
        const std::string what = absl::StrCat(
            ops::OpName(c.op), "(", Name(c.a), "[", kElements, "], ", Name(c.b), "), ", threads,
            " threads", path == CastPath::kMaterialized ? ", materialized" : "");
        const absl::StatusOr<Tensor> ours = Call(c.op, {x, y}, options);
        ASSERT_TRUE(ours.ok()) << what << ": " << ours.status();
        EXPECT_EQ(Mismatch(*ours, theirs, c.op), "") << what;

        const Tensor buffer = *Tensor::Zeros(ours->dtype(), {kElements + 16});
        Tensor out = *buffer.AsStrided({kElements}, {1},
                                       4 / static_cast<int64_t>(ItemSize(ours->dtype())) + 1);
        ASSERT_TRUE(CallOut(c.op, {x, y}, out, options).ok()) << what << ", out=";
        EXPECT_EQ(Mismatch(out, theirs, c.op), "") << what << ", out= at an offset";
      }
    }
  }
}

}  // namespace
}  // namespace oneflow_promote::functional
