// The AutoTest's judge: how a result of the library must agree with
// libtorch's (bit for bit, or within the bounds libtorch's own code paths
// leave), and the answers libtorch's loops might give.

#include "tests/autotest/judge.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "functional/torch_tensor_traits.h"
#include "oneflow_promote/ops/op_rules.h"
#include "tests/torch_oracle.h"

namespace oneflow_promote::autotest {
namespace {

using ops::Op;

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

at::Tensor ProductInRange(Op op, const std::vector<at::Tensor>& torch_in,
                          const at::Tensor& theirs) {
  if (op != Op::kProd || !at::isReducedFloatingType(theirs.scalar_type())) return theirs;
  const at::Tensor product = torch_in[0].to(at::kDouble).prod().to(theirs.scalar_type());
  return at::where((theirs.isinf() | theirs.eq(0)) & product.isfinite() & product.ne(0), product,
                   theirs);
}

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

// The ulps of its running magnitude each such step may round by: a complex
// product about 2.2.
int UlpsPerTerm(DType result) { return IsComplex(result) ? 3 : 1; }

}  // namespace

std::string BoundText(Op op, DType dtype) {
  if (RoundsEachStep(op, dtype)) {
    return absl::StrCat(UlpsPerTerm(dtype), " a term, and 1, of the terms' magnitude");
  }
  return absl::StrCat(CpuPathUlps(op, dtype));
}

std::optional<ReductionScale> ReductionScaleOf(Op op, const std::vector<at::Tensor>& torch_in,
                                               DType result) {
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
  scale.ulps = static_cast<int>(UlpsPerTerm(result) * terms + 1);
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
    } else {
      double scale = IsComplex(dtype) ? std::max(std::isfinite(er) ? std::fabs(er) : 0.0,
                                                 std::isfinite(ei) ? std::fabs(ei) : 0.0)
                                      : std::min(std::fabs(ar), std::fabs(er));
      if (magnitudes != nullptr && std::isfinite(magnitudes[i])) {
        scale = std::max(scale, magnitudes[i]);
      }
      apart = UlpsApart(ar, er, *format, scale);
      if (IsComplex(dtype)) apart = std::max(apart, UlpsApart(ai, ei, *format, scale));
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

}  // namespace oneflow_promote::autotest
