// Times one cast pair's kernel variants against each other in one process:
// the store kinds a pass may take (StoreKind, forced) or the CPU kernel sets
// the processor runs (ForcedCpuCastKernels), on one shared source and
// destination, in rounds that take the variants in a fresh random order,
// each after a rest and untimed settling calls, as BM_CastPaired does.
// Each variant runs twice a round under two names, so the report gives the
// same-code band beside every ratio. No libtorch: bench/paired_ab.py judges
// builds against it; this judges the choices inside one build, which
// paired_ab cannot separate from which binary a turn ran.
//
//   kernel_variants --pairs=complex64/float32,int16/bool --elements=2097152
//                   [--threads=1] [--rounds=15] [--phase_ms=40]
//                   [--variants=stores|sets]

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "bench/ratio_reporter.h"
#include "kernels/cast.h"
#include "kernels/cpu_cast.h"
#include "oneflow_promote/dtype.h"

namespace oneflow_promote {
namespace {

using cast_internal::CpuCastKernels;
using cast_internal::StoreKind;

// One way of running the cast: a forced store kind, or a forced kernel set.
struct Variant {
  std::string name;
  StoreKind store = StoreKind::kChosenBySize;
  const CpuCastKernels* kernels = nullptr;
};

// 64-byte aligned and written once, so that pages are faulted in before timing.
struct Buffer {
  explicit Buffer(int64_t bytes)
      : data(static_cast<char*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64))) {
    std::memset(data, 0, bytes);
  }
  ~Buffer() { std::free(data); }
  char* const data;
};

std::string Flag(int argc, char** argv, absl::string_view name, std::string fallback) {
  for (int i = 1; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    if (absl::StartsWith(arg, name)) return std::string(arg.substr(name.size()));
  }
  return fallback;
}

int64_t IntFlag(int argc, char** argv, absl::string_view name, int64_t fallback) {
  int64_t value = fallback;
  const std::string text = Flag(argc, argv, name, "");
  if (!text.empty() && !absl::SimpleAtoi(text, &value)) {
    std::fprintf(stderr, "bad %s%s\n", std::string(name).c_str(), text.c_str());
    std::exit(2);
  }
  return value;
}

DType ParseDType(absl::string_view name) {
  for (DType dtype : kAllDTypes) {
    if (Name(dtype) == name) return dtype;
  }
  std::fprintf(stderr, "unknown dtype %s\n", std::string(name).c_str());
  std::exit(2);
}

// Medians over rounds of time(variants[0]) / time(each), one pair.
void TimePair(DType from, DType to, int64_t n, int threads, int rounds, int64_t phase_ms,
              const std::vector<Variant>& variants, std::mt19937& rng) {
  const Buffer src(n * static_cast<int64_t>(ItemSize(from)));
  const Buffer dst(n * static_cast<int64_t>(ItemSize(to)));
  {
    // Values in [-100, 100), as the paired benchmark's sources.
    std::vector<double> values(static_cast<size_t>(n));
    std::uniform_real_distribution<double> uniform(-100, 100);
    for (double& v : values) v = uniform(rng);
    if (!CastElements(values.data(), DType::kFloat64, src.data, from, n).ok()) std::abort();
  }
  const Device device = Device::Cpu(threads);
  const auto run_for = [&](const Variant& variant, double seconds) {
    const cast_internal::ForcedStoreKind store(variant.store);
    std::unique_ptr<cast_internal::ForcedCpuCastKernels> kernels;
    if (variant.kernels != nullptr) {
      kernels = std::make_unique<cast_internal::ForcedCpuCastKernels>(*variant.kernels);
    }
    const auto start = std::chrono::steady_clock::now();
    for (int calls = 1;; ++calls) {
      if (!CastElements(src.data, from, dst.data, to, n, device).ok()) std::abort();
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (elapsed >= seconds) return elapsed / calls;
    }
  };
  // Each variant twice, as "name" and "name'": the second copy's ratio to
  // the first is the same-code band.
  std::vector<int> order;
  for (size_t i = 0; i < 2 * variants.size(); ++i) order.push_back(static_cast<int>(i));
  std::vector<std::vector<double>> seconds(order.size());
  for (int round = 0; round < rounds; ++round) {
    std::shuffle(order.begin(), order.end(), rng);
    for (const int which : order) {
      std::this_thread::sleep_for(std::chrono::milliseconds(phase_ms / 2));
      const Variant& variant = variants[which / 2];
      run_for(variant, 0.75e-3 * phase_ms);
      seconds[which].push_back(run_for(variant, 0.25e-3 * phase_ms));
    }
  }
  std::printf(
      "%-24s %d thread(s), %lld elements:", absl::StrCat(Name(from), " -> ", Name(to)).c_str(),
      threads, static_cast<long long>(n));
  for (size_t v = 0; v < variants.size(); ++v) {
    std::vector<double> vs_first, same;
    for (int r = 0; r < rounds; ++r) {
      vs_first.push_back(seconds[0][r] / seconds[2 * v][r]);
      same.push_back(seconds[2 * v][r] / seconds[2 * v + 1][r]);
    }
    std::printf("  %s %.3f (A/A %.3f)", variants[v].name.c_str(), bench::Median(vs_first),
                bench::Median(same));
  }
  std::printf("  [%s: %.3f ms]\n", variants[0].name.c_str(), 1e3 * bench::Median(seconds[0]));
  std::fflush(stdout);
}

int Main(int argc, char** argv) {
  const std::string pairs = Flag(argc, argv, "--pairs=", "");
  const int64_t n = IntFlag(argc, argv, "--elements=", int64_t{16} << 20);
  const int threads = static_cast<int>(IntFlag(argc, argv, "--threads=", 1));
  const int rounds = static_cast<int>(IntFlag(argc, argv, "--rounds=", 15));
  const int64_t phase_ms = IntFlag(argc, argv, "--phase_ms=", 40);
  const std::string kind = Flag(argc, argv, "--variants=", "stores");
  std::vector<Variant> variants;
  if (kind == "stores") {
    variants = {{"streaming", StoreKind::kStreaming},
                {"from_memory", StoreKind::kStreamingFromMemory},
                {"ordinary", StoreKind::kOrdinary}};
  } else if (kind == "sets") {
    for (const CpuCastKernels* set : cast_internal::RunnableCpuCastKernels()) {
      variants.push_back({set->isa, StoreKind::kChosenBySize, set});
    }
  } else {
    std::fprintf(stderr, "--variants= is stores or sets\n");
    return 2;
  }
  std::printf("# ratios: time(%s) / time(variant), medians over %d rounds; LLC %lld bytes\n",
              variants[0].name.c_str(), rounds,
              static_cast<long long>(cast_internal::LastLevelCacheBytes()));
  std::mt19937 rng(1);
  for (absl::string_view pair : absl::StrSplit(pairs, ',', absl::SkipEmpty())) {
    const std::vector<absl::string_view> names = absl::StrSplit(pair, '/');
    if (names.size() != 2) {
      std::fprintf(stderr, "pairs are FROM/TO\n");
      return 2;
    }
    TimePair(ParseDType(names[0]), ParseDType(names[1]), n, threads, rounds, phase_ms, variants,
             rng);
  }
  return 0;
}

}  // namespace
}  // namespace oneflow_promote

int main(int argc, char** argv) { return oneflow_promote::Main(argc, argv); }
