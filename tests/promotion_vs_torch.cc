// Cross-checks the torch policy against real PyTorch (libtorch),
// exhaustively: promoteTypes and canCast for every pair of libtorch's
// dtypes, and result_type for every pair and triple of operands drawn from
// {its dtypes} x {dimensioned, 0-d} plus Python scalars of every kind and edge
// values, under both default dtypes. Random 4- to 6-operand calls through
// the CLI's own parsing complete the picture.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/cli.h"
#include "gtest/gtest.h"
#include "oneflow_promote/promotion/policy.h"
#include "oneflow_promote/promotion/result_type.h"
#include "tests/torch_oracle.h"

namespace oneflow_promote {
namespace {

using testing::FromTorch;
using testing::SetTorchDefaultDType;
using testing::TorchDTypes;
using testing::TorchResultType;
using testing::ToTorch;
using testing::ToTorchOperand;

constexpr DType kDefaultDTypes[] = {DType::kFloat32, DType::kFloat64};

std::vector<Operand> OperandPool() {
  std::vector<Operand> pool = testing::TensorOperandPool();
  pool.push_back(Operand::PyBool(true));
  pool.push_back(Operand::PyBool(false));
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{255}, INT64_MAX, INT64_MIN}) {
    pool.push_back(Operand::PyInt(v));
  }
  for (double v : {1.5, -0.0, 1e300, 5e-324, std::numeric_limits<double>::infinity(),
                   std::numeric_limits<double>::quiet_NaN()}) {
    pool.push_back(Operand::PyFloat(v));
  }
  pool.push_back(Operand::PyComplex({0, 2}));
  pool.push_back(Operand::PyComplex({1, -2}));
  return pool;
}

std::string Spell(const std::vector<Operand>& operands) {
  std::vector<std::string> words;
  for (const Operand& op : operands) words.push_back(op.ToString());
  return absl::StrJoin(words, " ");
}

// Compares one call; returns false (after recording a failure) on mismatch.
bool Agrees(const std::vector<Operand>& operands, const std::vector<at::Tensor>& tensors,
            DType default_dtype) {
  const testing::TorchAnswer torch = TorchResultType(tensors);
  const absl::StatusOr<DType> ours =
      ResultType(operands, Policy::kTorch, PromotionOptions{default_dtype});
  if (torch.ok && ours.ok() && *ours == torch.dtype) return true;
  if (torch.raised() && !ours.ok()) return true;
  ADD_FAILURE() << "default " << Name(default_dtype) << ", operands " << Spell(operands)
                << ": libtorch " << torch.Describe() << ", ours "
                << (ours.ok() ? std::string(Name(*ours)) : std::string(ours.status().message()));
  return false;
}

// The text of an error up to the dtypes it names (libtorch spells them as
// its ScalarType names, UInt16; the library as canonical names, uint16).
std::string Reason(const std::string& message) {
  return message.substr(0, message.find(", attempted to promote"));
}

TEST(PromotionVsTorch, PromoteTypesEveryPair) {
  int compared = 0, refused = 0;
  for (DType a : TorchDTypes()) {
    for (DType b : TorchDTypes()) {
      const Promotion ours = PromoteTypes(a, b, Policy::kTorch);
      ++compared;
      at::ScalarType theirs;
      try {
        theirs = c10::promoteTypes(*ToTorch(a), *ToTorch(b));
      } catch (const c10::Error& e) {
        // libtorch refuses float8 with any other dtype, and uint16/32/64
        // with anything but a float: ours must refuse with the same reason.
        const std::string error = e.what_without_backtrace();
        EXPECT_FALSE(ours.ok()) << Name(a) << " + " << Name(b) << ": libtorch raises (" << error
                                << "), ours " << Name(ours.dtype());
        if (!ours.ok()) {
          EXPECT_EQ(Reason(std::string(ours.status().message())), Reason(error))
              << Name(a) << " + " << Name(b);
        }
        ++refused;
        continue;
      }
      ASSERT_TRUE(ours.ok()) << Name(a) << " + " << Name(b) << ": libtorch "
                             << c10::toString(theirs) << ", ours " << ours.status();
      EXPECT_EQ(Name(ours.dtype()), Name(FromTorch(theirs))) << Name(a) << " + " << Name(b);
    }
  }
  std::printf("promoteTypes: compared %d pairs, %d of them refused by both\n", compared, refused);
}

TEST(PromotionVsTorch, CanCastEveryPair) {
  int compared = 0;
  for (DType from : TorchDTypes()) {
    for (DType to : TorchDTypes()) {
      EXPECT_EQ(CanCast(from, to, Policy::kTorch), c10::canCast(*ToTorch(from), *ToTorch(to)))
          << Name(from) << " -> " << Name(to);
      ++compared;
    }
  }
  std::printf("canCast: compared %d pairs\n", compared);
}

TEST(PromotionVsTorch, ResultTypeEveryPairAndTriple) {
  const std::vector<Operand> pool = OperandPool();
  std::vector<at::Tensor> tensors;
  for (const Operand& op : pool) tensors.push_back(ToTorchOperand(op));
  int64_t compared = 0;
  int failures = 0;
  for (DType default_dtype : kDefaultDTypes) {
    SetTorchDefaultDType(default_dtype);
    for (size_t i = 0; i < pool.size(); ++i) {
      failures += !Agrees({pool[i]}, {tensors[i]}, default_dtype);
      ++compared;
      for (size_t j = 0; j < pool.size(); ++j) {
        failures += !Agrees({pool[i], pool[j]}, {tensors[i], tensors[j]}, default_dtype);
        ++compared;
        // The explaining path (no tables) must reach the same answer.
        const std::string explained =
            ExplainResultType({pool[i], pool[j]}, Policy::kTorch, PromotionOptions{default_dtype});
        const absl::StatusOr<DType> fast =
            ResultType({pool[i], pool[j]}, Policy::kTorch, PromotionOptions{default_dtype});
        EXPECT_EQ(explained.substr(explained.rfind('\n') + 1),
                  fast.ok() ? absl::StrCat("result: ", Name(*fast))
                            : absl::StrCat("error: ", fast.status().message()));
        for (size_t k = 0; k < pool.size() && failures < 20; ++k) {
          failures += !Agrees({pool[i], pool[j], pool[k]}, {tensors[i], tensors[j], tensors[k]},
                              default_dtype);
          ++compared;
        }
      }
    }
  }
  SetTorchDefaultDType(DType::kFloat32);
  std::printf("result_type: compared %lld operand lists of 1 to 3 operands (pool of %zu)\n",
              static_cast<long long>(compared), pool.size());
  EXPECT_EQ(failures, 0);
}

// The CLI path: random lists of 1 to 6 operands, spelled as CLI words with
// --default-dtype, parsed and answered by RunInvocation.
TEST(PromotionVsTorch, CliRandomLongOperandLists) {
  const std::vector<Operand> pool = OperandPool();
  std::mt19937_64 rng(20261121);
  int compared = 0;
  int failures = 0;
  for (int trial = 0; trial < 40000 && failures < 20; ++trial) {
    const DType default_dtype = kDefaultDTypes[rng() % 2];
    const int count = 1 + static_cast<int>(rng() % 6);
    std::vector<Operand> operands;
    std::vector<at::Tensor> tensors;
    std::vector<std::string> words = {absl::StrCat("--default-dtype=", Name(default_dtype))};
    for (int n = 0; n < count; ++n) {
      operands.push_back(pool[rng() % pool.size()]);
      tensors.push_back(ToTorchOperand(operands.back()));
      words.push_back(operands.back().ToString());
    }
    SetTorchDefaultDType(default_dtype);
    const testing::TorchAnswer torch = TorchResultType(tensors);
    const std::vector<absl::string_view> views(words.begin(), words.end());
    const cli::Answer ours = cli::RunInvocation(views, cli::Settings{});
    ++compared;
    const bool same = torch.ok ? (ours.ok && ours.text == Name(torch.dtype))
                               : (torch.raised() && !ours.ok && ours.text.rfind("error: ", 0) == 0);
    if (!same) {
      ++failures;
      ADD_FAILURE() << absl::StrJoin(words, " ") << ": libtorch " << torch.Describe() << ", CLI "
                    << ours.text;
    }
  }
  SetTorchDefaultDType(DType::kFloat32);
  std::printf("CLI: compared %d random invocations of 1 to 6 operands\n", compared);
}

}  // namespace
}  // namespace oneflow_promote
