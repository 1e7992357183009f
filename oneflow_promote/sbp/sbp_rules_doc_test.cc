// docs/sbp_rules.md is CastRulesMarkdown()'s text: regenerate it with
// `bazel run //:promote -- sbp > docs/sbp_rules.md` when the rules change.

#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "oneflow_promote/sbp/sbp.h"

namespace oneflow_promote::sbp {
namespace {

TEST(SbpRulesDoc, IsTheGeneratedTable) {
  std::ifstream file("docs/sbp_rules.md");
  ASSERT_TRUE(file.good()) << "docs/sbp_rules.md is missing from the runfiles";
  std::stringstream text;
  text << file.rdbuf();
  EXPECT_EQ(text.str(), CastRulesMarkdown() + "\n")
      << "regenerate: bazel run //:promote -- sbp > docs/sbp_rules.md";
}

}  // namespace
}  // namespace oneflow_promote::sbp
