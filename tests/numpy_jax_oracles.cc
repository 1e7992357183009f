// The numpy, jax, jax_x32, jax_strict and mlx policies against the real
// NumPy 2, JAX and MLX, through the CLI's own parsing: every case of
// tests/numpy/cases.tsv, tests/jax/cases.tsv and tests/mlx/cases.tsv, which
// the generate_cases.py beside each writes from live calls (tools/test.sh
// re-runs them and checks the files are current): pairs through each
// library's add, triples through its result_type (MLX: add), Python ints in
// and out of range, and CanCast against np.can_cast, jax's safe_to_cast and
// mx.can_cast.

#include "gtest/gtest.h"
#include "tests/oracle_cases.h"

namespace oneflow_promote {
namespace {

TEST(NumpyVsNumpy, EveryGeneratedCase) {
  const auto counts = testing::CheckCaseFile("tests/numpy/cases.tsv", Policy::kNumpy);
  ASSERT_EQ(counts.count("numpy"), 1u);
  EXPECT_GT(counts.at("numpy").compared, 7000);
  EXPECT_GT(counts.at("numpy").errors_expected, 500);  // out-of-range Python ints
  EXPECT_EQ(counts.at("numpy").can_casts, 14 * 14);
}

TEST(JaxVsJax, EveryGeneratedCaseInEachConfiguration) {
  const auto counts = testing::CheckCaseFile("tests/jax/cases.tsv", Policy::kJax);
  for (const char* policy : {"jax", "jax_x32", "jax_strict"}) {
    ASSERT_EQ(counts.count(policy), 1u) << policy;
    EXPECT_GT(counts.at(policy).compared, 15000) << policy;
    EXPECT_GT(counts.at(policy).errors_expected, 1000) << policy;
    EXPECT_EQ(counts.at(policy).can_casts, 20 * 20) << policy;
  }
}

TEST(MlxVsMlx, EveryGeneratedCase) {
  const auto counts = testing::CheckCaseFile("tests/mlx/cases.tsv", Policy::kMlx);
  ASSERT_EQ(counts.count("mlx"), 1u);
  EXPECT_GT(counts.at("mlx").compared, 7000);
  EXPECT_GT(counts.at("mlx").errors_expected, 500);  // out-of-range Python ints
  EXPECT_EQ(counts.at("mlx").can_casts, 14 * 14);
}

}  // namespace
}  // namespace oneflow_promote
