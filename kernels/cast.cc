// Argument checks and dispatch for the cast API; the kernels live in
// internal/cpu_cast_kernels.inc and cast_cuda.cu.

#include "kernels/cast.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "kernels/cpu_cast.h"
#include "kernels/cuda_device.h"
#include "kernels/internal/strided_layout.h"
#include "kernels/parallel_for.h"
#if ONEFLOW_PROMOTE_HAVE_CUDA
#include "kernels/cuda_cast.h"
#include "kernels/cuda_status.h"
#endif

namespace oneflow_promote {
namespace {

using cast_internal::StridedLayout;

// Below this many elements one thread does the whole cast: waking the pool
// costs more than the work.
constexpr int64_t kParallelGrain = int64_t{1} << 16;

// A byte range [begin, end) of one operand, for overlap checks.
struct ByteRange {
  uintptr_t begin;
  uintptr_t end;
};

std::string Hex(uintptr_t address) { return absl::StrCat("0x", absl::Hex(address)); }

absl::Status CheckDType(DType dtype, absl::string_view role) {
  if (IsValid(dtype)) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("the ", role, " dtype has invalid enum value ",
                                                 static_cast<int>(dtype),
                                                 "; valid values are 0 to ", kNumDTypes - 1));
}

size_t AlignmentOf(DType dtype) {
  return VisitDType(dtype, [](auto tag) { return alignof(typename decltype(tag)::type); });
}

absl::Status CheckPointer(const void* pointer, DType dtype, int64_t n, absl::string_view role) {
  if (pointer == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("the ", role, " pointer is null, for ", n, " elements of ", Name(dtype)));
  }
  const uintptr_t address = reinterpret_cast<uintptr_t>(pointer);
  if (address % AlignmentOf(dtype) != 0) {
    return absl::InvalidArgumentError(absl::StrCat("the ", role, " pointer ", Hex(address),
                                                   " is not aligned to ", Name(dtype), "'s ",
                                                   AlignmentOf(dtype), "-byte alignment"));
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> CheckedBytes(int64_t n, DType dtype, absl::string_view role) {
  const int64_t size = static_cast<int64_t>(ItemSize(dtype));
  if (n > std::numeric_limits<int64_t>::max() / size) {
    return absl::InvalidArgumentError(absl::StrCat(n, " elements of ", Name(dtype), " (the ", role,
                                                   ") overflow a 64-bit byte count"));
  }
  return n * size;
}

absl::Status CheckNoOverlap(ByteRange src, ByteRange dst) {
  if (src.begin < dst.end && dst.begin < src.end) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the source bytes [", Hex(src.begin), ", ", Hex(src.end), ") and the destination bytes [",
        Hex(dst.begin), ", ", Hex(dst.end), ") overlap; a cast needs separate buffers"));
  }
  return absl::OkStatus();
}

absl::Status CheckDevice(const Device& device, const void* src, const void* dst) {
  switch (device.kind) {
    case Device::Kind::kCpu:
      if (device.cpu_threads < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("cpu_threads is ", device.cpu_threads, "; use 0 for all threads"));
      }
      return absl::OkStatus();
    case Device::Kind::kCuda:
#if ONEFLOW_PROMOTE_HAVE_CUDA
      if (absl::Status s = CheckCudaMemory(src, device.ordinal, "the source"); !s.ok()) return s;
      return CheckCudaMemory(dst, device.ordinal, "the destination");
#else
      (void)src;
      (void)dst;
      return absl::UnavailableError("this build of oneflow_promote has no CUDA support");
#endif
  }
  return absl::InvalidArgumentError("unknown device kind");
}

absl::Status CastContiguousChecked(const void* src, DType from, void* dst, DType to, int64_t n,
                                   const Device& device) {
  if (device.kind == Device::Kind::kCuda) {
#if ONEFLOW_PROMOTE_HAVE_CUDA
    if (from == to) {
      return cast_internal::CudaStatus(
          cast_internal::CudaCopy(src, dst, n * ItemSize(from), device.ordinal, device.stream),
          "CUDA device ", device.ordinal);
    }
    return cast_internal::CudaStatus(
        cast_internal::CudaCastContiguous(src, from, dst, to, n, device.ordinal, device.stream),
        "CUDA device ", device.ordinal);
#endif
  }
  if (from == to) {
    const size_t item = ItemSize(from);
    cast_internal::ParallelFor(device, n, kParallelGrain, [&](int64_t b, int64_t e) {
      std::memcpy(static_cast<char*>(dst) + b * item, static_cast<const char*>(src) + b * item,
                  (e - b) * item);
    });
    return absl::OkStatus();
  }
  const cast_internal::ContiguousCastFn kernel = cast_internal::ContiguousKernel(
      cast_internal::BestCpuCastKernels(), from, to,
      cast_internal::ChosenStoreKind(n * static_cast<int64_t>(ItemSize(from)),
                                     n * static_cast<int64_t>(ItemSize(to))));
  cast_internal::ParallelFor(device, n, kParallelGrain,
                             [&](int64_t b, int64_t e) { kernel(src, dst, b, e); });
  return absl::OkStatus();
}

}  // namespace

absl::Status CastElements(const void* src, DType from, void* dst, DType to, int64_t n,
                          Device device) {
  if (absl::Status s = CheckDType(from, "source"); !s.ok()) return s;
  if (absl::Status s = CheckDType(to, "destination"); !s.ok()) return s;
  if (n < 0) {
    return absl::InvalidArgumentError(absl::StrCat("the element count is negative (", n, ")"));
  }
  if (n == 0) return absl::OkStatus();
  if (absl::Status s = CheckPointer(src, from, n, "source"); !s.ok()) return s;
  if (absl::Status s = CheckPointer(dst, to, n, "destination"); !s.ok()) return s;
  absl::StatusOr<int64_t> src_bytes = CheckedBytes(n, from, "source");
  if (!src_bytes.ok()) return src_bytes.status();
  absl::StatusOr<int64_t> dst_bytes = CheckedBytes(n, to, "destination");
  if (!dst_bytes.ok()) return dst_bytes.status();
  if (src == dst && from == to) return absl::OkStatus();
  const uintptr_t s = reinterpret_cast<uintptr_t>(src);
  const uintptr_t d = reinterpret_cast<uintptr_t>(dst);
  if (absl::Status st = CheckNoOverlap({s, s + static_cast<uintptr_t>(*src_bytes)},
                                       {d, d + static_cast<uintptr_t>(*dst_bytes)});
      !st.ok()) {
    return st;
  }
  if (absl::Status st = CheckDevice(device, src, dst); !st.ok()) return st;
  return CastContiguousChecked(src, from, dst, to, n, device);
}

absl::Status CastStrided(const void* src, DType from, absl::Span<const int64_t> shape,
                         absl::Span<const int64_t> src_strides, void* dst, DType to,
                         Device device) {
  if (absl::Status s = CheckDType(from, "source"); !s.ok()) return s;
  if (absl::Status s = CheckDType(to, "destination"); !s.ok()) return s;
  if (shape.size() != src_strides.size()) {
    return absl::InvalidArgumentError(absl::StrCat("the shape [", absl::StrJoin(shape, ", "),
                                                   "] has ", shape.size(), " dimensions but ",
                                                   src_strides.size(), " strides were given"));
  }
  if (shape.size() > static_cast<size_t>(kMaxCastRank)) {
    return absl::InvalidArgumentError(
        absl::StrCat("rank ", shape.size(), " is above the supported maximum of ", kMaxCastRank));
  }
  int64_t n = 1;
  // The source's lowest and highest element offsets, to bound its bytes.
  int64_t low = 0;
  int64_t high = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("dimension ", d, " has negative size ", shape[d]));
    }
    if (shape[d] == 0) return absl::OkStatus();
    if (n > std::numeric_limits<int64_t>::max() / shape[d]) {
      return absl::InvalidArgumentError(
          absl::StrCat("the shape [", absl::StrJoin(shape, ", "), "] has more than 2^63 elements"));
    }
    n *= shape[d];
    const absl::int128 reach = absl::int128(shape[d] - 1) * src_strides[d];
    const absl::int128 next = (reach < 0 ? absl::int128(low) : absl::int128(high)) + reach;
    if (next > std::numeric_limits<int64_t>::max() / 16 ||
        next < std::numeric_limits<int64_t>::min() / 16) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the strides [", absl::StrJoin(src_strides, ", "), "] reach outside the address space"));
    }
    (reach < 0 ? low : high) = static_cast<int64_t>(next);
  }
  if (absl::Status s = CheckPointer(src, from, n, "source"); !s.ok()) return s;
  if (absl::Status s = CheckPointer(dst, to, n, "destination"); !s.ok()) return s;
  absl::StatusOr<int64_t> dst_bytes = CheckedBytes(n, to, "destination");
  if (!dst_bytes.ok()) return dst_bytes.status();
  const int64_t item = static_cast<int64_t>(ItemSize(from));
  const uintptr_t s = reinterpret_cast<uintptr_t>(src);
  const uintptr_t d = reinterpret_cast<uintptr_t>(dst);
  if (absl::Status st = CheckNoOverlap(
          {s + static_cast<uintptr_t>(low * item), s + static_cast<uintptr_t>((high + 1) * item)},
          {d, d + static_cast<uintptr_t>(*dst_bytes)});
      !st.ok()) {
    return st;
  }
  if (absl::Status st = CheckDevice(device, src, dst); !st.ok()) return st;

  const StridedLayout layout =
      cast_internal::Coalesce(static_cast<int>(shape.size()), shape.data(), src_strides.data());
  if (layout.is_contiguous()) {
    return CastContiguousChecked(src, from, dst, to, n, device);
  }
  if (device.kind == Device::Kind::kCuda) {
#if ONEFLOW_PROMOTE_HAVE_CUDA
    return cast_internal::CudaStatus(cast_internal::CudaCastStrided(src, from, layout, dst, to, n,
                                                                    device.ordinal, device.stream),
                                     "CUDA device ", device.ordinal);
#endif
  }
  const cast_internal::StridedCastFn kernel =
      cast_internal::BestCpuCastKernels().strided[Index(from)][Index(to)];
  const int64_t inner = layout.inner_size();
  const int64_t rows = n / inner;
  cast_internal::ParallelFor(device, rows, std::max<int64_t>(1, kParallelGrain / inner),
                             [&](int64_t b, int64_t e) { kernel(src, layout, dst, b, e); });
  return absl::OkStatus();
}

}  // namespace oneflow_promote
