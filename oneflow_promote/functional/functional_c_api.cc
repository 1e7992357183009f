// The C ABI over functional::CallOut for binary ops.

#include "oneflow_promote/functional/functional_c_api.h"

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "kernels/internal/c_api_status.h"
#include "oneflow_promote/functional/functional.h"
#include "oneflow_promote/functional/op_rules.h"
#include "oneflow_promote/functional/tensor.h"

namespace oneflow_promote::functional {
namespace {

absl::Status BinaryOp(const char* name, const void* a, int a_dtype, const void* b, int b_dtype,
                      void* out, int out_dtype, int64_t n, int cuda_ordinal, int cast_path) {
  using c_api_internal::DTypeFromCode;
  if (name == nullptr) return absl::InvalidArgumentError("the op name is null");
  absl::StatusOr<Op> op = ParseOp(name);
  if (!op.ok()) return op.status();
  if (OpArity(*op) != 2) {
    return absl::InvalidArgumentError(absl::StrCat("op '", name, "' is not a binary op"));
  }
  if (cast_path < 0 || cast_path > 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("cast_path must be 0 (auto), 1 (materialized) or 2 (fused), not ", cast_path));
  }
  const Device device = cuda_ordinal < 0 ? Device::Cpu() : Device::Cuda(cuda_ordinal);
  const int64_t shape[] = {n};
  // The inputs are only read; View takes a mutable pointer because a view
  // may be written through in general.
  absl::StatusOr<Tensor> a_view = Tensor::View(const_cast<void*>(a), DTypeFromCode<DType>(a_dtype), shape, device);
  if (!a_view.ok()) return absl::InvalidArgumentError(absl::StrCat("operand a: ", a_view.status().message()));
  absl::StatusOr<Tensor> b_view = Tensor::View(const_cast<void*>(b), DTypeFromCode<DType>(b_dtype), shape, device);
  if (!b_view.ok()) return absl::InvalidArgumentError(absl::StrCat("operand b: ", b_view.status().message()));
  absl::StatusOr<Tensor> out_view = Tensor::View(out, DTypeFromCode<DType>(out_dtype), shape, device);
  if (!out_view.ok()) return absl::InvalidArgumentError(absl::StrCat("out: ", out_view.status().message()));
  OpOptions options;
  options.cast_path = static_cast<CastPath>(cast_path);
  const Tensor inputs[] = {*a_view, *b_view};
  return CallOut(*op, inputs, *out_view, options);
}

}  // namespace
}  // namespace oneflow_promote::functional

extern "C" int oneflow_promote_binary_op(const char* op, const void* a, int a_dtype, const void* b,
                                         int b_dtype, void* out, int out_dtype, int64_t n,
                                         int cuda_ordinal, int cast_path, char* error,
                                         size_t error_size) {
  return oneflow_promote::c_api_internal::ReportStatus(
      oneflow_promote::functional::BinaryOp(op, a, a_dtype, b, b_dtype, out, out_dtype, n,
                                            cuda_ordinal, cast_path),
      error, error_size);
}
