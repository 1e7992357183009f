// The cost of deciding a dtype: PromoteTypes on runtime dtypes, and
// ResultType on 2 and 3 operands against libtorch's at::native::result_type
// on the same operands, measured in one run and printed as ratios.

#include <ATen/ATen.h>
#include <ATen/native/TypeProperties.h>
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "bench/ratio_reporter.h"
#include "oneflow_promote/policy.h"
#include "oneflow_promote/result_type.h"
#include "tests/torch_oracle.h"

namespace oneflow_promote {
namespace {

constexpr int kCases = 1024;  // a power of two, cycled through by index

// Operand lists drawn from libtorch's dtypes and every operand kind, so the
// branch predictor cannot learn one path.
std::vector<std::vector<Operand>> OperandLists(int count) {
  std::mt19937 rng(7);
  const std::vector<DType>& dtypes = testing::TorchDTypes();
  std::vector<std::vector<Operand>> lists(kCases);
  for (auto& list : lists) {
    for (int i = 0; i < count; ++i) {
      switch (rng() % 4) {
        case 0:
        case 1:
          list.push_back(Operand::Tensor(dtypes[rng() % dtypes.size()], 1));
          break;
        case 2:
          list.push_back(Operand::Tensor(dtypes[rng() % dtypes.size()], 0));
          break;
        default:
          list.push_back(rng() % 2 ? Operand::PyFloat(1.5) : Operand::PyInt(3));
      }
    }
  }
  return lists;
}

void BM_PromoteTypes(benchmark::State& state) {
  std::mt19937 rng(1);
  std::vector<std::pair<DType, DType>> pairs(kCases);
  for (auto& p : pairs) p = {kAllDTypes[rng() % kNumDTypes], kAllDTypes[rng() % kNumDTypes]};
  size_t i = 0;
  for (auto _ : state) {
    const auto& [a, b] = pairs[i++ & (kCases - 1)];
    benchmark::DoNotOptimize(PromoteTypes(a, b, Policy::kTorch));
  }
}
BENCHMARK(BM_PromoteTypes);

void BM_ResultType_Ours(benchmark::State& state) {
  const auto lists = OperandLists(static_cast<int>(state.range(0)));
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(ResultType(lists[i++ & (kCases - 1)], Policy::kTorch));
  }
}
BENCHMARK(BM_ResultType_Ours)->Arg(2)->Arg(3);

void BM_ResultType_Torch(benchmark::State& state) {
  const auto lists = OperandLists(static_cast<int>(state.range(0)));
  std::vector<std::vector<at::Tensor>> tensors;
  for (const auto& list : lists) {
    tensors.emplace_back();
    for (const Operand& op : list) tensors.back().push_back(testing::ToTorchOperand(op));
  }
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        at::native::result_type(at::ITensorListRef(tensors[i++ & (kCases - 1)])));
  }
}
BENCHMARK(BM_ResultType_Torch)->Arg(2)->Arg(3);

}  // namespace
}  // namespace oneflow_promote

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  oneflow_promote::bench::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.PrintRatios({
      {"BM_ResultType_Ours/2", "BM_ResultType_Torch/2", 20},
      {"BM_ResultType_Ours/3", "BM_ResultType_Torch/3", 20},
  });
  benchmark::Shutdown();
  return 0;
}
