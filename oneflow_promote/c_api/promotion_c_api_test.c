/* The promotion C ABI called from C. Expected answers are PyTorch 2.15's,
 * NumPy 2.4's and JAX 0.10's, each with the Python expression that gives it. */

#include "oneflow_promote/c_api/promotion_c_api.h"

#include <stdio.h>
#include <string.h>

#include "tests/c_check.h"

static int code(const char* name) {
  int dtype = -1;
  char error[128];
  CHECK(oneflow_promote_dtype_from_name(name, &dtype, error, sizeof error) == 0);
  return dtype;
}

static oneflow_promote_operand tensor(const char* dtype, int64_t ndim) {
  oneflow_promote_operand op = {ONEFLOW_PROMOTE_TENSOR, code(dtype), ndim, 0, 0.0, 0.0};
  return op;
}

static oneflow_promote_operand scalar(int kind, int64_t int_value, double real, double imag) {
  oneflow_promote_operand op = {kind, 0, 0, int_value, real, imag};
  return op;
}

int main(void) {
  char error[256];
  int result = -1;
  const int torch = ONEFLOW_PROMOTE_POLICY_TORCH, array_api = ONEFLOW_PROMOTE_POLICY_ARRAY_API;
  const int numpy = ONEFLOW_PROMOTE_POLICY_NUMPY, jax = ONEFLOW_PROMOTE_POLICY_JAX;
  const int jax_x32 = ONEFLOW_PROMOTE_POLICY_JAX_X32;
  const int jax_strict = ONEFLOW_PROMOTE_POLICY_JAX_STRICT;

  CHECK(strcmp(oneflow_promote_dtype_name(code("bcomplex32")), "bcomplex32") == 0);
  CHECK(strcmp(oneflow_promote_dtype_name(99), "invalid") == 0);
  CHECK(oneflow_promote_dtype_from_name("float", &result, error, sizeof error) != 0);
  CHECK(strstr(error, "'float'") != NULL);

  /* torch.promote_types(torch.uint8, torch.int8) -> torch.int16 */
  CHECK(oneflow_promote_promote_types(code("uint8"), code("int8"), torch, &result, error,
                                      sizeof error) == 0);
  CHECK(result == code("int16"));
  /* torch.promote_types(torch.bfloat16, torch.complex32) -> torch.complex64 */
  CHECK(oneflow_promote_promote_types(code("bfloat16"), code("complex32"), torch, &result, error,
                                      sizeof error) == 0);
  CHECK(result == code("complex64"));
  /* torch.promote_types(torch.float8_e4m3fn, torch.float16) raises
   * "Promotion for Float8 Types is not supported, ..." */
  CHECK(oneflow_promote_promote_types(code("float8_e4m3fn"), code("float16"), torch, &result, error,
                                      sizeof error) == 3 /* INVALID_ARGUMENT */);
  CHECK(strstr(error, "Promotion for Float8 Types is not supported") != NULL);
  /* array_api_strict: int32 with float32 cannot be promoted */
  CHECK(oneflow_promote_promote_types(code("int32"), code("float32"), array_api, &result, error,
                                      sizeof error) != 0);
  CHECK(oneflow_promote_promote_types(code("int8"), 200, torch, &result, error, sizeof error) != 0);
  CHECK(strstr(error, "200") != NULL);
  CHECK(oneflow_promote_promote_types(code("int8"), code("int8"), 7, &result, error,
                                      sizeof error) != 0);
  CHECK(strstr(error, "6 (mlx)") != NULL);
  /* mx.array([1], mx.uint64) + mx.array([1], mx.int8) -> float32 */
  CHECK(oneflow_promote_promote_types(code("uint64"), code("int8"), ONEFLOW_PROMOTE_POLICY_MLX,
                                      &result, error, sizeof error) == 0 &&
        result == code("float32"));
  /* np.promote_types(np.int64, np.uint64) -> float64 */
  CHECK(oneflow_promote_promote_types(code("int64"), code("uint64"), numpy, &result, error,
                                      sizeof error) == 0 &&
        result == code("float64"));
  /* NumPy has no bfloat16 (ml_dtypes adds one; NumPy itself has none) */
  CHECK(oneflow_promote_promote_types(code("bfloat16"), code("float32"), numpy, &result, error,
                                      sizeof error) != 0);
  CHECK(strstr(error, "bfloat16 is not a dtype of the numpy policy") != NULL);
  /* jnp.promote_types(jnp.int8, jnp.float8_e4m3fn) -> float8_e4m3fn (x64 and x32) */
  CHECK(oneflow_promote_promote_types(code("int8"), code("float8_e4m3fn"), jax, &result, error,
                                      sizeof error) == 0 &&
        result == code("float8_e4m3fn"));
  /* x64 off: jnp.asarray(np.zeros(1, np.int64)) is int32, so int64 + int8 -> int32 */
  CHECK(oneflow_promote_promote_types(code("int64"), code("int8"), jax_x32, &result, error,
                                      sizeof error) == 0 &&
        result == code("int32"));
  /* jax_numpy_dtype_promotion='strict': int8 + int16 raises TypePromotionError */
  CHECK(oneflow_promote_promote_types(code("int8"), code("int16"), jax_strict, &result, error,
                                      sizeof error) != 0);
  CHECK(strstr(error, "jax_numpy_dtype_promotion=strict") != NULL);

  /* torch.can_cast(torch.float32, torch.int32) -> False; (torch.int32,
   * torch.float16) -> True; (torch.bcomplex32, torch.float32) -> False */
  CHECK(oneflow_promote_can_cast(code("float32"), code("int32"), torch, &result, error,
                                 sizeof error) == 0 &&
        result == 0);
  CHECK(oneflow_promote_can_cast(code("int32"), code("float16"), torch, &result, error,
                                 sizeof error) == 0 &&
        result == 1);
  CHECK(oneflow_promote_can_cast(code("bcomplex32"), code("float32"), torch, &result, error,
                                 sizeof error) == 0 &&
        result == 0);
  /* np.can_cast(np.int64, np.int8, "same_kind") -> True; (np.int8, np.uint8) -> False */
  CHECK(oneflow_promote_can_cast(code("int64"), code("int8"), numpy, &result, error,
                                 sizeof error) == 0 &&
        result == 1);
  CHECK(oneflow_promote_can_cast(code("int8"), code("uint8"), numpy, &result, error,
                                 sizeof error) == 0 &&
        result == 0);

  {
    /* torch.result_type(torch.zeros(3, dtype=torch.int8), 1.5) -> torch.float32,
     * torch.float64 after torch.set_default_dtype(torch.float64) */
    const oneflow_promote_operand ops[] = {tensor("int8", 1),
                                           scalar(ONEFLOW_PROMOTE_PY_FLOAT, 0, 1.5, 0)};
    CHECK(oneflow_promote_result_type(ops, 2, torch, code("float32"), &result, error,
                                      sizeof error) == 0 &&
          result == code("float32"));
    CHECK(oneflow_promote_result_type(ops, 2, torch, code("float64"), &result, error,
                                      sizeof error) == 0 &&
          result == code("float64"));
    CHECK(oneflow_promote_result_type(ops, 2, torch, code("float16"), &result, error,
                                      sizeof error) != 0);
  }
  {
    /* torch.result_type(torch.zeros(3, dtype=torch.bfloat16), 2j) -> torch.bcomplex32 */
    const oneflow_promote_operand ops[] = {tensor("bfloat16", 1),
                                           scalar(ONEFLOW_PROMOTE_PY_COMPLEX, 0, 0, 2)};
    CHECK(oneflow_promote_result_type(ops, 2, torch, code("float32"), &result, error,
                                      sizeof error) == 0 &&
          result == code("bcomplex32"));
  }
  {
    /* torch.result_type(int8 tensor, torch.tensor(1.0, dtype=torch.float64)) -> float64;
     * with torch.tensor(1) (int64, 0-d) -> int8 */
    const oneflow_promote_operand float_0d[] = {tensor("int8", 1), tensor("float64", 0)};
    const oneflow_promote_operand int_0d[] = {tensor("int8", 1), tensor("int64", 0)};
    CHECK(oneflow_promote_result_type(float_0d, 2, torch, code("float32"), &result, error,
                                      sizeof error) == 0 &&
          result == code("float64"));
    CHECK(oneflow_promote_result_type(int_0d, 2, torch, code("float32"), &result, error,
                                      sizeof error) == 0 &&
          result == code("int8"));
  }
  {
    const oneflow_promote_operand bad_kind[] = {tensor("int8", 1), scalar(9, 0, 0, 0)};
    CHECK(oneflow_promote_result_type(bad_kind, 2, torch, code("float32"), &result, error,
                                      sizeof error) != 0);
    CHECK(strstr(error, "operand 2") != NULL);
    CHECK(oneflow_promote_result_type(NULL, 2, torch, code("float32"), &result, error,
                                      sizeof error) != 0);
    CHECK(oneflow_promote_result_type(bad_kind, 1, torch, code("float32"), NULL, error,
                                      sizeof error) != 0);
  }

  {
    /* np.add(np.zeros(3, np.int8), 300) raises OverflowError; jnp.add(jnp.zeros(3,
     * jnp.int8), 300) is int8 (x64 on or off); np.add(np.zeros(3, np.uint8),
     * np.int64(1)) is int64 */
    const oneflow_promote_operand int8_300[] = {tensor("int8", 1),
                                                scalar(ONEFLOW_PROMOTE_PY_INT, 300, 0, 0)};
    const oneflow_promote_operand uint8_int64_0d[] = {tensor("uint8", 1), tensor("int64", 0)};
    CHECK(oneflow_promote_result_type(int8_300, 2, numpy, code("float32"), &result, error,
                                      sizeof error) != 0);
    CHECK(strstr(error, "operand 2 (Python int 300)") != NULL && strstr(error, "int8") != NULL);
    CHECK(oneflow_promote_result_type(int8_300, 2, jax, code("float32"), &result, error,
                                      sizeof error) == 0 &&
          result == code("int8"));
    CHECK(oneflow_promote_result_type(int8_300, 2, jax_x32, code("float32"), &result, error,
                                      sizeof error) == 0 &&
          result == code("int8"));
    CHECK(oneflow_promote_result_type(uint8_int64_0d, 2, numpy, code("float32"), &result, error,
                                      sizeof error) == 0 &&
          result == code("int64"));
  }

  if (failures == 0) printf("promotion C ABI: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
