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

// The spacing of a float format's values: its mantissa bits and the exponent
// of its smallest normal number.
struct FloatFormat {
  int mantissa_bits;
  int min_exponent;
};

// The format of a float dtype, or of each part of a complex one; none for
// integers and bool, which are compared exactly.
std::optional<FloatFormat> FormatOf(DType dtype) {
  switch (dtype) {
    case DType::kFloat16:
    case DType::kComplex32:
      return FloatFormat{10, -14};
    case DType::kBFloat16:
    case DType::kBComplex32:
      return FloatFormat{7, -126};
    case DType::kFloat32:
    case DType::kComplex64:
      return FloatFormat{23, -126};
    case DType::kFloat64:
    case DType::kComplex128:
      return FloatFormat{52, -1022};
    case DType::kFloat8E4M3FN:
      return FloatFormat{3, -6};
    case DType::kFloat8E5M2:
      return FloatFormat{2, -14};
    case DType::kFloat8E4M3FNUZ:
      return FloatFormat{3, -7};
    case DType::kFloat8E5M2FNUZ:
      return FloatFormat{2, -15};
    case DType::kFloat8E8M0FNU:
      return FloatFormat{0, -127};
    default:
      return std::nullopt;
  }
}

// One unit in the last place at `magnitude` (the subnormal spacing below the
// normal range).
double Ulp(FloatFormat format, double magnitude) {
  const int exponent = magnitude > 0 ? std::ilogb(magnitude) : format.min_exponent;
  return std::ldexp(1.0, std::max(exponent, format.min_exponent) - format.mantissa_bits);
}

// How the parts that admit no bound must agree: exactly (NaN by position,
// infinities by position and sign, zeros by sign), or as libtorch's two
// loops agree with each other where they differ there (kLoopsAlike).
enum class Exactness { kExact, kLoopsAlike };

// Complex mul and div: libtorch's scalar loop fuses mul's products (an
// overflowing ac - bd is inf - inf, -inf fused, NaN not) and computes div
// by other formulas than its vector loop (an underflowing product leaves a
// zero of either sign: 0.5 / (65504 + 1e-40j) is +0j in the scalar loop,
// -0j in the vector loop); the library follows neither everywhere.
Exactness ExactnessOf(Op op, DType dtype) {
  return (op == Op::kMul || op == Op::kDiv) && IsComplex(dtype) ? Exactness::kLoopsAlike
                                                                : Exactness::kExact;
}

bool SameWhereExact(double ours, double theirs, Exactness exactness) {
  if (exactness == Exactness::kLoopsAlike) {
    if (!std::isfinite(ours) || !std::isfinite(theirs)) {
      return std::isfinite(ours) == std::isfinite(theirs);
    }
    return true;  // zeros of either sign
  }
  if (std::isnan(ours) || std::isnan(theirs)) return std::isnan(ours) && std::isnan(theirs);
  if (std::isinf(ours) || std::isinf(theirs)) return ours == theirs;
  if (ours == 0 && theirs == 0) return std::signbit(ours) == std::signbit(theirs);
  return true;
}

// The difference of two finite parts in ulps of `format` at `scale`, the
// smaller magnitude of the two for a real number (an upper bound across a
// binade) and the larger finite part of libtorch's for a complex one (a part
// that cancels, ac - bd, carries the rounding error of the whole number).
double UlpsApart(double ours, double theirs, FloatFormat format, double scale) {
  if (!std::isfinite(theirs)) return 0;
  return std::fabs(ours - theirs) / Ulp(format, scale);
}

// Every digit a double holds.
std::string Digits(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", v);
  return text;
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

namespace {

// Where libtorch's CPU answer depends on which of its loops computed an
// element, the library's answer passes too (docs/ops.md, "Element
// semantics"; the PyTorch extension follows the loops): `theirs` with the
// library's values there. remainder: NaN where |a / b| overflows the float
// it computes in (Sleef's fmod in the vector loop; fmod's exact answer in
// the scalar loop and the library). maximum and minimum: the sign of a zero
// where +0.0 and -0.0 tie.
at::Tensor EitherLoopsAnswer(Op op, const std::vector<at::Tensor>& torch_in,
                             const at::Tensor& theirs, const Tensor& ours) {
  const bool ties = op == Op::kMaximum || op == Op::kMinimum;
  if ((op != Op::kRemainder && !ties) || !at::isFloatingType(theirs.scalar_type()) ||
      FromTorchScalarType(theirs.scalar_type()) != ours.dtype() ||
      std::vector<int64_t>(ours.shape().begin(), ours.shape().end()) != theirs.sizes().vec()) {
    return theirs;
  }
  const at::Tensor mine = at::from_blob(ours.data(), theirs.sizes(), theirs.options()).clone();
  if (ties) return at::where(theirs.eq(0) & mine.eq(0), mine, theirs);
  const double largest = theirs.scalar_type() == at::kDouble ? std::numeric_limits<double>::max()
                                                             : std::numeric_limits<float>::max();
  const at::Tensor quotient = torch_in[0].to(at::kDouble) / torch_in[1].to(at::kDouble);
  return at::where(quotient.abs().gt(largest) & theirs.isnan(), mine, theirs);
}

// float16 and bfloat16 prod: libtorch keeps its running product in the
// dtype, which overflows or underflows where the product itself is in
// range (the library multiplies in float64): there, `theirs` with the
// product libtorch computes in float64, rounded to the dtype.
at::Tensor ProductInRange(Op op, const std::vector<at::Tensor>& torch_in,
                          const at::Tensor& theirs) {
  if (op != Op::kProd || !at::isReducedFloatingType(theirs.scalar_type())) return theirs;
  const at::Tensor product = torch_in[0].to(at::kDouble).prod().to(theirs.scalar_type());
  return at::where((theirs.isinf() | theirs.eq(0)) & product.isfinite() & product.ne(0), product,
                   theirs);
}

// A Python number equal to 1, as c10::Scalar::equal(1.0) takes it.
bool IsPythonOne(const Operand& operand) {
  switch (operand.kind()) {
    case Operand::Kind::kPyBool:
    case Operand::Kind::kPyInt:
      return operand.int_value() == 1;
    case Operand::Kind::kPyFloat:
    case Operand::Kind::kPyComplex:
      return operand.real_value() == 1 && operand.imag_value() == 0;
    case Operand::Kind::kTensor:
      break;
  }
  return false;
}

}  // namespace

int CpuPathUlps(Op op, DType dtype) {
  switch (op) {
    // Sleef's vectorized atan2 (1.0 ulp) in libtorch's vector loop, libm's
    // in its scalar one; the library rounds a double atan2 once.
    case Op::kAtan2:
      return IsFloating(dtype) ? 1 : 0;
    // libtorch's scalar loop fuses (ac - bd) into a multiply-add, its vector
    // loop does not.
    case Op::kMul:
      return dtype == DType::kComplex64 || dtype == DType::kComplex128 ? 1 : 0;
    // Smith's algorithm with fused multiply-adds in the vector loop, none in
    // the scalar one.
    case Op::kDiv:
      return dtype == DType::kComplex64 ? 2 : dtype == DType::kComplex128 ? 1 : 0;
    default:
      break;
  }
  // Measured by //tests:functional_vs_torch and //tests/autotest:ops_autotest
  // (docs/ops.md, "Bounds"): complex64 sqrt rounds a complex128 sqrt once
  // where libtorch takes csqrtf; libtorch's vector loop takes Sleef's
  // float32 and float64 pow (1.0 ulp), the library a double pow (rounded
  // once for float32); on an AMD EPYC (Zen 4) libtorch's AVX512 float32
  // sqrt is not correctly rounded; abs of complex numbers (a float result)
  // is sqrt(re^2 + im^2) in libtorch's vector loop, std::abs (hypot) in its
  // scalar loop (abs of a real number is exact on both sides).
  // (Reductions: ReductionScale.)
  struct Bound {
    Op op;
    DType dtype;
    int ulps;
  };
  static constexpr Bound kMeasured[] = {
      {Op::kPow, DType::kFloat32, 1},  {Op::kPow, DType::kFloat64, 1},
      {Op::kSqrt, DType::kFloat64, 1}, {Op::kSqrt, DType::kComplex64, 1},
      {Op::kSqrt, DType::kFloat32, 1}, {Op::kAbs, DType::kFloat32, 1},
      {Op::kAbs, DType::kFloat64, 1},
  };
  for (const Bound& bound : kMeasured) {
    if (bound.op == op && bound.dtype == dtype) return bound.ulps;
  }
  return 0;
}

namespace {

// Whether libtorch rounds each step of `op` to `result`: reductions, scans
// and contractions of float32, float64, complex64 and complex128, and prod
// of any float (float16 and bfloat16 sums accumulate in float32).
bool RoundsEachStep(Op op, DType result) {
  if (ops::SpecOf(op).kind == ops::OpKind::kElementwise) return false;
  return result == DType::kFloat32 || result == DType::kFloat64 || result == DType::kComplex64 ||
         result == DType::kComplex128 || (op == Op::kProd && IsFloating(result));
}

}  // namespace

std::string BoundText(Op op, DType dtype) {
  if (RoundsEachStep(op, dtype)) {
    return absl::StrCat(IsComplex(dtype) ? 3 : 1, " a term, and 1, of the terms' magnitude");
  }
  return absl::StrCat(CpuPathUlps(op, dtype));
}

std::optional<ReductionScale> ReductionScaleOf(Op op, const std::vector<at::Tensor>& torch_in,
                                               DType result) {
  const bool complex_result = IsComplex(result);
  const ops::OpKind kind = ops::SpecOf(op).kind;
  if (!RoundsEachStep(op, result) || torch_in.empty()) return std::nullopt;
  const at::Tensor x = torch_in[0].abs().to(at::kDouble);
  ReductionScale scale;
  int64_t terms = x.numel();
  if (kind == ops::OpKind::kScan) {
    scale.magnitude = x.dim() == 0 ? x : x.cumsum(0);
    terms = x.dim() == 0 ? 1 : x.size(0);
  } else if (kind == ops::OpKind::kContraction) {
    scale.magnitude = (x * torch_in[1].abs().to(at::kDouble)).sum();
  } else if (op == Op::kProd) {
    scale.magnitude = x.prod();
  } else if (op == Op::kMean) {
    scale.magnitude = x.mean();
  } else {
    scale.magnitude = x.sum();
  }
  scale.ulps = static_cast<int>((complex_result ? 3 : 1) * terms + 1);
  return scale;
}

bool TorchSpecialCasesScalarPow(Op op, absl::Span<const Operand> operands, DType result) {
  return op == Op::kPow && IsComplex(result) && operands.size() == 2 &&
         (operands[1].is_scalar() || IsPythonOne(operands[0]));
}

std::map<std::pair<Op, DType>, double>& MutableLargestUlps() {
  static auto* largest = new std::map<std::pair<Op, DType>, double>;
  return *largest;
}

const std::map<std::pair<Op, DType>, double>& LargestUlps() { return MutableLargestUlps(); }

std::string Mismatch(const Tensor& ours, const at::Tensor& theirs, Op op, DType computed_in,
                     const std::optional<ReductionScale>& reduction) {
  const std::optional<DType> torch_dtype = FromTorchScalarType(theirs.scalar_type());
  if (!torch_dtype.has_value() || ours.dtype() != *torch_dtype) {
    return absl::StrCat("dtype ", Name(ours.dtype()), " vs libtorch ",
                        testing::TorchDTypeName(theirs.scalar_type()));
  }
  const DType dtype = *torch_dtype;
  if (std::vector<int64_t>(ours.shape().begin(), ours.shape().end()) != theirs.sizes().vec()) {
    return absl::StrCat("shape [", absl::StrJoin(ours.shape(), ","), "] vs libtorch [",
                        absl::StrJoin(theirs.sizes(), ","), "]");
  }
  std::optional<FloatFormat> format = FormatOf(dtype);
  if (!format.has_value()) {  // integers and bool: exactly, in int64 (uint64 wraps alike)
    const at::Tensor expected = theirs.to(at::kLong).contiguous();
    const Tensor actual = *ours.To(DType::kInt64);
    const auto* e = expected.data_ptr<int64_t>();
    const auto* a = actual.data_as<int64_t>();
    for (int64_t i = 0; i < actual.numel(); ++i) {
      if (a[i] != e[i]) return absl::StrCat("element ", i, " is ", a[i], ", libtorch ", e[i]);
    }
    return "";
  }
  // A result written through a narrower compute dtype (out=) carries that
  // dtype's rounding: count its ulps.
  if (const std::optional<FloatFormat> computed = FormatOf(computed_in);
      computed.has_value() && computed->mantissa_bits < format->mantissa_bits) {
    format = computed;
  }
  const bool through_float = IsFloating(computed_in) || IsComplex(computed_in);
  int bound = CpuPathUlps(op, through_float ? computed_in : dtype);
  at::Tensor magnitude;
  if (reduction.has_value()) {
    bound = std::max(bound, reduction->ulps);
    magnitude = reduction->magnitude.expand(theirs.sizes()).contiguous();
  }
  const double* magnitudes = magnitude.defined() ? magnitude.data_ptr<double>() : nullptr;
  const Exactness exactness = ExactnessOf(op, through_float ? computed_in : dtype);
  const at::Tensor expected = theirs.to(at::kComplexDouble).contiguous();
  const Tensor actual = *ours.To(DType::kComplex128);
  const auto* e = expected.data_ptr<c10::complex<double>>();
  const auto* a = actual.data_as<Complex<double>>();
  for (int64_t i = 0; i < actual.numel(); ++i) {
    const double er = e[i].real(), ei = e[i].imag(), ar = a[i].real, ai = a[i].imag;
    double apart = 0;
    if (!SameWhereExact(ar, er, exactness) || !SameWhereExact(ai, ei, exactness)) {
      apart = std::numeric_limits<double>::infinity();
    } else if (IsComplex(dtype)) {
      double scale = std::max(std::isfinite(er) ? std::fabs(er) : 0.0,
                              std::isfinite(ei) ? std::fabs(ei) : 0.0);
      if (magnitudes != nullptr && std::isfinite(magnitudes[i])) {
        scale = std::max(scale, magnitudes[i]);
      }
      apart = std::max(UlpsApart(ar, er, *format, scale), UlpsApart(ai, ei, *format, scale));
    } else {
      double scale = std::min(std::fabs(ar), std::fabs(er));
      if (magnitudes != nullptr && std::isfinite(magnitudes[i])) {
        scale = std::max(scale, magnitudes[i]);
      }
      apart = UlpsApart(ar, er, *format, scale);
    }
    if (std::isfinite(apart) && apart > 0) {
      double& largest = MutableLargestUlps()[{op, dtype}];
      largest = std::max(largest, apart);
    }
    if (apart > bound) {
      return absl::StrCat("element ", i, " is (", Digits(ar), ",", Digits(ai), "), libtorch (",
                          Digits(er), ",", Digits(ei), "): ", apart, " ulp apart (bound ", bound,
                          ")");
    }
  }
  return "";
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
