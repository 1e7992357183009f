// The overload table: aten's overload names and argument conventions for
// each op, written out once per op rather than schema by schema.

#include "torch_extension/internal/overloads.h"

#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "torch_extension/internal/python_scalars.h"

namespace oneflow_promote::torch_extension {
namespace {

using functional::Op;

struct Spec {
  const char* name;
  Op op;
  bool alpha = false;
  bool rounding_mode = false;
  bool in_place = true;  // torch has name_ (maximum and minimum have none)
};

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
  static constexpr Spec kBinary[] = {
      {"add", Op::kAdd, true},
      {"sub", Op::kSub, true},
      {"mul", Op::kMul},
      {"div", Op::kDiv, false, true},
      {"floor_divide", Op::kFloorDivide},
      {"remainder", Op::kRemainder},
      {"maximum", Op::kMaximum, false, false, false},
      {"minimum", Op::kMinimum, false, false, false},
      {"atan2", Op::kAtan2},
      {"eq", Op::kEq},
      {"ne", Op::kNe},
      {"lt", Op::kLt},
      {"le", Op::kLe},
      {"gt", Op::kGt},
      {"ge", Op::kGe},
      {"logical_and", Op::kLogicalAnd},
      {"logical_or", Op::kLogicalOr},
      {"logical_xor", Op::kLogicalXor},
      {"bitwise_and", Op::kBitwiseAnd},
      {"bitwise_or", Op::kBitwiseOr},
      {"bitwise_xor", Op::kBitwiseXor},
  };
  std::vector<Overload> overloads;
  for (const Spec& s : kBinary) {
    // Each overload, and for add, sub and div its twin with alpha or
    // rounding_mode ("Tensor_mode", "Scalar_mode_out", as aten names div's).
    const char* suffix = s.alpha ? "alpha" : s.rounding_mode ? "mode" : nullptr;
    const auto add = [&](const char* overload_name, Variant variant, bool scalar_other,
                         bool scalar_self = false) {
      const std::string functional = scalar_self    ? "Scalar_Tensor"
                                     : scalar_other ? "Scalar"
                                                    : "Tensor";
      overloads.push_back(
          Make(s.name, overload_name, s.op, variant, {scalar_self, scalar_other}, false, false));
      overloads.back().functional = absl::StrCat(s.name, ".", functional);
      if (suffix == nullptr) return;
      // "Scalar_out" -> "Scalar_alpha_out", "Tensor" -> "Tensor_alpha".
      const std::string name = overload_name;
      const bool out = name != "out" && absl::EndsWith(name, "_out");
      const std::string twin =
          out ? absl::StrCat(name.substr(0, name.size() - 4), "_", suffix, "_out")
              : absl::StrCat(name, "_", suffix);
      overloads.push_back(
          Make(s.name, twin, s.op, variant, {scalar_self, scalar_other}, s.alpha, s.rounding_mode));
      overloads.back().functional = absl::StrCat(s.name, ".", functional, "_", suffix);
    };
    // Python scalars only where torch takes them (python_scalars.h).
    const PythonScalars scalars = PythonScalarsOf(s.op);
    add("Tensor", Variant::kFunctional, false);
    if (scalars.other) add("Scalar", Variant::kFunctional, true);
    add("out", Variant::kOut, false);
    if (scalars.other) add("Scalar_out", Variant::kOut, true);
    if (s.in_place) {
      add("Tensor", Variant::kInPlace, false);
      if (scalars.other) add("Scalar", Variant::kInPlace, true);
    }
    if (scalars.self) add("Scalar_Tensor", Variant::kFunctional, false, true);
    if (scalars.self_out) add("Scalar_Tensor_out", Variant::kOut, false, true);
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
