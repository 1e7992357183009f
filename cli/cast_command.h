// `promote cast FROM TO VALUE...`: each Python literal is converted to FROM
// (one rounding from its decimal value), cast to TO by the library's own CPU
// kernel, and printed: bool as True/False, integers in decimal, floating
// values as %.17g of their exact value (nan, inf, -inf), complex as (re,im).

#ifndef ONEFLOW_PROMOTE_CLI_CAST_COMMAND_H_
#define ONEFLOW_PROMOTE_CLI_CAST_COMMAND_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace oneflow_promote::cli {

// `args` are FROM, TO and the literals; the answer is the results, separated
// by single spaces, or an error naming the bad word.
[[nodiscard]] absl::StatusOr<std::string> RunCastCommand(
    const std::vector<absl::string_view>& args);

}  // namespace oneflow_promote::cli

#endif  // ONEFLOW_PROMOTE_CLI_CAST_COMMAND_H_
