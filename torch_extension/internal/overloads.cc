// The overload table: aten's overload names and argument conventions for
// each op, written out once per op rather than schema by schema.

#include "torch_extension/internal/overloads.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace oneflow_promote::torch_extension {
namespace {

using ops::Op;

// Operand names in the schema: self, other; where's condition, self, other.
constexpr const char* kBinaryNames[] = {"self", "other"};
constexpr const char* kWhereNames[] = {"condition", "self", "other"};

Overload Make(const std::string& base, const std::string& overload_name, Op op, Variant variant,
              absl::InlinedVector<bool, 3> scalar, bool alpha, bool rounding_mode) {
  const bool where = op == Op::kWhere;
  std::vector<std::string> positional, keyword;
  for (size_t i = 0; i < scalar.size(); ++i) {
    const char* name = where ? kWhereNames[i] : kBinaryNames[i];
    const char* type = scalar[i] ? "Scalar" : "Tensor";
    const bool mutated = variant == Variant::kInPlace && i == 0;
    positional.push_back(absl::StrCat(type, mutated ? "(a!) " : " ", name));
  }
  // Required, in overloads of their own, where aten has defaults (alpha=1,
  // rounding_mode=None): torch.compile's inductor (2.15) calls a custom
  // op's out= variant in place of the op and passes an argument that has
  // its default value twice, by position and by keyword.
  if (alpha) positional.push_back("Scalar alpha");
  if (rounding_mode) positional.push_back("str? rounding_mode");
  if (variant == Variant::kOut) keyword.push_back("Tensor(a!) out");
  std::string arguments = absl::StrJoin(positional, ", ");
  if (!keyword.empty()) absl::StrAppend(&arguments, ", *, ", absl::StrJoin(keyword, ", "));
  const std::string name =
      absl::StrCat(base, variant == Variant::kInPlace ? "_" : "", ".", overload_name);
  const char* returns = variant == Variant::kFunctional ? "Tensor" : "Tensor(a!)";
  Overload overload;
  overload.name = name;
  overload.schema = absl::StrCat(name, "(", arguments, ") -> ", returns);
  overload.base = base;
  overload.op = op;
  overload.variant = variant;
  overload.scalar = std::move(scalar);
  overload.alpha = alpha;
  overload.rounding_mode = rounding_mode;
  overload.functional = absl::StrCat(base, ".", overload_name);
  return overload;
}

std::vector<Overload> MakeOverloads() {
  std::vector<Overload> overloads;
  // The binary ops op_list.h marks InTorchExtension(), with their rows'
  // overload conventions (alpha, rounding_mode, in place).
  for (Op op : ops::kAllOps) {
    const ops::OpSpec& s = ops::SpecOf(op);
    if (!s.in_torch_extension || s.arity != 2) continue;
    // Each overload, and for add, sub and div its twin with alpha or
    // rounding_mode ("Tensor_mode", "Scalar_mode_out", as aten names div's).
    const char* suffix = s.alpha ? "alpha" : s.rounding_mode ? "mode" : nullptr;
    const auto add = [&](const char* overload_name, Variant variant, bool scalar_other,
                         bool scalar_self = false) {
      const std::string functional = scalar_self    ? "Scalar_Tensor"
                                     : scalar_other ? "Scalar"
                                                    : "Tensor";
      overloads.push_back(
          Make(s.name, overload_name, op, variant, {scalar_self, scalar_other}, false, false));
      overloads.back().functional = absl::StrCat(s.name, ".", functional);
      if (suffix == nullptr) return;
      // "Scalar_out" -> "Scalar_alpha_out", "Tensor" -> "Tensor_alpha".
      const std::string name = overload_name;
      const bool out = name != "out" && absl::EndsWith(name, "_out");
      const std::string twin =
          out ? absl::StrCat(name.substr(0, name.size() - 4), "_", suffix, "_out")
              : absl::StrCat(name, "_", suffix);
      overloads.push_back(
          Make(s.name, twin, op, variant, {scalar_self, scalar_other}, s.alpha, s.rounding_mode));
      overloads.back().functional = absl::StrCat(s.name, ".", functional, "_", suffix);
    };
    // Python scalars only where torch's Python function takes them (the
    // row's Scalars()): aten's Scalar overloads for the second operand, its
    // Scalar_Tensor ones for the first, and out= there too where the
    // argument parser wraps numbers into tensors (the ops that take
    // numbers alone).
    const bool scalar_other = (s.scalars & ops::kScalarSecond) != 0;
    const bool scalar_self = (s.scalars & ops::kScalarFirst) != 0;
    const bool scalar_self_out = scalar_self && (s.scalars & ops::kScalarsAlone) != 0;
    add("Tensor", Variant::kFunctional, false);
    if (scalar_other) add("Scalar", Variant::kFunctional, true);
    add("out", Variant::kOut, false);
    if (scalar_other) add("Scalar_out", Variant::kOut, true);
    if (s.in_place) {
      add("Tensor", Variant::kInPlace, false);
      if (scalar_other) add("Scalar", Variant::kInPlace, true);
    }
    if (scalar_self) add("Scalar_Tensor", Variant::kFunctional, false, true);
    if (scalar_self_out) add("Scalar_Tensor_out", Variant::kOut, false, true);
  }
  const auto where = [&](const char* overload_name, Variant variant, bool scalar_self,
                         bool scalar_other) {
    overloads.push_back(Make("where", overload_name, Op::kWhere, variant,
                             {false, scalar_self, scalar_other}, false, false));
  };
  where("self", Variant::kFunctional, false, false);
  where("ScalarSelf", Variant::kFunctional, true, false);
  where("ScalarOther", Variant::kFunctional, false, true);
  where("Scalar", Variant::kFunctional, true, true);
  where("self_out", Variant::kOut, false, false);
  overloads.back().functional = "where.self";
  // The order torch.ops tries a packet's overloads in. It converts a
  // call's arguments slot by slot and rejects an overload at the first that
  // does not fit: a tensor in a Scalar slot with a message holding the
  // tensor's repr, which reads its elements (on CUDA, a wait for the
  // device); a number in a Tensor slot with its short repr; too many
  // arguments before reading any. Sorted by argument count, then by the
  // operands' Scalar slots read as a binary number (the first operand
  // highest), an overload tried before the one a call matches either takes
  // fewer arguments than the call gives, or differs from it first in a slot
  // where the call gives a number and it takes a Tensor, or not at all
  // (out= or alpha missing): no call ever meets a Scalar slot with a tensor.
  const auto key = [](const Overload& overload) {
    int scalar_slots = 0;
    for (bool scalar : overload.scalar) scalar_slots = 2 * scalar_slots + scalar;
    return std::make_pair(overload.arguments(), scalar_slots);
  };
  std::stable_sort(overloads.begin(), overloads.end(),
                   [&](const Overload& a, const Overload& b) { return key(a) < key(b); });
  return overloads;
}

Op DivOp(const c10::IValue& rounding_mode) {
  if (rounding_mode.isNone()) return Op::kDiv;
  const c10::string_view mode = rounding_mode.toStringView();
  if (mode == "floor") return Op::kDivFloor;
  if (mode == "trunc") return Op::kDivTrunc;
  TORCH_CHECK(false,
              "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '",
              std::string(mode), "'");
}

}  // namespace

const std::vector<Overload>& Overloads() {
  static const auto* overloads = new std::vector<Overload>(MakeOverloads());
  return *overloads;
}

OpCall ReadCall(const Overload& overload, const torch::jit::Stack& stack) {
  OpCall call;
  call.overload = &overload;
  call.op = overload.op;
  size_t at = stack.size() - overload.arguments();
  for (bool scalar : overload.scalar) {
    const c10::IValue& value = stack[at++];
    Operand operand;
    if (scalar) {
      operand.scalar = value.toScalar();
    } else {
      operand.tensor = &value.toTensor();
    }
    call.operands.push_back(operand);
  }
  if (overload.alpha) call.alpha = stack[at++].toScalar();
  if (overload.rounding_mode) call.op = DivOp(stack[at++]);
  if (overload.variant == Variant::kOut) {
    const c10::IValue& out = stack[at++];
    if (out.isTensor()) call.destination = out.toTensor();
  } else if (overload.variant == Variant::kInPlace) {
    call.destination = *call.operands[0].tensor;
  }
  return call;
}

}  // namespace oneflow_promote::torch_extension
