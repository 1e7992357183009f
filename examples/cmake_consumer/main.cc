// Checks an installed oneflow_promote from the outside: promotion under the
// torch policy, ResultType with a Python scalar, a float32 -> float16 cast
// (rounding, overflow to inf, NaN), and an invalid dtype from a foreign ABI
// answered with an absl::Status. Prints each mismatch; exits 1 on any.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "fmt/format.h"
#include "kernels/cast.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/dtype_format.h"
#include "oneflow_promote/promotion/policy.h"
#include "oneflow_promote/promotion/result_type.h"

namespace {

using oneflow_promote::DType;
using oneflow_promote::Policy;

int failures = 0;

void Check(bool ok, const std::string& what) {
  std::printf("%s: %s\n", ok ? "ok" : "MISMATCH", what.c_str());
  if (!ok) ++failures;
}

void CheckPromotion(DType a, DType b, DType expected) {
  const oneflow_promote::Promotion p = oneflow_promote::PromoteTypes(a, b, Policy::kTorch);
  Check(p.ok() && p.dtype() == expected,
        fmt::format("PromoteTypes({}, {}) == {} (got {})", a, b, expected,
                    p.ok() ? fmt::format("{}", p.dtype()) : p.status().ToString()));
}

// Same value, or both NaN.
bool SameFloat(float x, float y) { return (std::isnan(x) && std::isnan(y)) || x == y; }

}  // namespace

int main() {
  CheckPromotion(DType::kInt8, DType::kUInt8, DType::kInt16);
  CheckPromotion(DType::kFloat16, DType::kBFloat16, DType::kFloat32);

  // torch.result_type(torch.ones(2, dtype=torch.int32), 1.5) is the default dtype.
  const std::vector<oneflow_promote::Operand> operands = {
      oneflow_promote::Operand::Tensor(DType::kInt32, 1), oneflow_promote::Operand::PyFloat(1.5)};
  const absl::StatusOr<DType> result = oneflow_promote::ResultType(operands, Policy::kTorch);
  Check(result.ok() && *result == DType::kFloat32,
        fmt::format("ResultType(int32 tensor, 1.5) == float32 (got {})",
                    result.ok() ? fmt::format("{}", *result) : result.status().ToString()));

  // One rounding to float16: 65520 is past its largest finite value (65504)
  // by half a step or more, so it overflows to inf.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> src = {1.5f, -2.5f, 65520.0f, nan};
  const std::vector<float> expected = {1.5f, -2.5f, inf, nan};
  std::vector<oneflow_promote::Float16> half(src.size());
  std::vector<float> back(src.size());
  absl::Status status = oneflow_promote::CastElements(src.data(), DType::kFloat32, half.data(),
                                                      DType::kFloat16, src.size());
  if (status.ok()) {
    status = oneflow_promote::CastElements(half.data(), DType::kFloat16, back.data(),
                                           DType::kFloat32, half.size());
  }
  Check(status.ok(), "CastElements float32 -> float16 -> float32: " + status.ToString());
  for (size_t i = 0; status.ok() && i < src.size(); ++i) {
    Check(SameFloat(back[i], expected[i]), fmt::format("float16({}) == {} (got {}, bits {:#06x})",
                                                       src[i], expected[i], back[i], half[i].bits));
  }

  // An enum value from a foreign ABI is an error, not undefined behaviour.
  const absl::StatusOr<DType> raw = oneflow_promote::DTypeFromRaw(99);
  Check(!raw.ok() && raw.status().code() == absl::StatusCode::kInvalidArgument,
        "DTypeFromRaw(99) is InvalidArgument: " + raw.status().ToString());
  const DType bogus = static_cast<DType>(99);
  float dst = 0;
  const absl::Status cast_status =
      oneflow_promote::CastElements(src.data(), DType::kFloat32, &dst, bogus, 1);
  Check(cast_status.code() == absl::StatusCode::kInvalidArgument,
        "CastElements to dtype 99 is InvalidArgument: " + cast_status.ToString());
  const oneflow_promote::Promotion bad =
      oneflow_promote::PromoteTypes(bogus, DType::kInt8, Policy::kTorch);
  Check(!bad.ok() && bad.status().code() == absl::StatusCode::kInvalidArgument,
        "PromoteTypes(99, int8) is InvalidArgument: " + bad.status().ToString());

  if (failures != 0) {
    std::printf("%d mismatches\n", failures);
    return 1;
  }
  return 0;
}
