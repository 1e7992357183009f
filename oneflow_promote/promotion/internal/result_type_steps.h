// What the out-of-line ResultType paths share: the trace that records each
// decision for ExplainResultType, how messages name operands, and the
// integer ranges that Python ints are checked against. Only the promotion
// layer's .cc files include this.

#ifndef ONEFLOW_PROMOTE_INTERNAL_RESULT_TYPE_STEPS_H_
#define ONEFLOW_PROMOTE_INTERNAL_RESULT_TYPE_STEPS_H_

#include <cstddef>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/numeric/int128.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/promotion/policy.h"
#include "oneflow_promote/promotion/result_type.h"

namespace oneflow_promote::promotion_internal {

// Records the derivation when explaining. TRACE evaluates its arguments only
// when a trace is being recorded, so ResultType builds no strings. (A short
// macro name, as this header is for the promotion layer's .cc files only.)
#define TRACE(trace, ...)                        \
  do {                                           \
    if ((trace).on()) (trace).Line(__VA_ARGS__); \
  } while (false)

class Trace {
 public:
  explicit Trace(std::vector<std::string>* lines) : lines_(lines) {}
  bool on() const { return lines_ != nullptr; }
  template <typename... Args>
  void Line(const Args&... args) {
    lines_->push_back(absl::StrCat(args...));
  }

 private:
  std::vector<std::string>* lines_;
};

inline std::string OperandLabel(absl::Span<const Operand> operands, size_t i) {
  return absl::StrCat("operand ", i + 1, " (", operands[i].Describe(), ")");
}

inline absl::Status WithContext(const absl::Status& status, absl::string_view context) {
  return absl::Status(status.code(), absl::StrCat(context, ": ", status.message()));
}

// A Python int as Python prints it (absl::int128's operator<< exists, but
// StrCat does not take it in Debian's Abseil 20220623).
std::string FormatInt128(absl::int128 value);

// The inclusive value range of an integer dtype, as 128-bit integers.
struct IntRange {
  absl::int128 min;
  absl::int128 max;
};

inline IntRange RangeOf(DType dtype) {
  return VisitDType(dtype, [](auto tag) -> IntRange {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      return {static_cast<absl::int128>(std::numeric_limits<T>::min()),
              static_cast<absl::int128>(std::numeric_limits<T>::max())};
    } else {
      return {0, 0};
    }
  });
}

inline bool InRange(absl::int128 value, DType dtype) {
  const IntRange range = RangeOf(dtype);
  return value >= range.min && value <= range.max;
}

// ResultType under NumPy's and JAX's policies, whose Python scalars are weak
// nodes of the policy's order (result_type_weak_scalars.cc).
absl::StatusOr<DType> WeakScalarResultType(absl::Span<const Operand> operands, Policy policy,
                                           Trace& trace);

}  // namespace oneflow_promote::promotion_internal

#endif  // ONEFLOW_PROMOTE_INTERNAL_RESULT_TYPE_STEPS_H_
