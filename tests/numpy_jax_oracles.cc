// The numpy, jax, jax_x32, jax_strict and mlx policies against the real
// NumPy 2, JAX and MLX, through the CLI's own parsing: every case of
// tests/numpy/cases.tsv, tests/jax/cases.tsv and tests/mlx/cases.tsv, which
// the generate_cases.py beside each writes from live calls (tools/test.sh
// re-runs them and checks the files are current): pairs through each
// library's add, triples through its result_type (MLX: add), Python ints in
// and out of range, and CanCast against np.can_cast, jax's safe_to_cast and
// mx.can_cast.

#include <initializer_list>

#include "gtest/gtest.h"
#include "tests/oracle_cases.h"

namespace oneflow_promote {
namespace {

// Each of `policies` has its lines in the file, more than `cases` of them
// (errors among them: out-of-range Python ints), and a can_cast line for
// every pair of its `dtypes`: a truncated or empty file fails.
void ExpectEveryCase(const char* path, std::initializer_list<const char*> policies, int cases,
                     int errors, int dtypes) {
  const auto counts = testing::CheckCaseFile(path, *ParsePolicy(*policies.begin()));
  for (const char* policy : policies) {
    ASSERT_EQ(counts.count(policy), 1u) << policy;
    EXPECT_GT(counts.at(policy).compared, cases) << policy;
    EXPECT_GT(counts.at(policy).errors_expected, errors) << policy;
    EXPECT_EQ(counts.at(policy).can_casts, dtypes * dtypes) << policy;
  }
}

TEST(NumpyVsNumpy, EveryGeneratedCase) {
  ExpectEveryCase("tests/numpy/cases.tsv", {"numpy"}, 7000, 500, 14);
}

TEST(JaxVsJax, EveryGeneratedCaseInEachConfiguration) {
  ExpectEveryCase("tests/jax/cases.tsv", {"jax", "jax_x32", "jax_strict"}, 15000, 1000, 20);
}

TEST(MlxVsMlx, EveryGeneratedCase) {
  ExpectEveryCase("tests/mlx/cases.tsv", {"mlx"}, 7000, 500, 14);
}

}  // namespace
}  // namespace oneflow_promote
