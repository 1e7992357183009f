// `promote cast D D LITERAL` for Python int literals of every size up to the
// 128-bit limits, into every floating and complex dtype: one rounding to
// nearest-even, as Python's float(int) does for float64 and exact arithmetic
// with ml_dtypes' formats does for the rest. The cases come from
// tests/literals/generate_cases.py, which tools/test.sh checks against the
// installed ml_dtypes.

#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "cli/cli.h"
#include "gtest/gtest.h"
#include "oneflow_promote/dtype.h"

namespace oneflow_promote::cli {
namespace {

TEST(IntegerLiterals, RoundOnceToNearestEven) {
  std::ifstream in("tests/literals/cases.tsv");
  ASSERT_TRUE(in.good()) << "tests/literals/cases.tsv is missing";
  std::string line;
  int checked = 0, failures = 0;
  while (std::getline(in, line)) {
    const std::vector<std::string> words = absl::StrSplit(line, ' ', absl::SkipEmpty());
    ASSERT_EQ(words.size(), 3u) << line;
    const std::string& dtype = words[0];
    const std::string expected =
        IsComplex(*ParseDType(dtype)) ? absl::StrCat("(", words[2], ",0)") : words[2];
    const Answer answer = RunInvocation({"cast", dtype, dtype, words[1]}, Settings{});
    ++checked;
    if (!answer.ok || answer.text != expected) {
      if (++failures <= 20) {
        ADD_FAILURE() << "cast " << dtype << " " << dtype << " " << words[1] << " printed '"
                      << answer.text << "', expected '" << expected << "'";
      }
    }
  }
  EXPECT_EQ(failures, 0) << "of " << checked;
  EXPECT_GT(checked, 10000);
}

}  // namespace
}  // namespace oneflow_promote::cli
