/* The cast C ABI called from C: the header compiles as C, and a pool written
 * in C (ranges run one after another) carries a large host cast. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernels/cast_c_api.h"
#include "tests/c_check.h"
#include "tests/c_sequential_pool.h"

int main(void) {
  enum { kInt16 = 3, kFloat32 = 13 };
  const int64_t n = ((int64_t)1 << 22) + 1;
  int16_t* src = malloc((size_t)n * sizeof(int16_t));
  float* dst = malloc((size_t)n * sizeof(float));
  for (int64_t i = 0; i < n; ++i) src[i] = (int16_t)(i * 40503);
  char error[128] = "";
  struct SequentialPool pool = {0, 0, 0};
  CHECK(oneflow_promote_cast_on_host(src, kInt16, dst, kFloat32, n, 0, RunRangesInTurn, &pool,
                                     error, sizeof error) == 0);
  CHECK(pool.calls == 1);
  CHECK(pool.ranges > 1);
  CHECK(pool.elements == n);
  int64_t wrong = 0;
  for (int64_t i = 0; i < n; ++i) wrong += dst[i] != (float)src[i];
  CHECK(wrong == 0);
  /* A bad dtype code is refused with a message, through the pool's call too. */
  CHECK(oneflow_promote_cast_on_host(src, kInt16, dst, 99, n, 0, RunRangesInTurn, &pool, error,
                                     sizeof error) != 0);
  CHECK(error[0] != '\0');
  CHECK(pool.calls == 1);
  free(src);
  free(dst);
  if (failures == 0) printf("cast C ABI from C: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
