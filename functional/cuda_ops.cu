// CUDA kernels of the functional frontend's elementwise ops: one grid-stride
// kernel template over (op, compute storage type), with the element
// functions of op_math.h, reading broadcast operands by strides and
// converting inputs of other dtypes as it reads them (fused casts, with the
// cast kernels' DeviceConvert).

#include <cuda_runtime.h>

#include <algorithm>

#include "functional/internal/cuda_op_math.h"
#include "functional/internal/cuda_ops.h"
#include "functional/internal/op_math.h"
#include "kernels/cuda_cast.h"
#include "kernels/cuda_pack.h"

namespace oneflow_promote::functional_internal {
namespace {

using cast_internal::CudaOutcome;
using cast_internal::CudaResult;
using cast_internal::DeviceConvert;
using cast_internal::LoadPack;
using cast_internal::Pack;
using cast_internal::StorePack;
using ops::Op;
using namespace functional_internal;  // NOLINT: the element functions

CudaResult Result(cudaError_t status) {
  return status == cudaSuccess ? CudaResult{}
                               : CudaResult{CudaOutcome::kRuntimeError, cudaGetErrorString(status)};
}

// An element (or kElementsPerThread of them) of an operand stored as another
// dtype, converted to T. Out of line: a conversion from every dtype inlined
// into each (op, compute type, walk, input) multiplied nvcc's work past half
// an hour; this way each T has one copy.
template <typename T>
__device__ __noinline__ T ConvertedElement(const void* data, DType dtype, int64_t offset) {
  return VisitDType(dtype, [&](auto tag) {
    using From = typename decltype(tag)::type;
    return DeviceConvert<T>(static_cast<const From*>(data)[offset]);
  });
}

template <typename T, int N>
__device__ __noinline__ Pack<T, N> ConvertedPack(const void* data, DType dtype, int64_t first) {
  return VisitDType(dtype, [&](auto tag) {
    using From = typename decltype(tag)::type;
    const Pack<From, N> pack = LoadPack<From, N>(static_cast<const From*>(data) + first, true);
    Pack<T, N> values;
#pragma unroll
    for (int k = 0; k < N; ++k) values.values[k] = DeviceConvert<T>(pack.values[k]);
    return values;
  });
}

// The element at `offset` as T, the storage type of `needed`: read as it is
// stored, or converted from the operand's own dtype.
template <typename T>
__device__ __forceinline__ T Element(const CudaOperand& operand, DType needed, int64_t offset) {
  if (operand.data == nullptr) return *reinterpret_cast<const T*>(operand.value);
  if (operand.dtype == needed) return static_cast<const T*>(operand.data)[offset];
  return ConvertedElement<T>(operand.data, operand.dtype, offset);
}

// Elements first .. first + N - 1 as T, as Element reads them, in whole
// vector accesses (the host checked the alignment: PacksAligned).
template <typename T, int N>
__device__ __forceinline__ void LoadElements(const CudaOperand& operand, DType needed,
                                             int64_t first, T (&values)[N]) {
  if (operand.data == nullptr) {
#pragma unroll
    for (int k = 0; k < N; ++k) values[k] = *reinterpret_cast<const T*>(operand.value);
    return;
  }
  const Pack<T, N> pack = operand.dtype == needed
                              ? LoadPack<T, N>(static_cast<const T*>(operand.data) + first, true)
                              : ConvertedPack<T, N>(operand.data, operand.dtype, first);
#pragma unroll
  for (int k = 0; k < N; ++k) values[k] = pack.values[k];
}

// One element's inputs, read (and converted) before its result is
// computed: where's condition, then up to two values.
template <typename T>
struct Operands {
  bool condition = false;
  T values[2] = {};
};

// Elements each thread reads before storing any, on the contiguous walks:
// outputs may alias inputs (in place), so the compiler cannot move a load
// above an earlier store by itself, and one element at a time left too few
// loads in flight.
inline constexpr int kElementsPerThread = 4;

// How a launch walks the elements (ChooseWalk).
enum class Walk {
  // Inputs at their own strides: each element's offsets by per-dimension
  // division.
  kStrided,
  // Every input a scalar or read at the output's own index, which skips the
  // division (docs/tuning.md, "CUDA"): kElementsPerThread elements a thread,
  // blockDim apart.
  kContiguous,
  // kContiguous with every pointer aligned for whole packs: each thread
  // moves kElementsPerThread consecutive elements of each operand in vector
  // accesses, which 1- and 2-byte operands need (a warp's 1-byte loads
  // fetch 32 bytes an instruction).
  kPacked,
};

// One element of op kOp computed in T: its operands' loads (converted
// where an operand is stored as another dtype) and its result, in the op's
// result storage type. Each thread builds one and walks the elements with it.
template <Op kOp, typename T>
class ElementOp {
 public:
  using M = typename Math<T>::type;
  static constexpr bool kWhere = kOp == Op::kWhere;
  static constexpr bool kUnary = IsUnaryElementwise(kOp);
  static constexpr int kValues = kUnary ? 1 : 2;
  static constexpr int kInputs = kWhere ? 3 : kValues;
  static constexpr int kFirstValue = kWhere ? 1 : 0;

  __device__ __forceinline__ explicit ElementOp(const CudaElementwiseArgs& args) : args_(args) {
    // A host-scalar second operand of mul or a division: read once in the
    // math type (narrow floats from float32, kTakesScalarInFloat), and for
    // a division its reciprocal, as PyTorch's CUDA kernels take it.
    if constexpr (kTakesScalarInFloat<kOp, T> || kDividesByReciprocal<kOp, T>) {
      if (args.scalar_divisor) {
        if constexpr (kTakesScalarInFloat<kOp, T>)
          scalar_b_ = Element<M>(args.inputs[1], DType::kFloat32, 0);
        else
          scalar_b_ = Math<T>::Load(Element<T>(args.inputs[1], args.compute, 0));
        if constexpr (kDividesByReciprocal<kOp, T>) inverse_b_ = HostReciprocal(scalar_b_);
      }
    }
    if constexpr (kOp == Op::kAdd) {
      if (args.scaled) alpha_ = *reinterpret_cast<const M*>(args.inputs[2].value);
    }
  }

  // The operands of the element at each input's offset.
  __device__ __forceinline__ Operands<T> Load(const int64_t (&offsets)[kInputs]) const {
    Operands<T> operands;
    if constexpr (kWhere) {
      operands.condition = Element<bool>(args_.inputs[0], DType::kBool, offsets[0]);
    }
#pragma unroll
    for (int v = 0; v < kValues; ++v) {
      operands.values[v] =
          Element<T>(args_.inputs[kFirstValue + v], args_.compute, offsets[kFirstValue + v]);
    }
    return operands;
  }

  // The operands of element i where every input is read at the output's index.
  __device__ __forceinline__ Operands<T> LoadAtOwnIndex(int64_t i) const {
    int64_t offsets[kInputs];
#pragma unroll
    for (int n = 0; n < kInputs; ++n) offsets[n] = i;
    return Load(offsets);
  }

  // N consecutive elements from first, in whole packs.
  template <int N>
  __device__ __forceinline__ void LoadPacked(int64_t first, Operands<T> (&operands)[N]) const {
    if constexpr (kWhere) {
      bool conditions[N];
      LoadElements(args_.inputs[0], DType::kBool, first, conditions);
#pragma unroll
      for (int k = 0; k < N; ++k) operands[k].condition = conditions[k];
    }
#pragma unroll
    for (int v = 0; v < kValues; ++v) {
      T values[N];
      LoadElements(args_.inputs[kFirstValue + v], args_.compute, first, values);
#pragma unroll
      for (int k = 0; k < N; ++k) operands[k].values[v] = values[k];
    }
  }

  __device__ __forceinline__ auto Result(const Operands<T>& operands) const {
    if constexpr (kWhere) {
      return operands.condition ? operands.values[0] : operands.values[1];
    } else if constexpr (kUnary) {
      using R = decltype(Unary<kOp, M>(M()));
      return StoreAs<ResultStorage<T, R>>(Unary<kOp, M>(Math<T>::Load(operands.values[0])));
    } else {
      using R = decltype(DeviceBinary<kOp, T>(M(), M()));
      const M x = Math<T>::Load(operands.values[0]);
      if constexpr (kOp == Op::kAdd) {
        if (args_.scaled) {
          return StoreAs<ResultStorage<T, R>>(
              ScaledAdd(x, Math<T>::Load(operands.values[1]), alpha_));
        }
      }
      if constexpr (kDividesByReciprocal<kOp, T>) {
        if (args_.scalar_divisor) {
          return StoreAs<ResultStorage<T, R>>(
              DeviceDivideByHostScalar<kOp, T>(x, scalar_b_, inverse_b_));
        }
      } else if constexpr (kTakesScalarInFloat<kOp, T>) {
        if (args_.scalar_divisor) {
          bool unused = false;
          return StoreAs<ResultStorage<T, R>>(Binary<kOp, T, true>(x, scalar_b_, unused));
        }
      }
      return StoreAs<ResultStorage<T, R>>(
          DeviceBinary<kOp, T>(x, Math<T>::Load(operands.values[1])));
    }
  }

  using Value = T;

 private:
  const CudaElementwiseArgs& args_;
  M scalar_b_{}, inverse_b_{}, alpha_{};
};

// Walk::kPacked: kElementsPerThread consecutive elements a thread, in whole
// packs; then the last numel % kElementsPerThread, one a thread.
template <typename Element, typename S>
__device__ __forceinline__ void WalkPacked(const Element& element, int64_t numel, S* out) {
  constexpr int N = kElementsPerThread;
  const int64_t thread = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const int64_t num_threads = int64_t{gridDim.x} * blockDim.x;
  const int64_t packs = numel / N;
  for (int64_t pack = thread; pack < packs; pack += num_threads) {
    const int64_t first = pack * N;
    Operands<typename Element::Value> operands[N];
    element.LoadPacked(first, operands);
    Pack<S, N> results;
#pragma unroll
    for (int k = 0; k < N; ++k) results.values[k] = element.Result(operands[k]);
    StorePack<S, N>(out + first, results, true);
  }
  const int64_t i = packs * N + thread;
  if (i < numel) out[i] = element.Result(element.LoadAtOwnIndex(i));
}

// Walk::kContiguous: kElementsPerThread elements a thread, blockDim apart,
// all loaded before any is stored.
template <typename Element, typename S>
__device__ __forceinline__ void WalkContiguous(const Element& element, int64_t numel, S* out) {
  const int64_t tile = int64_t{blockDim.x} * kElementsPerThread;
  for (int64_t base = int64_t{blockIdx.x} * tile; base < numel; base += int64_t{gridDim.x} * tile) {
    Operands<typename Element::Value> operands[kElementsPerThread];
#pragma unroll
    for (int k = 0; k < kElementsPerThread; ++k) {
      const int64_t i = base + int64_t{k} * blockDim.x + threadIdx.x;
      if (i < numel) operands[k] = element.LoadAtOwnIndex(i);
    }
#pragma unroll
    for (int k = 0; k < kElementsPerThread; ++k) {
      const int64_t i = base + int64_t{k} * blockDim.x + threadIdx.x;
      if (i < numel) out[i] = element.Result(operands[k]);
    }
  }
}

// Walk::kStrided: each input at its own strides, one element a thread.
template <typename Element, typename S>
__device__ __forceinline__ void WalkStrided(const Element& element, const CudaElementwiseArgs& args,
                                            S* out) {
  const int64_t thread = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const int64_t num_threads = int64_t{gridDim.x} * blockDim.x;
  for (int64_t i = thread; i < args.numel; i += num_threads) {
    int64_t offsets[Element::kInputs] = {};
    int64_t rest = i;
    for (int d = args.rank - 1; d >= 0; --d) {
      const int64_t index = rest % args.shape[d];
      rest /= args.shape[d];
#pragma unroll
      for (int n = 0; n < Element::kInputs; ++n) offsets[n] += index * args.inputs[n].strides[d];
    }
    out[i] = element.Result(element.Load(offsets));
  }
}

template <Op kOp, typename T>
__global__ void ElementwiseKernel(CudaElementwiseArgs args, Walk walk) {
  const ElementOp<kOp, T> element(args);
  using S = decltype(element.Result(Operands<T>()));  // the result's storage type
  S* const out = static_cast<S*>(args.out);
  switch (walk) {
    case Walk::kPacked:
      return WalkPacked(element, args.numel, out);
    case Walk::kContiguous:
      return WalkContiguous(element, args.numel, out);
    case Walk::kStrided:
      return WalkStrided(element, args, out);
  }
}

using KernelFn = void (*)(CudaElementwiseArgs, Walk);

// Whether every tensor input has the row-major strides of the output's
// shape (dimensions of size 1 aside), so that element i is at offset i.
bool AllInputsContiguous(const CudaElementwiseArgs& args, int num_inputs) {
  for (int k = 0; k < num_inputs; ++k) {
    const CudaOperand& input = args.inputs[k];
    if (input.data == nullptr) continue;  // a scalar
    int64_t expected = 1;
    for (int d = args.rank - 1; d >= 0; --d) {
      if (args.shape[d] != 1 && input.strides[d] != expected) return false;
      expected *= args.shape[d];
    }
  }
  return true;
}

// Whether LoadElements and StorePack may move packs of kElementsPerThread
// elements whole at every tensor input and the output: each address aligned
// to its pack's access (cast_internal::kPackAccessBytes; 16 bytes for the
// output, enough for any result type).
bool PacksAligned(const CudaElementwiseArgs& args, int num_inputs) {
  const auto aligned = [](const void* p, int64_t bytes) {
    return reinterpret_cast<uintptr_t>(p) % static_cast<uintptr_t>(bytes) == 0;
  };
  for (int k = 0; k < num_inputs; ++k) {
    const CudaOperand& input = args.inputs[k];
    if (input.data == nullptr) continue;
    const int64_t item = VisitDType(input.dtype, [](auto tag) {
      return static_cast<int64_t>(sizeof(typename decltype(tag)::type));
    });
    if (!aligned(input.data, std::min<int64_t>(kElementsPerThread * item, 16))) return false;
  }
  return aligned(args.out, 16);
}

Walk ChooseWalk(const CudaElementwiseArgs& args) {
  if (!AllInputsContiguous(args, 3)) return Walk::kStrided;
  return PacksAligned(args, 3) ? Walk::kPacked : Walk::kContiguous;
}

// An op's kernel for one compute dtype; null where there is none.
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
#define ONEFLOW_PROMOTE_OP_KERNEL(name, spec) \
  case Op::k##name:                           \
    return KernelFor<Op::k##name>(compute);
    ONEFLOW_PROMOTE_FOR_EACH_KERNEL_OP(ONEFLOW_PROMOTE_OP_KERNEL)
#undef ONEFLOW_PROMOTE_OP_KERNEL
    default:  // the ops with a dtype rule only
      break;
  }
  return {};
}

}  // namespace

CudaResult CudaElementwise(const CudaElementwiseArgs& args, int ordinal, void* stream_handle) {
  const cudaStream_t stream = static_cast<cudaStream_t>(stream_handle);
  const KernelFn kernel = SelectKernel(args.op, args.compute);
  if (kernel == nullptr)
    return {CudaOutcome::kNoKernel, "no CUDA kernel for this op and compute dtype"};
  if (args.numel == 0) return {};
  int previous = 0;
  if (CudaResult r = Result(cudaGetDevice(&previous)); !r.ok()) return r;
  if (CudaResult r = Result(cudaSetDevice(ordinal)); !r.ok()) return r;
  constexpr int kThreads = 256;
  const Walk walk = ChooseWalk(args);
  const int64_t threads_needed = walk == Walk::kPacked
                                     ? (args.numel + kElementsPerThread - 1) / kElementsPerThread
                                     : args.numel;
  const int64_t blocks = std::min<int64_t>((threads_needed + kThreads - 1) / kThreads, 65536);
  kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(args, walk);
  const CudaResult result = Result(cudaGetLastError());
  cudaSetDevice(previous);
  return result;
}

namespace {

constexpr int kReduceThreads = 512;

// One block folds everything: each thread strides over the input, then a
// shared-memory tree. Accumulators (int64, double, complex<double>) live in
// raw shared storage, since complex types have constructors.
template <typename T, bool kProduct, bool kDotProduct>
__global__ void __launch_bounds__(kReduceThreads)
    ReduceKernel(const T* a, int64_t stride_a, const T* b, int64_t stride_b, int64_t n, T* out,
                 bool mean) {
  using A = Accumulator<T>;
  __shared__ alignas(16) unsigned char storage[kReduceThreads * sizeof(A)];
  A* partial = reinterpret_cast<A*>(storage);
  A acc = kProduct ? A(1) : A(0);
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    const A x = LoadAccumulator(a[i * stride_a]);
    if constexpr (kDotProduct) {
      acc = AccumulateAdd(acc, AccumulateMul(x, LoadAccumulator(b[i * stride_b])));
    } else if constexpr (kProduct) {
      acc = AccumulateMul(acc, x);
    } else {
      acc = AccumulateAdd(acc, x);
    }
  }
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (int width = blockDim.x / 2; width > 0; width /= 2) {
    if (threadIdx.x < width) {
      const A other = partial[threadIdx.x + width];
      partial[threadIdx.x] = kProduct ? AccumulateMul(partial[threadIdx.x], other)
                                      : AccumulateAdd(partial[threadIdx.x], other);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    A result = partial[0];
    if constexpr (!kIsInt<T>) {
      if (mean) result = result / static_cast<double>(n);
    }
    *out = StoreAccumulator<T>(result);
  }
}

// One thread per line, summing along it.
template <typename T>
__global__ void CumsumKernel(const T* in, T* out, int64_t outer, int64_t length, int64_t inner) {
  const int64_t lines = outer * inner;
  for (int64_t line = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; line < lines;
       line += int64_t{gridDim.x} * blockDim.x) {
    const int64_t o = line / inner, i = line % inner;
    Accumulator<T> acc = 0;
    for (int64_t k = 0; k < length; ++k) {
      const int64_t at = (o * length + k) * inner + i;
      acc = AccumulateAdd(acc, LoadAccumulator(in[at]));
      out[at] = StoreAccumulator<T>(acc);
    }
  }
}

// Queues `launch` on device `ordinal`; returns without waiting for it.
template <typename F>
CudaResult OnDevice(int ordinal, F launch) {
  int previous = 0;
  if (CudaResult r = Result(cudaGetDevice(&previous)); !r.ok()) return r;
  if (CudaResult r = Result(cudaSetDevice(ordinal)); !r.ok()) return r;
  CudaResult result = launch();
  if (result.ok()) result = Result(cudaGetLastError());
  cudaSetDevice(previous);
  return result;
}

}  // namespace

CudaResult CudaReduceAll(Op op, DType dtype, const void* in, int64_t n, void* out, int ordinal,
                         void* stream_handle) {
  const cudaStream_t stream = static_cast<cudaStream_t>(stream_handle);
  return VisitDType(dtype, [&](auto tag) -> CudaResult {
    using T = typename decltype(tag)::type;
    if constexpr (!kAccumulates<T>) {
      return {CudaOutcome::kNoKernel, "no CUDA reduction for this dtype"};
    } else {
      return OnDevice(ordinal, [&] {
        const T* x = static_cast<const T*>(in);
        if (op == Op::kProd) {
          ReduceKernel<T, true, false>
              <<<1, kReduceThreads, 0, stream>>>(x, 1, x, 1, n, static_cast<T*>(out), false);
        } else {
          ReduceKernel<T, false, false><<<1, kReduceThreads, 0, stream>>>(
              x, 1, x, 1, n, static_cast<T*>(out), op == Op::kMean);
        }
        return CudaResult{};
      });
    }
  });
}

CudaResult CudaCumsum(DType dtype, const void* in, void* out, int64_t outer, int64_t length,
                      int64_t inner, int ordinal, void* stream_handle) {
  const cudaStream_t stream = static_cast<cudaStream_t>(stream_handle);
  return VisitDType(dtype, [&](auto tag) -> CudaResult {
    using T = typename decltype(tag)::type;
    if constexpr (!kAccumulates<T>) {
      return {CudaOutcome::kNoKernel, "no CUDA cumsum for this dtype"};
    } else {
      return OnDevice(ordinal, [&] {
        const int64_t lines = outer * inner;
        const int64_t blocks = std::max<int64_t>(1, std::min<int64_t>((lines + 255) / 256, 65536));
        CumsumKernel<T><<<static_cast<unsigned>(blocks), 256, 0, stream>>>(
            static_cast<const T*>(in), static_cast<T*>(out), outer, length, inner);
        return CudaResult{};
      });
    }
  });
}

CudaResult CudaDot(DType dtype, const void* a, int64_t stride_a, const void* b, int64_t stride_b,
                   int64_t n, void* out, int ordinal, void* stream_handle) {
  const cudaStream_t stream = static_cast<cudaStream_t>(stream_handle);
  return VisitDType(dtype, [&](auto tag) -> CudaResult {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      return {CudaOutcome::kNoKernel, "no CUDA dot for this dtype"};
    } else {
      return OnDevice(ordinal, [&] {
        ReduceKernel<T, false, true><<<1, kReduceThreads, 0, stream>>>(
            static_cast<const T*>(a), stride_a, static_cast<const T*>(b), stride_b, n,
            static_cast<T*>(out), false);
        return CudaResult{};
      });
    }
  });
}

}  // namespace oneflow_promote::functional_internal
