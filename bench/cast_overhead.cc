// What promotion costs, in one Google Benchmark binary; every goal is a ratio
// against a baseline measured in the same run:
//
//   decide/...  deciding a dtype: PromoteTypes; ResultType on random 2- and
//               3-operand lists against libtorch's at::native::result_type;
//               TensorProcessor::Apply with no cast needed.
//   cast/...    CastElements for every pair of the 13 dtypes libtorch
//               promotes among (BenchDTypes) against libtorch's
//               dst.copy_(src) (the kernel behind Tensor::to) and a memcpy
//               moving the same bytes, at the goal size
//               (--elements, default 16M) and, for a few pairs, at every
//               size from 1K to --sweep_max (default 256M).
//   paired/...  the goal-size pairs again, ours, libtorch and memcpy timed
//               back to back in each of their six orders (a rest, then
//               --paired_phase_ms of calls each):
//               the cast goals are judged on these paired ratios
//               (BM_CastPaired).
//   memread/... reading alone, the bound on what a cast can move.
//   readwrite/RATIO/...  reading RATIO bytes per byte written, with no
//               arithmetic: what narrowing pairs are set against.
//   add_int8_float32/...  a mixed-dtype add: casts materialized, fused, none
//               (float32 + float32), and libtorch's at::add_out, at the same
//               sizes.
//
// Each runs on one thread and on all hardware threads. Throughput counts
// bytes read plus bytes written. Outputs are preallocated everywhere.
// bench/cast_overhead.sh (`bazel run //bench:cast_overhead`) runs this and
// turns its JSON into docs/benchmarks.md with plots (bench/report.py).

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/native/TypeProperties.h>
#include <benchmark/benchmark.h>
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bench/ratio_reporter.h"
#include "functional/functional.h"
#include "kernels/cast.h"
#include "kernels/cpu_cast.h"
#include "kernels/internal/block_runner.h"
#include "kernels/parallel_for.h"
#include "oneflow_promote/ops/tensor_processor.h"
#include "oneflow_promote/promotion/policy.h"
#include "oneflow_promote/promotion/result_type.h"
#include "tests/torch_oracle.h"

namespace oneflow_promote {
namespace {

using functional::CastPath;

int64_t g_goal_elements = int64_t{16} << 20;
int64_t g_sweep_max = int64_t{256} << 20;
int64_t g_paired_phase_ms = 16;

// The pairs swept over sizes: a widening from 1 byte, the two narrowings to
// 16-bit floats that frontends do most, a narrowing float, a widening int.
const std::pair<DType, DType> kSweptPairs[] = {{DType::kInt8, DType::kFloat32},
                                               {DType::kFloat32, DType::kFloat16},
                                               {DType::kFloat64, DType::kFloat32},
                                               {DType::kInt32, DType::kInt64}};

std::vector<int64_t> SweepSizes() {
  std::vector<int64_t> sizes;
  for (int64_t n = 1024; n < g_sweep_max; n *= 16) sizes.push_back(n);
  sizes.push_back(g_sweep_max);
  return sizes;
}

// The dtypes benchmarked: those libtorch promotes with one another, less
// bcomplex32 (13). float8 and uint16/32/64 promote only with their own dtype
// (or, for the unsigned ones, a float) and libtorch's result_type raises on
// the rest; the decisions timed here are answers, not errors. libtorch calls
// its bcomplex32 support experimental and has few kernels for it. The cast
// goals (every ordered pair, 156) and the recorded numbers in
// docs/benchmarks.md cover the same 13.
const std::vector<DType>& BenchDTypes() {
  static const auto* dtypes = [] {
    auto* list = new std::vector<DType>;
    for (DType d : testing::TorchDTypes()) {
      if (!IsFloat8(d) && !promotion_internal::IsBarebonesUnsigned(d) && d != DType::kBComplex32) {
        list->push_back(d);
      }
    }
    return list;
  }();
  return *dtypes;
}

int Threads(bool all) { return all ? cast_internal::HardwareThreads() : 1; }
std::string ThreadsName(bool all) { return all ? "all_threads" : "1_thread"; }

// ---- deciding a dtype ----

constexpr int kCases = 1024;  // a power of two, cycled through by index

// Operand lists drawn from the benchmarked dtypes and every operand kind, so
// the branch predictor cannot learn one path.
std::vector<std::vector<Operand>> OperandLists(int count) {
  std::mt19937 rng(7);
  const std::vector<DType>& dtypes = BenchDTypes();
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

void BM_ResultTypeOurs(benchmark::State& state, int count) {
  const auto lists = OperandLists(count);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(ResultType(lists[i++ & (kCases - 1)], Policy::kTorch));
  }
}

void BM_ResultTypeTorch(benchmark::State& state, int count) {
  const auto lists = OperandLists(count);
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

// A processor built, applied and destroyed: what a functor pays per call,
// given its inputs as functional::Call is (a span, which the processor
// borrows).
void BM_BuildAndApplyNoCast(benchmark::State& state) {
  const Tensor inputs[] = {*Tensor::Empty(DType::kFloat32, {16}),
                           *Tensor::Empty(DType::kFloat32, {16})};
  for (auto _ : state) {
    TensorProcessor<Tensor> processor;
    absl::Status status =
        processor.AddInputs(absl::MakeConstSpan(inputs)).PromoteInputsToCommonDtype(true).Apply();
    benchmark::DoNotOptimize(status);
    benchmark::DoNotOptimize(&processor.GetInputs()[0]);
  }
}

// The same with the inputs as a braced list, AddInputs({a, b}): the list
// holds copies of the tensors (two reference counts up and down), which
// the processor keeps.
void BM_BuildAndApplyNoCastBraced(benchmark::State& state) {
  const Tensor a = *Tensor::Empty(DType::kFloat32, {16});
  const Tensor b = *Tensor::Empty(DType::kFloat32, {16});
  for (auto _ : state) {
    TensorProcessor<Tensor> processor;
    absl::Status status = processor.AddInputs({a, b}).PromoteInputsToCommonDtype(true).Apply();
    benchmark::DoNotOptimize(status);
    benchmark::DoNotOptimize(&processor.GetInputs()[0]);
  }
}

void BM_TorchResultTypeSameDType(benchmark::State& state) {
  const at::Tensor a = at::empty({16}, at::kFloat), b = at::empty({16}, at::kFloat);
  for (auto _ : state) benchmark::DoNotOptimize(at::native::result_type(a, b));
}

// ---- casts ----

// Memory aligned as libtorch's CPU allocator (and OneFlow's) aligns
// tensors, to 64 bytes: sources, destinations and memcpy's buffers, on both
// sides. A large std::vector<char> starts 16 bytes into a page, which
// splits every other 32-byte access across cache lines, and a kernel
// tuned on such sources can read 64-byte aligned ones slower
// (docs/tuning.md, the benchmark harness). It is written once before
// timing, so that no timed iteration takes the page faults.
class AlignedBuffer {
 public:
  explicit AlignedBuffer(int64_t bytes)
      : data_(static_cast<char*>(std::aligned_alloc(kAlignment, RoundUp(bytes)))), size_(bytes) {
    if (data_ == nullptr) std::abort();
    std::memset(data_, 0, RoundUp(bytes));
  }
  ~AlignedBuffer() { std::free(data_); }
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  char* data() const { return data_; }
  int64_t size() const { return size_; }

 private:
  static constexpr int64_t kAlignment = 64;
  static int64_t RoundUp(int64_t bytes) {
    return std::max<int64_t>(kAlignment, (bytes + kAlignment - 1) / kAlignment * kAlignment);
  }
  char* data_;
  int64_t size_;
};

// A buffer of realistic values of `dtype`: uniform in [-100, 100) converted
// by the library (bool: half true), so no side meets denormals or NaNs.
std::shared_ptr<AlignedBuffer> Source(DType dtype, int64_t n) {
  static std::map<DType, std::shared_ptr<AlignedBuffer>> cache;
  auto& slot = cache[dtype];
  if (slot && slot->size() >= n * static_cast<int64_t>(ItemSize(dtype))) {
    return slot;
  }
  std::vector<double> values(n);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> uniform(-100, 100);
  for (double& v : values) v = uniform(rng);
  slot = std::make_shared<AlignedBuffer>(n * ItemSize(dtype));
  if (!CastElements(values.data(), DType::kFloat64, slot->data(), dtype, n).ok()) std::abort();
  return slot;
}

void SetBytes(benchmark::State& state, int64_t bytes_per_iteration) {
  state.SetBytesProcessed(state.iterations() * bytes_per_iteration);
}

void BM_CastOurs(benchmark::State& state, DType from, DType to, int64_t n, bool all) {
  const auto src = Source(from, n);
  const AlignedBuffer dst(n * static_cast<int64_t>(ItemSize(to)));
  const Device device = Device::Cpu(Threads(all));
  for (auto _ : state) {
    if (!CastElements(src->data(), from, dst.data(), to, n, device).ok()) std::abort();
    benchmark::ClobberMemory();
  }
  SetBytes(state, n * static_cast<int64_t>(ItemSize(from) + ItemSize(to)));
}

void BM_CastTorch(benchmark::State& state, DType from, DType to, int64_t n, bool all) {
  const auto src = Source(from, n);
  at::set_num_threads(Threads(all));
  const at::Tensor source =
      at::from_blob(src->data(), {n}, at::TensorOptions().dtype(*testing::ToTorch(from)));
  at::Tensor dst = at::zeros({n}, at::TensorOptions().dtype(*testing::ToTorch(to)));  // faulted in
  for (auto _ : state) {
    dst.copy_(source);
    benchmark::ClobberMemory();
  }
  SetBytes(state, n * static_cast<int64_t>(ItemSize(from) + ItemSize(to)));
}

// memcpy of `bytes` bytes, split across `threads` as the casts are.
void ParallelMemcpy(const AlignedBuffer& src, const AlignedBuffer& dst, int64_t bytes,
                    int threads) {
  cast_internal::ParallelFor(bytes, int64_t{1} << 20, threads, [&](int64_t b, int64_t e) {
    std::memcpy(dst.data() + b, src.data() + b, e - b);
  });
}

// Copies bytes_moved / 2 bytes (so as many bytes are read plus written).
void BM_Memcpy(benchmark::State& state, int64_t bytes_moved, bool all) {
  const int64_t bytes = bytes_moved / 2;
  const AlignedBuffer src(bytes), dst(bytes);
  const int threads = Threads(all);
  for (auto _ : state) {
    ParallelMemcpy(src, dst, bytes, threads);
    benchmark::ClobberMemory();
  }
  SetBytes(state, bytes_moved);
}

// The one source and one destination that BM_CastPaired's three contenders
// share, allocated (and faulted in) once for the largest pair, so that its
// many short runs do not spend their time in page faults.
struct PairedBuffers {
  explicit PairedBuffers(int64_t n) : elements(n), src(16 * n), dst(16 * n) {}
  const int64_t elements;
  const AlignedBuffer src, dst;
};

// One cast three ways, timed back to back: ours, libtorch's copy_ and a memcpy
// of the same bytes, all three reading one source and writing one destination.
// Separate buffers biased whole runs: at 16M elements a pass nearly fills the
// shared L3, and how many of its lines stay there for the next pass depends on
// which physical pages (so which cache sets) a buffer got, which is fixed for a
// process and differs in the next (docs/tuning.md, the benchmark harness).
// Sharing cannot favour whichever runs second: each is timed only after its
// own settling calls have replaced the cache's contents.
// The six rounds take the three in each of their six orders, so that each is
// timed after each other equally often (twice inside the rounds; the five
// steps between rounds are five different pairs); rotating one order put each
// after the same one two times in three. Each contender's turn starts with a
// rest of 1.25 x --paired_phase_ms (default 16, so 20 ms) with nothing running,
// then calls of the same thing for three quarters of --paired_phase_ms
// untimed, then the calls filling the last quarter, timed: the steady state a
// benchmark loop measures. The rest lets libtorch's OpenMP threads stop
// spinning: libgomp's idle threads spin for milliseconds of their own
// processor time after a parallel region, longer in wall time when they share
// a core, and on two cores that takes a core from whatever runs next; without
// the rest and the settling, the turns after libtorch's ran slower
// (docs/tuning.md, the benchmark harness). The counters are the medians over
// rounds of time(libtorch) / time(ours) and time(memcpy) / time(ours). All
// three meet the same spell of other tenants' traffic, which on a shared
// machine moves single runs for minutes and which separate benchmarks meet at
// different times.
void BM_CastPaired(benchmark::State& state, DType from, DType to, int64_t n, bool all) {
  constexpr int kOrders[][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
  const double settle_seconds = 0.75e-3 * g_paired_phase_ms;
  const double timed_seconds = 0.25e-3 * g_paired_phase_ms;
  const auto rest = std::chrono::microseconds(1250 * g_paired_phase_ms);
  static std::unique_ptr<PairedBuffers> buffers;
  if (!buffers || buffers->elements < n) {
    buffers.reset();
    buffers = std::make_unique<PairedBuffers>(n);
  }
  const int threads = Threads(all);
  const int64_t src_bytes = n * static_cast<int64_t>(ItemSize(from));
  const int64_t dst_bytes = n * static_cast<int64_t>(ItemSize(to));
  std::memcpy(buffers->src.data(), Source(from, n)->data(), src_bytes);
  const auto torch_tensor = [n](const AlignedBuffer& buffer, DType dtype) {
    return at::from_blob(buffer.data(), {n}, at::TensorOptions().dtype(*testing::ToTorch(dtype)));
  };
  const at::Tensor torch_src = torch_tensor(buffers->src, from);
  at::Tensor torch_dst = torch_tensor(buffers->dst, to);
  const int64_t copy_bytes = (src_bytes + dst_bytes) / 2;
  const Device device = Device::Cpu(threads);
  at::set_num_threads(threads);

  const auto run = [&](int which) {
    if (which == 0) {
      if (!CastElements(buffers->src.data(), from, buffers->dst.data(), to, n, device).ok())
        std::abort();
    } else if (which == 1) {
      torch_dst.copy_(torch_src);
    } else {
      ParallelMemcpy(buffers->src, buffers->dst, copy_bytes, threads);
    }
    benchmark::ClobberMemory();
  };
  // Calls run(which) for at least `seconds`; returns the time per call.
  const auto run_for = [&](int which, double seconds) {
    const auto start = std::chrono::steady_clock::now();
    for (int calls = 1;; ++calls) {
      run(which);
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (elapsed >= seconds) return elapsed / calls;
    }
  };
  std::vector<double> vs_torch, vs_memcpy;
  for (auto _ : state) {
    for (const auto& order : kOrders) {
      double seconds[3];  // ours, libtorch, memcpy
      for (const int which : order) {
        std::this_thread::sleep_for(rest);
        run_for(which, settle_seconds);
        seconds[which] = run_for(which, timed_seconds);
      }
      vs_torch.push_back(seconds[1] / seconds[0]);
      vs_memcpy.push_back(seconds[2] / seconds[0]);
    }
  }
  state.counters["vs_libtorch"] = bench::Median(vs_torch);
  state.counters["vs_memcpy"] = bench::Median(vs_memcpy);
}

// Reads `bytes` and writes nothing: how fast one core (or all) can read. A
// cast that reads f and writes t bytes per element can at best move
// read bandwidth * (f + t) / f, which for narrowing casts on one thread is
// below what memcpy (f = t) moves. Each thread reads its range as the
// narrowing casts do: four parts in rotation, a turn of kStreamTurnBytes
// of each at a time, which reads faster than one stream (docs/tuning.md,
// kReadsInStreams).
void BM_MemRead(benchmark::State& state, int64_t bytes, bool all) {
  const std::vector<uint64_t> src(bytes / 8, 1);
  const int threads = Threads(all);
  constexpr int64_t kStreams = 4;
  constexpr int64_t kTurn = cast_internal::blocks::kStreamTurnBytes / 8;
  for (auto _ : state) {
    cast_internal::ParallelFor(static_cast<int64_t>(src.size()), int64_t{1} << 17, threads,
                               [&](int64_t b, int64_t e) {
                                 uint64_t x0 = 0, x1 = 0, x2 = 0, x3 = 0;
                                 const auto read = [&](int64_t begin, int64_t end) {
                                   for (int64_t i = begin; i < end; i += 4) {
                                     x0 ^= src[i];
                                     x1 ^= src[i + 1];
                                     x2 ^= src[i + 2];
                                     x3 ^= src[i + 3];
                                   }
                                 };
                                 const int64_t part = (e - b) / kStreams / kTurn * kTurn;
                                 for (int64_t turn = 0; turn < part; turn += kTurn) {
                                   for (int64_t s = 0; s < kStreams; ++s) {
                                     read(b + s * part + turn, b + s * part + turn + kTurn);
                                   }
                                 }
                                 int64_t i = b + kStreams * part;
                                 for (; i < e; ++i) x0 ^= src[i];
                                 benchmark::DoNotOptimize(x0 ^ x1 ^ x2 ^ x3);
                               });
  }
  SetBytes(state, bytes);
}

// One block of ReadAndWrite: kRatio 32-byte loads folded into one 32-byte
// non-temporal store.
template <int kRatio>
__attribute__((target("avx2"), always_inline)) inline void ReadAndWriteBlock(const char* in,
                                                                             char* out, int64_t i) {
  const __m256i* p = reinterpret_cast<const __m256i*>(in + i * 32 * kRatio);
  __m256i folded = _mm256_load_si256(p);
  for (int k = 1; k < kRatio; ++k) folded = _mm256_xor_si256(folded, _mm256_load_si256(p + k));
  _mm256_stream_si256(reinterpret_cast<__m256i*>(out + i * 32), folded);
}

// Blocks [begin, end) of BM_ReadAndWrite, read as six streams in rotation,
// a turn of kStreamTurnBytes of each at a time: the pattern that read
// fastest (docs/tuning.md, kReadStreams).
template <int kRatio>
__attribute__((target("avx2"))) void ReadAndWrite(const char* in, char* out, int64_t begin,
                                                  int64_t end) {
  constexpr int64_t kStreams = 6;
  constexpr int64_t kTurn =
      std::max<int64_t>(cast_internal::blocks::kStreamTurnBytes / (32 * kRatio), 1);  // blocks
  const int64_t part = (end - begin) / kStreams / kTurn * kTurn;
  for (int64_t turn = 0; turn < part; turn += kTurn) {
    for (int64_t stream = 0; stream < kStreams; ++stream) {
      for (int64_t i = 0; i < kTurn; ++i)
        ReadAndWriteBlock<kRatio>(in, out, begin + stream * part + turn + i);
    }
  }
  for (int64_t i = begin + kStreams * part; i < end; ++i) ReadAndWriteBlock<kRatio>(in, out, i);
  _mm_sfence();
}

// Reads kRatio bytes for each byte it writes (with non-temporal stores) and
// computes nothing: a streaming cast that narrows by kRatio (complex128 ->
// uint8 by 16, int64 -> int8 by 8) without its arithmetic. Unlike memread,
// it pays for the write stream, which slows the reads on one core; the
// report sets each narrowing pair against the run of its ratio. It is a
// reference, not a bound: the kernels read differently where that was
// faster (four streams for most pairs, which beat six on two threads).
template <int kRatio>
void BM_ReadAndWrite(benchmark::State& state, int64_t bytes_read, bool all) {
  const AlignedBuffer src(bytes_read);
  const AlignedBuffer dst(bytes_read / kRatio);
  const int threads = Threads(all);
  for (auto _ : state) {
    cast_internal::ParallelFor(bytes_read / (32 * kRatio), int64_t{1} << 12, threads,
                               [&](int64_t begin, int64_t end) {
                                 ReadAndWrite<kRatio>(src.data(), dst.data(), begin, end);
                               });
    benchmark::ClobberMemory();
  }
  SetBytes(state, bytes_read + bytes_read / kRatio);
}

// ---- a mixed-dtype add ----

struct AddInputs {
  Tensor int8s, floats, floats2;
  at::Tensor torch_int8s, torch_floats;
};
const AddInputs& GetAddInputs(int64_t n) {
  static std::map<int64_t, std::unique_ptr<AddInputs>> cache;
  auto& slot = cache[n];
  if (slot) return *slot;
  slot = std::make_unique<AddInputs>();
  slot->int8s = *Tensor::Empty(DType::kInt8, {n});
  slot->floats = *Tensor::Empty(DType::kFloat32, {n});
  std::mt19937 rng(3);
  for (int64_t i = 0; i < n; ++i) {
    slot->int8s.data_as<int8_t>()[i] = static_cast<int8_t>(static_cast<int>(rng() % 201) - 100);
    slot->floats.data_as<float>()[i] = static_cast<float>(rng() % 20000) / 100.0f - 100.0f;
  }
  slot->floats2 = *slot->floats.Clone();
  slot->torch_int8s = at::from_blob(slot->int8s.data(), {n}, at::kChar);
  slot->torch_floats = at::from_blob(slot->floats.data(), {n}, at::kFloat);
  return *slot;
}

void BM_AddOurs(benchmark::State& state, CastPath path, bool mixed, int64_t n, bool all) {
  const AddInputs& in = GetAddInputs(n);
  Tensor out = *Tensor::Empty(DType::kFloat32, {n});
  std::memset(out.data(), 0, n * sizeof(float));  // faulted in, as libtorch's below
  functional::OpOptions options;
  options.cast_path = path;
  options.context.cpu_threads = Threads(all);
  const Tensor inputs[] = {mixed ? in.int8s : in.floats2, in.floats};
  for (auto _ : state) {
    if (!functional::CallOut(ops::Op::kAdd, inputs, out, options).ok()) std::abort();
    benchmark::DoNotOptimize(out.data());
  }
  SetBytes(state, n * (mixed ? 9 : 12));
}

void BM_AddTorch(benchmark::State& state, int64_t n, bool all) {
  const AddInputs& in = GetAddInputs(n);
  at::set_num_threads(Threads(all));
  at::Tensor out = at::zeros({n}, at::kFloat);  // faulted in
  for (auto _ : state) {
    at::add_out(out, in.torch_int8s, in.torch_floats);
    benchmark::DoNotOptimize(out.data_ptr());
  }
  SetBytes(state, n * 9);
}

// ---- registration ----

// Registers `fn` under `name` (real time for the large runs) and returns the
// name Google Benchmark reports.
template <typename... Args>
std::string Register(const std::string& name, bool real_time, Args&&... args) {
  auto* b = benchmark::RegisterBenchmark(name.c_str(), std::forward<Args>(args)...);
  if (!real_time) return name;
  b->UseRealTime()->Unit(benchmark::kMillisecond);
  return name + "/real_time";
}

std::vector<bench::RatioGoal> RegisterAll() {
  std::vector<bench::RatioGoal> goals;
  Register("decide/PromoteTypes", false, BM_PromoteTypes);
  for (int count : {2, 3}) {
    const std::string ours =
        Register(absl::StrCat("decide/ResultType/ours/", count), false, BM_ResultTypeOurs, count);
    const std::string torch = Register(absl::StrCat("decide/ResultType/libtorch/", count), false,
                                       BM_ResultTypeTorch, count);
    goals.push_back({ours, torch, 20});
    // At most twice the cost of promoting one pair of dtypes.
    goals.push_back({ours, "decide/PromoteTypes", 0.5});
  }
  const std::string apply = Register("decide/TensorProcessor_Apply_no_cast", false, BM_ApplyNoCast);
  Register("decide/TensorProcessor_build_and_Apply_no_cast", false, BM_BuildAndApplyNoCast);
  Register("decide/TensorProcessor_build_and_Apply_no_cast_braced", false,
           BM_BuildAndApplyNoCastBraced);
  const std::string torch_same =
      Register("decide/libtorch_result_type_same_dtype", false, BM_TorchResultTypeSameDType);
  goals.push_back({apply, torch_same, 1.0});

  // Casts: every pair at the goal size, the swept pairs at every size.
  std::map<std::string, std::string> memcpy_names;
  const auto memcpy_name = [&](int64_t bytes_per_element, int64_t n, bool all) {
    const std::string key = absl::StrCat(bytes_per_element, "/", n, "/", ThreadsName(all));
    auto it = memcpy_names.find(key);
    if (it != memcpy_names.end()) return it->second;
    const std::string name =
        Register(absl::StrCat("memcpy/", key), true, BM_Memcpy, bytes_per_element * n, all);
    memcpy_names[key] = name;
    return name;
  };
  const auto register_cast = [&](DType from, DType to, int64_t n, bool all, bool goal) {
    const std::string suffix =
        absl::StrCat(Name(from), "/", Name(to), "/", n, "/", ThreadsName(all));
    const std::string ours = Register("cast/ours/" + suffix, true, BM_CastOurs, from, to, n, all);
    const std::string torch =
        Register("cast/libtorch/" + suffix, true, BM_CastTorch, from, to, n, all);
    const std::string copy =
        memcpy_name(static_cast<int64_t>(ItemSize(from) + ItemSize(to)), n, all);
    if (goal) {
      // One call of six rounds (kOrders): repeating it is what repetitions do.
      const std::string paired_name = "paired/" + suffix;
      benchmark::RegisterBenchmark(paired_name.c_str(), BM_CastPaired, from, to, n, all)
          ->Iterations(1);
      const std::string paired = paired_name + "/iterations:1";
      goals.push_back({paired, torch, 1.0, "vs_libtorch"});
      goals.push_back({paired, copy, 0.9, "vs_memcpy"});
    }
  };
  for (bool all : {false, true}) {
    Register(absl::StrCat("memread/", g_goal_elements * 8, "/", ThreadsName(all)), true, BM_MemRead,
             g_goal_elements * 8, all);
    const auto register_read_and_write = [&](int ratio, auto benchmark) {
      Register(absl::StrCat("readwrite/", ratio, "/", g_goal_elements * 16, "/", ThreadsName(all)),
               true, benchmark, g_goal_elements * 16, all);
    };
    if (__builtin_cpu_supports("avx2")) {
      register_read_and_write(2, BM_ReadAndWrite<2>);
      register_read_and_write(4, BM_ReadAndWrite<4>);
      register_read_and_write(8, BM_ReadAndWrite<8>);
      register_read_and_write(16, BM_ReadAndWrite<16>);
    }
    for (DType from : BenchDTypes()) {
      for (DType to : BenchDTypes()) {
        if (from != to) register_cast(from, to, g_goal_elements, all, true);
      }
    }
    for (const auto& [from, to] : kSweptPairs) {
      for (int64_t n : SweepSizes()) {
        if (n != g_goal_elements) register_cast(from, to, n, all, false);
      }
    }
  }

  // The mixed-dtype add at the goal size and every sweep size.
  std::vector<int64_t> add_sizes = SweepSizes();
  if (std::find(add_sizes.begin(), add_sizes.end(), g_goal_elements) == add_sizes.end()) {
    add_sizes.push_back(g_goal_elements);
  }
  for (bool all : {false, true}) {
    for (int64_t n : add_sizes) {
      const std::string suffix = absl::StrCat(n, "/", ThreadsName(all));
      const std::string materialized = Register("add_int8_float32/materialized/" + suffix, true,
                                                BM_AddOurs, CastPath::kMaterialized, true, n, all);
      const std::string fused = Register("add_int8_float32/fused/" + suffix, true, BM_AddOurs,
                                         CastPath::kFused, true, n, all);
      Register("add_int8_float32/no_cast/" + suffix, true, BM_AddOurs, CastPath::kAuto, false, n,
               all);
      const std::string torch =
          Register("add_int8_float32/libtorch/" + suffix, true, BM_AddTorch, n, all);
      if (n == g_goal_elements) {
        goals.push_back({fused, materialized, 1.5});
        goals.push_back({fused, torch, 1.3});
      }
    }
  }
  return goals;
}

}  // namespace
}  // namespace oneflow_promote

int main(int argc, char** argv) {
  using namespace oneflow_promote;
  g_goal_elements = bench::Int64Flag(argc, argv, "--elements=", g_goal_elements);
  g_sweep_max = bench::Int64Flag(argc, argv, "--sweep_max=", g_sweep_max);
  g_paired_phase_ms = bench::Int64Flag(argc, argv, "--paired_phase_ms=", g_paired_phase_ms);
  return bench::RunWithRatios(
      argc, argv, RegisterAll,
      absl::StrCat("goal size ", g_goal_elements, " elements, sweep 1024 to ", g_sweep_max, "; ",
                   cast_internal::HardwareThreads(),
                   " hardware threads; CPU cast kernels: ", cast_internal::BestCpuCastKernels().isa,
                   "; the Apply goal is absolute (at most 30 ns): see its time"));
}
