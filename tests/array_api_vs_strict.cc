// The array_api policy against array-api-strict, through the CLI's own
// parsing: every case of tests/array_api/cases.tsv, which
// tests/array_api/generate_cases.py writes from live array-api-strict calls
// (tools/test.sh re-runs it and checks the file is current).

#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "oneflow_promote/cli/cli.h"

namespace oneflow_promote {
namespace {

TEST(ArrayApiVsStrict, EveryGeneratedCase) {
  std::ifstream file("tests/array_api/cases.tsv");
  ASSERT_TRUE(file.is_open()) << "tests/array_api/cases.tsv is missing from the runfiles";
  int compared = 0, errors_expected = 0, failures = 0;
  std::string line;
  const cli::Settings settings{Policy::kArrayApi, {}};
  while (std::getline(file, line)) {
    const std::vector<std::string> fields = absl::StrSplit(line, '\t');
    ASSERT_EQ(fields.size(), 2u) << line;
    const std::vector<absl::string_view> words = absl::StrSplit(fields[0], ' ');
    const cli::Answer ours = cli::RunInvocation(words, settings);
    const bool expect_error = fields[1] == "error";
    errors_expected += expect_error;
    ++compared;
    const bool same = expect_error ? !ours.ok : (ours.ok && ours.text == fields[1]);
    if (!same && ++failures <= 20) {
      ADD_FAILURE() << fields[0] << ": array-api-strict " << fields[1] << ", ours " << ours.text;
    }
  }
  std::printf("array_api: compared %d cases (%d of them errors in array-api-strict)\n",
              compared, errors_expected);
  EXPECT_GT(compared, 10000);
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace oneflow_promote
