// The CUDA cast kernels against the CPU kernels, on a real GPU: every pair,
// sizes around the vector widths and large ones, every element-aligned byte
// offset (head peeling and the scalar-store fallback), strided views, a
// non-default stream, and errors for host pointers. Skips without a device;
// ONEFLOW_PROMOTE_EXPECT_GPU=1 turns the skip into a failure.

#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/cast.h"
#include "kernels/cast_test_util.h"
#include "kernels/cuda_device.h"

#if ONEFLOW_PROMOTE_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace oneflow_promote {
namespace {

using testing::FillRandom;
using testing::FirstDifference;

bool HaveGpu() {
  const absl::StatusOr<int> count = CudaDeviceCount();
  if (!count.ok() && std::getenv("ONEFLOW_PROMOTE_EXPECT_GPU") != nullptr) {
    ADD_FAILURE() << "a GPU was expected: " << count.status();
  }
  return count.ok();
}

#if ONEFLOW_PROMOTE_HAVE_CUDA
// A device buffer with a host mirror.
struct DeviceBuffer {
  explicit DeviceBuffer(size_t bytes) : size(bytes) {
    EXPECT_EQ(cudaMalloc(&data, bytes + 64), cudaSuccess);
  }
  ~DeviceBuffer() { cudaFree(data); }
  char* at(size_t offset) { return static_cast<char*>(data) + offset; }
  void* data = nullptr;
  size_t size;
};

void CompareWithCpu(DType from, DType to, int64_t n, int src_offset, int dst_offset,
                    std::mt19937_64& rng, cudaStream_t stream = nullptr) {
  std::vector<char> host(n * ItemSize(from) + 1);
  FillRandom(host.data(), from, n, rng);
  DeviceBuffer src(n * ItemSize(from) + 16), dst(n * ItemSize(to) + 16);
  ASSERT_EQ(cudaMemcpy(src.at(src_offset), host.data(), n * ItemSize(from), cudaMemcpyHostToDevice),
            cudaSuccess);
  const absl::Status status =
      CastElements(src.at(src_offset), from, dst.at(dst_offset), to, n, Device::Cuda(0, stream));
  ASSERT_TRUE(status.ok()) << status;
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  std::vector<char> gpu(n * ItemSize(to) + 1), cpu(n * ItemSize(to) + 1);
  ASSERT_EQ(cudaMemcpy(gpu.data(), dst.at(dst_offset), n * ItemSize(to), cudaMemcpyDeviceToHost),
            cudaSuccess);
  ASSERT_TRUE(CastElements(host.data(), from, cpu.data(), to, n).ok());
  const int64_t diff = FirstDifference(gpu.data(), cpu.data(), to, n);
  ASSERT_EQ(diff, -1) << Name(from) << " -> " << Name(to) << " n=" << n << " offsets " << src_offset
                      << "," << dst_offset << " first difference at " << diff;
}
#endif

TEST(CastCuda, EveryPairMatchesTheCpuAtEverySizeAndOffset) {
  if (!HaveGpu()) GTEST_SKIP() << "no CUDA device";
#if ONEFLOW_PROMOTE_HAVE_CUDA
  std::mt19937_64 rng(11);
  for (DType from : kAllDTypes) {
    for (DType to : kAllDTypes) {
      for (int64_t n : {1, 15, 16, 17, 100, 4099, (1 << 20) + 3}) {
        CompareWithCpu(from, to, n, 0, 0, rng);
      }
      // Element-aligned offsets on each side: peeling aligns both, or only
      // the source (stores then go element by element).
      for (int src_offset = 0; src_offset < 16;
           src_offset += ItemSize(from) < 16 ? ItemSize(from) : 16) {
        for (int dst_offset : {0, static_cast<int>(ItemSize(to) % 16)}) {
          CompareWithCpu(from, to, 1000, src_offset, dst_offset, rng);
        }
      }
    }
  }
#endif
}

TEST(CastCuda, LargeCastsOnAStream) {
  if (!HaveGpu()) GTEST_SKIP() << "no CUDA device";
#if ONEFLOW_PROMOTE_HAVE_CUDA
  std::mt19937_64 rng(12);
  cudaStream_t stream;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  CompareWithCpu(DType::kFloat32, DType::kFloat16, (int64_t{1} << 26) + 7, 4, 2, rng, stream);
  CompareWithCpu(DType::kFloat64, DType::kBFloat16, (int64_t{1} << 25) + 1, 0, 0, rng, stream);
  CompareWithCpu(DType::kInt8, DType::kComplex128, (int64_t{1} << 24), 3, 0, rng, stream);
  cudaStreamDestroy(stream);
#endif
}

TEST(CastCuda, StridedViewsMatchTheCpu) {
  if (!HaveGpu()) GTEST_SKIP() << "no CUDA device";
#if ONEFLOW_PROMOTE_HAVE_CUDA
  std::mt19937_64 rng(13);
  const std::vector<int64_t> shape = {3, 5, 7, 2};
  const std::vector<int64_t> strides = {1, 3 * 2, 0, -15 * 7};  // transposed, broadcast, reversed
  const int64_t storage = 3 + 15 * 7 + 6 * 5;
  const int64_t low = -15 * 7;
  for (DType from : kAllDTypes) {
    for (DType to : {DType::kFloat32, DType::kInt8, DType::kFloat16, DType::kComplex64}) {
      const int64_t n = 3 * 5 * 7 * 2;
      std::vector<char> host(storage * ItemSize(from) * 2);
      FillRandom(host.data(), from, storage * 2, rng);
      DeviceBuffer src(host.size()), dst(n * ItemSize(to));
      ASSERT_EQ(cudaMemcpy(src.data, host.data(), host.size(), cudaMemcpyHostToDevice),
                cudaSuccess);
      const char* host_base = host.data() - low * static_cast<int64_t>(ItemSize(from));
      const char* device_base = src.at(0) - low * static_cast<int64_t>(ItemSize(from));
      std::vector<char> cpu(n * ItemSize(to)), gpu(n * ItemSize(to));
      ASSERT_TRUE(CastStrided(host_base, from, shape, strides, cpu.data(), to).ok());
      const absl::Status status =
          CastStrided(device_base, from, shape, strides, dst.data, to, Device::Cuda());
      ASSERT_TRUE(status.ok()) << status;
      ASSERT_EQ(cudaMemcpy(gpu.data(), dst.data, gpu.size(), cudaMemcpyDeviceToHost), cudaSuccess);
      ASSERT_EQ(FirstDifference(gpu.data(), cpu.data(), to, n), -1) << Name(from) << Name(to);
    }
  }
#endif
}

TEST(CastCuda, HostPointersAreRejected) {
  if (!HaveGpu()) GTEST_SKIP() << "no CUDA device";
  std::vector<float> host(16);
  std::vector<double> out(16);
  const absl::Status status =
      CastElements(host.data(), DType::kFloat32, out.data(), DType::kFloat64, 16, Device::Cuda());
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_NE(status.message().find("is not memory of CUDA device 0"), absl::string_view::npos)
      << status;
}

}  // namespace
}  // namespace oneflow_promote
