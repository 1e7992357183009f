/* A C ABI for the functional frontend's binary ops, for frontends that are
 * not C++ (ctypes, another language's FFI) and for benchmarking against
 * another framework's tensors in the same process. Dtype codes are those of
 * kernels/cast_c_api.h. */

#ifndef ONEFLOW_PROMOTE_FUNCTIONAL_FUNCTIONAL_C_API_H_
#define ONEFLOW_PROMOTE_FUNCTIONAL_FUNCTIONAL_C_API_H_

#include <stddef.h>
#include <stdint.h>

#include "kernels/cast_c_api.h"
#include "oneflow_promote/c_api/promotion_c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs the binary op named `op` (a name `promote op` accepts: "add", "mul",
 * "div", "maximum", ...) on two contiguous 1-D operands of n elements with
 * PyTorch's dtype rules, writing the result into `out` (out=: its dtype must
 * be one the result can be cast to). cuda_ordinal < 0 means host memory and
 * the CPU (all threads); otherwise memory on that CUDA device, and the
 * kernels run on its default stream. cast_path: 0 auto, 1 materialized
 * (casts into temporaries, then a same-dtype kernel), 2 fused. Returns 0, or
 * an absl::StatusCode with its message written (truncated, NUL-terminated)
 * into error[0..error_size). */
int oneflow_promote_binary_op(const char* op, const void* a, int a_dtype, const void* b,
                              int b_dtype, void* out, int out_dtype, int64_t n, int cuda_ordinal,
                              int cast_path, char* error, size_t error_size);

/* The same on host memory, on the framework's pool `run` with its `state`
 * (oneflow_promote_parallel_for, kernels/cast_c_api.h), which decides how
 * many threads to use, or the library's pool on at most `threads` threads
 * (0: all) where run is NULL; threads 1 keeps the op on the calling thread.
 * The op's casts and its kernel both run there. */
int oneflow_promote_binary_op_on_host(const char* op, const void* a, int a_dtype, const void* b,
                                      int b_dtype, void* out, int out_dtype, int64_t n, int threads,
                                      oneflow_promote_parallel_for run, void* state, int cast_path,
                                      char* error, size_t error_size);

/* The op's dtype rule (InferOpDTypes): for the op named `op` (a name
 * `promote op` accepts) on `count` operands (see promotion_c_api.h), the
 * dtype it computes in and the dtype it returns, under the torch policy with
 * default_dtype (float32 or float64) for Python floats. An op PyTorch
 * refuses for these dtypes returns its error. */
int oneflow_promote_op_dtypes(const char* op, const oneflow_promote_operand* operands, size_t count,
                              int default_dtype, int* compute_dtype, int* result_dtype, char* error,
                              size_t error_size);

/* The same under a policy (ONEFLOW_PROMOTE_POLICY_*): the op by the name and
 * rule of the policy's framework (NumPy's "arctan2", the Array API's "atan2";
 * docs/op_policies.md), or the error that it lacks the op. default_dtype
 * applies under torch only. */
int oneflow_promote_op_dtypes_under_policy(const char* op, const oneflow_promote_operand* operands,
                                           size_t count, int policy, int default_dtype,
                                           int* compute_dtype, int* result_dtype, char* error,
                                           size_t error_size);

#ifdef __cplusplus
}
#endif

#endif /* ONEFLOW_PROMOTE_FUNCTIONAL_FUNCTIONAL_C_API_H_ */
