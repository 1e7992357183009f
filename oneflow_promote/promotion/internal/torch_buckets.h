// PyTorch's bucket rules as constexpr functions, and the encoding that lets
// ResultType's fast path fold operands with one AND per bucket each.
//
// Each bucket's running dtype is kept as its set of upper bounds in the torch
// lattice (TorchLattice::kUp). The join of two dtypes is the least element of
// the intersection of their upper sets, so folding operands is ANDing sets,
// and because the bits follow a linear extension of the lattice order
// (checked below) the least element is the lowest set bit. The explaining path calls
// ChooseCombine directly, so both paths follow one statement of the rule.

#ifndef ONEFLOW_PROMOTE_INTERNAL_TORCH_BUCKETS_H_
#define ONEFLOW_PROMOTE_INTERNAL_TORCH_BUCKETS_H_

#include <array>
#include <cstdint>

#include "absl/numeric/bits.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/promotion/policy.h"

namespace oneflow_promote::promotion_internal {

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

// Bucket codes: kEmpty for a bucket no operand fell in, Code(dtype) for a
// dtype, kFailed where the fast path gives up (an error, or a pair that only
// PyTorch's float8 and uint16/32/64 guards decide); the detailed path then
// finds and words the answer. A dtype's code is its rank in a linear
// extension of the torch lattice plus one (see kRankOrder), not its enum
// value: dtypes are appended to the enum as PyTorch adds them, wherever they
// sit in the lattice.
inline constexpr uint8_t kEmpty = 0;
inline constexpr uint8_t kFailed = kNumDTypes + 1;
inline constexpr int kNumCodes = kNumDTypes + 2;

// Every dtype, each listed after all dtypes below it in the torch lattice:
// going up the lattice strictly shrinks the upper set, so sorting by
// upper-set size (largest first) is a linear extension.
[[nodiscard]] constexpr int UpperSetSize(DType dtype) {
  int size = 0;
  for (DType up : kAllDTypes) size += TorchLattice::Reaches(dtype, up) ? 1 : 0;
  return size;
}

[[nodiscard]] constexpr std::array<DType, kNumDTypes> BuildRankOrder() {
  std::array<DType, kNumDTypes> order{};
  for (int i = 0; i < kNumDTypes; ++i) order[i] = kAllDTypes[i];
  for (int i = 1; i < kNumDTypes; ++i) {  // insertion sort: stable, constexpr
    for (int j = i; j > 0 && UpperSetSize(order[j]) > UpperSetSize(order[j - 1]); --j) {
      const DType t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  }
  return order;
}
inline constexpr std::array<DType, kNumDTypes> kRankOrder = BuildRankOrder();

[[nodiscard]] constexpr std::array<uint8_t, kNumDTypes> BuildCodes() {
  std::array<uint8_t, kNumDTypes> codes{};
  for (int rank = 0; rank < kNumDTypes; ++rank) {
    codes[Index(kRankOrder[rank])] = static_cast<uint8_t>(rank + 1);
  }
  return codes;
}
inline constexpr std::array<uint8_t, kNumDTypes> kCodeOf = BuildCodes();

[[nodiscard]] constexpr uint8_t Code(DType dtype) { return kCodeOf[Index(dtype)]; }
[[nodiscard]] constexpr DType DTypeOf(uint8_t code) { return kRankOrder[code - 1]; }
[[nodiscard]] constexpr bool IsDTypeCode(uint8_t code) {
  return static_cast<uint8_t>(code - 1) < kNumDTypes;  // one compare: kEmpty wraps around
}

// PromoteTypes on codes; kEmpty is the identity and kFailed absorbs.
[[nodiscard]] constexpr uint8_t JoinCode(uint8_t a, uint8_t b) {
  if (a == kFailed || b == kFailed) return kFailed;
  if (a == kEmpty) return b;
  if (b == kEmpty) return a;
  const Promotion p = PromoteTypes(DTypeOf(a), DTypeOf(b), Policy::kTorch);
  return p.ok() ? Code(p.dtype()) : kFailed;
}

// ---- bucket sets ----
//
// A bucket's set has bit 0 for the empty bucket (its set is all ones, the
// identity of AND) and bit Code(d) for dtype d. An empty intersection reads
// as kFailed. An operand carries one set per bucket (BucketSets).

using BucketSet = uint32_t;
static_assert(kFailed < 32, "a bucket set holds every code and the stop bit");
inline constexpr BucketSet kEmptySet = (BucketSet{1} << kFailed) - 1;

// The set of the torch lattice's upper bounds of `code` (any of the codes).
[[nodiscard]] constexpr BucketSet Set(uint8_t code) {
  if (code == kEmpty) return kEmptySet;
  if (!IsDTypeCode(code)) return 0;
  BucketSet set = 0;
  for (DType up : kAllDTypes) {
    if (TorchLattice::Reaches(DTypeOf(code), up)) set |= BucketSet{1} << Code(up);
  }
  return set;
}

enum class Bucket : int { kDimensioned = 0, kZeroDim = 1, kScalar = 2 };

// The three buckets' sets of an operand, or of a fold of operands.
struct BucketSets {
  BucketSet sets[3];

  constexpr BucketSets& operator&=(const BucketSets& other) {
    for (int b = 0; b < 3; ++b) sets[b] &= other.sets[b];
    return *this;
  }
};

// The sets of an operand that falls in one bucket with `code`.
[[nodiscard]] constexpr BucketSets SetsOf(Bucket bucket, uint8_t code) {
  BucketSets sets{{kEmptySet, kEmptySet, kEmptySet}};
  sets.sets[static_cast<int>(bucket)] = Set(code);
  return sets;
}

// The code a bucket's set in a fold stands for: its lowest set bit.
[[nodiscard]] inline int Decode(BucketSet set) {
  return absl::countr_zero(set | BucketSet{1} << kFailed);
}

// What the fold relies on, for every pair of codes: a nonempty intersection
// is exactly the upper set of the pair's promotion (so ANDing a whole list
// gives the upper set of the left-to-right fold, as PyTorch computes it), and
// its lowest bit is that promotion, which needs codes to rank every dtype
// before the dtypes above it.

[[nodiscard]] constexpr bool SetsFoldLikePyTorch() {
  for (uint8_t code = 1; code <= kNumDTypes; ++code) {
    if (Set(code) & ((BucketSet{1} << code) - 1)) return false;  // not a linear extension
  }
  for (uint8_t a = 0; a < kNumCodes; ++a) {
    for (uint8_t b = 0; b < kNumCodes; ++b) {
      const BucketSet common = Set(a) & Set(b);
      if (common == 0) continue;  // kFailed: the detailed path decides
      const uint8_t join = JoinCode(a, b);
      if (Set(join) != common) return false;
      int lowest = 0;
      while (!(common >> lowest & 1)) ++lowest;
      if (lowest != join) return false;
    }
  }
  return true;
}

static_assert(SetsFoldLikePyTorch(),
              "the torch lattice's upper sets must fold as PyTorch's promoteTypes does");

// ---- combining buckets ----

[[nodiscard]] constexpr uint8_t CombineCode(uint8_t higher, uint8_t lower) {
  if (higher == kFailed || lower == kFailed) return kFailed;
  if (lower == kEmpty) return higher;
  if (higher == kEmpty) return lower;
  const DType h = DTypeOf(higher);
  switch (ChooseCombine(h, DTypeOf(lower))) {
    case CombineChoice::kHigher:
      return higher;
    case CombineChoice::kLower:
      return lower;
    case CombineChoice::kComplexOfHigher: {
      const int complex = promotion_internal::ComplexIndexOf(h);
      return complex < 0 ? kFailed : Code(static_cast<DType>(complex));
    }
    case CombineChoice::kPromote:
      return JoinCode(higher, lower);
  }
  return kFailed;
}

using CodeTable = std::array<std::array<uint8_t, kNumCodes>, kNumCodes>;

[[nodiscard]] constexpr CodeTable BuildCombineTable() {
  CodeTable table{};
  for (int a = 0; a < kNumCodes; ++a) {
    for (int b = 0; b < kNumCodes; ++b) {
      table[a][b] = CombineCode(static_cast<uint8_t>(a), static_cast<uint8_t>(b));
    }
  }
  return table;
}

inline constexpr CodeTable kCombine = BuildCombineTable();

// kCombine's answer as the dtype's enum value, or kNoDType where the
// detailed path decides: the last lookup of the fast path gives the dtype
// itself, one dependent load fewer than a code to decode.
inline constexpr uint8_t kNoDType = 0xFF;

[[nodiscard]] constexpr CodeTable BuildCombineToDTypeTable() {
  CodeTable table{};
  for (int a = 0; a < kNumCodes; ++a) {
    for (int b = 0; b < kNumCodes; ++b) {
      const uint8_t code = kCombine[a][b];
      table[a][b] = IsDTypeCode(code) ? static_cast<uint8_t>(Index(DTypeOf(code))) : kNoDType;
    }
  }
  return table;
}

inline constexpr CodeTable kCombineToDType = BuildCombineToDTypeTable();

}  // namespace oneflow_promote::promotion_internal

#endif  // ONEFLOW_PROMOTE_INTERNAL_TORCH_BUCKETS_H_
