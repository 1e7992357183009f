// fmt support for DType: fmt::format("{}", dtype) writes the canonical name
// ("bfloat16"), with the format spec of a string ("{:>9}"). A header of its own
// so that the dtype header does not bring fmt to every user.

#ifndef ONEFLOW_PROMOTE_DTYPE_FORMAT_H_
#define ONEFLOW_PROMOTE_DTYPE_FORMAT_H_

#include "absl/strings/string_view.h"
#include "fmt/format.h"
#include "oneflow_promote/dtype.h"

template <>
struct fmt::formatter<oneflow_promote::DType> : fmt::formatter<fmt::string_view> {
  template <typename FormatContext>
  auto format(oneflow_promote::DType dtype, FormatContext& ctx) const {
    const absl::string_view name = oneflow_promote::Name(dtype);
    return fmt::formatter<fmt::string_view>::format(fmt::string_view(name.data(), name.size()),
                                                    ctx);
  }
};

#endif  // ONEFLOW_PROMOTE_DTYPE_FORMAT_H_
