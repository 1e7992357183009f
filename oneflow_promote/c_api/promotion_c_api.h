/* A C ABI for promotion questions, so that frontends that are not C++
 * (ctypes, another language's FFI) ask the library instead of re-implementing
 * its rules. Dtype codes are the positions in the dtype list (bool 0, uint8 1,
 * ..., see kernels/cast_c_api.h); policy codes are the ONEFLOW_PROMOTE_POLICY_*
 * constants below. Every function returns 0, or an absl::StatusCode with its
 * message written (truncated, NUL-terminated) into error[0..error_size);
 * results are written only on success. */

#ifndef ONEFLOW_PROMOTE_PROMOTION_C_API_H_
#define ONEFLOW_PROMOTE_PROMOTION_C_API_H_

#include <stddef.h>
#include <stdint.h>

#include "oneflow_promote/c_api/c_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Promotion policies (the `policy` arguments), as oneflow_promote::Policy:
 * PyTorch 2.15, the Array API standard 2025.12, NumPy 2 (NEP 50), and JAX
 * with x64, without it (64-bit dtypes canonicalized to 32 bits), with
 * jax_numpy_dtype_promotion='strict', and MLX 0.32. */
enum {
  ONEFLOW_PROMOTE_POLICY_TORCH = 0,
  ONEFLOW_PROMOTE_POLICY_ARRAY_API = 1,
  ONEFLOW_PROMOTE_POLICY_NUMPY = 2,
  ONEFLOW_PROMOTE_POLICY_JAX = 3,
  ONEFLOW_PROMOTE_POLICY_JAX_X32 = 4,
  ONEFLOW_PROMOTE_POLICY_JAX_STRICT = 5,
  ONEFLOW_PROMOTE_POLICY_MLX = 6
};

/* What an operand is (oneflow_promote_operand.kind). */
enum {
  ONEFLOW_PROMOTE_TENSOR = 0,
  ONEFLOW_PROMOTE_PY_BOOL = 1,
  ONEFLOW_PROMOTE_PY_INT = 2,
  ONEFLOW_PROMOTE_PY_FLOAT = 3,
  ONEFLOW_PROMOTE_PY_COMPLEX = 4
};

/* One input of an operation: a tensor (dtype, ndim; ndim 0 is a 0-d tensor)
 * or a Python scalar (bool and int in int_value, float in real, complex in
 * real and imag). */
typedef struct oneflow_promote_operand {
  int kind;
  int dtype;
  int64_t ndim;
  int64_t int_value;
  double real;
  double imag;
} oneflow_promote_operand;

/* The dtype code of a canonical name ("float32", "bcomplex32"). */
int oneflow_promote_dtype_from_name(const char* name, int* dtype, char* error, size_t error_size);

/* The canonical name of a dtype code, or "invalid"; a static string. */
const char* oneflow_promote_dtype_name(int dtype);

/* PromoteTypes: the dtype a and b promote to under the policy. */
int oneflow_promote_promote_types(int a, int b, int policy, int* result, char* error,
                                  size_t error_size);

/* CanCast: 1 when a value computed in `from` may be written to `to` (out=,
 * in-place), else 0. */
int oneflow_promote_can_cast(int from, int to, int policy, int* result, char* error,
                             size_t error_size);

/* ResultType over `count` operands; default_dtype (float32 or float64) is
 * the dtype of Python floats under the torch policy (NumPy's and JAX's
 * defaults are fixed by the policy). */
int oneflow_promote_result_type(const oneflow_promote_operand* operands, size_t count, int policy,
                                int default_dtype, int* result, char* error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif /* ONEFLOW_PROMOTE_PROMOTION_C_API_H_ */
