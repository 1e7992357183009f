/* A C ABI for the cast kernels, for frontends that are not C++ (a Python
 * extension, ctypes, another language's FFI). Dtype codes are the positions
 * in oneflow_promote's dtype list (bool 0, uint8 1, int8 2, int16 3, int32 4,
 * int64 5, uint16 6, uint32 7, uint64 8, float8_e4m3fn 9, float8_e5m2 10,
 * float16 11, bfloat16 12, float32 13, float64 14, complex32 15,
 * complex64 16, complex128 17, bcomplex32 18, float8_e4m3fnuz 19,
 * float8_e5m2fnuz 20, float8_e8m0fnu 21). */

#ifndef ONEFLOW_PROMOTE_KERNELS_CAST_C_API_H_
#define ONEFLOW_PROMOTE_KERNELS_CAST_C_API_H_

#include <stddef.h>
#include <stdint.h>

#include "oneflow_promote/c_api/c_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Casts n contiguous elements, as CastElements does. cuda_ordinal < 0 runs
 * on the CPU (all threads); otherwise on that CUDA device and `stream`.
 * Returns 0, or an absl::StatusCode with its message written (truncated,
 * NUL-terminated) into error[0..error_size). */
int oneflow_promote_cast(const void* src, int from, void* dst, int to, int64_t n, int cuda_ordinal,
                         void* stream, char* error, size_t error_size);

/* A host framework's parallel-for (oneflow_promote::HostParallelFor in C):
 * run(state, n, grain, body, body_state) must call body(body_state, begin,
 * end) over disjoint ranges covering [0, n), each at least `grain` long but
 * the last, concurrently or not, and return when all have returned. */
typedef void (*oneflow_promote_parallel_body)(void* body_state, int64_t begin, int64_t end);
typedef void (*oneflow_promote_parallel_for)(void* state, int64_t n, int64_t grain,
                                             oneflow_promote_parallel_body body, void* body_state);

/* Casts n contiguous elements in host memory on the framework's pool, so
 * that the cast does not wake a second set of threads beside the
 * framework's own: `run` with its `state`, which decides how many threads
 * to use (threads 1 keeps the cast on the calling thread), or the library's
 * pool on at most `threads` threads (0: all) where run is NULL. Casts too
 * small to split never reach the pool. Returns as oneflow_promote_cast. */
int oneflow_promote_cast_on_host(const void* src, int from, void* dst, int to, int64_t n,
                                 int threads, oneflow_promote_parallel_for run, void* state,
                                 char* error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif /* ONEFLOW_PROMOTE_KERNELS_CAST_C_API_H_ */
