// The cast C ABI: return codes and the message written into the caller's
// error buffer (truncated, NUL-terminated, never past error_size), and casts
// on a framework's pool handed over as C function pointers.

#include "kernels/cast_c_api.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "kernels/cast_test_util.h"

namespace {

using oneflow_promote::testing::ThreadPerRangePool;

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

// float64 -> float32 rounds to nearest even, as C++'s own conversion does.
TEST(CastCApiTest, LargeHostCastsRunOnTheFrameworksPool) {
  const int64_t n = (int64_t{1} << 22) + 3;
  std::vector<double> src(n);
  // Mantissas with up to 31 bits, ties to float32 among them, in 64 binades.
  for (int64_t i = 0; i < n; ++i) {
    src[i] = std::ldexp(1.0 + static_cast<double>(i) * 0x1p-31, static_cast<int>(i % 64) - 32);
  }
  std::vector<float> dst(n);
  char error[128] = "";
  ThreadPerRangePool pool;
  ASSERT_EQ(oneflow_promote_cast_on_host(src.data(), 14, dst.data(), 13, n, 0,
                                         &ThreadPerRangePool::Run, &pool, error, sizeof(error)),
            0)
      << error;
  EXPECT_EQ(pool.calls, 1);
  EXPECT_EQ(pool.elements, n);
  int64_t wrong = 0;
  for (int64_t i = 0; i < n; ++i) wrong += dst[i] != static_cast<float>(src[i]);
  EXPECT_EQ(wrong, 0);

  // threads 1, and casts too small to split, stay on the calling thread.
  ThreadPerRangePool unused;
  ASSERT_EQ(oneflow_promote_cast_on_host(src.data(), 14, dst.data(), 13, n, 1,
                                         &ThreadPerRangePool::Run, &unused, error, sizeof(error)),
            0);
  ASSERT_EQ(oneflow_promote_cast_on_host(src.data(), 14, dst.data(), 13, 1000, 0,
                                         &ThreadPerRangePool::Run, &unused, error, sizeof(error)),
            0);
  EXPECT_EQ(unused.calls, 0);
}

TEST(CastCApiTest, HostCastsWithoutAPoolUseTheLibrarysThreads) {
  const int64_t n = (int64_t{1} << 22) + 3;
  std::vector<int32_t> src(n);
  for (int64_t i = 0; i < n; ++i) src[i] = static_cast<int32_t>(i * 2654435761u);
  std::vector<float> dst(n);
  char error[128] = "";
  ASSERT_EQ(oneflow_promote_cast_on_host(src.data(), 4, dst.data(), 13, n, 0, nullptr, nullptr,
                                         error, sizeof(error)),
            0)
      << error;
  int64_t wrong = 0;
  for (int64_t i = 0; i < n; ++i) wrong += dst[i] != static_cast<float>(src[i]);
  EXPECT_EQ(wrong, 0);
  // A negative thread count is refused by name.
  EXPECT_EQ(oneflow_promote_cast_on_host(src.data(), 4, dst.data(), 13, n, -2, nullptr, nullptr,
                                         error, sizeof(error)),
            static_cast<int>(absl::StatusCode::kInvalidArgument));
  EXPECT_NE(std::string(error).find("cpu_threads is -2"), std::string::npos) << error;
}

}  // namespace
