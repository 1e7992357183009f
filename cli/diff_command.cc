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
#include "oneflow_promote/ops/op_rules.h"
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

// The Python scalars of `diff --ops`: one of each kind, a negative int and
// one past the narrow integers.
constexpr absl::string_view kOpScalarWords[] = {"True", "2", "-1", "300", "2.5", "1j"};

// An op's answer on the operands under a policy: the result dtype, or
// "refuses". Under torch the op is called as from Python (its signature's
// Python scalar positions hold).
std::string OpAnswer(ops::Op op, absl::Span<const Operand> operands, Policy policy,
                     const PromotionOptions& options) {
  if (policy == Policy::kTorch && !ops::CheckPythonSignature(ops::RuleOf(op), operands).ok()) {
    return "refuses";
  }
  const absl::StatusOr<ops::OpDTypes> dtypes = ops::InferOpDTypes(op, operands, options, policy);
  return dtypes.ok() ? std::string(Name(dtypes->result)) : "refuses";
}

// The operands `diff --ops` calls each op with, as words and as operands.
absl::Status OpUniverse(Policy a, Policy b, std::vector<std::string>& words,
                        std::vector<Operand>& operands) {
  for (DType d : kAllDTypes) {
    if (!Has(a, d) || !Has(b, d)) continue;
    words.push_back(std::string(Name(d)));
    words.push_back(absl::StrCat(Name(d), "[]"));
  }
  for (absl::string_view word : kOpScalarWords) words.push_back(std::string(word));
  for (const std::string& word : words) {
    ASSIGN_OR_RETURN(Operand operand, ParseOperand(word));
    operands.push_back(operand);
  }
  return absl::OkStatus();
}

// Each operand combination of an op of `arity` (1 or 2), as indices into
// the universe: every operand alone, or every ordered pair with an array.
std::vector<std::vector<size_t>> Combinations(int arity, const std::vector<Operand>& universe) {
  std::vector<std::vector<size_t>> combinations;
  for (size_t i = 0; i < universe.size(); ++i) {
    if (arity == 1) {
      combinations.push_back({i});
      continue;
    }
    for (size_t j = 0; j < universe.size(); ++j) {
      if (universe[i].is_tensor() || universe[j].is_tensor()) combinations.push_back({i, j});
    }
  }
  return combinations;
}

}  // namespace

absl::StatusOr<std::string> RunOpsDiffCommand(const std::vector<absl::string_view>& args,
                                              const PromotionOptions& options) {
  if (args.size() != 2) {
    return absl::InvalidArgumentError("diff --ops takes two policies: diff --ops A B");
  }
  ASSIGN_OR_RETURN(Policy a, ParsePolicy(args[0]));
  ASSIGN_OR_RETURN(Policy b, ParsePolicy(args[1]));
  std::vector<std::string> words;
  std::vector<Operand> universe;
  RETURN_IF_ERROR(OpUniverse(a, b, words, universe));

  std::vector<std::string> only_a, only_b, not_compared, rows, details;
  int compared = 0;
  int differ = 0;
  for (ops::Op op : ops::kAllOps) {
    const absl::string_view name_a = ops::OpName(op, a);
    const absl::string_view name_b = ops::OpName(op, b);
    const std::string label = name_a == name_b ? absl::StrCat("`", name_a, "`")
                                               : absl::StrCat("`", name_a, "` / `", name_b, "`");
    if (name_a.empty() || name_b.empty()) {
      if (!name_a.empty()) only_a.push_back(std::string(name_a));
      if (!name_b.empty()) only_b.push_back(std::string(name_b));
      continue;
    }
    if (ops::OpArity(op) > 2) {
      not_compared.push_back(label);
      continue;
    }
    // (A's answer, B's answer) -> the operand combinations that give it.
    std::map<std::pair<std::string, std::string>, std::vector<std::string>> groups;
    const std::vector<std::vector<size_t>> combinations = Combinations(ops::OpArity(op), universe);
    int op_differ = 0;
    int refused_by_a = 0;
    int refused_by_b = 0;
    for (const std::vector<size_t>& combination : combinations) {
      std::vector<Operand> operands;
      std::vector<absl::string_view> operand_words;
      for (size_t i : combination) {
        operands.push_back(universe[i]);
        operand_words.push_back(words[i]);
      }
      std::string in_a = OpAnswer(op, operands, a, options);
      std::string in_b = OpAnswer(op, operands, b, options);
      if (in_a == in_b) continue;
      ++op_differ;
      refused_by_a += in_a == "refuses";
      refused_by_b += in_b == "refuses";
      groups[{std::move(in_a), std::move(in_b)}].push_back(absl::StrJoin(operand_words, " "));
    }
    compared += static_cast<int>(combinations.size());
    differ += op_differ;
    if (op_differ == 0) continue;
    rows.push_back(absl::StrCat("| ", label, " | ", op_differ, " of ", combinations.size(), " | ",
                                op_differ - refused_by_a - refused_by_b, " | ", refused_by_a, " | ",
                                refused_by_b, " |"));
    details.push_back(absl::StrCat("\n### ", label, "\n\n| ", args[0], " | ", args[1],
                                   " | combinations | operands |\n|---|---|---|---|"));
    for (const auto& [answers, combos] : groups) {
      constexpr size_t kShown = 6;
      std::vector<std::string> shown(combos.begin(),
                                     combos.begin() + std::min(kShown, combos.size()));
      std::string listed = absl::StrJoin(shown, "; ");
      if (combos.size() > kShown) absl::StrAppend(&listed, "; ...");
      details.push_back(absl::StrCat("| ", answers.first, " | ", answers.second, " | ",
                                     combos.size(), " | ", listed, " |"));
    }
  }

  std::vector<std::string> out;
  out.push_back(absl::StrCat(
      args[0], " -> ", args[1], " ops: ", differ, " of ", compared,
      " operand combinations differ (each op both have, of one or two operands, on the dtypes "
      "both have as arrays and 0-d arrays and the Python scalars ",
      absl::StrJoin(kOpScalarWords, " "), "; two operands in both orders, one an array)"));
  if (!only_a.empty()) {
    out.push_back(absl::StrCat("Only in ", args[0], ": ", absl::StrJoin(only_a, ", ")));
  }
  if (!only_b.empty()) {
    out.push_back(absl::StrCat("Only in ", args[1], ": ", absl::StrJoin(only_b, ", ")));
  }
  if (!not_compared.empty()) {
    out.push_back(
        absl::StrCat("Not compared (three operands): ", absl::StrJoin(not_compared, ", ")));
  }
  out.push_back(absl::StrCat("\n| op | differ | other dtype | refused by ", args[0],
                             " only | refused by ", args[1], " only |\n|---|---|---|---|---|"));
  for (std::string& row : rows) out.push_back(std::move(row));
  for (std::string& detail : details) out.push_back(std::move(detail));
  return absl::StrJoin(out, "\n");
}

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
