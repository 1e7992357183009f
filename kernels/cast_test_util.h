// Shared by the cast tests: random source buffers that are valid for their
// dtype, a NaN-aware comparison of result buffers, and a framework's pool.

#ifndef ONEFLOW_PROMOTE_KERNELS_CAST_TEST_UTIL_H_
#define ONEFLOW_PROMOTE_KERNELS_CAST_TEST_UTIL_H_

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "oneflow_promote/device.h"
#include "oneflow_promote/dtype.h"
#include "tests/cast_reference.h"

namespace oneflow_promote::testing {

// n random elements of `dtype` (bool as 0 or 1; every other bit pattern is
// a value), written at `out`.
inline void FillRandom(void* out, DType dtype, int64_t n, std::mt19937_64& rng) {
  unsigned char* bytes = static_cast<unsigned char*>(out);
  const size_t size = ItemSize(dtype);
  for (int64_t i = 0; i < n; ++i) {
    for (size_t b = 0; b < size; ++b) bytes[i * size + b] = static_cast<unsigned char>(rng());
    if (dtype == DType::kBool) bytes[i] &= 1;
  }
}

// The index of the first element where the buffers differ as values (NaN
// equals NaN), or -1.
inline int64_t FirstDifference(const void* a, const void* b, DType dtype, int64_t n) {
  if (n == 0 || std::memcmp(a, b, n * ItemSize(dtype)) == 0) return -1;
  for (int64_t i = 0; i < n; ++i) {
    if (!reference::SameValue(reference::ValueAt(a, dtype, i), reference::ValueAt(b, dtype, i))) {
      return i;
    }
  }
  return -1;
}

// A framework's pool (HostParallelFor) that runs each grain-sized range of
// a call on a thread of its own, last range first, and counts calls and
// elements.
struct ThreadPerRangePool {
  std::atomic<int> calls{0};
  std::atomic<int64_t> elements{0};

  static void Run(void* state, int64_t n, int64_t grain, HostParallelFor::Body body,
                  void* body_state) {
    auto* pool = static_cast<ThreadPerRangePool*>(state);
    ++pool->calls;
    std::vector<std::thread> threads;
    for (int64_t begin = (n - 1) / grain * grain; begin >= 0; begin -= grain) {
      const int64_t end = std::min(n, begin + grain);
      threads.emplace_back([=] {
        body(body_state, begin, end);
        pool->elements += end - begin;
      });
    }
    for (std::thread& thread : threads) thread.join();
  }
  HostParallelFor Hook() { return {&ThreadPerRangePool::Run, this}; }
};

}  // namespace oneflow_promote::testing

#endif  // ONEFLOW_PROMOTE_KERNELS_CAST_TEST_UTIL_H_
