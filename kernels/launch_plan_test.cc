// The CUDA kernel's split of work (launch_plan.h), run on the CPU by
// emulating every thread of the grids it plans, and of smaller grids whose
// threads loop: each element is converted exactly once, vector accesses are
// aligned to the whole vector and in bounds, and the grid has one tile of
// vectors per block.

#include "kernels/internal/launch_plan.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace oneflow_promote::cast_internal {
namespace {

constexpr int kItemSizes[] = {1, 2, 4, 8, 16};

// Emulates num_blocks blocks (0 for the grid PlanBlocks sizes).
void CheckPlan(uintptr_t src, int from_size, uintptr_t dst, int to_size, int64_t n,
               int64_t num_blocks) {
  const CastLaunchPlan plan = PlanCast(src, from_size, dst, to_size, n);
  if (num_blocks == 0) num_blocks = PlanBlocks(plan);
  const std::string where = ::testing::PrintToString(
      std::vector<int64_t>{static_cast<int64_t>(src % 16), from_size,
                           static_cast<int64_t>(dst % 16), to_size, n, num_blocks});
  ASSERT_EQ(plan.vector_width, 16 / std::max(from_size, to_size)) << where;
  const uintptr_t src_vector = plan.vector_width * from_size;
  const uintptr_t dst_vector = plan.vector_width * to_size;
  std::vector<int> visits(n, 0);
  for (int64_t block = 0; block < num_blocks; ++block) {
    for (int lane = 0; lane < kThreadsPerBlock; ++lane) {
      ForEachThreadWork(
          plan, block, num_blocks, lane,
          [&](int64_t first_element, int vectors) {
            ASSERT_GE(vectors, 1) << where;
            ASSERT_LE(vectors, kVectorsPerThread) << where;
            for (int k = 0; k < vectors; ++k) {
              const int64_t first = first_element + k * kThreadsPerBlock * plan.vector_width;
              ASSERT_GE(first, 0) << where;
              ASSERT_LE(first + plan.vector_width, n) << where;
              if (plan.vector_loads) {
                ASSERT_EQ((src + first * from_size) % src_vector, 0u) << where;
              }
              if (plan.vector_stores) {
                ASSERT_EQ((dst + first * to_size) % dst_vector, 0u) << where;
              }
              for (int i = 0; i < plan.vector_width; ++i) ++visits[first + i];
            }
          },
          [&](int64_t i) {
            ASSERT_GE(i, 0) << where;
            ASSERT_LT(i, n) << where;
            ++visits[i];
          });
    }
  }
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(visits[i], 1) << where << " element " << i;
  // When the two addresses agree modulo 16 bytes (up to the item sizes),
  // both sides get vector access.
  if (n >= 2 * plan.vector_width + 16 && src % 16 == 0 && dst % 16 == 0) {
    EXPECT_TRUE(plan.vector_loads && plan.vector_stores) << where;
  }
  if (n >= 32) {
    EXPECT_LT(plan.head, 16) << where;
  }
}

TEST(LaunchPlan, EveryElementOnceAtEveryAlignmentAndSize) {
  for (int from_size : kItemSizes) {
    for (int to_size : kItemSizes) {
      for (int src_offset = 0; src_offset < 16; src_offset += from_size) {
        for (int dst_offset = 0; dst_offset < 16; dst_offset += to_size) {
          for (int64_t n : {0, 1, 2, 3, 15, 16, 17, 31, 33, 100, 257, 1000}) {
            for (int64_t blocks : {0, 1, 3}) {
              CheckPlan(0x10000 + src_offset, from_size, 0x90000 + dst_offset, to_size, n, blocks);
            }
          }
        }
      }
    }
  }
}

TEST(LaunchPlan, EveryElementOnceAcrossWholeAndPartialTiles) {
  // A tile is kTileVectors vectors of up to 16 elements: these sizes give
  // several whole tiles, a last tile in which some threads have one vector
  // and some none, and grids with fewer blocks than tiles (threads loop).
  for (int from_size : kItemSizes) {
    for (int to_size : kItemSizes) {
      const int64_t tile_elements = kTileVectors * (16 / std::max(from_size, to_size));
      for (int64_t n : {tile_elements - 1, tile_elements + 1, 3 * tile_elements + 7,
                        3 * tile_elements + tile_elements / 2 + 5}) {
        for (int64_t blocks : {0, 1, 2}) {
          CheckPlan(0x10000, from_size, 0x90000, to_size, n, blocks);
          CheckPlan(0x10000 + from_size, from_size, 0x90000 + 16 - to_size % 16, to_size, n,
                    blocks);
        }
      }
    }
  }
}

TEST(LaunchPlan, LargeCastUsesVectorsBothSidesWhenAligned) {
  // float32 -> float16, 4 elements a vector (16 bytes loaded, 8 stored),
  // from a source 4 bytes past a 16-byte boundary: peeling 3 elements
  // aligns both sides.
  const CastLaunchPlan plan = PlanCast(0x1004, 4, 0x2002, 2, 1 << 20);
  EXPECT_EQ(plan.vector_width, 4);
  EXPECT_EQ(plan.head, 3);
  EXPECT_TRUE(plan.vector_loads);
  EXPECT_TRUE(plan.vector_stores);
  EXPECT_EQ(plan.num_vectors, ((1 << 20) - 3) / 4);
  // int8 -> complex128: one element a vector, so every access is whole.
  EXPECT_EQ(PlanCast(0x1001, 1, 0x2000, 16, 100).vector_width, 1);
}

TEST(LaunchPlan, OneTileOfVectorsPerBlock) {
  // float32 -> int32 at 2^30 elements: 2^28 vectors of 4.
  const CastLaunchPlan plan = PlanCast(0, 4, 0, 4, int64_t{1} << 30);
  EXPECT_EQ(PlanBlocks(plan), (int64_t{1} << 28) / kTileVectors);
  const CastLaunchPlan tiny = PlanCast(0, 4, 0, 4, 3);
  EXPECT_EQ(PlanBlocks(tiny), 1);
  // Beyond what a grid holds, blocks loop over tiles.
  CastLaunchPlan huge = plan;
  huge.num_vectors = kMaxBlocks * kTileVectors * 2;
  EXPECT_EQ(PlanBlocks(huge), kMaxBlocks);
}

}  // namespace
}  // namespace oneflow_promote::cast_internal
