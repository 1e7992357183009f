// How the CUDA cast kernel splits n elements between threads: a few scalar
// "head" elements until both pointers reach their vector alignment (or at
// least the source does), then vectors of 16 / max(item sizes) elements,
// moved with one 16-byte access on the wider side and one narrower access on
// the other (lanes of a warp then touch contiguous memory on both sides;
// 16 / min elements per thread would spread each warp's 16-byte stores of a
// widening cast over kilobytes), then a scalar tail. The plan and the per-thread
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
// Resident-grid's worth of blocks ("waves") that one launch asks for at
// most; more work than that is covered by each thread looping.
inline constexpr int kWaves = 32;

struct CastLaunchPlan {
  int64_t n = 0;
  int64_t head = 0;          // elements [0, head) go one by one
  int64_t num_vectors = 0;   // then vectors of vector_width elements
  int vector_width = 1;
  bool vector_loads = false;   // src + head is aligned to a whole vector
  bool vector_stores = false;  // dst + head is aligned to a whole vector

  [[nodiscard]] ONEFLOW_PROMOTE_HOST_DEVICE int64_t tail_begin() const {
    return head + num_vectors * vector_width;
  }
  [[nodiscard]] ONEFLOW_PROMOTE_HOST_DEVICE int64_t scalar_count() const {
    return n - num_vectors * vector_width;
  }
};

// Elements per vector for a pair of item sizes (powers of two up to 16).
[[nodiscard]] ONEFLOW_PROMOTE_HOST_DEVICE constexpr int VectorWidth(int from_size, int to_size) {
  return kVectorBytes / (from_size > to_size ? from_size : to_size);
}

// Plans a cast of n elements between element-aligned addresses. Prefers a
// head that aligns both sides; when none exists (the two addresses disagree
// modulo their vector sizes), aligns the source and stores element by element.
[[nodiscard]] inline CastLaunchPlan PlanCast(uintptr_t src, int from_size, uintptr_t dst,
                                             int to_size, int64_t n) {
  CastLaunchPlan plan;
  plan.n = n;
  plan.vector_width = VectorWidth(from_size, to_size);
  const uintptr_t src_vector = static_cast<uintptr_t>(plan.vector_width) * from_size;
  const uintptr_t dst_vector = static_cast<uintptr_t>(plan.vector_width) * to_size;
  int64_t best = -1;
  int64_t src_only = -1;
  for (int64_t h = 0; h < kVectorBytes && h <= n; ++h) {
    const bool src_ok = (src + h * from_size) % src_vector == 0;
    if (src_ok && src_only < 0) src_only = h;
    if (src_ok && (dst + h * to_size) % dst_vector == 0) {
      best = h;
      break;
    }
  }
  const int64_t head = best >= 0 ? best : (src_only >= 0 ? src_only : 0);
  plan.head = head < n ? head : n;
  plan.num_vectors = (n - plan.head) / plan.vector_width;
  plan.vector_loads = (src + plan.head * from_size) % src_vector == 0;
  plan.vector_stores = (dst + plan.head * to_size) % dst_vector == 0;
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
