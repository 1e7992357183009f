// CheckCaseFile (oracle_cases.h).

#include "tests/oracle_cases.h"

#include <fstream>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "cli/cli.h"
#include "gtest/gtest.h"

namespace oneflow_promote::testing {

std::map<std::string, CaseCounts> CheckCaseFile(const std::string& path, Policy policy) {
  std::map<std::string, CaseCounts> counts;
  std::ifstream file(path);
  EXPECT_TRUE(file.is_open()) << path << " is missing from the runfiles";
  int failures = 0;
  const auto fail = [&](const std::string& what) {
    if (++failures <= 20) ADD_FAILURE() << path << ": " << what;
  };
  std::string line;
  while (std::getline(file, line)) {
    if (absl::StartsWith(line, "--policy=")) {
      const absl::StatusOr<Policy> parsed = ParsePolicy(line.substr(9));
      EXPECT_TRUE(parsed.ok()) << line;
      if (parsed.ok()) policy = *parsed;
      continue;
    }
    const std::vector<std::string> fields = absl::StrSplit(line, '\t');
    if (fields.size() != 2) {
      fail("malformed line: " + line);
      continue;
    }
    CaseCounts& count = counts[std::string(PolicyName(policy))];
    const std::vector<absl::string_view> words = absl::StrSplit(fields[0], ' ');
    if (words.size() == 3 && words[0] == "can_cast") {
      const absl::StatusOr<DType> from = ParseDType(words[1]);
      const absl::StatusOr<DType> to = ParseDType(words[2]);
      ++count.can_casts;
      if (!from.ok() || !to.ok()) {
        fail("unknown dtype in: " + line);
      } else if ((CanCast(*from, *to, policy) ? "True" : "False") != fields[1]) {
        fail(absl::StrCat(PolicyName(policy), " ", fields[0], ": the library says ", fields[1]));
      }
      continue;
    }
    const cli::Answer ours = cli::RunInvocation(words, cli::Settings{policy, {}});
    const bool expect_error = fields[1] == "error";
    count.errors_expected += expect_error;
    ++count.compared;
    if (expect_error ? ours.ok : (!ours.ok || ours.text != fields[1])) {
      fail(absl::StrCat(PolicyName(policy), " ", fields[0], ": the library says ", fields[1],
                        ", ours ", ours.text));
    }
  }
  EXPECT_EQ(failures, 0) << path;
  for (const auto& [name, count] : counts) {
    std::printf(
        "%s: compared %d cases (%d of them errors in the library) and %d can_cast "
        "answers\n",
        name.c_str(), count.compared, count.errors_expected, count.can_casts);
  }
  return counts;
}

}  // namespace oneflow_promote::testing
