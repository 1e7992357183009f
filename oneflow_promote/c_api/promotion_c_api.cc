// The C ABI for promotion questions (promotion_c_api.h) over PromoteTypes,
// CanCast and ResultType.

#include "oneflow_promote/c_api/promotion_c_api.h"

#include <complex>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "oneflow_promote/c_api/c_api_status.h"
#include "oneflow_promote/c_api/c_operands.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/promotion/policy.h"
#include "oneflow_promote/promotion/result_type.h"
#include "oneflow_promote/status_macros.h"

namespace oneflow_promote::c_api_internal {
namespace {

absl::StatusOr<DType> DTypeArgument(int raw, const char* what) {
  absl::StatusOr<DType> dtype = DTypeFromRaw(raw);
  if (!dtype.ok()) return ArgumentError(what, dtype.status());
  return dtype;
}

// The header's codes are the enum's values.
static_assert(ONEFLOW_PROMOTE_POLICY_TORCH == static_cast<int>(Policy::kTorch) &&
              ONEFLOW_PROMOTE_POLICY_ARRAY_API == static_cast<int>(Policy::kArrayApi) &&
              ONEFLOW_PROMOTE_POLICY_NUMPY == static_cast<int>(Policy::kNumpy) &&
              ONEFLOW_PROMOTE_POLICY_JAX == static_cast<int>(Policy::kJax) &&
              ONEFLOW_PROMOTE_POLICY_JAX_X32 == static_cast<int>(Policy::kJaxX32) &&
              ONEFLOW_PROMOTE_POLICY_JAX_STRICT == static_cast<int>(Policy::kJaxStrict) &&
              ONEFLOW_PROMOTE_POLICY_MLX == static_cast<int>(Policy::kMlx) && kNumPolicies == 7);

}  // namespace

absl::StatusOr<Policy> PolicyFromC(int raw) {
  std::vector<std::string> codes;
  for (Policy policy : kAllPolicies) {
    if (static_cast<int>(policy) == raw) return policy;
    codes.push_back(absl::StrCat(static_cast<int>(policy), " (", PolicyName(policy), ")"));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("policy code ", raw, " is not one of ", absl::StrJoin(codes, ", ")));
}

absl::StatusOr<std::vector<Operand>> OperandsFromC(const oneflow_promote_operand* operands,
                                                   size_t count) {
  if (count > 0 && operands == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("operands is null but count is ", count));
  }
  std::vector<Operand> out;
  out.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const oneflow_promote_operand& in = operands[i];
    const std::string where = absl::StrCat("operand ", i + 1);
    switch (in.kind) {
      case ONEFLOW_PROMOTE_TENSOR: {
        ASSIGN_OR_RETURN(DType dtype, DTypeArgument(in.dtype, where.c_str()));
        if (in.ndim < 0) {
          return absl::InvalidArgumentError(
              absl::StrCat(where, ": ndim ", in.ndim, " is negative"));
        }
        out.push_back(Operand::Tensor(dtype, in.ndim));
        break;
      }
      case ONEFLOW_PROMOTE_PY_BOOL:
        out.push_back(Operand::PyBool(in.int_value != 0));
        break;
      case ONEFLOW_PROMOTE_PY_INT:
        out.push_back(Operand::PyInt(in.int_value));
        break;
      case ONEFLOW_PROMOTE_PY_FLOAT:
        out.push_back(Operand::PyFloat(in.real));
        break;
      case ONEFLOW_PROMOTE_PY_COMPLEX:
        out.push_back(Operand::PyComplex({in.real, in.imag}));
        break;
      default:
        return absl::InvalidArgumentError(
            absl::StrCat(where, ": kind ", in.kind,
                         " is not a tensor (0), Python bool (1), int (2), "
                         "float (3) or complex (4)"));
    }
  }
  return out;
}

absl::StatusOr<PromotionOptions> OptionsFromC(int default_dtype) {
  ASSIGN_OR_RETURN(DType dtype, DTypeArgument(default_dtype, "default dtype"));
  if (dtype != DType::kFloat32 && dtype != DType::kFloat64) {
    return absl::InvalidArgumentError(
        absl::StrCat("the default dtype must be float32 or float64, not ", Name(dtype)));
  }
  return PromotionOptions{dtype};
}

namespace {

absl::Status DTypeFromName(const char* name, int* dtype) {
  RETURN_IF_ERROR(NotNull(name, "the dtype name"));
  RETURN_IF_ERROR(NotNull(dtype, "the result pointer"));
  ASSIGN_OR_RETURN(DType parsed, ParseDType(name));
  *dtype = Index(parsed);
  return absl::OkStatus();
}

absl::Status PromoteTypesFromC(int a, int b, int policy, int* result) {
  RETURN_IF_ERROR(NotNull(result, "the result pointer"));
  ASSIGN_OR_RETURN(Policy p, PolicyFromC(policy));
  ASSIGN_OR_RETURN(DType promoted,
                   PromoteTypes(DTypeFromCode<DType>(a), DTypeFromCode<DType>(b), p).ToStatusOr());
  *result = Index(promoted);
  return absl::OkStatus();
}

absl::Status CanCastFromC(int from, int to, int policy, int* result) {
  RETURN_IF_ERROR(NotNull(result, "the result pointer"));
  ASSIGN_OR_RETURN(Policy p, PolicyFromC(policy));
  ASSIGN_OR_RETURN(DType from_dtype, DTypeArgument(from, "from"));
  ASSIGN_OR_RETURN(DType to_dtype, DTypeArgument(to, "to"));
  *result = CanCast(from_dtype, to_dtype, p) ? 1 : 0;
  return absl::OkStatus();
}

absl::Status ResultTypeFromC(const oneflow_promote_operand* operands, size_t count, int policy,
                             int default_dtype, int* result) {
  RETURN_IF_ERROR(NotNull(result, "the result pointer"));
  ASSIGN_OR_RETURN(Policy p, PolicyFromC(policy));
  ASSIGN_OR_RETURN(PromotionOptions options, OptionsFromC(default_dtype));
  ASSIGN_OR_RETURN(std::vector<Operand> ops, OperandsFromC(operands, count));
  ASSIGN_OR_RETURN(DType dtype, ResultType(ops, p, options));
  *result = Index(dtype);
  return absl::OkStatus();
}

}  // namespace
}  // namespace oneflow_promote::c_api_internal

using oneflow_promote::c_api_internal::ReportStatus;

extern "C" int oneflow_promote_dtype_from_name(const char* name, int* dtype, char* error,
                                               size_t error_size) {
  return ReportStatus(oneflow_promote::c_api_internal::DTypeFromName(name, dtype), error,
                      error_size);
}

extern "C" const char* oneflow_promote_dtype_name(int dtype) {
  // Name() views a string literal, so data() is NUL-terminated and static.
  return oneflow_promote::Name(
             oneflow_promote::c_api_internal::DTypeFromCode<oneflow_promote::DType>(dtype))
      .data();
}

extern "C" int oneflow_promote_promote_types(int a, int b, int policy, int* result, char* error,
                                             size_t error_size) {
  return ReportStatus(oneflow_promote::c_api_internal::PromoteTypesFromC(a, b, policy, result),
                      error, error_size);
}

extern "C" int oneflow_promote_can_cast(int from, int to, int policy, int* result, char* error,
                                        size_t error_size) {
  return ReportStatus(oneflow_promote::c_api_internal::CanCastFromC(from, to, policy, result),
                      error, error_size);
}

extern "C" int oneflow_promote_result_type(const oneflow_promote_operand* operands, size_t count,
                                           int policy, int default_dtype, int* result, char* error,
                                           size_t error_size) {
  return ReportStatus(oneflow_promote::c_api_internal::ResultTypeFromC(operands, count, policy,
                                                                       default_dtype, result),
                      error, error_size);
}
