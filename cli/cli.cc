// The `promote` subcommands.

#include "cli/cli.h"

#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "cli/cast_command.h"
#include "cli/diff_command.h"
#include "cli/operand_parser.h"
#include "oneflow_promote/ops/op_rules.h"
#include "oneflow_promote/sbp/sbp.h"
#include "oneflow_promote/status_macros.h"

namespace oneflow_promote::cli {
namespace {

Answer Error(const absl::Status& status) {
  return {absl::StrCat("error: ", status.message()), false};
}

absl::StatusOr<std::vector<Operand>> ParseOperands(const std::vector<absl::string_view>& words) {
  std::vector<Operand> operands;
  operands.reserve(words.size());
  for (absl::string_view word : words) {
    ASSIGN_OR_RETURN(Operand operand, ParseOperand(word));
    operands.push_back(operand);
  }
  if (operands.empty()) return absl::InvalidArgumentError("no operands given; see --help");
  return operands;
}

// Where operands spell out their extents ("float32[2,3]"), the shape
// errors PyTorch would raise: elementwise operands that do not broadcast,
// dot of vectors of different lengths. Operands of unstated extents
// ("float32") fit anything.
absl::Status CheckExplicitShapes(ops::Op op, const std::vector<absl::string_view>& words) {
  std::vector<std::vector<int64_t>> shapes;
  for (absl::string_view word : words) {
    if (std::optional<std::vector<int64_t>> shape = ExplicitShape(word)) {
      shapes.push_back(*std::move(shape));
    }
  }
  using ops::Op;
  if (KindOf(op) == ops::OpKind::kReduction || KindOf(op) == ops::OpKind::kScan) {
    return absl::OkStatus();
  }
  if (KindOf(op) == ops::OpKind::kContraction) {
    if (shapes.size() == 2 && shapes[0].size() == 1 && shapes[1].size() == 1 &&
        shapes[0][0] != shapes[1][0]) {
      return absl::InvalidArgumentError(
          absl::StrCat("inconsistent tensor size, expected tensor [", shapes[0][0], "] and src [",
                       shapes[1][0], "] to have the same number of elements, but got ",
                       shapes[0][0], " and ", shapes[1][0], " elements respectively"));
    }
    return absl::OkStatus();
  }
  std::vector<absl::Span<const int64_t>> spans(shapes.begin(), shapes.end());
  return ops::BroadcastShapes(spans).status();
}

}  // namespace

std::string Usage() {
  return R"(usage:
  promote [--policy=P] [--default-dtype=float32|float64] OPERAND...
      prints the result dtype of an operation on the operands; P is torch
      (the default), array_api, numpy, jax, jax_x32, jax_strict or mlx
  promote explain [flags] OPERAND...   how that dtype was derived, step by step
  promote table [--policy=P]           the policy's pairwise table, as Markdown
  promote diff A B                     every operand pair on which policies A
                                       and B differ, grouped and counted
  promote diff --ops A B               every op and operand combination on which
                                       the frameworks of A and B differ, by op
  promote cast FROM TO VALUE...        each literal converted to FROM (one
                                       rounding), then cast to TO by the kernels
  promote op NAME OPERAND...           the dtype PyTorch's op returns (add, div,
                                       sin, where, clamp, sum, argmax, ...: every
                                       op of op_list.h), or PyTorch's error; div
                                       also takes --rounding-mode=floor|trunc,
                                       sum, mean, cumsum, ... --dtype=DTYPE; with
                                       --policy=P, the op by the name and rule of
                                       NumPy, jax.numpy or the Array API
  promote ops [--policy=P]             every op's declaration, as Markdown
  promote sbp [FROM TO]                which partial layouts a cast keeps (exact,
                                       up to rounding, needs boxing); without
                                       dtypes, every pair as Markdown
  promote --batch [flags]              one invocation per line of standard input,
                                       one answer line per input line
OPERAND: int8 (a tensor with dimensions), int8[] (a 0-d tensor, which is
what NumPy's scalars np.int8(1) are to promotion), or a Python literal: True,
False, 3, -1, 300, 1.5, 1e300, -0.0, inf, nan, 2j, 1+2j.)";
}

absl::StatusOr<int> ApplyFlag(const std::vector<absl::string_view>& words, size_t index,
                              Settings& settings) {
  absl::string_view word = words[index];
  if (word == "--ops") {
    settings.ops = true;
    return 1;
  }
  absl::string_view name = word;
  absl::string_view value;
  int consumed = 1;
  const size_t equals = word.find('=');
  if (equals != absl::string_view::npos) {
    name = word.substr(0, equals);
    value = word.substr(equals + 1);
  } else if (index + 1 < words.size()) {
    value = words[index + 1];
    consumed = 2;
  }
  if (name == "--policy") {
    ASSIGN_OR_RETURN(settings.policy, ParsePolicy(value));
    return consumed;
  }
  if (name == "--default-dtype" || name == "--default_dtype") {
    ASSIGN_OR_RETURN(DType dtype, ParseDType(value));
    if (dtype != DType::kFloat32 && dtype != DType::kFloat64) {
      return absl::InvalidArgumentError(
          absl::StrCat("--default-dtype must be float32 or float64, not ", value));
    }
    settings.options.default_dtype = dtype;
    return consumed;
  }
  if (name == "--dtype") {
    ASSIGN_OR_RETURN(settings.dtype, ParseDType(value));
    return consumed;
  }
  if (name == "--rounding-mode" || name == "--rounding_mode") {
    if (value != "floor" && value != "trunc") {
      return absl::InvalidArgumentError(
          absl::StrCat("--rounding-mode must be floor or trunc, not '", value, "'"));
    }
    settings.rounding_mode = std::string(value);
    return consumed;
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown flag '", word, "'"));
}

namespace {

std::string CategoriesText(uint8_t categories) {
  if (categories == ops::kAllCategories) return "all";
  std::vector<absl::string_view> names;
  if (categories & ops::kBoolCategory) names.push_back("bool");
  if (categories & ops::kIntegerCategories) names.push_back("integer");
  const uint8_t floating = categories & ops::kFloatingCategory;
  if (floating == ops::kFloatingCategory) {
    names.push_back("floating");
  } else if (floating == (ops::kFloatingCategory & ~ops::kFloat8Category)) {
    names.push_back("floating (no float8)");
  } else if (floating == (ops::kFloatingCategory & ~ops::kReducedFloatCategory)) {
    names.push_back("floating (no float16, bfloat16)");
  } else if (floating == (ops::kReducedFloatCategory | ops::kFloat32Category)) {
    names.push_back("float16, bfloat16, float32");
  }
  if (categories & ops::kComplexCategory) names.push_back("complex");
  return absl::StrJoin(names, ", ");
}

std::string ScalarsText(uint8_t scalars) {
  std::vector<std::string> positions;
  for (int i = 0; i < 3; ++i) {
    if (scalars & (1 << i)) positions.push_back(absl::StrCat(i + 1));
  }
  if (positions.empty()) return "";
  return absl::StrCat(absl::StrJoin(positions, ", "),
                      (scalars & ops::kScalarsAlone) ? " (all at once too)" : "");
}

absl::string_view KindText(ops::OpKind kind) {
  switch (kind) {
    case ops::OpKind::kElementwise:
      return "elementwise";
    case ops::OpKind::kReduction:
      return "reduction";
    case ops::OpKind::kScan:
      return "scan";
    case ops::OpKind::kContraction:
      return "contraction";
  }
  return "";
}

}  // namespace

namespace {

absl::string_view FrameworkRuleText(ops::FrameworkRule rule) {
  switch (rule) {
    case ops::FrameworkRule::kPromoted:
      return "the promoted dtype";
    case ops::FrameworkRule::kInexact:
      return "integers and bool to a float";
    case ops::FrameworkRule::kDefaultFloat:
      return "integers and bool to the default float";
    case ops::FrameworkRule::kNumeric:
      return "bool to int32";
    case ops::FrameworkRule::kBoolToDefaultInt:
      return "bool to the default int";
    case ops::FrameworkRule::kBoolToUInt8:
      return "bool to uint8";
    case ops::FrameworkRule::kAccumulate:
      return "narrow integers and bool to the default (unsigned) int";
    case ops::FrameworkRule::kDouble:
      return "float64 or complex128";
    case ops::FrameworkRule::kBool:
      return "returns bool";
    case ops::FrameworkRule::kRealPart:
      return "complex returns its real part's dtype";
    case ops::FrameworkRule::kInexactRealPart:
      return "integers and bool to a float; complex returns its real part's dtype";
    case ops::FrameworkRule::kIndex:
      return "returns the index dtype";
    case ops::FrameworkRule::kCount:
      return "returns the default int";
    case ops::FrameworkRule::kUInt8:
      return "returns uint8";
    case ops::FrameworkRule::kLdexp:
      return "the first operand's dtype as a float; the second an integer";
  }
  return "";
}

absl::string_view FrameworkCheckText(ops::FrameworkCheck check) {
  switch (check) {
    case ops::FrameworkCheck::kNone:
      return "";
    case ops::FrameworkCheck::kIntPower:
      return "no integer to a negative Python int power";
    case ops::FrameworkCheck::kShiftCount:
      return "no negative Python int shift";
    case ops::FrameworkCheck::kAtLeast1D:
      return "no 0-d array";
    case ops::FrameworkCheck::kArraysOnly:
      return "no Python scalar";
  }
  return "";
}

// `ops --policy=P` for a policy other than torch: the framework's names and
// rule of every op it has.
std::string FrameworkOpsTableMarkdown(Policy policy) {
  const absl::string_view categories_title =
      policy == Policy::kNumpy      ? "loop dtypes (the first that fits)"
      : policy == Policy::kArrayApi ? "array dtypes"
                                    : "dtypes after the rule";
  std::vector<std::string> lines = {
      absl::StrCat("| op | ", ops::FrameworkName(policy), "'s names | operands | rule | ",
                   categories_title, " | check |"),
      "|---|---|---|---|---|---|"};
  for (ops::Op op : ops::kAllOps) {
    const ops::FrameworkOp& framework = *ops::FrameworkOpOf(op, policy);
    if (!framework.present()) continue;
    std::vector<std::string> names;
    for (absl::string_view name : absl::StrSplit(framework.names, ' ', absl::SkipEmpty())) {
      names.push_back(absl::StrCat("`", name, "`"));
    }
    std::string rule(FrameworkRuleText(framework.rule));
    if (framework.exact_loop) absl::StrAppend(&rule, "; its own loop only");
    if (framework.zero_dim_unchanged) absl::StrAppend(&rule, "; a 0-d array as it is");
    if (framework.scalars_as_arrays) absl::StrAppend(&rule, "; Python scalars as arrays");
    lines.push_back(absl::StrCat("| `", ops::OpName(op), "` | ", absl::StrJoin(names, " "), " | ",
                                 ops::OpArity(op), " | ", rule, " | ",
                                 CategoriesText(framework.categories), " | ",
                                 FrameworkCheckText(framework.check), " |"));
  }
  return absl::StrJoin(lines, "\n");
}

}  // namespace

std::string OpsTableMarkdown(Policy policy) {
  if (policy != Policy::kTorch) return FrameworkOpsTableMarkdown(policy);
  std::vector<std::string> lines = {
      "| op | aliases | operands | kind | promotion | categories | Python scalars at | kernel |",
      "|---|---|---|---|---|---|---|---|"};
  for (ops::Op op : ops::kAllOps) {
    const ops::OpSpec& spec = ops::SpecOf(op);
    if (!spec.in_torch) continue;
    std::vector<std::string> aliases;
    for (absl::string_view alias : absl::StrSplit(spec.aliases, ' ', absl::SkipEmpty())) {
      aliases.push_back(absl::StrCat("`", alias, "`"));
    }
    lines.push_back(absl::StrCat("| `", spec.name, "` | ", absl::StrJoin(aliases, " "), " | ",
                                 spec.arity, " | ", KindText(spec.kind), " | ",
                                 ops::PromotionKindName(spec.promotion), " | ",
                                 CategoriesText(spec.categories), " | ", ScalarsText(spec.scalars),
                                 " | ", spec.has_kernel ? "CPU, CUDA" : "", " |"));
  }
  return absl::StrJoin(lines, "\n");
}

std::string PromotionTableMarkdown(Policy policy) {
  const absl::Span<const DType> dtypes = PolicyDTypes(policy);
  std::vector<std::string> lines;
  std::vector<std::string> cells = {absl::StrCat("`", PolicyName(policy), "`")};
  for (DType b : dtypes) cells.push_back(std::string(Name(b)));
  lines.push_back(absl::StrCat("| ", absl::StrJoin(cells, " | "), " |"));
  lines.push_back(
      absl::StrCat("|", absl::StrJoin(std::vector<std::string>(cells.size(), "---"), "|"), "|"));
  for (DType a : dtypes) {
    cells = {absl::StrCat("**", Name(a), "**")};
    for (DType b : dtypes) {
      const Promotion p = PromoteTypes(a, b, policy);
      cells.push_back(p.ok() ? std::string(Name(p.dtype())) : "-");
    }
    lines.push_back(absl::StrCat("| ", absl::StrJoin(cells, " | "), " |"));
  }
  return absl::StrJoin(lines, "\n");
}

namespace {

// The words of one invocation: its settings after the flags, and the
// positional words without the optional leading "promote".
struct Invocation {
  Settings settings;
  std::vector<absl::string_view> positional;
  bool help = false;
};

absl::StatusOr<Invocation> ParseInvocation(const std::vector<absl::string_view>& words,
                                           const Settings& defaults) {
  Invocation invocation{defaults, {}};
  for (size_t i = 0; i < words.size();) {
    if (!absl::StartsWith(words[i], "--")) {
      invocation.positional.push_back(words[i++]);
      continue;
    }
    if (words[i] == "--help") {
      invocation.help = true;
      return invocation;
    }
    absl::StatusOr<int> consumed = ApplyFlag(words, i, invocation.settings);
    if (!consumed.ok()) return consumed.status();
    i += *consumed;
  }
  std::vector<absl::string_view>& positional = invocation.positional;
  if (!positional.empty() && positional.front() == "promote") positional.erase(positional.begin());
  if (positional.empty()) return absl::InvalidArgumentError("no operands given; see --help");
  return invocation;
}

// `sbp FROM TO`: whether each partial SBP survives the cast.
absl::StatusOr<std::string> SbpCommand(absl::Span<const absl::string_view> operands) {
  if (operands.empty()) return sbp::CastRulesMarkdown();
  if (operands.size() != 2) return absl::InvalidArgumentError("sbp takes no operands, or FROM TO");
  absl::StatusOr<DType> from = ParseDType(operands[0]);
  if (!from.ok()) return from.status();
  absl::StatusOr<DType> to = ParseDType(operands[1]);
  if (!to.ok()) return to.status();
  std::vector<std::string> lines;
  for (sbp::SbpKind kind :
       {sbp::SbpKind::kPartialSum, sbp::SbpKind::kPartialMax, sbp::SbpKind::kPartialMin}) {
    lines.push_back(absl::StrCat(sbp::Sbp{kind}.ToString(), ": ",
                                 sbp::ExactnessName(sbp::CastKeeps(*from, *to, kind))));
  }
  return absl::StrJoin(lines, "\n");
}

// `op NAME OPERANDS...`: the op's result dtype as the policy's framework
// decides it (PyTorch by default).
absl::StatusOr<std::string> OpCommand(absl::Span<const absl::string_view> words,
                                      const Settings& settings) {
  if (words.empty()) return absl::InvalidArgumentError("op needs a NAME");
  absl::StatusOr<ops::Op> op = ops::ParseOp(words[0], settings.policy);
  if (!op.ok()) return op.status();
  if (!settings.rounding_mode.empty()) {
    if (*op != ops::Op::kDiv) {
      return absl::InvalidArgumentError(
          absl::StrCat("--rounding-mode applies to div, not ", words[0]));
    }
    op = settings.rounding_mode == "floor" ? ops::Op::kDivFloor : ops::Op::kDivTrunc;
  }
  const std::vector<absl::string_view> operand_words(words.begin() + 1, words.end());
  absl::StatusOr<std::vector<Operand>> operands = ParseOperands(operand_words);
  if (!operands.ok()) return operands.status();
  if (settings.policy == Policy::kTorch) {
    RETURN_IF_ERROR(ops::CheckPythonSignature(ops::RuleOf(*op), *operands));
  }
  absl::StatusOr<ops::OpDTypes> dtypes =
      ops::InferOpDTypes(*op, *operands, settings.options, settings.policy, settings.dtype);
  if (!dtypes.ok()) return dtypes.status();
  RETURN_IF_ERROR(CheckExplicitShapes(*op, operand_words));
  return std::string(Name(dtypes->result));
}

// Every command but explain, whose answer carries its own errors.
absl::StatusOr<std::string> RunCommand(absl::string_view command,
                                       const std::vector<absl::string_view>& positional,
                                       const Settings& settings) {
  const absl::Span<const absl::string_view> rest = absl::MakeConstSpan(positional).subspan(1);
  if (command == "table") {
    if (!rest.empty()) return absl::InvalidArgumentError("table takes no operands");
    return PromotionTableMarkdown(settings.policy);
  }
  if (command == "ops") {
    if (!rest.empty()) return absl::InvalidArgumentError("ops takes no operands");
    return OpsTableMarkdown(settings.policy);
  }
  if (command == "sbp") return SbpCommand(rest);
  if (command == "diff") {
    if (settings.ops) return RunOpsDiffCommand({rest.begin(), rest.end()}, settings.options);
    return RunDiffCommand({rest.begin(), rest.end()}, settings.options);
  }
  if (command == "cast") return RunCastCommand({rest.begin(), rest.end()});
  if (command == "op") return OpCommand(rest, settings);
  absl::StatusOr<std::vector<Operand>> operands = ParseOperands(positional);
  if (!operands.ok()) return operands.status();
  absl::StatusOr<DType> dtype = ResultType(*operands, settings.policy, settings.options);
  if (!dtype.ok()) return dtype.status();
  return std::string(Name(*dtype));
}

}  // namespace

Answer RunInvocation(const std::vector<absl::string_view>& words, const Settings& defaults) {
  absl::StatusOr<Invocation> invocation = ParseInvocation(words, defaults);
  if (!invocation.ok()) return Error(invocation.status());
  if (invocation->help) return {Usage(), true};
  const std::vector<absl::string_view>& positional = invocation->positional;
  if (positional.front() == "explain") {
    absl::StatusOr<std::vector<Operand>> operands =
        ParseOperands({positional.begin() + 1, positional.end()});
    if (!operands.ok()) return Error(operands.status());
    std::string text =
        ExplainResultType(*operands, invocation->settings.policy, invocation->settings.options);
    const bool ok = !absl::StrContains(text, "\nerror: ") && !absl::StartsWith(text, "error: ");
    return {std::move(text), ok};
  }
  absl::StatusOr<std::string> answer =
      RunCommand(positional.front(), positional, invocation->settings);
  if (!answer.ok()) return Error(answer.status());
  return {*std::move(answer), true};
}

std::string BatchAnswerLine(absl::string_view line, const Settings& defaults) {
  const std::vector<absl::string_view> words =
      absl::StrSplit(line, absl::ByAnyChar(" \t\r"), absl::SkipEmpty());
  return absl::StrReplaceAll(RunInvocation(words, defaults).text, {{"\n", " ; "}});
}

}  // namespace oneflow_promote::cli
