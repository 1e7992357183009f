// `promote diff A B`: every pair of operands on which policies A and B give
// different answers (a different dtype, or an error under one only), grouped
// by the kinds of the two operands and counted, for a framework moving from
// one set of rules to another. The operands are each dtype both policies
// have, as an array and as a 0-d array, and the Python scalars True, 1, -1,
// 300, 2**63, 1.5 and 1j.

#ifndef ONEFLOW_PROMOTE_CLI_DIFF_COMMAND_H_
#define ONEFLOW_PROMOTE_CLI_DIFF_COMMAND_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "oneflow_promote/promotion/result_type.h"

namespace oneflow_promote::cli {

// `args` are the two policy names; `options` apply to both (the torch
// policy's default dtype). The answer is Markdown.
[[nodiscard]] absl::StatusOr<std::string> RunDiffCommand(const std::vector<absl::string_view>& args,
                                                         const PromotionOptions& options);

// `promote diff --ops A B`: for every op of the table, every combination of
// operands on which the frameworks of policies A and B decide differently
// (a different result dtype, or a refusal by one only), grouped by op and
// by the pair of answers, and counted; the ops only one framework has are
// listed. The operands are each dtype both policies have, as an array and
// a 0-d array, and the Python scalars True, 2, -1, 300, 2.5 and 1j.
[[nodiscard]] absl::StatusOr<std::string> RunOpsDiffCommand(
    const std::vector<absl::string_view>& args, const PromotionOptions& options);

}  // namespace oneflow_promote::cli

#endif  // ONEFLOW_PROMOTE_CLI_DIFF_COMMAND_H_
