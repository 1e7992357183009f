// Compiles the headers a framework needs to decide dtypes and cast, and
// fails to compile if any of them includes fmt (oneflow_promote/dtype_format.h
// is where fmt support lives).

#include "kernels/cast.h"
#include "oneflow_promote/convert.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/promotion/policy.h"
#include "oneflow_promote/promotion/result_type.h"

#ifdef FMT_VERSION
#error "a promotion or cast header includes fmt; only oneflow_promote/dtype_format.h may"
#endif

#include "gtest/gtest.h"

namespace oneflow_promote {
namespace {

TEST(HeadersWithoutFmt, DecideAndNameWithoutFmt) {
  const Promotion p = PromoteTypes(DType::kInt8, DType::kUInt8, Policy::kTorch);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(Name(p.dtype()), "int16");
}

}  // namespace
}  // namespace oneflow_promote
