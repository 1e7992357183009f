// Fuzzes the promote CLI's batch mode: the input is read as standard input
// would be (lines split at '\n', as std::getline does) and every line runs
// through BatchAnswerLine, the function batch mode writes each answer line
// with. Besides crashes and sanitizer reports it checks batch mode's
// promise: one answer line per input line, so no answer contains '\n', and
// an answer that RunInvocation marks failed is worded "error: ...".

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "cli/cli.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using oneflow_promote::cli::Answer;
  using oneflow_promote::cli::BatchAnswerLine;
  using oneflow_promote::cli::RunInvocation;
  using oneflow_promote::cli::Settings;

  absl::string_view input(reinterpret_cast<const char*>(data), size);
  // std::getline's lines: a last line without '\n' counts, an empty rest does not.
  std::vector<absl::string_view> lines = absl::StrSplit(input, '\n');
  if (!lines.empty() && lines.back().empty()) lines.pop_back();

  const Settings defaults;
  for (absl::string_view line : lines) {
    const std::string answer = BatchAnswerLine(line, defaults);
    FUZZ_CHECK(answer.find('\n') == std::string::npos,
               "batch answer spans lines for input line '%s': '%s'", std::string(line).c_str(),
               answer.c_str());

    // The same words as batch mode splits them, through RunInvocation.
    const std::vector<absl::string_view> words =
        absl::StrSplit(line, absl::ByAnyChar(" \t\r"), absl::SkipEmpty());
    const Answer direct = RunInvocation(words, defaults);
    FUZZ_CHECK(direct.ok || absl::StartsWith(direct.text, "error: ") ||
                   absl::StrContains(direct.text, "\nerror: "),
               "failed answer without 'error: ' for '%s': '%s'", std::string(line).c_str(),
               direct.text.c_str());
    FUZZ_CHECK(!direct.ok || !absl::StartsWith(direct.text, "error: "),
               "answer worded as an error but marked ok for '%s': '%s'", std::string(line).c_str(),
               direct.text.c_str());
  }
  return 0;
}
