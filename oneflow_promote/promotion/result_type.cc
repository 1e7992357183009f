// ResultType and ExplainResultType: one implementation, with an optional
// trace that records each decision for the explanation.

#include "oneflow_promote/promotion/result_type.h"

#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "fmt/format.h"
#include "oneflow_promote/promotion/internal/result_type_steps.h"
#include "oneflow_promote/promotion/internal/torch_buckets.h"
#include "oneflow_promote/status_macros.h"

namespace oneflow_promote {
namespace promotion_internal {

std::string FormatInt128(absl::int128 value) {
  const bool negative = value < 0;
  absl::uint128 magnitude =
      negative ? -static_cast<absl::uint128>(value) : static_cast<absl::uint128>(value);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  return negative ? "-" + digits : digits;
}

}  // namespace promotion_internal

namespace {

using promotion_internal::ChooseCombine;
using promotion_internal::CombineChoice;
using promotion_internal::FormatInt128;
using promotion_internal::IntRange;
using promotion_internal::OperandLabel;
using promotion_internal::RangeOf;
using promotion_internal::Trace;
using promotion_internal::WithContext;

std::string FormatPyFloat(double value) {
  std::string text = fmt::format("{}", value);
  if (text.find_first_of(".eni") == std::string::npos) text += ".0";  // Python's repr
  return text;
}

// ---------------------------------------------------------------- torch ---

// One of PyTorch's three buckets; `first` is the operand that opened it.
struct Bucket {
  absl::string_view name;
  bool defined = false;
  DType dtype = DType::kBool;
  size_t first = 0;
};

absl::Status JoinIntoBucket(Bucket& bucket, DType dtype, size_t i,
                            absl::Span<const Operand> operands, Trace& trace) {
  if (!bucket.defined) {
    bucket.defined = true;
    bucket.dtype = dtype;
    bucket.first = i;
    TRACE(trace, "  opens the ", bucket.name, " bucket as ", Name(dtype));
    return absl::OkStatus();
  }
  const Promotion p = PromoteTypes(bucket.dtype, dtype, Policy::kTorch);
  if (!p.ok()) {
    return WithContext(
        p.status(),
        absl::StrCat("cannot promote ", OperandLabel(operands, i), " with the ", bucket.name,
                     " bucket (", Name(bucket.dtype), ", from operand ", bucket.first + 1, ")"));
  }
  TRACE(trace, "  ", bucket.name, " bucket: promote(", Name(bucket.dtype), ", ", Name(dtype),
        ") = ", Name(p.dtype()));
  bucket.dtype = p.dtype();
  return absl::OkStatus();
}

// PyTorch's combine_categories (the choice itself is ChooseCombine).
absl::StatusOr<Bucket> Combine(const Bucket& higher, const Bucket& lower, Trace& trace) {
  if (!lower.defined) return higher;
  if (!higher.defined) return lower;
  Bucket out = higher;
  const DType h = higher.dtype;
  const DType l = lower.dtype;
  const std::string step = trace.on() ? absl::StrCat("combine(", higher.name, " ", Name(h), ", ",
                                                     lower.name, " ", Name(l), "): ")
                                      : std::string();
  switch (ChooseCombine(h, l)) {
    case CombineChoice::kHigher:
      TRACE(trace, step, "the lower bucket's category (", CategoryName(CategoryOf(l)),
            ") is not above the higher's (", CategoryName(CategoryOf(h)), "), so ", Name(h));
      break;
    case CombineChoice::kLower:
      TRACE(trace, step, "the lower bucket is complex and the higher is not floating, so ",
            Name(l));
      out.dtype = l;
      break;
    case CombineChoice::kComplexOfHigher: {
      absl::StatusOr<DType> complex = ToComplex(h);
      if (!complex.ok()) {
        return WithContext(complex.status(),
                           absl::StrCat("cannot combine the ", higher.name, " operands (", Name(h),
                                        ") with complex ", lower.name, " operands"));
      }
      TRACE(trace, step,
            "the lower bucket is complex and the higher floating, so the complex "
            "dtype of ",
            Name(h), ": ", Name(*complex));
      out.dtype = *complex;
      break;
    }
    case CombineChoice::kPromote: {
      const Promotion p = PromoteTypes(h, l, Policy::kTorch);
      if (!p.ok()) {
        return WithContext(p.status(),
                           absl::StrCat("cannot combine the ", higher.name, " operands with the ",
                                        lower.name, " operands"));
      }
      TRACE(trace, step, "the higher bucket is bool or the lower one floating, so promote(",
            Name(h), ", ", Name(l), ") = ", Name(p.dtype()));
      out.dtype = p.dtype();
      break;
    }
  }
  return out;
}

absl::StatusOr<DType> TorchResultType(absl::Span<const Operand> operands,
                                      const PromotionOptions& options, Trace& trace) {
  if (options.default_dtype != DType::kFloat32 && options.default_dtype != DType::kFloat64) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the default dtype must be float32 or float64, not ", Name(options.default_dtype)));
  }
  const DType default_complex =
      options.default_dtype == DType::kFloat64 ? DType::kComplex128 : DType::kComplex64;
  TRACE(trace, "policy torch, default dtype ", Name(options.default_dtype),
        ", default complex dtype ", Name(default_complex));

  Bucket dim{"dimensioned"}, zero{"0-d"}, wrapped{"Python scalar"};
  for (size_t i = 0; i < operands.size(); ++i) {
    const Operand& op = operands[i];
    DType dtype = op.dtype();
    Bucket* bucket = &wrapped;
    switch (op.kind()) {
      case Operand::Kind::kTensor:
        if (!IsValid(dtype)) {
          return absl::InvalidArgumentError(
              absl::StrCat(OperandLabel(operands, i), " has no valid dtype"));
        }
        bucket = op.ndim() > 0 ? &dim : &zero;
        TRACE(trace, OperandLabel(operands, i), ": dtype ", Name(dtype), " (",
              CategoryName(CategoryOf(dtype)), ")");
        break;
      case Operand::Kind::kPyBool:
        TRACE(trace, OperandLabel(operands, i), ": bool");
        break;
      case Operand::Kind::kPyInt:
        if (op.int_value() < std::numeric_limits<int64_t>::min() ||
            op.int_value() > std::numeric_limits<int64_t>::max()) {
          return absl::InvalidArgumentError(
              absl::StrCat(OperandLabel(operands, i),
                           " does not fit in int64 (PyTorch: Overflow when unpacking long)"));
        }
        TRACE(trace, OperandLabel(operands, i), ": int64");
        break;
      case Operand::Kind::kPyFloat:
        dtype = options.default_dtype;
        TRACE(trace, OperandLabel(operands, i), ": the default dtype, ", Name(dtype));
        break;
      case Operand::Kind::kPyComplex:
        dtype = default_complex;
        TRACE(trace, OperandLabel(operands, i), ": the default complex dtype, ", Name(dtype));
        break;
    }
    RETURN_IF_ERROR(JoinIntoBucket(*bucket, dtype, i, operands, trace));
  }
  if (operands.empty()) {
    return absl::InvalidArgumentError("ResultType needs at least one operand");
  }
  ASSIGN_OR_RETURN(Bucket lower, Combine(zero, wrapped, trace));
  if (zero.defined && wrapped.defined) lower.name = "0-d and Python scalar";
  ASSIGN_OR_RETURN(Bucket result, Combine(dim, lower, trace));
  return result.dtype;
}

// ------------------------------------------------------------ array API ---

absl::StatusOr<DType> ArrayApiResultType(absl::Span<const Operand> operands, Trace& trace) {
  TRACE(trace,
        "policy array_api (0-d and N-d arrays alike; Python scalars take the arrays' "
        "dtype)");
  bool have_array = false;
  DType arrays = DType::kBool;
  size_t first = 0;
  for (size_t i = 0; i < operands.size(); ++i) {
    const Operand& op = operands[i];
    if (!op.is_tensor()) continue;
    if (!have_array) {
      const Promotion self = PromoteTypes(op.dtype(), op.dtype(), Policy::kArrayApi);
      if (!self.ok()) return WithContext(self.status(), OperandLabel(operands, i));
      have_array = true;
      arrays = op.dtype();
      first = i;
      TRACE(trace, OperandLabel(operands, i), ": ", Name(arrays));
      continue;
    }
    const Promotion p = PromoteTypes(arrays, op.dtype(), Policy::kArrayApi);
    if (!p.ok()) {
      return WithContext(p.status(),
                         absl::StrCat(OperandLabel(operands, i), " with the arrays before it (",
                                      Name(arrays), ", from operand ", first + 1, ")"));
    }
    TRACE(trace, OperandLabel(operands, i), ": promote(", Name(arrays), ", ", Name(op.dtype()),
          ") = ", Name(p.dtype()));
    arrays = p.dtype();
  }
  if (!have_array) {
    return absl::InvalidArgumentError(absl::StrCat(
        "at least one array is required; all ", operands.size(), " operands are Python scalars"));
  }
  TRACE(trace, "the arrays promote to ", Name(arrays));

  DType result = arrays;
  for (size_t i = 0; i < operands.size(); ++i) {
    const Operand& op = operands[i];
    if (op.is_tensor()) continue;
    const auto refuse = [&](absl::string_view rule) {
      return absl::InvalidArgumentError(absl::StrCat(OperandLabel(operands, i), " cannot be ",
                                                     "promoted with ", Name(arrays),
                                                     " arrays: ", rule));
    };
    DType scalar_dtype = arrays;
    switch (op.kind()) {
      case Operand::Kind::kPyBool:
        if (arrays != DType::kBool) {
          return refuse("Python bool scalars can only be promoted with bool arrays");
        }
        break;
      case Operand::Kind::kPyInt:
        if (arrays == DType::kBool) {
          return refuse("Python int scalars cannot be promoted with bool arrays");
        }
        if (IsIntegral(arrays)) {
          const IntRange range = RangeOf(arrays);
          if (op.int_value() < range.min || op.int_value() > range.max) {
            return refuse(
                absl::StrCat("Python int scalars must be within the bounds of the "
                             "dtype for integer arrays (",
                             FormatInt128(range.min), " to ", FormatInt128(range.max), ")"));
          }
        }
        break;
      case Operand::Kind::kPyFloat:
        if (!IsFloating(arrays) && !IsComplex(arrays)) {
          return refuse("Python float scalars can only be promoted with floating-point arrays");
        }
        break;
      case Operand::Kind::kPyComplex:
        if (!IsFloating(arrays) && !IsComplex(arrays)) {
          return refuse("Python complex scalars can only be promoted with floating-point arrays");
        }
        scalar_dtype = *ToComplex(arrays);  // float32/float64/complex: always defined
        break;
      case Operand::Kind::kTensor:
        break;
    }
    const Promotion p = PromoteTypes(result, scalar_dtype, Policy::kArrayApi);
    if (!p.ok()) return WithContext(p.status(), OperandLabel(operands, i));
    TRACE(trace, OperandLabel(operands, i), ": takes ", Name(scalar_dtype), "; promote(",
          Name(result), ", ", Name(scalar_dtype), ") = ", Name(p.dtype()));
    result = p.dtype();
  }
  return result;
}

absl::StatusOr<DType> ResultTypeImpl(absl::Span<const Operand> operands, Policy policy,
                                     const PromotionOptions& options, Trace& trace) {
  switch (policy) {
    case Policy::kTorch:
      return TorchResultType(operands, options, trace);
    case Policy::kArrayApi:
      return ArrayApiResultType(operands, trace);
    case Policy::kNumpy:
    case Policy::kJax:
    case Policy::kJaxX32:
    case Policy::kJaxStrict:
    case Policy::kMlx:
      return promotion_internal::WeakScalarResultType(operands, policy, trace);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("policy ", static_cast<int>(policy), " is not a valid policy"));
}

}  // namespace

std::string Operand::ToString() const {
  switch (kind_) {
    case Kind::kTensor:
      // Rank 2 and up is spelled with extents of 1, which ParseOperand reads back.
      return absl::StrCat(
          IsValid(dtype_) ? Name(dtype_) : "invalid",
          ndim_ == 0   ? "[]"
          : ndim_ == 1 ? ""
                       : absl::StrCat("[", absl::StrJoin(std::vector<int>(ndim_, 1), ","), "]"));
    case Kind::kPyBool:
      return int_ != 0 ? "True" : "False";
    case Kind::kPyInt:
      return FormatInt128(int_);
    case Kind::kPyFloat:
      return FormatPyFloat(real_);
    case Kind::kPyComplex: {
      std::string imag = FormatPyFloat(imag_);
      if (imag.size() > 2 && imag.substr(imag.size() - 2) == ".0") imag.resize(imag.size() - 2);
      if (real_ == 0 && !std::signbit(real_)) return absl::StrCat(imag, "j");
      std::string real = FormatPyFloat(real_);
      if (real.size() > 2 && real.substr(real.size() - 2) == ".0") real.resize(real.size() - 2);
      const bool sign = imag[0] == '-' || imag[0] == '+';
      return absl::StrCat("(", real, sign ? "" : "+", imag, "j)");
    }
  }
  return "invalid";
}

std::string Operand::Describe() const {
  switch (kind_) {
    case Kind::kTensor:
      if (!IsValid(dtype_)) {
        return absl::StrCat("tensor of invalid dtype ", static_cast<int>(dtype_));
      }
      if (ndim_ == 0) return absl::StrCat("0-d ", Name(dtype_), " tensor");
      return absl::StrCat(Name(dtype_), " tensor");
    case Kind::kPyBool:
      return absl::StrCat("Python bool ", ToString());
    case Kind::kPyInt:
      return absl::StrCat("Python int ", ToString());
    case Kind::kPyFloat:
      return absl::StrCat("Python float ", ToString());
    case Kind::kPyComplex:
      return absl::StrCat("Python complex ", ToString());
  }
  return "invalid operand";
}

namespace promotion_internal {

absl::StatusOr<DType> DetailedResultType(absl::Span<const Operand> operands, Policy policy,
                                         const PromotionOptions& options) {
  Trace none(nullptr);
  return ResultTypeImpl(operands, policy, options, none);
}

}  // namespace promotion_internal

std::string ExplainResultType(absl::Span<const Operand> operands, Policy policy,
                              const PromotionOptions& options) {
  std::vector<std::string> lines;
  Trace trace(&lines);
  const absl::StatusOr<DType> result = ResultTypeImpl(operands, policy, options, trace);
  lines.push_back(result.ok() ? absl::StrCat("result: ", Name(*result))
                              : absl::StrCat("error: ", result.status().message()));
  return absl::StrJoin(lines, "\n");
}

}  // namespace oneflow_promote
