/* The promotion C ABI called from C. Expected answers are PyTorch 2.15's, each
 * with the Python expression that gives it. */

#include "oneflow_promote/promotion_c_api.h"

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
  const int torch = 0, array_api = 1;

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
  CHECK(oneflow_promote_promote_types(code("float8_e4m3fn"), code("float16"), torch, &result,
                                      error, sizeof error) == 3 /* INVALID_ARGUMENT */);
  CHECK(strstr(error, "Promotion for Float8 Types is not supported") != NULL);
  /* array_api_strict: int32 with float32 cannot be promoted */
  CHECK(oneflow_promote_promote_types(code("int32"), code("float32"), array_api, &result, error,
                                      sizeof error) != 0);
  CHECK(oneflow_promote_promote_types(code("int8"), 200, torch, &result, error, sizeof error) != 0);
  CHECK(strstr(error, "200") != NULL);
  CHECK(oneflow_promote_promote_types(code("int8"), code("int8"), 7, &result, error,
                                      sizeof error) != 0);

  /* torch.can_cast(torch.float32, torch.int32) -> False; (torch.int32,
   * torch.float16) -> True; (torch.bcomplex32, torch.float32) -> False */
  CHECK(oneflow_promote_can_cast(code("float32"), code("int32"), torch, &result, error,
                                 sizeof error) == 0 && result == 0);
  CHECK(oneflow_promote_can_cast(code("int32"), code("float16"), torch, &result, error,
                                 sizeof error) == 0 && result == 1);
  CHECK(oneflow_promote_can_cast(code("bcomplex32"), code("float32"), torch, &result, error,
                                 sizeof error) == 0 && result == 0);

  {
    /* torch.result_type(torch.zeros(3, dtype=torch.int8), 1.5) -> torch.float32,
     * torch.float64 after torch.set_default_dtype(torch.float64) */
    const oneflow_promote_operand ops[] = {tensor("int8", 1),
                                           scalar(ONEFLOW_PROMOTE_PY_FLOAT, 0, 1.5, 0)};
    CHECK(oneflow_promote_result_type(ops, 2, torch, code("float32"), &result, error,
                                      sizeof error) == 0 && result == code("float32"));
    CHECK(oneflow_promote_result_type(ops, 2, torch, code("float64"), &result, error,
                                      sizeof error) == 0 && result == code("float64"));
    CHECK(oneflow_promote_result_type(ops, 2, torch, code("float16"), &result, error,
                                      sizeof error) != 0);
  }
  {
    /* torch.result_type(torch.zeros(3, dtype=torch.bfloat16), 2j) -> torch.bcomplex32 */
    const oneflow_promote_operand ops[] = {tensor("bfloat16", 1),
                                           scalar(ONEFLOW_PROMOTE_PY_COMPLEX, 0, 0, 2)};
    CHECK(oneflow_promote_result_type(ops, 2, torch, code("float32"), &result, error,
                                      sizeof error) == 0 && result == code("bcomplex32"));
  }
  {
    /* torch.result_type(int8 tensor, torch.tensor(1.0, dtype=torch.float64)) -> float64;
     * with torch.tensor(1) (int64, 0-d) -> int8 */
    const oneflow_promote_operand float_0d[] = {tensor("int8", 1), tensor("float64", 0)};
    const oneflow_promote_operand int_0d[] = {tensor("int8", 1), tensor("int64", 0)};
    CHECK(oneflow_promote_result_type(float_0d, 2, torch, code("float32"), &result, error,
                                      sizeof error) == 0 && result == code("float64"));
    CHECK(oneflow_promote_result_type(int_0d, 2, torch, code("float32"), &result, error,
                                      sizeof error) == 0 && result == code("int8"));
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

  if (failures == 0) printf("promotion C ABI: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
