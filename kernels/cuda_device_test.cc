// The CUDA build path end to end: nvcc-compiled code linked into a test that
// runs here (no GPU: it must report why) and on a GPU machine (it must see one).

#include "kernels/cuda_device.h"

#include <cstdlib>

#include "gtest/gtest.h"

namespace oneflow_promote {
namespace {

TEST(CudaDevice, AnswersWithACountOrAReason) {
  const absl::StatusOr<int> count = CudaDeviceCount();
  if (!count.ok()) {
    EXPECT_EQ(count.status().code(), absl::StatusCode::kUnavailable);
    EXPECT_FALSE(count.status().message().empty());
    // A machine that promises a GPU must have one.
    if (std::getenv("ONEFLOW_PROMOTE_EXPECT_GPU") != nullptr) {
      ADD_FAILURE() << count.status();
    }
    GTEST_SKIP() << count.status();
  }
  EXPECT_GT(*count, 0);
}

}  // namespace
}  // namespace oneflow_promote
