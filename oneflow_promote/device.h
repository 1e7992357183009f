// Device: where a cast or an op runs. The base layer's, beside the dtype
// list, so that the cast kernels and the tensors above them share one
// description of the host and of CUDA devices and streams.

#ifndef ONEFLOW_PROMOTE_DEVICE_H_
#define ONEFLOW_PROMOTE_DEVICE_H_

#include <cstdint>

namespace oneflow_promote {

// A host framework's parallel-for, so that the library's CPU work runs on the
// framework's thread pool instead of the library's own: two pools that each
// keep their idle threads awake hand the cores to each other slowly
// (docs/benchmarks.md). run(state, n, grain, body, body_state) must call
// body(body_state, begin, end) over disjoint ranges covering [0, n), each at
// least `grain` long but the last, concurrently or not, and return when all
// have returned. A plain function and its state, so that Device stays a
// literal type and a framework implements it with no type of the library.
struct HostParallelFor {
  using Body = void (*)(void* body_state, int64_t begin, int64_t end);
  using Run = void (*)(void* state, int64_t n, int64_t grain, Body body, void* body_state);

  Run run = nullptr;  // nullptr: the library's own pool
  void* state = nullptr;
};

// Where work runs: the host, or a CUDA device and stream.
struct Device {
  enum class Kind : uint8_t { kCpu, kCuda };

  // The host, on at most `threads` threads (0: one per hardware thread), of
  // the library's pool or of `pool` where the framework gives one.
  [[nodiscard]] static constexpr Device Cpu(int threads = 0, HostParallelFor pool = {}) {
    return Device{Kind::kCpu, 0, nullptr, threads, pool};
  }
  // CUDA device `ordinal`, on `stream` (a cudaStream_t; nullptr is the
  // default stream). The call returns once the work is queued on the stream.
  [[nodiscard]] static constexpr Device Cuda(int ordinal = 0, void* stream = nullptr) {
    return Device{Kind::kCuda, ordinal, stream, 0};
  }

  Kind kind = Kind::kCpu;
  int ordinal = 0;
  void* stream = nullptr;
  int cpu_threads = 0;
  HostParallelFor cpu_pool;
};

// How the work of one call runs, apart from where its tensors live: the
// host's thread count and pool, and the CUDA stream for work on a CUDA
// device. The framework passes its own (PyTorch's intra-op thread count,
// at::parallel_for and current stream), so that casts and kernels run on its
// threads and queue behind the work it already queued.
struct ExecutionContext {
  int cpu_threads = 0;          // 0: one per hardware thread
  void* cuda_stream = nullptr;  // a cudaStream_t; nullptr: the default stream
  HostParallelFor cpu_pool;     // run == nullptr: the library's own pool
};

// `place` (a tensor's device) with the threads or the stream of `context`.
[[nodiscard]] constexpr Device WithContext(const Device& place, const ExecutionContext& context) {
  return place.kind == Device::Kind::kCuda ? Device::Cuda(place.ordinal, context.cuda_stream)
                                           : Device::Cpu(context.cpu_threads, context.cpu_pool);
}

}  // namespace oneflow_promote

#endif  // ONEFLOW_PROMOTE_DEVICE_H_
