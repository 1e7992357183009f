// The `promote` command line, as a library: one invocation's words in, its
// answer out. Batch mode and tests call RunInvocation directly.
//
//   promote [--policy=P] [--default-dtype=float32|float64] OPERAND...
//   promote table [--policy=P]
//   promote diff A B
//   promote explain [flags] OPERAND...
//   promote cast FROM TO VALUE...
//   promote op NAME OPERAND...

#ifndef ONEFLOW_PROMOTE_CLI_CLI_H_
#define ONEFLOW_PROMOTE_CLI_CLI_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "oneflow_promote/promotion/policy.h"
#include "oneflow_promote/promotion/result_type.h"

namespace oneflow_promote::cli {

// Flag values an invocation starts from; batch mode's own flags set them.
struct Settings {
  Policy policy = Policy::kTorch;
  PromotionOptions options;
  // `op div`'s rounding mode, as PyTorch's keyword: "" (true division),
  // "floor" or "trunc".
  std::string rounding_mode;
  // `op`'s dtype= argument (sum, mean, cumsum, ...).
  std::optional<DType> dtype;
  // `diff --ops`: compare the policies' op rules, not their promotion.
  bool ops = false;
};

struct Answer {
  std::string text;  // without a trailing newline; may span lines
  bool ok = true;    // false: text is "error: ..."
};

// Runs one invocation. `words` excludes the program name (a leading
// "promote" is skipped too, so batch lines may repeat it). Flags may appear
// anywhere, as --name=value or --name value.
[[nodiscard]] Answer RunInvocation(const std::vector<absl::string_view>& words,
                                   const Settings& defaults);

// The line batch mode writes for one input line, without its newline: the
// line's words (split at spaces, tabs and carriage returns) run as one
// invocation, a multi-line answer joined with " ; ". Never contains '\n',
// so batch mode writes exactly one line per input line.
[[nodiscard]] std::string BatchAnswerLine(absl::string_view line, const Settings& defaults);

// Applies one flag word (with its value, which may be the next word) to
// `settings`; returns the number of words consumed, or an error.
[[nodiscard]] absl::StatusOr<int> ApplyFlag(const std::vector<absl::string_view>& words,
                                            size_t index, Settings& settings);

// The usage text.
[[nodiscard]] std::string Usage();

// Every op of op_list.h with its declaration (`promote ops`), as Markdown;
// under another policy, the ops its framework has, with their names and
// rules there.
[[nodiscard]] std::string OpsTableMarkdown(Policy policy = Policy::kTorch);

// The policy's pairwise PromoteTypes table as Markdown.
[[nodiscard]] std::string PromotionTableMarkdown(Policy policy);

}  // namespace oneflow_promote::cli

#endif  // ONEFLOW_PROMOTE_CLI_CLI_H_
