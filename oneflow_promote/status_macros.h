// RETURN_IF_ERROR and ASSIGN_OR_RETURN, as Google codebases spell them: the
// early return of a failed absl::Status or absl::StatusOr in one line.
//
// For the library's own .cc files only: a public header never includes this
// one, so the unprefixed names never meet a framework's macros of the same
// names.

#ifndef ONEFLOW_PROMOTE_INTERNAL_STATUS_MACROS_H_
#define ONEFLOW_PROMOTE_INTERNAL_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

// Returns the absl::Status `expr` from the enclosing function unless it is
// OK.
#define RETURN_IF_ERROR(expr)                                                   \
  do {                                                                          \
    if (absl::Status status_macros_status = (expr); !status_macros_status.ok()) \
      return status_macros_status;                                              \
  } while (false)

// `lhs = *statusor` where `statusor` is the absl::StatusOr `rexpr`, or the
// enclosing function returns its status. `lhs` declares or names a variable
// (`auto x`, `const DType dtype`, `x`); a type with a comma needs `auto`.
// Commas in `rexpr` are its own.
#define ASSIGN_OR_RETURN(lhs, ...)                                                             \
  STATUS_MACROS_ASSIGN_OR_RETURN(STATUS_MACROS_CONCAT(status_macros_statusor_, __LINE__), lhs, \
                                 (__VA_ARGS__))

#define STATUS_MACROS_ASSIGN_OR_RETURN(statusor, lhs, rexpr) \
  auto statusor = rexpr;                                     \
  if (!statusor.ok()) return std::move(statusor).status();   \
  lhs = *std::move(statusor)

#define STATUS_MACROS_CONCAT(a, b) STATUS_MACROS_CONCAT_INNER(a, b)
#define STATUS_MACROS_CONCAT_INNER(a, b) a##b

#endif  // ONEFLOW_PROMOTE_INTERNAL_STATUS_MACROS_H_
