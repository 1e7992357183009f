// CudaStatus: which absl::Status a CUDA half's result becomes, with or
// without a GPU.

#include "kernels/cuda_status.h"

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace oneflow_promote::cast_internal {
namespace {

TEST(CudaStatusTest, OkStaysOk) { EXPECT_TRUE(CudaStatus(CudaResult{}, "cast").ok()); }

TEST(CudaStatusTest, AMissingKernelIsUnimplemented) {
  const absl::Status status =
      CudaStatus({CudaOutcome::kNoKernel, "no CUDA dot for this dtype"}, "CUDA dot of ", "bool");
  EXPECT_EQ(status, absl::UnimplementedError("CUDA dot of bool: no CUDA dot for this dtype"));
}

TEST(CudaStatusTest, ARuntimeErrorIsInternal) {
  const absl::Status status =
      CudaStatus({CudaOutcome::kRuntimeError, "an illegal memory access was encountered"}, "copy");
  EXPECT_EQ(status, absl::InternalError("copy: an illegal memory access was encountered"));
}

}  // namespace
}  // namespace oneflow_promote::cast_internal
