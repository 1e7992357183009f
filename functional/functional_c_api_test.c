/* The functional C ABI called from C: the op-dtype query, whose expected
 * answers are PyTorch 2.15's, each with the Python expression that gives it,
 * and a binary op on host memory run on a pool written in C. */

#include "functional/functional_c_api.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/c_check.h"
#include "tests/c_sequential_pool.h"

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
    /* np.sin(int8 array).dtype -> float16; np.arctan2 is NumPy's name, xp.atan2 the
     * Array API's, which refuses int8 ("Only floating-point dtypes are allowed"). */
    const oneflow_promote_operand ops[] = {tensor("int8", 1), tensor("int8", 1)};
    CHECK(oneflow_promote_op_dtypes_under_policy("sin", ops, 1, ONEFLOW_PROMOTE_POLICY_NUMPY,
                                                 float32, &compute, &result, error,
                                                 sizeof error) == 0);
    CHECK(compute == code("float16") && result == code("float16"));
    CHECK(oneflow_promote_op_dtypes_under_policy("arctan2", ops, 2, ONEFLOW_PROMOTE_POLICY_NUMPY,
                                                 float32, &compute, &result, error,
                                                 sizeof error) == 0);
    CHECK(result == code("float16"));
    CHECK(oneflow_promote_op_dtypes_under_policy("arctan2", ops, 2,
                                                 ONEFLOW_PROMOTE_POLICY_ARRAY_API, float32,
                                                 &compute, &result, error, sizeof error) != 0);
    CHECK(strstr(error, "the Array API has no op 'arctan2'") != NULL);
    CHECK(oneflow_promote_op_dtypes_under_policy("atan2", ops, 2, ONEFLOW_PROMOTE_POLICY_ARRAY_API,
                                                 float32, &compute, &result, error,
                                                 sizeof error) != 0);
    CHECK(oneflow_promote_op_dtypes_under_policy("sin", ops, 1, 99, float32, &compute, &result,
                                                 error, sizeof error) != 0);
  }
  {
    const oneflow_promote_operand ops[] = {tensor("int32", 1)};
    CHECK(oneflow_promote_op_dtypes("no_such_op", ops, 1, float32, &compute, &result, error,
                                    sizeof error) != 0);
    CHECK(strstr(error, "no_such_op") != NULL);
    CHECK(oneflow_promote_op_dtypes("add", ops, 1, float32, &compute, &result, error,
                                    sizeof error) != 0);
  }

  {
    /* torch.add(int8 tensor, float32 tensor) computes float(a) + b in float32,
     * as C does; large enough that the op's kernel splits across the pool. */
    const int64_t n = ((int64_t)1 << 20) + 7;
    int8_t* a = malloc((size_t)n);
    float* b = malloc((size_t)n * sizeof(float));
    float* out = malloc((size_t)n * sizeof(float));
    for (int64_t i = 0; i < n; ++i) {
      a[i] = (int8_t)(i * 37);
      b[i] = (float)(i % 1000) * 0.001f + 1e-7f * (float)i;
    }
    struct SequentialPool pool = {0, 0, 0};
    CHECK(oneflow_promote_binary_op_on_host("add", a, code("int8"), b, float32, out, float32, n, 0,
                                            RunRangesInTurn, &pool, 0, error, sizeof error) == 0);
    CHECK(pool.calls >= 1);
    CHECK(pool.ranges > pool.calls);
    int64_t wrong = 0;
    for (int64_t i = 0; i < n; ++i) wrong += out[i] != (float)a[i] + b[i];
    CHECK(wrong == 0);
    /* A negative thread count is refused by name, before any work. */
    const int calls = pool.calls;
    CHECK(oneflow_promote_binary_op_on_host("add", a, code("int8"), b, float32, out, float32, n, -1,
                                            RunRangesInTurn, &pool, 0, error, sizeof error) != 0);
    CHECK(strstr(error, "cpu_threads is -1") != NULL);
    CHECK(pool.calls == calls);
    free(a);
    free(b);
    free(out);
  }

  if (failures == 0) printf("functional C ABI: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
