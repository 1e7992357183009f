// Device: where a cast or an op runs. The base layer's, beside the dtype
// list, so that the cast kernels and the tensors above them share one
// description of the host and of CUDA devices and streams.

#ifndef ONEFLOW_PROMOTE_DEVICE_H_
#define ONEFLOW_PROMOTE_DEVICE_H_

#include <cstdint>

namespace oneflow_promote {

// Where work runs: the host, or a CUDA device and stream.
struct Device {
  enum class Kind : uint8_t { kCpu, kCuda };

  // The host, on at most `threads` threads (0: one per hardware thread).
  [[nodiscard]] static constexpr Device Cpu(int threads = 0) {
    return Device{Kind::kCpu, 0, nullptr, threads};
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
};

// How the work of one call runs, apart from where its tensors live: the
// host's thread count, and the CUDA stream for work on a CUDA device. The
// framework passes its own (PyTorch's intra-op thread count and current
// stream), so that casts and kernels queue behind the work it already
// queued.
struct ExecutionContext {
  int cpu_threads = 0;          // 0: one per hardware thread
  void* cuda_stream = nullptr;  // a cudaStream_t; nullptr: the default stream
};

// `place` (a tensor's device) with the threads or the stream of `context`.
[[nodiscard]] constexpr Device WithContext(const Device& place, const ExecutionContext& context) {
  return place.kind == Device::Kind::kCuda ? Device::Cuda(place.ordinal, context.cuda_stream)
                                           : Device::Cpu(context.cpu_threads);
}

}  // namespace oneflow_promote

#endif  // ONEFLOW_PROMOTE_DEVICE_H_
