// The AutoTest's judge: whether a result of the library agrees with
// libtorch's, bit for bit or within the bounds libtorch's own code paths
// leave (docs/ops.md, "Bounds"), and the answers libtorch's loops might
// give. The AutoTest (autotest.h) and //tests:functional_vs_torch judge by
// it.

#ifndef ONEFLOW_PROMOTE_TESTS_AUTOTEST_JUDGE_H_
#define ONEFLOW_PROMOTE_TESTS_AUTOTEST_JUDGE_H_

#include <ATen/ATen.h>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "functional/functional.h"

namespace oneflow_promote::autotest {

// How far libtorch's CPU kernel leaves the last bits of `op` in `dtype` to
// its code path (its vector or scalar loop, Sleef or libm), in ulps: the
// bound a result of ours may differ by, stated in docs/ops.md; 0, bit for
// bit, everywhere else.
int CpuPathUlps(ops::Op op, DType dtype);

// How far rounding may carry a reduction's correct result from libtorch's,
// which accumulates in its own type and order: per result element, the same
// reduction over the terms' magnitudes in float64 (|x| summed for sum, mean
// and cumsum, |a||b| for dot, |x| multiplied for prod), against which ulps
// are counted where it exceeds the result (a sum that cancels carries the
// errors of its terms), and `ulps` of it: one a term for real results, three
// for complex ones (each step rounds by at most an ulp of its running
// magnitude, a complex product by about 2.2), and one for the library's
// own rounding.
struct ReductionScale {
  at::Tensor magnitude;  // float64, the result's shape
  int ulps = 0;
};

// The scale of a reduction, scan or contraction on libtorch's inputs where
// libtorch rounds each step to `result` (float32, float64, complex64 and
// complex128; prod of float16 and bfloat16 too); nullopt for other ops and
// results.
std::optional<ReductionScale> ReductionScaleOf(ops::Op op, const std::vector<at::Tensor>& torch_in,
                                               DType result);

// The bound a result of `op` in `dtype` is held to, in words.
std::string BoundText(ops::Op op, DType dtype);

// "" when `ours` is libtorch's result: the same dtype and shape, integers
// exactly, NaN, infinities and the sign of zero by position, every other
// float part within CpuPathUlps(op, ...), or for a reduction within
// `reduction`'s ulps of its magnitude; else what differs. A result written
// through `computed_in` (out= of another dtype) counts ulps of the narrower
// of the two.
std::string Mismatch(const Tensor& ours, const at::Tensor& theirs, ops::Op op,
                     DType computed_in = DType::kBool,
                     const std::optional<ReductionScale>& reduction = std::nullopt);

// Whether libtorch computes this call by other formulas than its element
// function, which the library does not follow (docs/ops.md, "Bounds"): pow
// with a complex result and a Python-number exponent, which torch's
// pow(Tensor, Scalar) fills with ones (0), copies (1) or multiplies out
// (2, 3) on the CPU, or a Python base of 1, whose pow(Scalar, Tensor) fills
// ones where the library's exp(y log 1) is NaN for an infinite y. The tests
// count these apart.
bool TorchSpecialCasesScalarPow(ops::Op op, absl::Span<const Operand> operands, DType result);

// The largest distance, in ulps, at which Mismatch has found a result of
// ours from libtorch's, by (op, result dtype): what each bound rests on.
const std::map<std::pair<ops::Op, DType>, double>& LargestUlps();

// Where libtorch's CPU answer depends on which of its loops computed an
// element, the library's answer passes too (docs/ops.md, "Element
// semantics"; the PyTorch extension follows the loops): `theirs` with the
// library's values there. remainder: NaN where |a / b| overflows the float
// it computes in (Sleef's fmod in the vector loop; fmod's exact answer in
// the scalar loop and the library). maximum and minimum: the sign of a zero
// where +0.0 and -0.0 tie.
at::Tensor EitherLoopsAnswer(ops::Op op, const std::vector<at::Tensor>& torch_in,
                             const at::Tensor& theirs, const Tensor& ours);

// float16 and bfloat16 prod: libtorch keeps its running product in the
// dtype, which overflows or underflows where the product itself is in
// range (the library multiplies in float64): there, `theirs` with the
// product libtorch computes in float64, rounded to the dtype.
at::Tensor ProductInRange(ops::Op op, const std::vector<at::Tensor>& torch_in,
                          const at::Tensor& theirs);

}  // namespace oneflow_promote::autotest

#endif  // ONEFLOW_PROMOTE_TESTS_AUTOTEST_JUDGE_H_
