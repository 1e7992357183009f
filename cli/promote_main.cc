// `promote`: answers and explains dtype promotion questions (see cli.h).

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "cli/cli.h"

namespace {

using oneflow_promote::cli::Answer;
using oneflow_promote::cli::Settings;

// Reads invocations from stdin, one per line, and writes exactly one line per
// input line (BatchAnswerLine).
int RunBatch(const Settings& settings) {
  std::ios::sync_with_stdio(false);
  std::string line;
  std::string out;
  while (std::getline(std::cin, line)) {
    out.append(oneflow_promote::cli::BatchAnswerLine(line, settings));
    out.push_back('\n');
    if (out.size() > (1 << 16)) {
      std::fwrite(out.data(), 1, out.size(), stdout);
      out.clear();
    }
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<absl::string_view> words(argv + 1, argv + argc);
  Settings settings;
  bool batch = false;
  std::vector<absl::string_view> rest;
  for (size_t i = 0; i < words.size(); ++i) {
    if (words[i] == "--batch") {
      batch = true;
    } else {
      rest.push_back(words[i]);
    }
  }
  if (batch) {
    // Flags given with --batch become every line's defaults.
    for (size_t i = 0; i < rest.size();) {
      absl::StatusOr<int> consumed = oneflow_promote::cli::ApplyFlag(rest, i, settings);
      if (!consumed.ok()) {
        std::fprintf(stderr, "error: %s\n", std::string(consumed.status().message()).c_str());
        return 2;
      }
      i += *consumed;
    }
    return RunBatch(settings);
  }
  const Answer answer = oneflow_promote::cli::RunInvocation(rest, settings);
  // Errors are answers too ("error: ..."), printed where answers go, so that
  // scripts read one stream; the exit status tells them apart.
  std::fprintf(stdout, "%s\n", answer.text.c_str());
  return answer.ok ? 0 : 1;
}
