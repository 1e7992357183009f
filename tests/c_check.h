/* CHECK for the tests of the C ABIs that are written in C: a false condition
 * is reported with its place and counted in `failures`, and the test's main
 * returns whether any was. One test file includes it once. */

#ifndef ONEFLOW_PROMOTE_TESTS_C_CHECK_H_
#define ONEFLOW_PROMOTE_TESTS_C_CHECK_H_

#include <stdio.h>

static int failures = 0;

#define CHECK(condition)                                                            \
  do {                                                                              \
    if (!(condition)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #condition); \
      ++failures;                                                                   \
    }                                                                               \
  } while (0)

#endif /* ONEFLOW_PROMOTE_TESTS_C_CHECK_H_ */
