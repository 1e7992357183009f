// `promote diff A B` (see diff_command.h).

#include "cli/diff_command.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/operand_parser.h"
#include "oneflow_promote/promotion/policy.h"
#include "oneflow_promote/status_macros.h"

namespace oneflow_promote::cli {
namespace {

// The Python scalars compared: one of each kind, and ints that fall inside
// or outside the narrow dtypes (-1, 300) and int64 (2**63).
constexpr absl::string_view kScalarWords[] = {
    "True", "1", "-1", "300", "9223372036854775808", "1.5", "1j",
};

// Operand kinds in the order groups are listed: 0 array, 1 0-d array,
// 2 Python scalar.
int KindOf(const Operand& operand) {
  if (!operand.is_tensor()) return 2;
  return operand.ndim() == 0 ? 1 : 0;
}

constexpr absl::string_view kKindNames[] = {"array", "0-d array", "Python scalar"};

std::string Answer(const std::vector<Operand>& operands, Policy policy,
                   const PromotionOptions& options) {
  const absl::StatusOr<DType> dtype = ResultType(operands, policy, options);
  return dtype.ok() ? std::string(Name(*dtype)) : "error";
}

bool Has(Policy policy, DType dtype) {
  const absl::Span<const DType> dtypes = PolicyDTypes(policy);
  return std::find(dtypes.begin(), dtypes.end(), dtype) != dtypes.end();
}

// "bfloat16, complex32": the dtypes `policy` has and `other` lacks.
std::string OnlyIn(Policy policy, Policy other) {
  std::vector<absl::string_view> names;
  for (DType d : PolicyDTypes(policy)) {
    if (!Has(other, d)) names.push_back(Name(d));
  }
  return absl::StrJoin(names, ", ");
}

}  // namespace

absl::StatusOr<std::string> RunDiffCommand(const std::vector<absl::string_view>& args,
                                           const PromotionOptions& options) {
  if (args.size() != 2) {
    return absl::InvalidArgumentError("diff takes two policies: diff A B");
  }
  ASSIGN_OR_RETURN(Policy a, ParsePolicy(args[0]));
  ASSIGN_OR_RETURN(Policy b, ParsePolicy(args[1]));

  std::vector<std::string> words;
  int shared = 0;
  for (DType d : kAllDTypes) {
    if (!Has(a, d) || !Has(b, d)) continue;
    ++shared;
    words.push_back(std::string(Name(d)));
    words.push_back(absl::StrCat(Name(d), "[]"));
  }
  for (absl::string_view word : kScalarWords) words.push_back(std::string(word));
  std::vector<Operand> universe;
  for (const std::string& word : words) {
    ASSIGN_OR_RETURN(Operand operand, ParseOperand(word));
    universe.push_back(operand);
  }

  // (kind, kind) -> outcome -> lines; each pair is listed with the kind
  // that comes first in kKindNames first (both orders promote alike).
  std::map<std::pair<int, int>, std::map<std::string, std::vector<std::string>>> groups;
  int pairs = 0;
  int differ = 0;
  for (size_t i = 0; i < universe.size(); ++i) {
    for (size_t j = i; j < universe.size(); ++j) {
      const std::vector<Operand> operands = {universe[i], universe[j]};
      ++pairs;
      const std::string in_a = Answer(operands, a, options);
      const std::string in_b = Answer(operands, b, options);
      if (in_a == in_b) continue;
      ++differ;
      const bool swap = KindOf(universe[i]) > KindOf(universe[j]);
      const size_t first = swap ? j : i;
      const size_t second = swap ? i : j;
      const std::string outcome = in_a == "error"   ? absl::StrCat("refused by ", args[0])
                                  : in_b == "error" ? absl::StrCat("refused by ", args[1])
                                                    : "different dtypes";
      groups[{KindOf(universe[first]), KindOf(universe[second])}][outcome].push_back(
          absl::StrCat("| ", words[first], " | ", words[second], " | ", in_a, " | ", in_b, " |"));
    }
  }

  std::vector<std::string> out;
  out.push_back(absl::StrCat(args[0], " -> ", args[1], ": ", differ, " of ", pairs,
                             " operand pairs differ (", shared,
                             " dtypes both have, each as an array and a 0-d array, and the "
                             "Python scalars ",
                             absl::StrJoin(kScalarWords, " "), ")"));
  for (const auto& [policy, other] : {std::pair(a, b), std::pair(b, a)}) {
    const std::string only = OnlyIn(policy, other);
    if (!only.empty()) {
      out.push_back(absl::StrCat("Left out, only in ", PolicyName(policy), ": ", only));
    }
  }
  for (const auto& [kinds, outcomes] : groups) {
    int count = 0;
    for (const auto& [outcome, lines] : outcomes) count += static_cast<int>(lines.size());
    out.push_back(absl::StrCat("\n### ", kKindNames[kinds.first], " with ",
                               kKindNames[kinds.second], ": ", count));
    for (const auto& [outcome, lines] : outcomes) {
      out.push_back(absl::StrCat("\n", outcome, ": ", lines.size(), "\n"));
      out.push_back(absl::StrCat("| operand | operand | ", args[0], " | ", args[1], " |"));
      out.push_back("|---|---|---|---|");
      for (const std::string& line : lines) out.push_back(line);
    }
  }
  return absl::StrJoin(out, "\n");
}

}  // namespace oneflow_promote::cli
