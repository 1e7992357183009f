// Replays a promotion case file that a generator wrote from live calls of a
// real library (tests/array_api, tests/numpy, tests/jax) through the CLI's
// own parsing, and counts what it compared.

#ifndef ONEFLOW_PROMOTE_TESTS_ORACLE_CASES_H_
#define ONEFLOW_PROMOTE_TESTS_ORACLE_CASES_H_

#include <map>
#include <string>

#include "oneflow_promote/promotion/policy.h"

namespace oneflow_promote::testing {

struct CaseCounts {
  int compared = 0;
  int errors_expected = 0;  // cases where the library raised
  int can_casts = 0;        // "can_cast FROM TO" lines
};

// Checks every line of `path` (relative to the runfiles root):
//   OPERANDS<TAB>ANSWER         `promote OPERANDS` under the current policy
//                               must print ANSWER, or fail where it is "error";
//   can_cast FROM TO<TAB>True   CanCast(FROM, TO, current policy);
//   --policy=P                  the policy of the lines that follow.
// Reports up to 20 mismatches as test failures; returns the counts per
// policy name.
std::map<std::string, CaseCounts> CheckCaseFile(const std::string& path, Policy policy);

}  // namespace oneflow_promote::testing

#endif  // ONEFLOW_PROMOTE_TESTS_ORACLE_CASES_H_
