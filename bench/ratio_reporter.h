// A Google Benchmark reporter that also prints speed ratios between
// benchmarks measured in the same run, so that goals are stated as
// "ours is N times faster than the baseline", never as absolute times.

#ifndef ONEFLOW_PROMOTE_BENCH_RATIO_REPORTER_H_
#define ONEFLOW_PROMOTE_BENCH_RATIO_REPORTER_H_

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace oneflow_promote::bench {

// A goal: `ours` must be at least `min_ratio` times as fast as `baseline`
// (time per iteration of baseline divided by ours). Where `counter` is set,
// the ratio was measured inside the benchmark `ours`, which reports it as
// that counter (the median over repetitions counts), and `baseline` only
// names what it was measured against.
struct RatioGoal {
  std::string ours;
  std::string baseline;
  double min_ratio;
  std::string counter = "";
};

// The median of `values` (not empty).
inline double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type == Run::RT_Iteration) {
        seconds_[run.benchmark_name()].push_back(run.GetAdjustedRealTime() /
                                                 benchmark::GetTimeUnitMultiplier(run.time_unit));
        for (const auto& [counter, value] : run.counters) {
          counters_[{run.benchmark_name(), counter}].push_back(value.value);
        }
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }

  // Prints each goal's measured ratio; returns the number of goals missed.
  // Goals whose benchmarks did not run (filtered out, or misnamed) are
  // counted and reported, never silently passed.
  int PrintRatios(const std::vector<RatioGoal>& goals) const {
    int missed = 0;
    int unmeasured = 0;
    std::printf("\n%-44s %-44s %9s %7s\n", "ours", "baseline", "ratio", "goal");
    for (const RatioGoal& goal : goals) {
      double ratio;
      if (!goal.counter.empty()) {
        const auto measured = counters_.find({goal.ours, goal.counter});
        if (measured == counters_.end()) {
          ++unmeasured;
          continue;
        }
        ratio = Median(measured->second);
      } else {
        const auto ours = seconds_.find(goal.ours);
        const auto base = seconds_.find(goal.baseline);
        if (ours == seconds_.end() || base == seconds_.end()) {
          ++unmeasured;
          continue;
        }
        ratio = Fastest(base->second) / Fastest(ours->second);
      }
      const bool met = ratio >= goal.min_ratio;
      missed += !met;
      std::printf("%-44s %-44s %8.1fx %6.1fx %s\n", goal.ours.c_str(), goal.baseline.c_str(), ratio,
                  goal.min_ratio, met ? "met" : "MISSED");
    }
    if (unmeasured > 0) std::printf("%d goals not measured in this run\n", unmeasured);
    return missed;
  }

 private:
  // The fastest of a benchmark's repetitions (--benchmark_repetitions): on a
  // shared machine other tenants only ever slow a repetition down, by up to
  // half for memory-bound casts, so the fastest is the least disturbed.
  static double Fastest(const std::vector<double>& seconds) {
    return *std::min_element(seconds.begin(), seconds.end());
  }

  std::map<std::string, std::vector<double>> seconds_;
  std::map<std::pair<std::string, std::string>, std::vector<double>> counters_;
};

// The value of an integer flag spelled `prefix`N ("--elements=N"), or
// `fallback`.
inline int64_t Int64Flag(int argc, char** argv, const char* prefix, int64_t fallback) {
  const size_t length = std::strlen(prefix);
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], prefix, length) == 0) return std::atoll(argv[i] + length);
  }
  return fallback;
}

// A benchmark binary's main: registers the benchmarks (register_all returns
// their goals), prints `header`, runs them and prints the goals' ratios.
inline int RunWithRatios(int argc, char** argv,
                         const std::function<std::vector<RatioGoal>()>& register_all,
                         const std::string& header) {
  benchmark::Initialize(&argc, argv);
  const std::vector<RatioGoal> goals = register_all();
  RatioReporter reporter;
  std::printf("%s\n", header.c_str());
  benchmark::RunSpecifiedBenchmarks(&reporter);
  const int missed = reporter.PrintRatios(goals);
  std::printf("\n%d of %zu goals missed\n", missed, goals.size());
  benchmark::Shutdown();
  return 0;
}

}  // namespace oneflow_promote::bench

#endif  // ONEFLOW_PROMOTE_BENCH_RATIO_REPORTER_H_
