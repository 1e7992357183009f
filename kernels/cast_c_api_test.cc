// The cast C ABI's reporting: return codes and the message written into the
// caller's error buffer (truncated, NUL-terminated, never past error_size).

#include "kernels/cast_c_api.h"

#include <cstdint>
#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace {

TEST(CastCApiTest, SuccessWritesAnEmptyMessage) {
  // An OK status's message has a null data(); copying it used to hand
  // memcpy a null source (undefined even for 0 bytes; UBSan reports it).
  const float src[2] = {1.5f, -2.0f};
  double dst[2] = {};
  char error[8];
  std::memset(error, 'x', sizeof(error));
  EXPECT_EQ(oneflow_promote_cast(src, 13, dst, 14, 2, -1, nullptr, error, sizeof(error)), 0);
  EXPECT_EQ(error[0], '\0');
  EXPECT_EQ(dst[0], 1.5);
  EXPECT_EQ(dst[1], -2.0);
  // One byte holds just the terminator.
  error[0] = 'x';
  EXPECT_EQ(oneflow_promote_cast(src, 13, dst, 14, 2, -1, nullptr, error, 1), 0);
  EXPECT_EQ(error[0], '\0');
}

TEST(CastCApiTest, ErrorsAreTruncatedWithinTheBuffer) {
  const float src[1] = {1.0f};
  double dst[1] = {};
  char error[6];
  std::memset(error, 'x', sizeof(error));
  // Dtype code 99 is not a dtype.
  const int rc = oneflow_promote_cast(src, 99, dst, 14, 1, -1, nullptr, error, 5);
  EXPECT_EQ(rc, static_cast<int>(absl::StatusCode::kInvalidArgument));
  EXPECT_EQ(std::string(error), "the ");  // four bytes of the message and the NUL
  EXPECT_EQ(error[5], 'x');
}

TEST(CastCApiTest, NoBufferOrSizeZeroWritesNothing) {
  const float src[1] = {1.0f};
  double dst[1] = {};
  char error = 'x';
  EXPECT_EQ(oneflow_promote_cast(src, 13, dst, 14, -1, -1, nullptr, &error, 0),
            static_cast<int>(absl::StatusCode::kInvalidArgument));
  EXPECT_EQ(error, 'x');
  EXPECT_EQ(oneflow_promote_cast(src, 13, dst, 14, -1, -1, nullptr, nullptr, 64),
            static_cast<int>(absl::StatusCode::kInvalidArgument));
}

}  // namespace
