// ResultType: the dtype an operation over tensors and Python scalars
// computes in, under a policy, with PyTorch's and the Array API's operand
// rules (see docs/promotion.md).
//
//   std::vector<Operand> ops = {Operand::Tensor(DType::kInt8, 1),
//                               Operand::PyFloat(1.0)};
//   absl::StatusOr<DType> dtype = ResultType(ops, Policy::kTorch);  // float32
//
// ExplainResultType runs the same code and also records each decision.

#ifndef ONEFLOW_PROMOTE_RESULT_TYPE_H_
#define ONEFLOW_PROMOTE_RESULT_TYPE_H_

#include <complex>
#include <cstdint>
#include <limits>
#include <string>

#include "absl/base/optimization.h"
#include "absl/numeric/int128.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/promotion/internal/torch_buckets.h"
#include "oneflow_promote/promotion/policy.h"

namespace oneflow_promote {

// One input of an operation: a tensor (its dtype and number of dimensions)
// or a Python scalar (bool, int, float or complex) with its value.
class Operand {
 public:
  enum class Kind : uint8_t { kTensor, kPyBool, kPyInt, kPyFloat, kPyComplex };

  // A tensor; ndim == 0 is a 0-d tensor, which PyTorch ranks below tensors
  // with dimensions.
  [[nodiscard]] static constexpr Operand Tensor(DType dtype, int64_t ndim) {
    namespace tb = promotion_internal;
    const uint8_t code = IsValid(dtype) ? tb::Code(dtype) : tb::kFailed;
    const tb::BucketSets sets =
        tb::SetsOf(ndim == 0 ? tb::Bucket::kZeroDim : tb::Bucket::kDimensioned, code);
    return Operand(Kind::kTensor, dtype, ndim, 0, 0, 0, {{sets, sets}});
  }
  [[nodiscard]] static constexpr Operand PyBool(bool value) {
    return Operand(Kind::kPyBool, DType::kBool, 0, value ? 1 : 0, 0, 0,
                   ScalarSets(DType::kBool, DType::kBool));
  }
  // Python ints are unbounded; this holds the 128-bit range, which covers
  // every integer dtype (uint64's max included) and a margin past it.
  [[nodiscard]] static constexpr Operand PyInt(absl::int128 value) {
    const bool fits = value >= std::numeric_limits<int64_t>::min() &&
                      value <= std::numeric_limits<int64_t>::max();
    namespace tb = promotion_internal;
    const tb::BucketSets sets =
        tb::SetsOf(tb::Bucket::kScalar, fits ? tb::Code(DType::kInt64) : tb::kFailed);
    return Operand(Kind::kPyInt, DType::kInt64, 0, value, 0, 0, {{sets, sets}});
  }
  [[nodiscard]] static constexpr Operand PyFloat(double value) {
    return Operand(Kind::kPyFloat, DType::kFloat64, 0, 0, value, 0,
                   ScalarSets(DType::kFloat32, DType::kFloat64));
  }
  [[nodiscard]] static constexpr Operand PyComplex(std::complex<double> value) {
    return Operand(Kind::kPyComplex, DType::kComplex128, 0, 0, value.real(), value.imag(),
                   ScalarSets(DType::kComplex64, DType::kComplex128));
  }

  [[nodiscard]] constexpr Kind kind() const { return kind_; }
  [[nodiscard]] constexpr bool is_tensor() const { return kind_ == Kind::kTensor; }
  [[nodiscard]] constexpr bool is_scalar() const { return kind_ != Kind::kTensor; }
  // A tensor's dtype; for a scalar, the dtype Python's value has before any
  // rule applies (bool, int64, float64, complex128).
  [[nodiscard]] constexpr DType dtype() const { return dtype_; }
  // Number of dimensions of a tensor; 0 for scalars.
  [[nodiscard]] constexpr int64_t ndim() const { return ndim_; }
  [[nodiscard]] constexpr absl::int128 int_value() const { return int_; }
  [[nodiscard]] constexpr double real_value() const { return real_; }
  [[nodiscard]] constexpr double imag_value() const { return imag_; }

  // The operand as the CLI spells it: "int8", "int8[]", "True", "-3", "1.5",
  // "(1+2j)".
  [[nodiscard]] std::string ToString() const;
  // A longer description for messages: "int8 tensor", "0-d int8 tensor",
  // "Python int 300".
  [[nodiscard]] std::string Describe() const;

  // What the operand brings to PyTorch's three buckets, as
  // promotion_internal' sets: the upper set of its dtype in the bucket it
  // falls in, the identity in the two others. Derived once here because
  // ResultType, on every op's hot path, then folds a list with one AND per
  // bucket and operand.
  [[nodiscard]] constexpr const promotion_internal::BucketSets& torch_bucket_sets(
      bool float64_default) const {
    return torch_sets_.sets[float64_default ? 1 : 0];
  }

 private:
  struct TorchSets {
    promotion_internal::BucketSets sets[2];  // with the float32 default dtype, with float64
  };
  static constexpr TorchSets ScalarSets(DType float32_default, DType float64_default) {
    namespace tb = promotion_internal;
    return {{tb::SetsOf(tb::Bucket::kScalar, tb::Code(float32_default)),
             tb::SetsOf(tb::Bucket::kScalar, tb::Code(float64_default))}};
  }

  constexpr Operand(Kind kind, DType dtype, int64_t ndim, absl::int128 int_value, double real,
                    double imag, TorchSets torch)
      : kind_(kind),
        dtype_(dtype),
        torch_sets_(torch),
        ndim_(ndim),
        int_(int_value),
        real_(real),
        imag_(imag) {}

  Kind kind_;
  DType dtype_;
  TorchSets torch_sets_;
  int64_t ndim_;
  absl::int128 int_;
  double real_;
  double imag_;
};

struct PromotionOptions {
  // The dtype of Python floats under the torch policy (torch.get_default_dtype):
  // float32 or float64. The default complex dtype follows it.
  DType default_dtype = DType::kFloat32;
};

// The result dtype of an operation on `operands`.
//
// Torch: operands fall in three buckets (tensors with dimensions, 0-d
// tensors, Python scalars), each promoted within itself; a lower bucket
// counts only when its category (bool < integer < floating < complex) is
// higher. Python floats take the default dtype, complex the default complex.
//
// Array API: 0-d and N-d arrays promote alike; each Python scalar must fit
// the arrays' promoted dtype (bool with bool, int with integer or floating,
// float with floating, complex with floating) and takes it, complex making a
// real dtype complex. At least one operand must be an array.
//
// Errors (InvalidArgument) name the operands and dtypes involved.
[[nodiscard]] inline absl::StatusOr<DType> ResultType(absl::Span<const Operand> operands,
                                                      Policy policy,
                                                      const PromotionOptions& options = {});

// The derivation of ResultType(operands, policy, options) in plain text, one
// step per line, ending in "result: DTYPE" or "error: MESSAGE".
[[nodiscard]] std::string ExplainResultType(absl::Span<const Operand> operands, Policy policy,
                                            const PromotionOptions& options = {});

namespace promotion_internal {

// PyTorch's rules folded through promotion_internal: one AND per
// bucket and operand, then a lowest-bit scan per bucket and two combine
// lookups, the second giving the dtype; no branch per rule. Returns the
// dtype's enum value, or kNoDType where the detailed path must find (and
// word) an error or apply PyTorch's float8 and uint16/32/64 guards. Inline,
// with ResultType's fast path, because a functor calls it on every op: out
// of line, the call and the StatusOr return cost more than the fold.
[[nodiscard]] inline uint8_t FoldTorchBuckets(absl::Span<const Operand> operands,
                                              const PromotionOptions& options) {
  namespace tb = promotion_internal;
  const bool float64_default = options.default_dtype == DType::kFloat64;
  if (operands.empty() || (!float64_default && options.default_dtype != DType::kFloat32)) {
    return tb::kNoDType;
  }
  // Three locals rather than a BucketSets, so that the fold stays in registers.
  tb::BucketSet dimensioned = tb::kEmptySet, zero_dim = tb::kEmptySet, scalar = tb::kEmptySet;
  for (const Operand& op : operands) {
    const tb::BucketSets& sets = op.torch_bucket_sets(float64_default);
    dimensioned &= sets.sets[static_cast<int>(tb::Bucket::kDimensioned)];
    zero_dim &= sets.sets[static_cast<int>(tb::Bucket::kZeroDim)];
    scalar &= sets.sets[static_cast<int>(tb::Bucket::kScalar)];
  }
  return tb::kCombineToDType[tb::Decode(dimensioned)]
                            [tb::kCombine[tb::Decode(zero_dim)][tb::Decode(scalar)]];
}

// ResultType for everything the fold leaves: errors, and the Array API.
[[nodiscard]] absl::StatusOr<DType> DetailedResultType(absl::Span<const Operand> operands,
                                                       Policy policy,
                                                       const PromotionOptions& options);

}  // namespace promotion_internal

inline absl::StatusOr<DType> ResultType(absl::Span<const Operand> operands, Policy policy,
                                        const PromotionOptions& options) {
  if (policy == Policy::kTorch) {
    const uint8_t dtype = promotion_internal::FoldTorchBuckets(operands, options);
    if (ABSL_PREDICT_TRUE(dtype != promotion_internal::kNoDType)) {
      return static_cast<DType>(dtype);
    }
  }
  return promotion_internal::DetailedResultType(operands, policy, options);
}

}  // namespace oneflow_promote

#endif  // ONEFLOW_PROMOTE_RESULT_TYPE_H_
