// What the ops' kernels (oneflow_promote/functional/op_kernels.cc and
// cuda_ops.cu) take from the cast kernels: the one door into
// kernels/internal/ from outside kernels/ (tools/check_layers.py keeps it
// so). Not an API for anyone else; the names stay in cast_internal.
//
// On the host:
// - converting a block of elements: BestCpuCastKernels().contiguous and
//   .contiguous_streaming, one function per pair;
// - the destination's store kind: StreamsDestination;
// - ParallelFor, on the library's pool or the framework's;
// - CUDA outcomes: CudaResult, and CudaStatus as an absl::Status.
// Where nvcc compiles (free of Abseil):
// - CudaResult, and on the device DeviceConvert with the packs that load and
//   store vectors of elements (Pack, LoadPack, StorePack).

#ifndef ONEFLOW_PROMOTE_KERNELS_OP_KERNEL_SUPPORT_H_
#define ONEFLOW_PROMOTE_KERNELS_OP_KERNEL_SUPPORT_H_

#include "kernels/internal/cuda_cast.h"

#if defined(__CUDACC__)
#include "kernels/internal/cuda_pack.h"
#else
#include "kernels/internal/cpu_cast.h"
#include "kernels/internal/cuda_status.h"
#include "kernels/internal/parallel_for.h"
#endif

#endif  // ONEFLOW_PROMOTE_KERNELS_OP_KERNEL_SUPPORT_H_
