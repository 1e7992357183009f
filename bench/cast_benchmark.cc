// CPU cast throughput for every pair of libtorch's 13 dtypes, measured in
// one run against two baselines:
//   libtorch   dst.copy_(src): the kernel behind Tensor::to, into a
//              preallocated tensor (so neither side pays for allocation);
//   memcpy     a copy moving the same bytes (read + written), the physical
//              limit, split across the same threads.
// Each runs on one thread and on all hardware threads (libtorch through
// at::set_num_threads). Throughput counts bytes read plus bytes written.
// The ratios are printed at the end, one line per goal.
//
//   bazel run -c opt //bench:cast_benchmark -- [--elements=N] [--benchmark_filter=...]

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bench/ratio_reporter.h"
#include "kernels/cast.h"
#include "kernels/internal/cpu_cast.h"
#include "kernels/internal/parallel_for.h"
#include "tests/torch_oracle.h"

namespace oneflow_promote {
namespace {

int64_t g_elements = int64_t{16} << 20;

// A source buffer of realistic values: uniform in [-100, 100) converted by
// the library (bool: half true), so no side meets denormals or NaNs.
std::shared_ptr<std::vector<char>> Source(DType dtype) {
  static std::map<DType, std::shared_ptr<std::vector<char>>> cache;
  auto& slot = cache[dtype];
  if (slot) return slot;
  std::vector<double> values(g_elements);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> uniform(-100, 100);
  for (double& v : values) v = uniform(rng);
  slot = std::make_shared<std::vector<char>>(g_elements * ItemSize(dtype));
  if (!CastElements(values.data(), DType::kFloat64, slot->data(), dtype, g_elements).ok()) {
    std::abort();
  }
  return slot;
}

int Threads(bool all) { return all ? cast_internal::HardwareThreads() : 1; }

void SetBytes(benchmark::State& state, int64_t bytes_moved) {
  state.SetBytesProcessed(state.iterations() * bytes_moved);
}

void BM_Ours(benchmark::State& state, DType from, DType to, bool all_threads) {
  const auto src = Source(from);
  std::vector<char> dst(g_elements * ItemSize(to));
  const Device device = Device::Cpu(Threads(all_threads));
  for (auto _ : state) {
    if (!CastElements(src->data(), from, dst.data(), to, g_elements, device).ok()) std::abort();
    benchmark::ClobberMemory();
  }
  SetBytes(state, g_elements * static_cast<int64_t>(ItemSize(from) + ItemSize(to)));
}

void BM_Libtorch(benchmark::State& state, DType from, DType to, bool all_threads) {
  const auto src = Source(from);
  at::set_num_threads(Threads(all_threads));
  const at::Tensor source = at::from_blob(src->data(), {g_elements},
                                          at::TensorOptions().dtype(*testing::ToTorch(from)));
  at::Tensor dst = at::empty({g_elements}, at::TensorOptions().dtype(*testing::ToTorch(to)));
  for (auto _ : state) {
    dst.copy_(source);
    benchmark::ClobberMemory();
  }
  SetBytes(state, g_elements * static_cast<int64_t>(ItemSize(from) + ItemSize(to)));
}

// Copies bytes_moved / 2 bytes (so as many bytes are read plus written).
void BM_Memcpy(benchmark::State& state, int64_t bytes_moved, bool all_threads) {
  const int64_t bytes = bytes_moved / 2;
  std::vector<char> src(bytes, 1), dst(bytes);
  const int threads = Threads(all_threads);
  for (auto _ : state) {
    cast_internal::ParallelFor(bytes, int64_t{1} << 20, threads, [&](int64_t b, int64_t e) {
      std::memcpy(dst.data() + b, src.data() + b, e - b);
    });
    benchmark::ClobberMemory();
  }
  SetBytes(state, bytes_moved);
}

// Names as Google Benchmark reports them (UseRealTime appends "/real_time").
std::string Suffix(bool all_threads) {
  return all_threads ? "all_threads/real_time" : "1_thread/real_time";
}

std::string OursName(DType from, DType to, bool all) {
  return absl::StrCat("cast/ours/", Name(from), "/", Name(to), "/", Suffix(all));
}
std::string TorchName(DType from, DType to, bool all) {
  return absl::StrCat("cast/libtorch/", Name(from), "/", Name(to), "/", Suffix(all));
}
std::string MemcpyName(int64_t bytes_per_element, bool all) {
  return absl::StrCat("memcpy/", bytes_per_element, "_bytes_per_element/", Suffix(all));
}

std::string Registered(const std::string& reported) {
  return reported.substr(0, reported.size() - std::string("/real_time").size());
}

std::vector<bench::RatioGoal> RegisterAll() {
  std::vector<bench::RatioGoal> goals;
  std::map<std::string, bool> memcpy_registered;
  for (bool all : {false, true}) {
    for (DType from : testing::TorchDTypes()) {
      for (DType to : testing::TorchDTypes()) {
        if (from == to) continue;
        const int64_t per_element = static_cast<int64_t>(ItemSize(from) + ItemSize(to));
        benchmark::RegisterBenchmark(Registered(OursName(from, to, all)).c_str(), BM_Ours, from,
                                     to, all)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(Registered(TorchName(from, to, all)).c_str(), BM_Libtorch,
                                     from, to, all)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
        const std::string memcpy_name = MemcpyName(per_element, all);
        if (!memcpy_registered[memcpy_name]) {
          memcpy_registered[memcpy_name] = true;
          benchmark::RegisterBenchmark(Registered(memcpy_name).c_str(), BM_Memcpy,
                                       per_element * g_elements, all)
              ->UseRealTime()
              ->Unit(benchmark::kMillisecond);
        }
        goals.push_back({OursName(from, to, all), TorchName(from, to, all), 1.0});
        goals.push_back({OursName(from, to, all), memcpy_name, 0.9});
      }
    }
  }
  return goals;
}

}  // namespace
}  // namespace oneflow_promote

int main(int argc, char** argv) {
  oneflow_promote::g_elements = oneflow_promote::bench::ElementsFlag(argc, argv,
                                                                     oneflow_promote::g_elements);
  return oneflow_promote::bench::RunWithRatios(
      argc, argv, oneflow_promote::RegisterAll,
      absl::StrCat(oneflow_promote::g_elements, " elements per cast, ",
                   oneflow_promote::cast_internal::HardwareThreads(),
                   " hardware threads, CPU kernels: ",
                   oneflow_promote::cast_internal::BestCpuCastKernels().isa));
}
