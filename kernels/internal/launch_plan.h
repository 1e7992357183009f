// How the CUDA cast kernel splits n elements between threads: a few scalar
// "head" elements until both pointers reach their vector alignment (or at
// least the source does), then vectors of 16 / max(item sizes) elements,
// moved with one 16-byte access on the wider side and one narrower access on
// the other (lanes of a warp then touch contiguous memory on both sides;
// 16 / min elements per thread would spread each warp's 16-byte stores of a
// widening cast over kilobytes), then a scalar tail. The vectors go in tiles
// of kVectorsPerThread per thread, one tile per block: each thread loads all
// of its vectors before converting any. The plan and the per-thread work walk
// are plain host/device code, so the tests run them on the CPU by emulating
// every thread of a grid.
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
// Vectors a thread has in flight: two, with one tile per block, moved the
// most bytes of one, two and four (docs/tuning.md, kVectorsPerThread).
inline constexpr int kVectorsPerThread = 2;
inline constexpr int64_t kTileVectors = int64_t{kVectorsPerThread} * kThreadsPerBlock;
// The largest grid x dimension CUDA launches.
inline constexpr int64_t kMaxBlocks = (int64_t{1} << 31) - 1;
// Resident-grid's worth of blocks ("waves") that a strided cast asks for at
// most; more work than that is covered by each thread looping
// (docs/tuning.md, kWaves).
inline constexpr int kWaves = 32;

struct CastLaunchPlan {
  int64_t n = 0;
  int64_t head = 0;         // elements [0, head) go one by one
  int64_t num_vectors = 0;  // then vectors of vector_width elements
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

// Blocks for a launch of the plan: one tile of vectors per block, or one
// scalar element per thread where the scalars are more.
[[nodiscard]] inline int64_t PlanBlocks(const CastLaunchPlan& plan) {
  const int64_t tiles = (plan.num_vectors + kTileVectors - 1) / kTileVectors;
  const int64_t scalar_blocks = (plan.scalar_count() + kThreadsPerBlock - 1) / kThreadsPerBlock;
  const int64_t blocks = tiles > scalar_blocks ? tiles : scalar_blocks;
  return blocks < 1 ? 1 : (blocks > kMaxBlocks ? kMaxBlocks : blocks);
}

// The work of thread `lane` of block `block` (of `num_blocks`): for each tile
// it has a part in, tile(first_element, vectors) with the vectors starting at
// first_element + k * kThreadsPerBlock * vector_width for k < vectors
// (kVectorsPerThread except in the last tile), then scalar(element) for
// each head or tail element it owns.
template <typename TileFn, typename ScalarFn>
ONEFLOW_PROMOTE_HOST_DEVICE void ForEachThreadWork(const CastLaunchPlan& plan, int64_t block,
                                                   int64_t num_blocks, int lane, TileFn&& tile,
                                                   ScalarFn&& scalar) {
  for (int64_t t = block; t * kTileVectors < plan.num_vectors; t += num_blocks) {
    const int64_t first_vector = t * kTileVectors + lane;
    const int64_t left = plan.num_vectors - first_vector;
    if (left <= 0) continue;
    const int64_t vectors = (left + kThreadsPerBlock - 1) / kThreadsPerBlock;
    tile(plan.head + first_vector * plan.vector_width,
         static_cast<int>(vectors < kVectorsPerThread ? vectors : kVectorsPerThread));
  }
  const int64_t num_threads = num_blocks * kThreadsPerBlock;
  const int64_t tail_begin = plan.tail_begin();
  for (int64_t s = block * kThreadsPerBlock + lane; s < plan.scalar_count(); s += num_threads) {
    scalar(s < plan.head ? s : tail_begin + (s - plan.head));
  }
}

}  // namespace oneflow_promote::cast_internal

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_LAUNCH_PLAN_H_
