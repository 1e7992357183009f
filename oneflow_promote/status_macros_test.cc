// RETURN_IF_ERROR and ASSIGN_OR_RETURN: the error leaves unchanged, the
// value is moved out once, and the statements after them run only on OK.

#include "oneflow_promote/status_macros.h"

#include <memory>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gtest/gtest.h"

namespace {

absl::Status Check(bool ok) { return ok ? absl::OkStatus() : absl::NotFoundError("missing"); }

absl::StatusOr<int> Twice(bool ok, int* reached) {
  RETURN_IF_ERROR(Check(ok));
  ++*reached;
  return 2;
}

TEST(StatusMacrosTest, ReturnIfErrorPassesTheErrorOnAndStops) {
  int reached = 0;
  EXPECT_EQ(Twice(true, &reached).value(), 2);
  EXPECT_EQ(reached, 1);
  const absl::StatusOr<int> failed = Twice(false, &reached);
  EXPECT_EQ(failed.status(), absl::NotFoundError("missing"));
  EXPECT_EQ(reached, 1);
}

absl::StatusOr<std::unique_ptr<int>> Boxed(bool ok) {
  if (!ok) return absl::OutOfRangeError("too far");
  return std::make_unique<int>(7);
}

// A move-only value, and a comma the preprocessor sees inside the
// expression (a template's arguments).
absl::StatusOr<int> Sum(bool first_ok, bool second_ok) {
  ASSIGN_OR_RETURN(std::unique_ptr<int> first, Boxed(first_ok));
  ASSIGN_OR_RETURN(auto second, Boxed(std::pair<bool, int>(second_ok, 0).first));
  return *first + *second;
}

TEST(StatusMacrosTest, AssignOrReturnMovesTheValueOrReturnsTheError) {
  EXPECT_EQ(Sum(true, true).value(), 14);
  EXPECT_EQ(Sum(true, false).status(), absl::OutOfRangeError("too far"));
  EXPECT_EQ(Sum(false, true).status(), absl::OutOfRangeError("too far"));
}

absl::Status Store(bool ok, int* target) {
  ASSIGN_OR_RETURN(*target, Twice(ok, target));
  return absl::OkStatus();
}

TEST(StatusMacrosTest, AssignOrReturnAssignsAnExistingVariable) {
  int target = 0;
  EXPECT_TRUE(Store(true, &target).ok());
  EXPECT_EQ(target, 2);
  target = 5;
  EXPECT_EQ(Store(false, &target), absl::NotFoundError("missing"));
  EXPECT_EQ(target, 5);
}

}  // namespace
