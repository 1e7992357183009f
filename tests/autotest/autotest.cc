// AutoTest: generators, the dual runner, and the reproducers.

#include "tests/autotest/autotest.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "functional/torch_tensor_traits.h"
#include "oneflow_promote/convert.h"
#include "tests/autotest/reproducer_support.h"
#include "tests/torch_kernel_gaps.h"
#include "tests/torch_oracle.h"

namespace oneflow_promote::autotest {
namespace {

using ops::Op;
using ops::OpName;

Shape StorageShape(const OperandSpec& spec) {
  Shape shape = spec.shape;
  if (spec.transposed) std::swap(shape[shape.size() - 2], shape[shape.size() - 1]);
  return shape;
}

std::string Hex(const void* data, size_t size) {
  std::string text;
  const auto* bytes = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < size; ++i) absl::StrAppend(&text, absl::Hex(bytes[i], absl::kZeroPad2));
  return text;
}

std::string CppBytes(const void* data, size_t size) {
  std::vector<std::string> parts;
  const auto* bytes = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < size; ++i) parts.push_back(absl::StrCat("0x", absl::Hex(bytes[i])));
  return absl::StrCat("{", absl::StrJoin(parts, ", "), "}");
}

std::string CppDouble(double v) {
  if (std::isnan(v)) return "std::numeric_limits<double>::quiet_NaN()";
  if (std::isinf(v))
    return v > 0 ? "std::numeric_limits<double>::infinity()"
                 : "-std::numeric_limits<double>::infinity()";
  char text[64];
  std::snprintf(text, sizeof(text), "%a", v);
  return text;
}

std::string CppScalar(const Operand& s) {
  switch (s.kind()) {
    case Operand::Kind::kPyBool:
      return absl::StrCat("Operand::PyBool(", s.int_value() != 0 ? "true" : "false", ")");
    case Operand::Kind::kPyInt:
      return absl::StrCat("Operand::PyInt(int64_t{", static_cast<int64_t>(s.int_value()), "})");
    case Operand::Kind::kPyFloat:
      return absl::StrCat("Operand::PyFloat(", CppDouble(s.real_value()), ")");
    case Operand::Kind::kPyComplex:
      return absl::StrCat("Operand::PyComplex({", CppDouble(s.real_value()), ", ",
                          CppDouble(s.imag_value()), "})");
    case Operand::Kind::kTensor:
      break;
  }
  return "";
}

// The enumerator's spelling, from the dtype list itself (kFloat8E4M3FN is
// not derivable from the name float8_e4m3fn).
std::string EnumName(DType dtype) {
  switch (dtype) {
#define ONEFLOW_PROMOTE_ENUM_NAME(e, name, type, category) \
  case DType::e:                                           \
    return "DType::" #e;
    ONEFLOW_PROMOTE_FOR_EACH_DTYPE(ONEFLOW_PROMOTE_ENUM_NAME)
#undef ONEFLOW_PROMOTE_ENUM_NAME
  }
  return "";
}

std::string OpEnumName(Op op) {
  std::string e = "ops::Op::k";
  bool upper = true;
  for (char c : OpName(op)) {
    if (c == '_') {
      upper = true;
      continue;
    }
    e += upper ? static_cast<char>(std::toupper(c)) : c;
    upper = false;
  }
  return e;
}

std::string ShapeList(const Shape& shape) {
  return absl::StrCat("{", absl::StrJoin(shape, ", "), "}");
}

std::string Getenv(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

}  // namespace

Generator<int64_t> Random(int64_t lo, int64_t hi) {
  return {[lo, hi](Rng& rng) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); },
          static_cast<double>(hi - lo + 1)};
}
Generator<double> Random(double lo, double hi) {
  return {[lo, hi](Rng& rng) { return std::uniform_real_distribution<double>(lo, hi)(rng); }, 0};
}
Generator<bool> RandomBool() {
  return {[](Rng& rng) { return rng() % 2 == 1; }, 2};
}

Generator<DType> RandomDType(uint32_t groups) {
  std::vector<DType> dtypes;
  for (DType d : testing::TorchDTypes()) {
    const uint32_t group = d == DType::kBool                      ? kBoolGroup
                           : CategoryOf(d) == Category::kUnsigned ? kUnsigned
                           : IsIntegral(d)                        ? kSigned
                           : d == DType::kFloat16                 ? kHalf
                           : d == DType::kBFloat16                ? kBFloat16
                           : IsFloat8(d)                          ? kFloat8
                           : IsFloating(d)                        ? kFloat
                                                                  : kComplex;
    if (groups & group) dtypes.push_back(d);
  }
  return OneOf(dtypes);
}

Generator<DeviceKind> RandomDevice() { return Constant(DeviceKind::kCpu); }

Generator<Shape> RandomShape(int min_rank, int max_rank, int64_t max_extent) {
  return {[=](Rng& rng) {
            Shape shape(std::uniform_int_distribution<int>(min_rank, max_rank)(rng));
            for (int64_t& extent : shape) extent = 1 + static_cast<int64_t>(rng() % max_extent);
            return shape;
          },
          0};
}

Shape BroadcastPartner(const Shape& shape, Rng& rng) {
  const size_t rank = shape.empty() ? 0 : rng() % (shape.size() + 1);
  Shape partner(shape.end() - rank, shape.end());
  for (int64_t& extent : partner) {
    if (rng() % 4 == 0) extent = 1;
  }
  return partner;
}

Generator<Operand> RandomScalar(ScalarKind kind) {
  const Generator<Operand> bools =
      OneOf(std::vector<Operand>{Operand::PyBool(true), Operand::PyBool(false)});
  const Generator<Operand> ints = OneOf(std::vector<Operand>{
      Operand::PyInt(0), Operand::PyInt(1), Operand::PyInt(2), Operand::PyInt(-3),
      Operand::PyInt(255), Operand::PyInt(int64_t{1} << 40)});
  const Generator<Operand> floats = OneOf(std::vector<Operand>{
      Operand::PyFloat(0.5), Operand::PyFloat(-1.5), Operand::PyFloat(0.0), Operand::PyFloat(1e300),
      Operand::PyFloat(std::numeric_limits<double>::infinity())});
  const Generator<Operand> complexes = OneOf(std::vector<Operand>{
      Operand::PyComplex({0, 2}), Operand::PyComplex({1.5, -0.5}), Operand::PyComplex({0, 0})});
  switch (kind) {
    case ScalarKind::kBool:
      return bools;
    case ScalarKind::kInt:
      return ints;
    case ScalarKind::kFloat:
      return floats;
    case ScalarKind::kComplex:
      return complexes;
    case ScalarKind::kAny:
      break;
  }
  return bools | ints | floats | complexes;
}

std::string OperandSpec::Describe() const {
  if (is_scalar) return absl::StrCat("Python ", scalar.ToString());
  if (transposed) {
    return absl::StrCat(Name(dtype), "[", absl::StrJoin(StorageShape(*this), ", "), "].mT");
  }
  return absl::StrCat(Name(dtype), "[", absl::StrJoin(shape, ", "), "]");
}

Generator<OperandSpec> TensorOperand(const Generator<DType>& dtypes,
                                     const Generator<Shape>& shapes) {
  return {[dtypes, shapes](Rng& rng) {
            OperandSpec spec;
            spec.dtype = dtypes(rng);
            spec.shape = rng() % 5 == 0 ? Shape{} : shapes(rng);
            spec.transposed = spec.shape.size() >= 2 && rng() % 3 == 0;
            spec.value_seed = rng();
            return spec;
          },
          dtypes.size()};
}

Generator<OperandSpec> ScalarOperand(const Generator<Operand>& scalars) {
  return scalars.Map([](const Operand& s) {
    OperandSpec spec;
    spec.is_scalar = true;
    spec.scalar = s;
    spec.dtype = s.dtype();
    return spec;
  });
}

OperandsGenerator Operands(std::vector<Generator<OperandSpec>> slots) {
  return {[slots](Rng& rng) {
            std::vector<OperandSpec> specs;
            std::optional<Shape> first;
            for (const auto& slot : slots) {
              specs.push_back(slot(rng));
              OperandSpec& spec = specs.back();
              if (spec.is_scalar || spec.shape.empty()) continue;
              if (!first.has_value()) {
                first = spec.shape;
              } else {
                spec.shape = BroadcastPartner(*first, rng);
                spec.transposed = spec.transposed && spec.shape.size() >= 2;
              }
            }
            return specs;
          },
          0};
}

Tensor MakeTensor(const OperandSpec& spec) {
  if (spec.is_scalar) return Tensor::WrappedNumber(spec.scalar);
  Tensor base = FilledTensor(spec.dtype, StorageShape(spec), spec.value_seed, spec.special_values);
  return spec.transposed ? *base.Transpose(base.ndim() - 2, base.ndim() - 1) : base;
}

at::Tensor MakeTorchTensor(const OperandSpec& spec) {
  if (spec.is_scalar) return testing::ToTorchOperand(spec.scalar);
  const Tensor base =
      FilledTensor(spec.dtype, StorageShape(spec), spec.value_seed, spec.special_values);
  const std::vector<uint8_t> bytes(
      static_cast<const uint8_t*>(base.data()),
      static_cast<const uint8_t*>(base.data()) + base.numel() * ItemSize(spec.dtype));
  return TorchFromBytes(spec.dtype, StorageShape(spec), bytes, spec.transposed);
}

std::string CppReproducer(Op op, const std::vector<OperandSpec>& operands, DType default_dtype,
                          uint64_t seed, const std::string& diagnosis) {
  std::ostringstream out;
  out << "// AutoTest reproducer: " << OpName(op) << ", seed " << seed << ".\n"
      << "// " << diagnosis << "\n"
      << "// Save as tests/autotest/repro.cc, then: bazel run //tests/autotest:repro\n\n"
      << "#include <cmath>\n#include <iostream>\n#include <limits>\n\n"
      << "#include \"tests/autotest/reproducer_support.h\"\n\n"
      << "using namespace oneflow_promote;\n"
      << "using namespace oneflow_promote::autotest;\n\n"
      << "int main() {\n"
      << "  testing::SetTorchDefaultDType(" << EnumName(default_dtype) << ");\n"
      << "  functional::OpOptions options;\n"
      << "  options.promotion.default_dtype = " << EnumName(default_dtype) << ";\n"
      << "  std::vector<Operand> operands;\n"
      << "  std::vector<Tensor> ours;\n"
      << "  std::vector<at::Tensor> theirs;\n";
  for (const OperandSpec& spec : operands) {
    out << "  // " << spec.Describe() << "\n";
    if (spec.is_scalar) {
      out << "  operands.push_back(" << CppScalar(spec.scalar) << ");\n"
          << "  ours.push_back(Tensor::WrappedNumber(operands.back()));\n"
          << "  theirs.push_back(testing::ToTorchOperand(operands.back()));\n";
      continue;
    }
    const Tensor base =
        FilledTensor(spec.dtype, StorageShape(spec), spec.value_seed, spec.special_values);
    out << "  {\n    const std::vector<uint8_t> bytes = "
        << CppBytes(base.data(), base.numel() * ItemSize(spec.dtype)) << ";\n"
        << "    ours.push_back(OursFromBytes(" << EnumName(spec.dtype) << ", "
        << ShapeList(StorageShape(spec)) << ", bytes, " << (spec.transposed ? "true" : "false")
        << "));\n"
        << "    theirs.push_back(TorchFromBytes(" << EnumName(spec.dtype) << ", "
        << ShapeList(StorageShape(spec)) << ", bytes, " << (spec.transposed ? "true" : "false")
        << "));\n"
        << "    operands.push_back(ours.back().AsOperand());\n  }\n";
  }
  out << "  PrintOurs(functional::Call(" << OpEnumName(op) << ", ours, options));\n"
      << "  try {\n"
      << "    PrintTorch(testing::RunTorchOp(" << OpEnumName(op) << ", operands, theirs));\n"
      << "  } catch (const std::exception& e) {\n"
      << "    std::cout << \"libtorch error: \" << e.what() << \"\\n\";\n"
      << "  }\n"
      << "  return 0;\n}\n";
  return out.str();
}

std::string PythonReproducer(Op op, const std::vector<OperandSpec>& operands, DType default_dtype,
                             uint64_t seed) {
  // PyTorch's Python names for the dtypes are the library's canonical names
  // (torch.float8_e4m3fn, torch.uint16, ...).
  std::ostringstream out;
  out << "# AutoTest reproducer: " << OpName(op) << ", seed " << seed << ".\n"
      << "import torch\n\n"
      << "torch.set_default_dtype(torch." << Name(default_dtype) << ")\n";
  std::vector<std::string> names;
  for (size_t i = 0; i < operands.size(); ++i) {
    const OperandSpec& spec = operands[i];
    const std::string name(1, static_cast<char>('a' + i));
    names.push_back(name);
    if (spec.is_scalar) {
      const Operand& s = spec.scalar;
      std::string value = s.ToString();
      if (value == "inf" || value == "-inf" || value == "nan") value = "float('" + value + "')";
      out << name << " = " << value << "\n";
      continue;
    }
    const Tensor base =
        FilledTensor(spec.dtype, StorageShape(spec), spec.value_seed, spec.special_values);
    out << name << " = torch.frombuffer(bytearray.fromhex('"
        << Hex(base.data(), base.numel() * ItemSize(spec.dtype)) << "'), dtype=torch."
        << Name(spec.dtype) << ").reshape([" << absl::StrJoin(StorageShape(spec), ", ") << "])"
        << (spec.transposed ? ".mT" : "") << "  # " << spec.Describe() << "\n";
  }
  const std::string args = absl::StrJoin(names, ", ");
  // Python's operators take a Python scalar on either side (a wrapped
  // number, as in libtorch's C++ API); torch.<op>(scalar, tensor) does not.
  static const std::map<Op, std::string> kOperators = {
      {Op::kAdd, "+"},       {Op::kSub, "-"},          {Op::kMul, "*"},
      {Op::kDiv, "/"},       {Op::kFloorDivide, "//"}, {Op::kDivFloor, "//"},
      {Op::kRemainder, "%"}, {Op::kPow, "**"},         {Op::kEq, "=="},
      {Op::kNe, "!="},       {Op::kLt, "<"},           {Op::kLe, "<="},
      {Op::kGt, ">"},        {Op::kGe, ">="},          {Op::kBitwiseAnd, "&"},
      {Op::kBitwiseOr, "|"}, {Op::kBitwiseXor, "^"}};
  std::string call;
  const auto op_symbol = kOperators.find(op);
  const bool all_scalars = std::all_of(operands.begin(), operands.end(),
                                       [](const OperandSpec& s) { return s.is_scalar; });
  if (op_symbol != kOperators.end() && operands.size() == 2 && !all_scalars) {
    call = absl::StrCat(names[0], " ", op_symbol->second, " ", names[1]);
  } else {
    switch (op) {
      case Op::kDivFloor:
        call = absl::StrCat("torch.div(", args, ", rounding_mode='floor')");
        break;
      case Op::kDivTrunc:
        call = absl::StrCat("torch.div(", args, ", rounding_mode='trunc')");
        break;
      case Op::kCumsum:
        call = absl::StrCat("torch.cumsum(", args, ", 0)");
        break;
      default:
        call = absl::StrCat("torch.", OpName(op), "(", args, ")");
        break;
    }
    if (!operands.empty() && operands[0].is_scalar) {
      out << "# PyTorch's Python API takes no Python scalar in this position; libtorch's C++ "
          << "API (wrapped numbers) does: see the C++ reproducer.\n";
    }
  }
  out << "print(" << call << ")\n";
  return out.str();
}

AutoTestResult RunAutoTest(const AutoTestConfig& config, const OperandsGenerator& generator) {
  AutoTestResult result;
  int cases = config.cases;
  if (const std::string env = Getenv("ONEFLOW_PROMOTE_AUTOTEST_CASES"); !env.empty()) {
    cases = std::atoi(env.c_str());
  }
  uint64_t seed0 = config.seed;
  if (const std::string env = Getenv("ONEFLOW_PROMOTE_AUTOTEST_SEED"); !env.empty()) {
    seed0 = std::strtoull(env.c_str(), nullptr, 10);
  }
  const int loop_limit = config.loop_limit > 0 ? config.loop_limit : 20 * cases;
  const std::string name = config.name.empty() ? std::string(OpName(config.op)) : config.name;
  for (int i = 0; i < loop_limit && result.compared < cases; ++i) {
    const uint64_t seed = seed0 + static_cast<uint64_t>(i);
    Rng rng(seed);
    const DType default_dtype = rng() % 2 ? DType::kFloat64 : DType::kFloat32;
    const std::vector<OperandSpec> specs = generator(rng);
    std::vector<Tensor> ours_in;
    std::vector<at::Tensor> torch_in;
    std::vector<Operand> operands;
    for (const OperandSpec& spec : specs) {
      ours_in.push_back(MakeTensor(spec));
      torch_in.push_back(MakeTorchTensor(spec));
      operands.push_back(ours_in.back().AsOperand());
    }
    functional::OpOptions options;
    options.promotion.default_dtype = default_dtype;
    const absl::StatusOr<Tensor> ours = functional::Call(config.op, ours_in, options);
    testing::SetTorchDefaultDType(default_dtype);
    std::string torch_error;
    at::Tensor theirs;
    try {
      theirs = testing::RunTorchOp(config.op, operands, torch_in);
    } catch (const std::exception& e) {
      torch_error = e.what();
      torch_error = torch_error.substr(0, torch_error.find('\n'));
    }
    testing::SetTorchDefaultDType(DType::kFloat32);

    std::string diagnosis;
    if (!torch_error.empty() && !ours.ok()) {
      ++result.skipped;
      continue;
    }
    if (!torch_error.empty() && testing::TorchLacksKernel(torch_error, /*library_computes=*/true)) {
      ++result.torch_lacks_kernel;  // docs/ops.md lists these cases
      continue;
    }
    if (!torch_error.empty()) {
      diagnosis = absl::StrCat("libtorch raised (", torch_error, ") but oneflow_promote returned ",
                               ours->Describe());
    } else if (!ours.ok()) {
      diagnosis =
          absl::StrCat("oneflow_promote failed (", ours.status().ToString(),
                       ") but libtorch returned ", testing::TorchDTypeName(theirs.scalar_type()));
    } else {
      if (TorchSpecialCasesScalarPow(config.op, operands, ours->dtype())) {
        ++result.torch_special_cases;
        continue;
      }
      ++result.compared;
      const std::string mismatch =
          Mismatch(*ours,
                   ProductInRange(config.op, torch_in,
                                  EitherLoopsAnswer(config.op, torch_in, theirs, *ours)),
                   config.op, DType::kBool, ReductionScaleOf(config.op, torch_in, ours->dtype()));
      if (mismatch.empty()) continue;
      diagnosis = mismatch;
    }
    ++result.failed;
    std::vector<std::string> described;
    for (const OperandSpec& spec : specs) described.push_back(spec.Describe());
    diagnosis = absl::StrCat(OpName(config.op), "(", absl::StrJoin(described, ", "),
                             ") with default dtype ", Name(default_dtype), ": ", diagnosis);
    const std::string cpp = CppReproducer(config.op, specs, default_dtype, seed, diagnosis);
    const std::string py = PythonReproducer(config.op, specs, default_dtype, seed);
    std::string dir = Getenv("TEST_UNDECLARED_OUTPUTS_DIR");
    if (dir.empty()) dir = "/tmp";
    const std::string stem = absl::StrCat(dir, "/", name, "_seed", seed);
    std::ofstream(stem + ".cc") << cpp;
    std::ofstream(stem + ".py") << py;
    result.first_failure = absl::StrCat(
        "AutoTest failure: ", diagnosis,
        "\nRerun this case first: ONEFLOW_PROMOTE_AUTOTEST_SEED=", seed, " with --gtest_filter=*",
        name, "* (it is then case 0).\nReproducers saved as ", stem, ".cc and ", stem,
        ".py\n\n---- C++ (this library and libtorch) ----\n", cpp, "\n---- Python (PyTorch) ----\n",
        py);
    std::cerr << result.first_failure << std::flush;
    break;
  }
  return result;
}

}  // namespace oneflow_promote::autotest
