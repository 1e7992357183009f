// Fuzzes name parsing: ParseDType, ops::ParseOp, ParsePolicy,
// DTypeFromRaw and the CLI's tensor words. Every accepted name must be in
// its list and round-trip (Name(ParseDType(s)) == s and parses back to the
// same dtype; an op alias maps to the op docs/ops.md gives it), and every
// rejected name must be absent from the list.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "cli/operand_parser.h"
#include "fmt/format.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/dtype_format.h"
#include "oneflow_promote/ops/op_rules.h"
#include "oneflow_promote/promotion/policy.h"
#include "tests/fuzz/fuzz_input.h"

namespace oneflow_promote::fuzz {
namespace {

using ops::Op;
std::string Quoted(absl::string_view s) { return "'" + std::string(s) + "'"; }

void CheckDTypeName(absl::string_view s) {
  std::optional<DType> listed;
  for (DType d : kAllDTypes) {
    if (Name(d) == s) listed = d;
  }
  const absl::StatusOr<DType> parsed = ParseDType(s);
  if (!parsed.ok()) {
    FUZZ_CHECK(!listed.has_value(), "ParseDType rejected the listed name %s", Quoted(s).c_str());
    FUZZ_CHECK(parsed.status().code() == absl::StatusCode::kInvalidArgument,
               "ParseDType(%s) failed with code %d", Quoted(s).c_str(),
               static_cast<int>(parsed.status().code()));
    return;
  }
  const DType d = *parsed;
  FUZZ_CHECK(listed.has_value() && *listed == d, "ParseDType accepted %s, not in the list",
             Quoted(s).c_str());
  FUZZ_CHECK(IsValid(d) && Name(d) == s, "Name(ParseDType(%s)) differs", Quoted(s).c_str());
  const absl::StatusOr<DType> again = ParseDType(Name(d));
  FUZZ_CHECK(again.ok() && *again == d, "Name(ParseDType(%s)) does not parse back",
             Quoted(s).c_str());
  FUZZ_CHECK(fmt::format("{}", d) == s, "fmt formats %s differently", Quoted(s).c_str());
  const absl::StatusOr<DType> raw = DTypeFromRaw(Index(d));
  FUZZ_CHECK(raw.ok() && *raw == d, "DTypeFromRaw(Index(%s)) differs", Quoted(s).c_str());
  FUZZ_CHECK(ItemSize(d) > 0, "ItemSize(%s) is 0", Quoted(s).c_str());
}

void CheckOpName(absl::string_view s) {
  std::optional<Op> expected;
  for (Op op : ops::kAllOps) {
    if (ops::SpecOf(op).in_torch && ops::OpName(op) == s) expected = op;
  }
  // The aliases op_list.h declares, which docs/ops.md's table lists.
  for (Op op : ops::kAllOps) {
    for (absl::string_view alias :
         absl::StrSplit(ops::SpecOf(op).aliases, ' ', absl::SkipEmpty())) {
      if (alias == s) expected = op;
    }
  }
  const absl::StatusOr<Op> parsed = ops::ParseOp(s);
  if (!parsed.ok()) {
    FUZZ_CHECK(!expected.has_value(), "ParseOp rejected the documented name %s", Quoted(s).c_str());
    return;
  }
  FUZZ_CHECK(expected.has_value(), "ParseOp accepted %s, which is neither an op nor an alias",
             Quoted(s).c_str());
  FUZZ_CHECK(*parsed == *expected, "ParseOp(%s) gave %s", Quoted(s).c_str(),
             std::string(ops::OpName(*parsed)).c_str());
  const absl::string_view canonical = ops::OpName(*parsed);
  const absl::StatusOr<Op> again = ops::ParseOp(canonical);
  FUZZ_CHECK(canonical != "invalid" && again.ok() && *again == *parsed,
             "OpName(ParseOp(%s)) does not parse back", Quoted(s).c_str());
  const int arity = ops::OpArity(*parsed);
  FUZZ_CHECK(arity >= 1 && arity <= 3, "OpArity(%s) is %d", Quoted(s).c_str(), arity);
}

void CheckPolicyName(absl::string_view s) {
  const absl::StatusOr<Policy> parsed = ParsePolicy(s);
  const bool listed = s == "torch" || s == "array_api" || s == "numpy" || s == "jax" ||
                      s == "jax_x32" || s == "jax_strict" || s == "mlx";
  FUZZ_CHECK(parsed.ok() == listed, "ParsePolicy(%s) ok=%d", Quoted(s).c_str(), parsed.ok());
  if (parsed.ok()) {
    FUZZ_CHECK(PolicyName(*parsed) == s, "PolicyName(ParsePolicy(%s)) differs", Quoted(s).c_str());
  }
}

// A CLI word read as a tensor keeps the dtype its name parses to and one
// dimension per comma-separated extent.
void CheckTensorWord(absl::string_view s) {
  const absl::StatusOr<Operand> operand = cli::ParseOperand(s);
  if (!operand.ok() || !operand->is_tensor()) return;
  const size_t bracket = s.find('[');
  const absl::StatusOr<DType> named = ParseDType(s.substr(0, bracket));
  FUZZ_CHECK(named.ok() && *named == operand->dtype(), "tensor word %s has dtype %s",
             Quoted(s).c_str(), std::string(Name(operand->dtype())).c_str());
  int64_t ndim = 1;
  if (bracket != absl::string_view::npos) {
    const absl::string_view dims = s.substr(bracket + 1, s.size() - bracket - 2);
    ndim = dims.empty() ? 0
                        : static_cast<int64_t>(
                              std::vector<absl::string_view>(absl::StrSplit(dims, ',')).size());
  }
  FUZZ_CHECK(operand->ndim() == ndim, "tensor word %s has ndim %lld", Quoted(s).c_str(),
             static_cast<long long>(operand->ndim()));
  const std::optional<std::vector<int64_t>> shape = cli::ExplicitShape(s);
  if (bracket != absl::string_view::npos) {
    FUZZ_CHECK(shape.has_value() && static_cast<int64_t>(shape->size()) == ndim,
               "ExplicitShape(%s) disagrees with ParseOperand", Quoted(s).c_str());
  } else {
    FUZZ_CHECK(!shape.has_value(), "ExplicitShape(%s) found extents", Quoted(s).c_str());
  }
}

void CheckRaw(int raw) {
  const absl::StatusOr<DType> d = DTypeFromRaw(raw);
  FUZZ_CHECK(d.ok() == (raw >= 0 && raw < kNumDTypes), "DTypeFromRaw(%d) ok=%d", raw, d.ok());
  if (d.ok()) FUZZ_CHECK(Index(*d) == raw && IsValid(*d), "DTypeFromRaw(%d) differs", raw);
}

}  // namespace
}  // namespace oneflow_promote::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace oneflow_promote::fuzz;
  const absl::string_view s(reinterpret_cast<const char*>(data), size);
  CheckDTypeName(s);
  CheckOpName(s);
  CheckPolicyName(s);
  CheckTensorWord(s);
  ByteReader reader(data, size);
  CheckRaw(static_cast<int>(static_cast<uint32_t>(reader.Bits(4))));
  return 0;
}
