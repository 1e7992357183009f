/* A host framework's parallel-for as a C frontend could write one, for the
 * tests of the C ABIs written in C: the ranges run one after another on the
 * calling thread, and the pool counts its calls, ranges and elements. */

#ifndef ONEFLOW_PROMOTE_TESTS_C_SEQUENTIAL_POOL_H_
#define ONEFLOW_PROMOTE_TESTS_C_SEQUENTIAL_POOL_H_

#include <stdint.h>

#include "kernels/cast_c_api.h"

struct SequentialPool {
  int calls;
  int64_t ranges;
  int64_t elements;
};

/* A oneflow_promote_parallel_for; state is a struct SequentialPool. */
static inline void RunRangesInTurn(void* state, int64_t n, int64_t grain,
                                   oneflow_promote_parallel_body body, void* body_state) {
  struct SequentialPool* pool = (struct SequentialPool*)state;
  ++pool->calls;
  for (int64_t begin = 0; begin < n; begin += grain) {
    const int64_t end = begin + grain < n ? begin + grain : n;
    body(body_state, begin, end);
    ++pool->ranges;
    pool->elements += end - begin;
  }
}

#endif /* ONEFLOW_PROMOTE_TESTS_C_SEQUENTIAL_POOL_H_ */
