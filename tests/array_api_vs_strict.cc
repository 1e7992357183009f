// The array_api policy against array-api-strict, through the CLI's own
// parsing: every case of tests/array_api/cases.tsv, which
// tests/array_api/generate_cases.py writes from live array-api-strict calls
// (tools/test.sh re-runs it and checks the file is current).

#include "gtest/gtest.h"
#include "tests/oracle_cases.h"

namespace oneflow_promote {
namespace {

TEST(ArrayApiVsStrict, EveryGeneratedCase) {
  const auto counts = testing::CheckCaseFile("tests/array_api/cases.tsv", Policy::kArrayApi);
  ASSERT_EQ(counts.count("array_api"), 1u);
  EXPECT_GT(counts.at("array_api").compared, 10000);
}

}  // namespace
}  // namespace oneflow_promote
