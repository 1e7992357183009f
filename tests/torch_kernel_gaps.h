// The cases that the oracle tests skip and count rather than compare: PyTorch
// raised a missing-kernel error for a dtype whose support it documents as
// limited ("\"add_stub\" not implemented for 'UInt16'"; the unsigned integers
// past uint8, the float8 formats, complex32, bcomplex32) where the library's
// rules compute. The same error for any other dtype is a refusal, compared
// as one. Decided from the two answers and that list of dtypes, so that a
// PyTorch release that adds a kernel shrinks the count by itself.
// Libtorch-free; the libtorch oracles link it.
//
//   TorchKernelGaps gaps;
//   if (gaps.Skip(op, ours->compute, torch_error, ours.ok())) continue;
//   ...
//   std::cout << gaps.Summary();  // "skipped 20 cases where PyTorch has no CPU kernel ..."

#ifndef ONEFLOW_PROMOTE_TESTS_TORCH_KERNEL_GAPS_H_
#define ONEFLOW_PROMOTE_TESTS_TORCH_KERNEL_GAPS_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "absl/strings/string_view.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/ops/op_list.h"

namespace oneflow_promote::testing {

// Whether `torch_error` (the text PyTorch raised) says that a CPU kernel is
// missing for a limited-support dtype: `"<kernel>" not implemented for
// '<ScalarType>'`. Texts of rules ("maximum not implemented for complex
// tensors.", `"bitwise_and_cpu" not implemented for 'Float'`) do not match.
[[nodiscard]] bool IsMissingTorchKernel(absl::string_view torch_error);

// Whether an oracle comparison is to be skipped: PyTorch raised a missing
// kernel and the library computes (docs/ops.md lists those cases). Where
// both raise, or PyTorch raised anything else, the case is compared.
[[nodiscard]] inline bool TorchLacksKernel(absl::string_view torch_error, bool library_computes) {
  return library_computes && IsMissingTorchKernel(torch_error);
}

// Counts the skipped cases by op and compute dtype, for a test to print.
class TorchKernelGaps {
 public:
  // TorchLacksKernel, counting the case when it holds. `compute` is the
  // library's compute dtype for the case (any value when it raises).
  bool Skip(ops::Op op, DType compute, absl::string_view torch_error, bool library_computes);
  int64_t skipped() const { return skipped_; }
  // "skipped N cases where PyTorch has no CPU kernel and the library
  // computes: add (uint16, uint32), sum (float8_e4m3fn)\n", or "" for none.
  std::string Summary() const;

 private:
  int64_t skipped_ = 0;
  std::map<ops::Op, std::set<DType>> dtypes_;
};

}  // namespace oneflow_promote::testing

#endif  // ONEFLOW_PROMOTE_TESTS_TORCH_KERNEL_GAPS_H_
