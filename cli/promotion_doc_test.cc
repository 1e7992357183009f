// docs/promotion.md holds every policy's table as `promote table` prints it,
// docs/policy_diffs.md is `promote diff torch P` for every other policy, and
// docs/ops.md holds `promote ops`: regenerate them when a policy or an op's
// declaration changes.

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/cli.h"
#include "cli/diff_command.h"
#include "gtest/gtest.h"

namespace oneflow_promote::cli {
namespace {

std::string Read(const std::string& path) {
  std::ifstream file(path);
  EXPECT_TRUE(file.good()) << path << " is missing from the runfiles";
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST(PromotionDoc, HoldsEveryPolicysGeneratedTable) {
  const std::string doc = Read("docs/promotion.md");
  for (Policy policy : kAllPolicies) {
    EXPECT_NE(doc.find(PromotionTableMarkdown(policy) + "\n"), std::string::npos)
        << "regenerate: bazel run //:promote -- table --policy=" << PolicyName(policy);
  }
}

TEST(PromotionDoc, PolicyDiffsAreTheGeneratedDiffsFromTorch) {
  const std::string doc = Read("docs/promotion.md");
  std::vector<std::string> parts = {
      "# Where each policy differs from torch\n\n"
      "Generated, one section per policy: `bazel run //:promote -- diff torch P` (see\n"
      "docs/promotion.md). Each row is a pair of operands, in one order; both orders promote\n"
      "alike."};
  for (Policy policy : kAllPolicies) {
    if (policy == Policy::kTorch) continue;
    absl::StatusOr<std::string> diff = RunDiffCommand({"torch", PolicyName(policy)}, {});
    ASSERT_TRUE(diff.ok()) << diff.status();
    // promotion.md quotes each diff's summary line.
    EXPECT_NE(doc.find(diff->substr(0, diff->find('\n')) + "\n"), std::string::npos)
        << PolicyName(policy);
    parts.push_back(absl::StrCat("## torch -> ", PolicyName(policy), "\n\n", *diff));
  }
  EXPECT_EQ(Read("docs/policy_diffs.md"), absl::StrJoin(parts, "\n\n") + "\n")
      << "regenerate docs/policy_diffs.md as docs/promotion.md says";
}

TEST(OpsDoc, HoldsTheGeneratedOpTable) {
  EXPECT_NE(Read("docs/ops.md").find(OpsTableMarkdown() + "\n"), std::string::npos)
      << "regenerate the table in docs/ops.md: bazel run //:promote -- ops";
}

TEST(OpsDoc, OpPolicyDiffsAreTheGeneratedDiffsFromTorch) {
  std::vector<std::string> parts = {
      "# Where each framework's ops differ from PyTorch's\n\n"
      "Generated, one section per policy: `bazel run //:promote -- diff --ops torch P` (see\n"
      "docs/op_policies.md). For every op both have, each operand combination on which the\n"
      "two decide differently: a different result dtype, or a refusal by one only."};
  for (Policy policy : {Policy::kNumpy, Policy::kJaxX32, Policy::kArrayApi, Policy::kMlx}) {
    absl::StatusOr<std::string> diff = RunOpsDiffCommand({"torch", PolicyName(policy)}, {});
    ASSERT_TRUE(diff.ok()) << diff.status();
    parts.push_back(absl::StrCat("## torch -> ", PolicyName(policy), "\n\n", *diff));
  }
  EXPECT_EQ(Read("docs/op_policy_diffs.md"), absl::StrJoin(parts, "\n\n") + "\n")
      << "regenerate docs/op_policy_diffs.md as docs/op_policies.md says";
}

TEST(OpsDoc, HoldsEachFrameworksGeneratedOpTable) {
  const std::string doc = Read("docs/op_policies.md");
  for (Policy policy : {Policy::kNumpy, Policy::kJax, Policy::kArrayApi, Policy::kMlx}) {
    EXPECT_NE(doc.find(OpsTableMarkdown(policy) + "\n"), std::string::npos)
        << "regenerate: bazel run //:promote -- ops --policy=" << PolicyName(policy);
  }
}

}  // namespace
}  // namespace oneflow_promote::cli
