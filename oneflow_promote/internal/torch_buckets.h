// PyTorch's bucket rules as constexpr functions and the branch-free tables
// derived from them. ResultType's fast path folds operands through these
// tables; the explaining path calls ChooseCombine directly, so both follow
// one statement of the rule.

#ifndef ONEFLOW_PROMOTE_INTERNAL_TORCH_BUCKETS_H_
#define ONEFLOW_PROMOTE_INTERNAL_TORCH_BUCKETS_H_

#include <array>
#include <cstdint>

#include "oneflow_promote/dtype.h"
#include "oneflow_promote/policy.h"

namespace oneflow_promote::internal_torch_buckets {

// How combine_categories(higher, lower) picks a dtype when both buckets hold
// one: a lower bucket matters only in a higher category.
enum class CombineChoice : uint8_t { kHigher, kLower, kComplexOfHigher, kPromote };

[[nodiscard]] constexpr CombineChoice ChooseCombine(DType higher, DType lower) {
  if (IsComplex(higher)) return CombineChoice::kHigher;
  if (IsComplex(lower)) {
    return IsFloating(higher) ? CombineChoice::kComplexOfHigher : CombineChoice::kLower;
  }
  if (IsFloating(higher)) return CombineChoice::kHigher;
  if (higher == DType::kBool || IsFloating(lower)) return CombineChoice::kPromote;
  return CombineChoice::kHigher;
}

// Table codes: a dtype's index, kEmpty for a bucket no operand fell in, and
// kFailed for any error (absorbing; the explaining path words it).
inline constexpr uint8_t kEmpty = kNumDTypes;
inline constexpr uint8_t kFailed = kNumDTypes + 1;
inline constexpr int kNumCodes = kNumDTypes + 2;

using CodeTable = std::array<std::array<uint8_t, kNumCodes>, kNumCodes>;

[[nodiscard]] constexpr uint8_t JoinCode(uint8_t a, uint8_t b) {
  if (a == kFailed || b == kFailed) return kFailed;
  if (a == kEmpty) return b;
  if (b == kEmpty) return a;
  const Promotion p = PromoteTypes(static_cast<DType>(a), static_cast<DType>(b), Policy::kTorch);
  return p.ok() ? static_cast<uint8_t>(Index(p.dtype())) : kFailed;
}

[[nodiscard]] constexpr uint8_t CombineCode(uint8_t higher, uint8_t lower) {
  if (higher == kFailed || lower == kFailed) return kFailed;
  if (lower == kEmpty) return higher;
  if (higher == kEmpty) return lower;
  const DType h = static_cast<DType>(higher);
  switch (ChooseCombine(h, static_cast<DType>(lower))) {
    case CombineChoice::kHigher:
      return higher;
    case CombineChoice::kLower:
      return lower;
    case CombineChoice::kComplexOfHigher: {
      const int complex = internal_policy::ComplexIndexOf(h);
      return complex < 0 ? kFailed : static_cast<uint8_t>(complex);
    }
    case CombineChoice::kPromote:
      return JoinCode(higher, lower);
  }
  return kFailed;
}

template <uint8_t (*kRule)(uint8_t, uint8_t)>
[[nodiscard]] constexpr CodeTable BuildCodeTable() {
  CodeTable table{};
  for (int a = 0; a < kNumCodes; ++a) {
    for (int b = 0; b < kNumCodes; ++b) {
      table[a][b] = kRule(static_cast<uint8_t>(a), static_cast<uint8_t>(b));
    }
  }
  return table;
}

inline constexpr CodeTable kJoin = BuildCodeTable<JoinCode>();
inline constexpr CodeTable kCombine = BuildCodeTable<CombineCode>();

}  // namespace oneflow_promote::internal_torch_buckets

#endif  // ONEFLOW_PROMOTE_INTERNAL_TORCH_BUCKETS_H_
