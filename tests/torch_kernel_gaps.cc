// TorchKernelGaps (see torch_kernel_gaps.h).

#include "tests/torch_kernel_gaps.h"

#include <cctype>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "oneflow_promote/ops/op_rules.h"

namespace oneflow_promote::testing {

bool IsMissingTorchKernel(absl::string_view torch_error) {
  // "<kernel>" not implemented for '<ScalarType>', the text of
  // AT_DISPATCH's failure; the kernel name is one word, the dtype one whose
  // support torch documents as limited (tests/ops/generate_cases.py's
  // LIMITED_SUPPORT): for any other dtype the text is torch's dtype rule.
  static constexpr absl::string_view kLimitedSupport[] = {
      "UInt16",          "UInt32",          "UInt64",         "Float8_e4m3fn", "Float8_e5m2",
      "Float8_e4m3fnuz", "Float8_e5m2fnuz", "Float8_e8m0fnu", "ComplexHalf",   "BComplex32"};
  constexpr absl::string_view kMiddle = "\" not implemented for '";
  for (size_t at = torch_error.find(kMiddle); at != absl::string_view::npos;
       at = torch_error.find(kMiddle, at + 1)) {
    const size_t open = torch_error.rfind('"', at == 0 ? 0 : at - 1);
    if (open == absl::string_view::npos || open + 1 >= at) continue;
    const absl::string_view kernel = torch_error.substr(open + 1, at - open - 1);
    bool word = true;
    for (char c : kernel) word &= std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    const size_t close = torch_error.find('\'', at + kMiddle.size());
    if (!word || close == absl::string_view::npos || close <= at + kMiddle.size()) continue;
    const absl::string_view dtype =
        torch_error.substr(at + kMiddle.size(), close - at - kMiddle.size());
    for (absl::string_view limited : kLimitedSupport) {
      if (dtype == limited) return true;
    }
  }
  return false;
}

bool TorchKernelGaps::Skip(ops::Op op, DType compute, absl::string_view torch_error,
                           bool library_computes) {
  if (!TorchLacksKernel(torch_error, library_computes)) return false;
  ++skipped_;
  dtypes_[op].insert(compute);
  return true;
}

std::string TorchKernelGaps::Summary() const {
  if (skipped_ == 0) return "";
  std::vector<std::string> ops;
  for (const auto& [op, dtypes] : dtypes_) {
    std::vector<absl::string_view> names;
    for (DType d : dtypes) names.push_back(Name(d));
    ops.push_back(absl::StrCat(ops::OpName(op), " (", absl::StrJoin(names, ", "), ")"));
  }
  return absl::StrCat("skipped ", skipped_,
                      " cases where PyTorch has no CPU kernel and the library computes: ",
                      absl::StrJoin(ops, ", "), "\n");
}

}  // namespace oneflow_promote::testing
