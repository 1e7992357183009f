// PyTorch's bucket rules as constexpr functions, and the encoding that lets
// ResultType's fast path fold operands with one AND each.
//
// Each bucket's running dtype is kept as its set of upper bounds in the torch
// lattice (TorchLattice::kUp). The join of two dtypes is the least element of
// the intersection of their upper sets, so folding operands is ANDing sets,
// and because DType's order is a linear extension of the lattice order (checked
// below) the least element is the lowest set bit. The explaining path calls
// ChooseCombine directly, so both paths follow one statement of the rule.

#ifndef ONEFLOW_PROMOTE_INTERNAL_TORCH_BUCKETS_H_
#define ONEFLOW_PROMOTE_INTERNAL_TORCH_BUCKETS_H_

#include <array>
#include <cstdint>

#include "absl/numeric/bits.h"
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

// Bucket codes: kEmpty for a bucket no operand fell in, Code(dtype) for a
// dtype, kFailed where the fast path gives up (an error, or a pair that only
// PyTorch's float8 and uint16/32/64 guards decide); the detailed path then
// finds and words the answer.
inline constexpr uint8_t kEmpty = 0;
inline constexpr uint8_t kFailed = kNumDTypes + 1;
inline constexpr int kNumCodes = kNumDTypes + 2;

[[nodiscard]] constexpr uint8_t Code(DType dtype) { return static_cast<uint8_t>(Index(dtype) + 1); }
[[nodiscard]] constexpr DType DTypeOf(uint8_t code) { return static_cast<DType>(code - 1); }
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
// A bucket's set is a kFieldBits-bit field: bit 0 marks the empty bucket (its
// set is all ones, the identity of AND) and bit Code(d) is dtype d. An empty
// intersection reads as kFailed. A fold word holds the three buckets' fields.

inline constexpr int kFieldBits = kFailed + 1;  // every code, and the stop bit
static_assert(3 * kFieldBits <= 64, "a word holds three fields");
inline constexpr uint64_t kEmptyField = (uint64_t{1} << kFailed) - 1;

// The set of the torch lattice's upper bounds of `code` (any of the codes).
[[nodiscard]] constexpr uint64_t Field(uint8_t code) {
  if (code == kEmpty) return kEmptyField;
  if (!IsDTypeCode(code)) return 0;
  return uint64_t{TorchLattice::kUp[code - 1]} << 1;
}

// The word of an operand that falls in one bucket with `code`.
enum class Bucket : int { kDimensioned = 0, kZeroDim = 1, kScalar = 2 };

[[nodiscard]] constexpr uint64_t Word(Bucket bucket, uint8_t code) {
  constexpr uint64_t kAllEmpty = kEmptyField | kEmptyField << kFieldBits |
                                 kEmptyField << (2 * kFieldBits);
  const int shift = static_cast<int>(bucket) * kFieldBits;
  return (kAllEmpty & ~(kEmptyField << shift)) | Field(code) << shift;
}

// The code a bucket's field in a fold word stands for: its lowest set bit.
[[nodiscard]] inline int Decode(uint64_t word, Bucket bucket) {
  const uint64_t field = word >> (static_cast<int>(bucket) * kFieldBits) & kEmptyField;
  return absl::countr_zero(field | uint64_t{1} << kFailed);
}

// What the fold relies on, for every pair of codes: a nonempty intersection
// is exactly the upper set of the pair's promotion (so ANDing a whole list
// gives the upper set of the left-to-right fold, as PyTorch computes it), and
// its lowest bit is that promotion, which needs DType's order to list every
// dtype before the dtypes above it.

[[nodiscard]] constexpr bool FieldsFoldLikePyTorch() {
  for (int d = 0; d < kNumDTypes; ++d) {
    if (TorchLattice::kUp[d] & ((uint32_t{1} << d) - 1)) return false;  // not a linear extension
  }
  for (uint8_t a = 0; a < kNumCodes; ++a) {
    for (uint8_t b = 0; b < kNumCodes; ++b) {
      const uint64_t common = Field(a) & Field(b);
      if (common == 0) continue;  // kFailed: the detailed path decides
      const uint8_t join = JoinCode(a, b);
      if (Field(join) != common) return false;
      int lowest = 0;
      while (!(common >> lowest & 1)) ++lowest;
      if (lowest != join) return false;
    }
  }
  return true;
}

static_assert(FieldsFoldLikePyTorch(),
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
      const int complex = internal_policy::ComplexIndexOf(h);
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

}  // namespace oneflow_promote::internal_torch_buckets

#endif  // ONEFLOW_PROMOTE_INTERNAL_TORCH_BUCKETS_H_
