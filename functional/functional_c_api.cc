// The C ABI over functional::CallOut for binary ops and InferOpDTypes.

#include "functional/functional_c_api.h"

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "functional/functional.h"
#include "functional/tensor.h"
#include "oneflow_promote/c_api/c_api_status.h"
#include "oneflow_promote/c_api/c_operands.h"
#include "oneflow_promote/ops/op_rules.h"
#include "oneflow_promote/status_macros.h"

namespace oneflow_promote::functional {
namespace {

// `device` is where the operands live; `context` where the work runs.
absl::Status BinaryOp(const char* name, const void* a, int a_dtype, const void* b, int b_dtype,
                      void* out, int out_dtype, int64_t n, const Device& device,
                      const ExecutionContext& context, int cast_path) {
  using c_api_internal::ArgumentError;
  using c_api_internal::DTypeFromCode;
  RETURN_IF_ERROR(c_api_internal::NotNull(name, "the op name"));
  ASSIGN_OR_RETURN(ops::Op op, ops::ParseOp(name));
  if (ops::OpArity(op) != 2) {
    return absl::InvalidArgumentError(absl::StrCat("op '", name, "' is not a binary op"));
  }
  if (cast_path < 0 || cast_path > 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("cast_path must be 0 (auto), 1 (materialized) or 2 (fused), not ", cast_path));
  }
  const int64_t shape[] = {n};
  // The inputs are only read; View takes a mutable pointer because a view
  // may be written through in general.
  absl::StatusOr<Tensor> a_view =
      Tensor::View(const_cast<void*>(a), DTypeFromCode<DType>(a_dtype), shape, device);
  if (!a_view.ok()) return ArgumentError("operand a", a_view.status());
  absl::StatusOr<Tensor> b_view =
      Tensor::View(const_cast<void*>(b), DTypeFromCode<DType>(b_dtype), shape, device);
  if (!b_view.ok()) return ArgumentError("operand b", b_view.status());
  absl::StatusOr<Tensor> out_view =
      Tensor::View(out, DTypeFromCode<DType>(out_dtype), shape, device);
  if (!out_view.ok()) return ArgumentError("out", out_view.status());
  OpOptions options;
  options.cast_path = static_cast<CastPath>(cast_path);
  options.context = context;
  const Tensor inputs[] = {*a_view, *b_view};
  return CallOut(op, inputs, *out_view, options);
}

absl::Status OpDTypesFromC(const char* name, const oneflow_promote_operand* operands, size_t count,
                           int policy_code, int default_dtype, int* compute_dtype,
                           int* result_dtype) {
  RETURN_IF_ERROR(c_api_internal::NotNull(name, "the op name"));
  if (compute_dtype == nullptr || result_dtype == nullptr) {
    return absl::InvalidArgumentError("a result pointer is null");
  }
  ASSIGN_OR_RETURN(Policy policy, c_api_internal::PolicyFromC(policy_code));
  ASSIGN_OR_RETURN(ops::Op op, ops::ParseOp(name, policy));
  ASSIGN_OR_RETURN(PromotionOptions options, c_api_internal::OptionsFromC(default_dtype));
  ASSIGN_OR_RETURN(std::vector<Operand> ops, c_api_internal::OperandsFromC(operands, count));
  ASSIGN_OR_RETURN(ops::OpDTypes dtypes, ops::InferOpDTypes(op, ops, options, policy));
  *compute_dtype = Index(dtypes.compute);
  *result_dtype = Index(dtypes.result);
  return absl::OkStatus();
}

}  // namespace
}  // namespace oneflow_promote::functional

extern "C" int oneflow_promote_binary_op(const char* op, const void* a, int a_dtype, const void* b,
                                         int b_dtype, void* out, int out_dtype, int64_t n,
                                         int cuda_ordinal, int cast_path, char* error,
                                         size_t error_size) {
  using oneflow_promote::Device;
  const Device device = cuda_ordinal < 0 ? Device::Cpu() : Device::Cuda(cuda_ordinal);
  return oneflow_promote::c_api_internal::ReportStatus(
      oneflow_promote::functional::BinaryOp(op, a, a_dtype, b, b_dtype, out, out_dtype, n, device,
                                            {}, cast_path),
      error, error_size);
}

extern "C" int oneflow_promote_binary_op_on_host(const char* op, const void* a, int a_dtype,
                                                 const void* b, int b_dtype, void* out,
                                                 int out_dtype, int64_t n, int threads,
                                                 oneflow_promote_parallel_for run, void* state,
                                                 int cast_path, char* error, size_t error_size) {
  oneflow_promote::ExecutionContext context;
  context.cpu_threads = threads;
  context.cpu_pool = {run, state};
  return oneflow_promote::c_api_internal::ReportStatus(
      oneflow_promote::functional::BinaryOp(op, a, a_dtype, b, b_dtype, out, out_dtype, n,
                                            oneflow_promote::Device::Cpu(), context, cast_path),
      error, error_size);
}

extern "C" int oneflow_promote_op_dtypes(const char* op, const oneflow_promote_operand* operands,
                                         size_t count, int default_dtype, int* compute_dtype,
                                         int* result_dtype, char* error, size_t error_size) {
  return oneflow_promote_op_dtypes_under_policy(op, operands, count, ONEFLOW_PROMOTE_POLICY_TORCH,
                                                default_dtype, compute_dtype, result_dtype, error,
                                                error_size);
}

extern "C" int oneflow_promote_op_dtypes_under_policy(const char* op,
                                                      const oneflow_promote_operand* operands,
                                                      size_t count, int policy, int default_dtype,
                                                      int* compute_dtype, int* result_dtype,
                                                      char* error, size_t error_size) {
  return oneflow_promote::c_api_internal::ReportStatus(
      oneflow_promote::functional::OpDTypesFromC(op, operands, count, policy, default_dtype,
                                                 compute_dtype, result_dtype),
      error, error_size);
}
