// Test tensors shared by the oracle tests (libtorch-free, so GPU test
// binaries can carry it): deterministic small nonzero values.

#ifndef ONEFLOW_PROMOTE_TESTS_TEST_TENSORS_H_
#define ONEFLOW_PROMOTE_TESTS_TEST_TENSORS_H_

#include <cstdint>
#include <vector>

#include "functional/tensor.h"

namespace oneflow_promote::testing {

// A contiguous host tensor of `shape` with values drawn from `seed`: small
// nonzero numbers (divisors never meet zero, integer powers stay small; a
// complex value's parts are drawn separately); bools mix true and false.
// With `special_values`, about a third of the elements are instead zeros
// of either sign, infinities, NaN, subnormals, values that overflow a
// narrow float, and integers' extremes (all but the minimum, whose
// division by -1 traps in libtorch).
Tensor FilledTensor(DType dtype, const std::vector<int64_t>& shape, uint64_t seed,
                    bool special_values = false);

}  // namespace oneflow_promote::testing

#endif  // ONEFLOW_PROMOTE_TESTS_TEST_TENSORS_H_
