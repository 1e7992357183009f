// How the CUDA cast kernel splits n elements between threads: a few scalar
// "head" elements until both pointers reach a 16-byte boundary (or at least
// the source does), then vectors of 16 / min(item sizes) elements moved with
// 16-byte loads and stores, then a scalar tail. The plan and the per-thread
// work walk are plain host/device code, so the tests run them on the CPU by
// emulating every thread of a grid.
//
// OneFlow falls back to scalar loads for the whole launch when a pointer is
// misaligned; peeling the head keeps the vector path for every view whose
// start is only element-aligned.

#ifndef ONEFLOW_PROMOTE_KERNELS_INTERNAL_LAUNCH_PLAN_H_
#define ONEFLOW_PROMOTE_KERNELS_INTERNAL_LAUNCH_PLAN_H_

#include <cstdint>

#include "oneflow_promote/numeric_types.h"

namespace oneflow_promote::cast_internal {

inline constexpr int kVectorBytes = 16;
inline constexpr int kThreadsPerBlock = 256;
// Blocks per SM's worth of resident blocks that one launch asks for; more
// work than that is covered by each thread looping.
inline constexpr int kWaves = 4;

struct CastLaunchPlan {
  int64_t n = 0;
  int64_t head = 0;          // elements [0, head) go one by one
  int64_t num_vectors = 0;   // then vectors of vector_width elements
  int vector_width = 1;
  bool vector_loads = false;   // src + head is 16-byte aligned
  bool vector_stores = false;  // dst + head is 16-byte aligned

  [[nodiscard]] ONEFLOW_PROMOTE_HOST_DEVICE int64_t tail_begin() const {
    return head + num_vectors * vector_width;
  }
  [[nodiscard]] ONEFLOW_PROMOTE_HOST_DEVICE int64_t scalar_count() const {
    return n - num_vectors * vector_width;
  }
};

// Plans a cast of n elements between element-aligned addresses. Prefers a
// head that aligns both sides; when none exists (the two addresses disagree
// modulo 16 bytes), aligns the source and stores element by element.
[[nodiscard]] inline CastLaunchPlan PlanCast(uintptr_t src, int from_size, uintptr_t dst,
                                             int to_size, int64_t n) {
  CastLaunchPlan plan;
  plan.n = n;
  plan.vector_width = kVectorBytes / (from_size < to_size ? from_size : to_size);
  if (plan.vector_width < 1) plan.vector_width = 1;
  const auto aligned = [](uintptr_t address) { return address % kVectorBytes == 0; };
  int64_t best = -1;
  int64_t src_only = -1;
  for (int64_t h = 0; h < kVectorBytes && h <= n; ++h) {
    const bool src_ok = aligned(src + h * from_size);
    if (src_ok && src_only < 0) src_only = h;
    if (src_ok && aligned(dst + h * to_size)) {
      best = h;
      break;
    }
  }
  const int64_t head = best >= 0 ? best : (src_only >= 0 ? src_only : 0);
  plan.head = head < n ? head : n;
  plan.num_vectors = (n - plan.head) / plan.vector_width;
  plan.vector_loads = aligned(src + plan.head * from_size);
  plan.vector_stores = aligned(dst + plan.head * to_size);
  return plan;
}

// Blocks for a launch of the plan: enough for the work, capped at kWaves
// times what the device keeps resident at once.
[[nodiscard]] inline int64_t PlanBlocks(const CastLaunchPlan& plan, int sm_count,
                                        int max_threads_per_sm) {
  const int64_t items =
      plan.num_vectors > plan.scalar_count() ? plan.num_vectors : plan.scalar_count();
  int64_t blocks = (items + kThreadsPerBlock - 1) / kThreadsPerBlock;
  const int64_t resident =
      int64_t{sm_count} * (max_threads_per_sm / kThreadsPerBlock) * kWaves;
  if (blocks > resident) blocks = resident;
  return blocks < 1 ? 1 : blocks;
}

// The work of thread `thread` of `num_threads`: vector(first_element) for
// each vector it owns, then scalar(element) for each head or tail element.
template <typename VectorFn, typename ScalarFn>
ONEFLOW_PROMOTE_HOST_DEVICE void ForEachThreadWork(const CastLaunchPlan& plan, int64_t thread,
                                                   int64_t num_threads, VectorFn&& vector,
                                                   ScalarFn&& scalar) {
  for (int64_t v = thread; v < plan.num_vectors; v += num_threads) {
    vector(plan.head + v * plan.vector_width);
  }
  const int64_t tail_begin = plan.tail_begin();
  for (int64_t s = thread; s < plan.scalar_count(); s += num_threads) {
    scalar(s < plan.head ? s : tail_begin + (s - plan.head));
  }
}

}  // namespace oneflow_promote::cast_internal

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_LAUNCH_PLAN_H_
