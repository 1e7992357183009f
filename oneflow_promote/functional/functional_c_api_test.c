/* The op-dtype query of the functional C ABI called from C. Expected answers
 * are PyTorch 2.15's, each with the Python expression that gives it. */

#include "oneflow_promote/functional/functional_c_api.h"

#include <stdio.h>
#include <string.h>

#include "tests/c_check.h"

static int code(const char* name) {
  int dtype = -1;
  CHECK(oneflow_promote_dtype_from_name(name, &dtype, NULL, 0) == 0);
  return dtype;
}

static oneflow_promote_operand tensor(const char* dtype, int64_t ndim) {
  oneflow_promote_operand op = {ONEFLOW_PROMOTE_TENSOR, code(dtype), ndim, 0, 0.0, 0.0};
  return op;
}

int main(void) {
  char error[256];
  int compute = -1, result = -1;
  const int float32 = code("float32");

  {
    /* torch.div(int32 tensor, int32 tensor).dtype -> torch.float32 */
    const oneflow_promote_operand ops[] = {tensor("int32", 1), tensor("int32", 1)};
    CHECK(oneflow_promote_op_dtypes("div", ops, 2, float32, &compute, &result, error,
                                    sizeof error) == 0);
    CHECK(compute == float32 && result == float32);
    /* torch.eq(int32, int32).dtype -> torch.bool, compared in int32 */
    CHECK(oneflow_promote_op_dtypes("eq", ops, 2, float32, &compute, &result, error,
                                    sizeof error) == 0);
    CHECK(compute == code("int32") && result == code("bool"));
  }
  {
    /* torch.sum(int8 tensor).dtype -> torch.int64 */
    const oneflow_promote_operand ops[] = {tensor("int8", 1)};
    CHECK(oneflow_promote_op_dtypes("sum", ops, 1, float32, &compute, &result, error,
                                    sizeof error) == 0);
    CHECK(result == code("int64"));
  }
  {
    /* torch.mean(int32 tensor) raises "mean(): could not infer output dtype. ..." */
    const oneflow_promote_operand ops[] = {tensor("int32", 1)};
    CHECK(oneflow_promote_op_dtypes("mean", ops, 1, float32, &compute, &result, error,
                                    sizeof error) != 0);
    CHECK(strstr(error, "mean(): could not infer output dtype") != NULL);
  }
  {
    const oneflow_promote_operand ops[] = {tensor("int32", 1)};
    CHECK(oneflow_promote_op_dtypes("no_such_op", ops, 1, float32, &compute, &result, error,
                                    sizeof error) != 0);
    CHECK(strstr(error, "no_such_op") != NULL);
    CHECK(oneflow_promote_op_dtypes("add", ops, 1, float32, &compute, &result, error,
                                    sizeof error) != 0);
  }

  if (failures == 0) printf("op dtype C ABI: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
