// CUDA kernels of the functional frontend's elementwise ops: one grid-stride
// kernel template over (op, compute storage type), with the element
// functions of op_math.h, reading broadcast operands by strides.

#include <cuda_runtime.h>

#include <mutex>
#include <vector>

#include "kernels/internal/cuda_ops.h"
#include "kernels/internal/op_math.h"

namespace oneflow_promote::cuda_ops_internal {
namespace {

using cast_internal::CudaResult;
using functional::Op;
using namespace op_math;  // NOLINT: the element functions

CudaResult Result(cudaError_t status) {
  return status == cudaSuccess ? CudaResult{} : CudaResult{static_cast<int>(status),
                                                            cudaGetErrorString(status)};
}

template <typename T>
__device__ __forceinline__ T Element(const CudaOperand& operand, int64_t offset) {
  if (operand.data == nullptr) return *reinterpret_cast<const T*>(operand.value);
  return static_cast<const T*>(operand.data)[offset];
}

template <Op kOp, typename T>
__global__ void ElementwiseKernel(CudaElementwiseArgs args, int* zero_flag) {
  using M = typename Math<T>::type;
  constexpr bool kUnary = kOp == Op::kNeg || kOp == Op::kAbs || kOp == Op::kSqrt;
  constexpr int kInputs = kOp == Op::kWhere ? 3 : kUnary ? 1 : 2;
  const int64_t step = int64_t{gridDim.x} * blockDim.x;
  bool zero = false;
  for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < args.numel; i += step) {
    int64_t offsets[kInputs] = {};
    int64_t rest = i;
    for (int d = args.rank - 1; d >= 0; --d) {
      const int64_t index = rest % args.shape[d];
      rest /= args.shape[d];
#pragma unroll
      for (int k = 0; k < kInputs; ++k) offsets[k] += index * args.inputs[k].strides[d];
    }
    if constexpr (kOp == Op::kWhere) {
      static_cast<T*>(args.out)[i] = Element<bool>(args.inputs[0], offsets[0])
                                         ? Element<T>(args.inputs[1], offsets[1])
                                         : Element<T>(args.inputs[2], offsets[2]);
    } else if constexpr (kUnary) {
      using R = decltype(Unary<kOp, M>(M()));
      using S = ResultStorage<T, R>;
      static_cast<S*>(args.out)[i] =
          StoreAs<S>(Unary<kOp, M>(Math<T>::Load(Element<T>(args.inputs[0], offsets[0]))));
    } else {
      using R = decltype(Binary<kOp, T>(M(), M(), zero));
      using S = ResultStorage<T, R>;
      static_cast<S*>(args.out)[i] = StoreAs<S>(
          Binary<kOp, T>(Math<T>::Load(Element<T>(args.inputs[0], offsets[0])),
                         Math<T>::Load(Element<T>(args.inputs[1], offsets[1])), zero));
    }
  }
  if (zero) *zero_flag = 1;
}

using KernelFn = void (*)(CudaElementwiseArgs, int*);

template <Op kOp>
KernelFn KernelFor(DType compute) {
  return VisitDType(compute, [](auto tag) -> KernelFn {
    using T = typename decltype(tag)::type;
    if constexpr (HasKernel<kOp, T>()) {
      return &ElementwiseKernel<kOp, T>;
    } else {
      return nullptr;
    }
  });
}

KernelFn SelectKernel(Op op, DType compute) {
  switch (op) {
#define ONEFLOW_PROMOTE_OP_KERNEL(e, name, arity) \
  case Op::e:                                     \
    return KernelFor<Op::e>(compute);
    ONEFLOW_PROMOTE_FOR_EACH_OP(ONEFLOW_PROMOTE_OP_KERNEL)
#undef ONEFLOW_PROMOTE_OP_KERNEL
  }
  return nullptr;
}

// A zero-division flag per device, allocated once.
CudaResult ZeroFlag(int ordinal, int** flag) {
  static std::mutex mutex;
  static std::vector<int*> flags;
  std::lock_guard<std::mutex> lock(mutex);
  if (ordinal >= static_cast<int>(flags.size())) flags.resize(ordinal + 1, nullptr);
  if (flags[ordinal] == nullptr) {
    if (CudaResult r = Result(cudaMalloc(&flags[ordinal], sizeof(int))); !r.ok()) return r;
  }
  *flag = flags[ordinal];
  return {};
}

}  // namespace

CudaResult CudaElementwise(const CudaElementwiseArgs& args, int ordinal, bool* zero_division) {
  *zero_division = false;
  const KernelFn kernel = SelectKernel(args.op, args.compute);
  if (kernel == nullptr) return {-1, "no CUDA kernel for this op and compute dtype"};
  if (args.numel == 0) return {};
  int previous = 0;
  if (CudaResult r = Result(cudaGetDevice(&previous)); !r.ok()) return r;
  if (CudaResult r = Result(cudaSetDevice(ordinal)); !r.ok()) return r;
  int* flag = nullptr;
  CudaResult result = ZeroFlag(ordinal, &flag);
  if (result.ok()) result = Result(cudaMemset(flag, 0, sizeof(int)));
  if (result.ok()) {
    constexpr int kThreads = 256;
    const int64_t blocks = std::min<int64_t>((args.numel + kThreads - 1) / kThreads, 65536);
    kernel<<<static_cast<unsigned>(blocks), kThreads>>>(args, flag);
    result = Result(cudaGetLastError());
  }
  int zero = 0;
  if (result.ok()) result = Result(cudaMemcpy(&zero, flag, sizeof(int), cudaMemcpyDeviceToHost));
  *zero_division = zero != 0;
  cudaSetDevice(previous);
  return result;
}

}  // namespace oneflow_promote::cuda_ops_internal
