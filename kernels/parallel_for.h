// ParallelFor: splits [0, n) into chunks run on a process-wide pool of
// worker threads, or on the host framework's pool, for the CPU kernels.

#ifndef ONEFLOW_PROMOTE_KERNELS_INTERNAL_PARALLEL_FOR_H_
#define ONEFLOW_PROMOTE_KERNELS_INTERNAL_PARALLEL_FOR_H_

#include <cstdint>

#include "absl/functional/function_ref.h"
#include "oneflow_promote/device.h"

namespace oneflow_promote::cast_internal {

// Hardware threads the pool can use (at least 1).
[[nodiscard]] int HardwareThreads();

// Calls fn(begin, end) over disjoint ranges covering [0, n), each at least
// `grain` long (but the last), on up to `max_threads` threads (0: all) with
// the caller as one of them; returns when all are done. Each thread starts
// on its own contiguous share of [0, n), the caller on the first, so that
// calls of the same size give each thread the same memory as the last
// call did. Calls made while the pool is busy (from another thread, or from
// inside fn) run on the calling thread alone.
void ParallelFor(int64_t n, int64_t grain, int max_threads,
                 absl::FunctionRef<void(int64_t, int64_t)> fn);

// The same on `device`'s threads: the host framework's pool where the
// device names one (which then decides how many threads to use), the
// library's otherwise.
void ParallelFor(const Device& device, int64_t n, int64_t grain,
                 absl::FunctionRef<void(int64_t, int64_t)> fn);

}  // namespace oneflow_promote::cast_internal

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_PARALLEL_FOR_H_
