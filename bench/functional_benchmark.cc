// What a mixed-dtype binary op costs: add(int8[n], float32[n]) -> float32 at
// 16M elements, on one thread and on all hardware threads, four ways in one
// run:
//   materialized  TensorProcessor casts int8 -> float32 into a new tensor,
//                 then the same-dtype add runs (the design's path);
//   fused         the add kernel converts int8 blocks as it reads them;
//   no_cast       add(float32, float32): what the op costs without promotion;
//   libtorch      at::add_out on the same int8 and float32 inputs.
// Outputs are preallocated on every side (out=), so allocation of the
// result is not measured; the materialized path's temporary is part of its
// cost. Also: TensorProcessor::Apply on two inputs that need no cast, and
// libtorch's result_type on the same pair, for scale.
//
//   bazel run -c opt //bench:functional_benchmark -- [--elements=N]

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/native/TypeProperties.h>
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bench/ratio_reporter.h"
#include "kernels/internal/parallel_for.h"
#include "oneflow_promote/functional/functional.h"
#include "oneflow_promote/functional/tensor_processor.h"
#include "oneflow_promote/functional/torch_tensor_traits.h"

namespace oneflow_promote {
namespace {

using functional::CastPath;

int64_t g_elements = int64_t{16} << 20;

int Threads(bool all) { return all ? cast_internal::HardwareThreads() : 1; }
std::string Suffix(bool all) { return all ? "all_threads" : "1_thread"; }

// Random int8 in [-100, 100] and float32 in [-100, 100), shared by both
// libraries (libtorch tensors wrap the same buffers).
struct Inputs {
  Tensor int8s, floats, floats2;
  at::Tensor torch_int8s, torch_floats;
};
const Inputs& GetInputs() {
  static const Inputs* inputs = [] {
    auto* in = new Inputs;
    in->int8s = *Tensor::Empty(DType::kInt8, {g_elements});
    in->floats = *Tensor::Empty(DType::kFloat32, {g_elements});
    std::mt19937 rng(3);
    for (int64_t i = 0; i < g_elements; ++i) {
      in->int8s.data_as<int8_t>()[i] = static_cast<int8_t>(static_cast<int>(rng() % 201) - 100);
      in->floats.data_as<float>()[i] = static_cast<float>(rng() % 20000) / 100.0f - 100.0f;
    }
    in->floats2 = *in->floats.Clone();
    in->torch_int8s = at::from_blob(in->int8s.data(), {g_elements}, at::kChar);
    in->torch_floats = at::from_blob(in->floats.data(), {g_elements}, at::kFloat);
    return in;
  }();
  return *inputs;
}

void SetBytes(benchmark::State& state, int64_t bytes_per_element) {
  state.SetBytesProcessed(state.iterations() * g_elements * bytes_per_element);
}

void BM_Ours(benchmark::State& state, CastPath path, bool mixed, bool all) {
  const Inputs& in = GetInputs();
  Tensor out = *Tensor::Empty(DType::kFloat32, {g_elements});
  functional::OpOptions options;
  options.cast_path = path;
  options.threads = Threads(all);
  const Tensor inputs[] = {mixed ? in.int8s : in.floats2, in.floats};
  for (auto _ : state) {
    if (!functional::CallOut(functional::Op::kAdd, inputs, out, options).ok()) std::abort();
    benchmark::DoNotOptimize(out.data());
  }
  SetBytes(state, mixed ? 9 : 12);
}

void BM_Libtorch(benchmark::State& state, bool all) {
  const Inputs& in = GetInputs();
  at::set_num_threads(Threads(all));
  at::Tensor out = at::empty({g_elements}, at::kFloat);
  for (auto _ : state) {
    at::add_out(out, in.torch_int8s, in.torch_floats);
    benchmark::DoNotOptimize(out.data_ptr());
  }
  SetBytes(state, 9);
}

// Apply() alone, on a processor built once (with no cast needed, Apply
// leaves its inputs as they are, so every iteration does the same work).
void BM_ApplyNoCast(benchmark::State& state) {
  const Tensor a = *Tensor::Empty(DType::kFloat32, {16});
  const Tensor b = *Tensor::Empty(DType::kFloat32, {16});
  TensorProcessor<Tensor> processor;
  processor.AddInputs({a, b}).PromoteInputsToCommonDtype(true);
  for (auto _ : state) {
    absl::Status status = processor.Apply();
    benchmark::DoNotOptimize(status);
  }
}

// A processor built, applied and destroyed: what a functor pays per call.
void BM_BuildAndApplyNoCast(benchmark::State& state) {
  const Tensor a = *Tensor::Empty(DType::kFloat32, {16});
  const Tensor b = *Tensor::Empty(DType::kFloat32, {16});
  for (auto _ : state) {
    TensorProcessor<Tensor> processor;
    absl::Status status = processor.AddInputs({a, b}).PromoteInputsToCommonDtype(true).Apply();
    benchmark::DoNotOptimize(status);
    benchmark::DoNotOptimize(processor.GetInputs().data());
  }
}

void BM_LibtorchResultType(benchmark::State& state) {
  const at::Tensor a = at::empty({16}, at::kFloat), b = at::empty({16}, at::kFloat);
  for (auto _ : state) {
    benchmark::DoNotOptimize(at::native::result_type(a, b));
  }
}

std::string Name(const std::string& what, bool all) {
  return absl::StrCat("add_int8_float32/", what, "/", Suffix(all), "/real_time");
}

std::vector<bench::RatioGoal> RegisterAll() {
  std::vector<bench::RatioGoal> goals;
  const auto registered = [](const std::string& name) {
    return name.substr(0, name.size() - std::string("/real_time").size());
  };
  for (bool all : {false, true}) {
    benchmark::RegisterBenchmark(registered(Name("materialized", all)).c_str(), BM_Ours,
                                 CastPath::kMaterialized, true, all)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(registered(Name("fused", all)).c_str(), BM_Ours,
                                 CastPath::kFused, true, all)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(registered(Name("no_cast_float32_float32", all)).c_str(),
                                 BM_Ours, CastPath::kAuto, false, all)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(registered(Name("libtorch", all)).c_str(), BM_Libtorch, all)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    goals.push_back({Name("fused", all), Name("materialized", all), 1.5});
    goals.push_back({Name("fused", all), Name("libtorch", all), 1.3});
  }
  benchmark::RegisterBenchmark("TensorProcessor_Apply_no_cast", BM_ApplyNoCast);
  benchmark::RegisterBenchmark("TensorProcessor_build_and_Apply_no_cast", BM_BuildAndApplyNoCast);
  benchmark::RegisterBenchmark("libtorch_result_type", BM_LibtorchResultType);
  goals.push_back({"TensorProcessor_Apply_no_cast", "libtorch_result_type", 1.0});
  goals.push_back({"TensorProcessor_build_and_Apply_no_cast", "libtorch_result_type", 1.0});
  return goals;
}

}  // namespace
}  // namespace oneflow_promote

int main(int argc, char** argv) {
  oneflow_promote::g_elements = oneflow_promote::bench::ElementsFlag(argc, argv,
                                                                     oneflow_promote::g_elements);
  return oneflow_promote::bench::RunWithRatios(
      argc, argv, oneflow_promote::RegisterAll,
      absl::StrCat(oneflow_promote::g_elements, " elements, ",
                   oneflow_promote::cast_internal::HardwareThreads(),
                   " hardware threads; the Apply goal is absolute (at most 30 ns): see its time"));
}
