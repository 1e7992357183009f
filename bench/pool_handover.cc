// What handing the cores between libtorch's OpenMP pool and ours costs, in
// one process as a framework that links both runs them. libgomp's workers
// spin after each parallel region, and ours poll for a while before they
// sleep; on a machine with few cores each can hold the other's cores.
//
// Each row times one call (median of --calls, default 400) of
//   ours:   CastElements int8 -> float32 on all threads of our pool,
//   ours@t: the same on libtorch's pool (CurrentTorchContext's),
//   torch:  at::add_out float32 + float32 on all threads, or
//   torch2: the same add on other tensors (what changing data costs alone),
// at 1M elements (--elements), right after the named predecessor, or after
// it and a rest of 20 ms. Prints a table; docs/benchmarks.md records it.
//
//   bazel run -c opt //bench:pool_handover

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <thread>
#include <vector>

#include "bench/ratio_reporter.h"
#include "functional/torch_tensor_traits.h"
#include "kernels/cast.h"
#include "kernels/parallel_for.h"

namespace oneflow_promote {
namespace {

int Main(int argc, char** argv) {
  const int64_t n = bench::Int64Flag(argc, argv, "--elements=", int64_t{1} << 20);
  const int calls = static_cast<int>(bench::Int64Flag(argc, argv, "--calls=", 400));
  const int threads = cast_internal::HardwareThreads();
  at::set_num_threads(threads);
  std::vector<int8_t> bytes(n, 3);
  std::vector<float> floats(n);
  const at::Tensor a = at::rand({n}), b = at::rand({n});
  at::Tensor sum = at::empty({n});

  const auto cast_on = [&](Device device) {
    return [&bytes, &floats, n, device] {
      if (!CastElements(bytes.data(), DType::kInt8, floats.data(), DType::kFloat32, n, device)
               .ok()) {
        std::abort();
      }
    };
  };
  const auto ours = cast_on(Device::Cpu());
  const auto ours_on_torch =
      cast_on(WithContext(Device::Cpu(), CurrentTorchContext(c10::Device(c10::kCPU))));
  const auto torch = [&] { at::add_out(sum, a, b); };
  const at::Tensor c = at::rand({n}), d = at::rand({n});
  at::Tensor sum2 = at::empty({n});
  const auto torch2 = [&] { at::add_out(sum2, c, d); };
  using Fn = std::function<void()>;
  struct Row {
    const char* timed;
    Fn timed_fn;
    const char* after;
    Fn after_fn;
  };
  const Row rows[] = {{"ours", ours, "ours", ours},
                      {"ours", ours, "torch", torch},
                      {"torch", torch, "torch", torch},
                      {"torch", torch, "ours", ours},
                      {"ours@t", ours_on_torch, "ours@t", ours_on_torch},
                      {"ours@t", ours_on_torch, "torch", torch},
                      {"torch", torch, "ours@t", ours_on_torch},
                      {"torch", torch, "torch2", torch2}};
  std::printf("%d threads, %lld elements; median microseconds of one call\n", threads,
              static_cast<long long>(n));
  std::printf("%-6s %-8s %12s %18s\n", "call", "after", "right after", "after 20 ms rest");
  for (const Row& row : rows) {
    double medians[2];
    for (int rest = 0; rest < 2; ++rest) {
      std::vector<double> times;
      for (int i = 0; i < calls / (rest ? 8 : 1); ++i) {
        row.after_fn();
        if (rest) std::this_thread::sleep_for(std::chrono::milliseconds(20));
        const auto start = std::chrono::steady_clock::now();
        row.timed_fn();
        times.push_back(
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                .count());
      }
      std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
      medians[rest] = times[times.size() / 2];
    }
    std::printf("%-6s %-8s %12.1f %18.1f\n", row.timed, row.after, medians[0], medians[1]);
  }
  return 0;
}

}  // namespace
}  // namespace oneflow_promote

int main(int argc, char** argv) { return oneflow_promote::Main(argc, argv); }
