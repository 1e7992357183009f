// CUDA cast kernels: one kernel template over (From, To) moving
// 16 / max(item sizes) elements per vector (a 16-byte access on the wider
// side), two vectors per thread in flight, scalar head and tail
// (internal/launch_plan.h), hardware float16 decoding and packed float ->
// half2 / bfloat162 rounding. The element semantics are convert.h's,
// identical to the CPU kernels.

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <mutex>
#include <vector>

#include "kernels/cuda_cast.h"
#include "kernels/cuda_pack.h"
#include "kernels/internal/launch_plan.h"
#include "kernels/internal/strided_layout.h"
#include "oneflow_promote/convert.h"
#include "oneflow_promote/dtype_enum.h"

namespace oneflow_promote::cast_internal {
namespace {

CudaResult Result(cudaError_t error) {
  return error == cudaSuccess ? CudaResult{}
                              : CudaResult{CudaOutcome::kRuntimeError, cudaGetErrorString(error)};
}

// Converts N elements; the specializations use paired hardware conversions
// (cvt.rn.f16x2.f32, cvt.rn.bf16x2.f32), which round exactly as convert.h
// does. Only NaN payloads can differ: isnan agrees.
template <typename From, typename To, int N>
struct PackConverter {
  __device__ static void Run(const Pack<From, N>& in, Pack<To, N>& out) {
#pragma unroll
    for (int i = 0; i < N; ++i) out.values[i] = DeviceConvert<To>(in.values[i]);
  }
};

template <int N>
struct PackConverter<float, Float16, N> {
  __device__ static void Run(const Pack<float, N>& in, Pack<Float16, N>& out) {
#pragma unroll
    for (int i = 0; i < N; i += 2) {
      const __half2 pair = __float22half2_rn(make_float2(in.values[i], in.values[i + 1]));
      const __half2_raw raw = pair;
      out.values[i].bits = raw.x;
      out.values[i + 1].bits = raw.y;
    }
  }
};

template <int N>
struct PackConverter<float, BFloat16, N> {
  __device__ static void Run(const Pack<float, N>& in, Pack<BFloat16, N>& out) {
#pragma unroll
    for (int i = 0; i < N; i += 2) {
      const __nv_bfloat162 pair =
          __float22bfloat162_rn(make_float2(in.values[i], in.values[i + 1]));
      const __nv_bfloat162_raw raw = pair;
      out.values[i].bits = raw.x;
      out.values[i + 1].bits = raw.y;
    }
  }
};

template <typename From, typename To>
inline constexpr int kVectorWidth = VectorWidth(sizeof(From), sizeof(To));

template <typename From, typename To>
__global__ void __launch_bounds__(kThreadsPerBlock)
    CastKernel(const From* __restrict__ src, To* __restrict__ dst, CastLaunchPlan plan) {
  constexpr int N = kVectorWidth<From, To>;
  // Elements from one of a thread's vectors to its next.
  constexpr int64_t kVectorStride = int64_t{kThreadsPerBlock} * N;
  const auto convert_one_vector = [&](int64_t first, const Pack<From, N>& in) {
    Pack<To, N> out;
    PackConverter<From, To, N>::Run(in, out);
    StorePack<To, N>(dst + first, out, plan.vector_stores);
  };
  ForEachThreadWork(
      plan, blockIdx.x, gridDim.x, threadIdx.x,
      [&](int64_t first, int vectors) {
        if (vectors == kVectorsPerThread) {
          Pack<From, N> in[kVectorsPerThread];
#pragma unroll
          for (int k = 0; k < kVectorsPerThread; ++k) {
            in[k] = LoadPack<From, N>(src + first + k * kVectorStride, plan.vector_loads);
          }
#pragma unroll
          for (int k = 0; k < kVectorsPerThread; ++k) {
            convert_one_vector(first + k * kVectorStride, in[k]);
          }
        } else {
          for (int k = 0; k < vectors; ++k) {
            const int64_t at = first + k * kVectorStride;
            convert_one_vector(at, LoadPack<From, N>(src + at, plan.vector_loads));
          }
        }
      },
      [&](int64_t i) { dst[i] = DeviceConvert<To>(src[i]); });
}

template <typename From, typename To>
__global__ void __launch_bounds__(kThreadsPerBlock)
    CastStridedKernel(const From* __restrict__ src, To* __restrict__ dst, StridedLayout layout,
                      int64_t n) {
  const int64_t num_threads = int64_t{gridDim.x} * blockDim.x;
  for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += num_threads) {
    dst[i] = DeviceConvert<To>(src[layout.Offset(i)]);
  }
}

struct DeviceInfo {
  int sm_count = 0;
  int max_threads_per_sm = 0;
};

// Device attributes, read once per device.
CudaResult GetDeviceInfo(int ordinal, DeviceInfo* info) {
  static std::mutex mutex;
  static std::vector<DeviceInfo> cache;
  std::lock_guard<std::mutex> lock(mutex);
  if (ordinal < static_cast<int>(cache.size()) && cache[ordinal].sm_count > 0) {
    *info = cache[ordinal];
    return {};
  }
  DeviceInfo fresh;
  if (CudaResult r =
          Result(cudaDeviceGetAttribute(&fresh.sm_count, cudaDevAttrMultiProcessorCount, ordinal));
      !r.ok()) {
    return r;
  }
  if (CudaResult r = Result(cudaDeviceGetAttribute(
          &fresh.max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, ordinal));
      !r.ok()) {
    return r;
  }
  if (ordinal >= static_cast<int>(cache.size())) cache.resize(ordinal + 1);
  cache[ordinal] = fresh;
  *info = fresh;
  return {};
}

// Makes `ordinal` current for the scope, restoring the caller's device.
class ScopedDevice {
 public:
  explicit ScopedDevice(int ordinal) {
    result_ = Result(cudaGetDevice(&previous_));
    if (result_.ok() && previous_ != ordinal) {
      result_ = Result(cudaSetDevice(ordinal));
      changed_ = result_.ok();
    }
  }
  ~ScopedDevice() {
    if (changed_) cudaSetDevice(previous_);
  }
  const CudaResult& result() const { return result_; }

 private:
  int previous_ = 0;
  bool changed_ = false;
  CudaResult result_;
};

CudaResult LaunchResult() { return Result(cudaGetLastError()); }

}  // namespace

CudaResult CudaCastContiguous(const void* src, DType from, void* dst, DType to, int64_t n,
                              int ordinal, void* stream) {
  ScopedDevice scope(ordinal);
  if (!scope.result().ok()) return scope.result();
  CudaResult result;
  VisitDType(from, [&](auto from_tag) {
    VisitDType(to, [&](auto to_tag) {
      using From = typename decltype(from_tag)::type;
      using To = typename decltype(to_tag)::type;
      const CastLaunchPlan plan = PlanCast(reinterpret_cast<uintptr_t>(src), sizeof(From),
                                           reinterpret_cast<uintptr_t>(dst), sizeof(To), n);
      const int64_t blocks = PlanBlocks(plan);
      CastKernel<From, To><<<static_cast<unsigned>(blocks), kThreadsPerBlock, 0,
                             static_cast<cudaStream_t>(stream)>>>(static_cast<const From*>(src),
                                                                  static_cast<To*>(dst), plan);
      result = LaunchResult();
    });
  });
  return result;
}

CudaResult CudaCastStrided(const void* src, DType from, const StridedLayout& layout, void* dst,
                           DType to, int64_t n, int ordinal, void* stream) {
  ScopedDevice scope(ordinal);
  if (!scope.result().ok()) return scope.result();
  DeviceInfo info;
  if (CudaResult r = GetDeviceInfo(ordinal, &info); !r.ok()) return r;
  int64_t blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
  const int64_t resident =
      int64_t{info.sm_count} * (info.max_threads_per_sm / kThreadsPerBlock) * kWaves;
  if (blocks > resident) blocks = resident;
  CudaResult result;
  VisitDType(from, [&](auto from_tag) {
    VisitDType(to, [&](auto to_tag) {
      using From = typename decltype(from_tag)::type;
      using To = typename decltype(to_tag)::type;
      CastStridedKernel<From, To><<<static_cast<unsigned>(blocks), kThreadsPerBlock, 0,
                                    static_cast<cudaStream_t>(stream)>>>(
          static_cast<const From*>(src), static_cast<To*>(dst), layout, n);
      result = LaunchResult();
    });
  });
  return result;
}

CudaResult CudaCopy(const void* src, void* dst, int64_t bytes, int ordinal, void* stream) {
  ScopedDevice scope(ordinal);
  if (!scope.result().ok()) return scope.result();
  return Result(cudaMemcpyAsync(dst, src, static_cast<size_t>(bytes), cudaMemcpyDeviceToDevice,
                                static_cast<cudaStream_t>(stream)));
}

}  // namespace oneflow_promote::cast_internal
