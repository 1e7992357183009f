// Cast kernels: convert a buffer of one dtype into a buffer of another, on
// the CPU or on a CUDA device, with the element semantics of convert.h
// (docs/casts.md). This is the raw-pointer API a framework calls with its
// tensors' data pointers:
//
//   absl::Status s = CastElements(src, DType::kInt8, dst, DType::kFloat32, n,
//                                 Device::Cuda(/*ordinal=*/0, stream));
//
// The CPU path is vectorized (AVX2 where the processor has it, chosen at run
// time) and split across threads above a size threshold. The CUDA path is one
// kernel template over (From, To) with 16-byte vector loads and stores; it is
// there when the library was built with the CUDA toolkit, and reports
// kUnavailable otherwise.

#ifndef ONEFLOW_PROMOTE_KERNELS_CAST_H_
#define ONEFLOW_PROMOTE_KERNELS_CAST_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "oneflow_promote/device.h"
#include "oneflow_promote/dtype.h"

namespace oneflow_promote {

// The largest rank CastStrided accepts.
inline constexpr int kMaxCastRank = 8;

// Converts n contiguous elements at `src` (dtype `from`) into `dst` (dtype
// `to`). Equal dtypes copy. n == 0 does nothing. Errors (InvalidArgument)
// name the offending operand: a null pointer with n > 0, a negative n, an
// invalid dtype, a pointer not aligned to its element type, or buffers that
// overlap (an exact alias with equal dtypes is a no-op). CUDA failures are
// returned too (Unavailable without a CUDA build or device, Internal for a
// failed launch); pointers must then be device memory of that ordinal.
[[nodiscard]] absl::Status CastElements(const void* src, DType from, void* dst, DType to, int64_t n,
                                        Device device = Device::Cpu());

// Converts a strided view into a contiguous buffer of dst dtype `to`.
// `shape` and `src_strides` (in elements, any sign, 0 for broadcast) have
// equal length of at most kMaxCastRank; the output is row-major contiguous.
// Errors as for CastElements, plus mismatched or oversized shapes.
[[nodiscard]] absl::Status CastStrided(const void* src, DType from, absl::Span<const int64_t> shape,
                                       absl::Span<const int64_t> src_strides, void* dst, DType to,
                                       Device device = Device::Cpu());

}  // namespace oneflow_promote

#endif  // ONEFLOW_PROMOTE_KERNELS_CAST_H_
