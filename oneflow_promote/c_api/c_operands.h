// Operands and options from the C ABI as the library's types, validated.

#ifndef ONEFLOW_PROMOTE_INTERNAL_C_OPERANDS_H_
#define ONEFLOW_PROMOTE_INTERNAL_C_OPERANDS_H_

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"
#include "oneflow_promote/c_api/promotion_c_api.h"
#include "oneflow_promote/promotion/policy.h"
#include "oneflow_promote/promotion/result_type.h"

namespace oneflow_promote::c_api_internal {

// The operands, or an error naming the first bad one (by position, from 1).
absl::StatusOr<std::vector<Operand>> OperandsFromC(const oneflow_promote_operand* operands,
                                                   size_t count);

// The torch policy's options from a default dtype code (float32 or float64).
absl::StatusOr<PromotionOptions> OptionsFromC(int default_dtype);

// A policy code (ONEFLOW_PROMOTE_POLICY_*), or an error listing the codes.
absl::StatusOr<Policy> PolicyFromC(int raw);

}  // namespace oneflow_promote::c_api_internal

#endif  // ONEFLOW_PROMOTE_INTERNAL_C_OPERANDS_H_
