// Every SBP claim against the library's own conversions and arithmetic: for
// each cast from an 8-bit dtype, over all pairs of values, and from a
// 16-bit dtype, over all values against a spread of 40 others, a claim of
// kExact must hold bit for bit (NaN as NaN), kUpToRounding within one unit
// in the last place of the source dtype, and every kNeedsBoxing must have
// a counterexample, so that no rule is looser or stricter than the cast.
// Two ranks' partials a and b stand for any number of them.

#include "oneflow_promote/sbp/sbp.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "oneflow_promote/convert.h"
#include "oneflow_promote/numeric_types.h"

namespace oneflow_promote::sbp {
namespace {

using ops::Op;

template <typename T>
double AsDouble(T x) {
  return Convert<double>(x);
}

template <typename T>
bool IsNaN(T x) {
  if constexpr (std::is_integral_v<T>) {
    return false;
  } else {
    return std::isnan(AsDouble(x));
  }
}

// a + b in T as the library computes it: bool as or, integers wrapping,
// floats exactly in double, then rounded once to T.
template <typename T>
T Add(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a || b;
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  } else {
    return Convert<T>(AsDouble(a) + AsDouble(b));
  }
}

// maximum / minimum: NaN propagates.
template <typename T>
T Extreme(T a, T b, bool max) {
  if (IsNaN(a)) return a;
  if (IsNaN(b)) return b;
  if constexpr (std::is_integral_v<T>) {
    return max ? std::max(a, b) : std::min(a, b);
  } else {
    return (AsDouble(a) < AsDouble(b)) == max ? b : a;
  }
}

template <typename T>
bool SameValue(T a, T b) {
  if (IsNaN(a) || IsNaN(b)) return IsNaN(a) && IsNaN(b);
  if constexpr (std::is_integral_v<T>) {
    return a == b;
  } else {
    return AsDouble(a) == AsDouble(b);
  }
}

// Bit patterns in value order, to count units in the last place.
template <typename T>
int64_t OrderedBits(T x) {
  uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof(T));
  const uint64_t sign = uint64_t{1} << (8 * sizeof(T) - 1);
  return (bits & sign) ? -static_cast<int64_t>(bits & ~sign) : static_cast<int64_t>(bits);
}

template <typename T>
bool WithinOneUlp(T a, T b) {
  if (SameValue(a, b)) return true;
  if (IsNaN(a) || IsNaN(b)) return false;
  if constexpr (std::is_integral_v<T>) {
    return false;
  } else {
    return std::llabs(OrderedBits(a) - OrderedBits(b)) <= 1;
  }
}

// |x - reference| is at most one unit in the last place of T at
// `reference` (a finite value; the wider neighbour gap counts).
template <typename T>
bool WithinOneUlpOf(double x, T reference) {
  if constexpr (std::is_integral_v<T>) {
    return false;
  } else {
    const double r = AsDouble(reference);
    if (!std::isfinite(r) || !std::isfinite(x)) return false;
    uint64_t bits = 0;
    std::memcpy(&bits, &reference, sizeof(T));
    double gap = 0;
    for (uint64_t neighbour : {bits + 1, bits - 1}) {
      T n;
      std::memcpy(&n, &neighbour, sizeof(T));
      const double d = AsDouble(n);
      if (std::isfinite(d)) gap = std::max(gap, std::fabs(d - r));
    }
    return std::fabs(x - r) <= gap;
  }
}

template <typename T>
std::vector<T> AllValues() {
  std::vector<T> values;
  if constexpr (std::is_same_v<T, bool>) {
    values = {false, true};
  } else {
    for (uint32_t bits = 0; bits < (uint32_t{1} << (8 * sizeof(T))); ++bits) {
      T x;
      std::memcpy(&x, &bits, sizeof(T));
      values.push_back(x);
    }
  }
  return values;
}

// 40 values spread over a 16-bit dtype's bit patterns, both signs.
template <typename T>
std::vector<T> SpreadValues() {
  std::vector<T> values;
  for (uint32_t k = 0; k < 20; ++k) {
    for (uint32_t sign : {0u, 0x8000u}) {
      const uint16_t bits = static_cast<uint16_t>(sign | (k * 0x7FFF / 19));
      T x;
      std::memcpy(&x, &bits, sizeof(T));
      values.push_back(x);
    }
  }
  return values;
}

struct Tally {
  int64_t exact_failures = 0;
  int64_t rounding_failures = 0;
  std::string first_exact_failure;
  std::string first_rounding_failure;

  // A pair whose cast was not exact, and whether it was within rounding.
  void Count(double a, double b, bool within_rounding) {
    if (first_exact_failure.empty()) first_exact_failure = absl::StrCat("a=", a, " b=", b);
    ++exact_failures;
    if (within_rounding) return;
    if (first_rounding_failure.empty()) first_rounding_failure = absl::StrCat("a=", a, " b=", b);
    ++rounding_failures;
  }
};

// Whether the rule for from -> to and kind agrees with the tally of the
// values it was checked on. Not a template, so that the gtest assertions
// are compiled once rather than once per pair of types.
void Judge(DType from, DType to, SbpKind kind, const Tally& tally) {
  const Exactness claim = CastKeeps(from, to, kind);
  const std::string what =
      absl::StrCat(Name(from), " -> ", Name(to), " keeps ", Sbp{kind}.ToString(), ": ",
                   ExactnessName(claim), "; first mismatch ", tally.first_exact_failure,
                   "; beyond rounding ", tally.first_rounding_failure);
  switch (claim) {
    case Exactness::kExact:
      EXPECT_EQ(tally.exact_failures, 0) << what;
      break;
    case Exactness::kUpToRounding:
      EXPECT_EQ(tally.rounding_failures, 0) << what;
      EXPECT_GT(tally.exact_failures, 0) << what << " (exact after all)";
      break;
    case Exactness::kNeedsBoxing:
      // float8_e8m0fnu's unit in the last place is the value itself, so
      // a partial lost to underflow stays within it: sums from it into
      // narrower floats are refused without a counterexample by this
      // measure.
      if (kind == SbpKind::kPartialSum && from == DType::kFloat8E8M0FNU &&
          tally.exact_failures > 0) {
        break;
      }
      EXPECT_GT(kind == SbpKind::kPartialSum ? tally.rounding_failures : tally.exact_failures, 0)
          << what << " (no counterexample)";
      break;
  }
}

template <typename From, typename To>
void CheckCast(const std::vector<From>& as, const std::vector<From>& bs) {
  const DType from = DTypeOf<From>::value, to = DTypeOf<To>::value;
  for (SbpKind kind : {SbpKind::kPartialSum, SbpKind::kPartialMax, SbpKind::kPartialMin}) {
    Tally tally;
    for (From a : as) {
      for (From b : bs) {
        From global;
        To local;
        if (kind == SbpKind::kPartialSum) {
          global = Add(a, b);
          local = Add(Convert<To>(a), Convert<To>(b));
        } else {
          const bool max = kind == SbpKind::kPartialMax;
          global = Extreme(a, b, max);
          local = Extreme(Convert<To>(a), Convert<To>(b), max);
        }
        if (SameValue(Convert<To>(global), local)) continue;
        // Rounding differences exist between floating dtypes only.
        constexpr bool kFloating = !std::is_integral_v<From> && !std::is_integral_v<To>;
        const bool rounding =
            kFloating && kind == SbpKind::kPartialSum &&
            (WithinOneUlp(Convert<From>(local), global) || WithinOneUlpOf(AsDouble(local), global));
        tally.Count(AsDouble(a), AsDouble(b), rounding);
      }
    }
    Judge(from, to, kind, tally);
  }
}

template <typename From>
void CheckCastsFrom(const std::vector<From>& as, const std::vector<From>& bs) {
  CheckCast<From, bool>(as, bs);
  CheckCast<From, uint8_t>(as, bs);
  CheckCast<From, int8_t>(as, bs);
  CheckCast<From, int16_t>(as, bs);
  CheckCast<From, uint16_t>(as, bs);
  CheckCast<From, int32_t>(as, bs);
  CheckCast<From, int64_t>(as, bs);
  CheckCast<From, uint64_t>(as, bs);
  CheckCast<From, Float16>(as, bs);
  CheckCast<From, BFloat16>(as, bs);
  CheckCast<From, float>(as, bs);
  CheckCast<From, double>(as, bs);
  CheckCast<From, Float8E4M3FN>(as, bs);
  CheckCast<From, Float8E5M2>(as, bs);
  CheckCast<From, Float8E4M3FNUZ>(as, bs);
  CheckCast<From, Float8E5M2FNUZ>(as, bs);
  CheckCast<From, Float8E8M0FNU>(as, bs);
}

template <typename From>
void CheckCastsFromEveryPair() {
  const std::vector<From> all = AllValues<From>();
  CheckCastsFrom<From>(all, all);
}

TEST(CastKeeps, EveryPairOf8BitValues) {
  CheckCastsFromEveryPair<bool>();
  CheckCastsFromEveryPair<uint8_t>();
  CheckCastsFromEveryPair<int8_t>();
  CheckCastsFromEveryPair<Float8E4M3FN>();
  CheckCastsFromEveryPair<Float8E5M2>();
  CheckCastsFromEveryPair<Float8E4M3FNUZ>();
  CheckCastsFromEveryPair<Float8E5M2FNUZ>();
  CheckCastsFromEveryPair<Float8E8M0FNU>();
}

template <typename From>
void CheckCastsFrom16Bit() {
  CheckCastsFrom<From>(AllValues<From>(), SpreadValues<From>());
}

TEST(CastKeeps, Every16BitValueAgainstASpread) {
  CheckCastsFrom16Bit<int16_t>();
  CheckCastsFrom16Bit<uint16_t>();
  CheckCastsFrom16Bit<Float16>();
  CheckCastsFrom16Bit<BFloat16>();
}

// The rules are constexpr: every pair and kind evaluated by the compiler.
// The exhaustive tests above check each of these answers on values; here
// the compile-time table must equal the run-time calls.
constexpr SbpKind kKinds[] = {SbpKind::kSplit, SbpKind::kBroadcast, SbpKind::kPartialSum,
                              SbpKind::kPartialMax, SbpKind::kPartialMin};
constexpr auto kCompileTimeRules = [] {
  std::array<std::array<std::array<Exactness, 5>, kNumDTypes>, kNumDTypes> table{};
  for (DType from : kAllDTypes) {
    for (DType to : kAllDTypes) {
      for (int k = 0; k < 5; ++k) table[Index(from)][Index(to)][k] = CastKeeps(from, to, kKinds[k]);
    }
  }
  return table;
}();
static_assert(kCompileTimeRules[Index(DType::kInt32)][Index(DType::kInt8)][2] == Exactness::kExact);
static_assert(kCompileTimeRules[Index(DType::kInt8)][Index(DType::kInt32)][2] ==
              Exactness::kNeedsBoxing);

TEST(CastKeeps, CompileTimeRulesEqualRunTimeCalls) {
  for (DType from : kAllDTypes) {
    for (DType to : kAllDTypes) {
      for (int k = 0; k < 5; ++k) {
        volatile int kind = k;  // a value the compiler cannot fold
        EXPECT_EQ(kCompileTimeRules[Index(from)][Index(to)][k], CastKeeps(from, to, kKinds[kind]))
            << Name(from) << " -> " << Name(to) << " " << Sbp{kKinds[k]}.ToString();
      }
    }
  }
}

TEST(CastKeeps, SplitAndBroadcastAlways) {
  for (DType from : {DType::kInt8, DType::kFloat32, DType::kComplex64}) {
    for (DType to : {DType::kBool, DType::kUInt8, DType::kFloat16}) {
      EXPECT_EQ(CastKeeps(from, to, SbpKind::kSplit), Exactness::kExact);
      EXPECT_EQ(CastKeeps(from, to, SbpKind::kBroadcast), Exactness::kExact);
    }
  }
  // Complex parts add independently: a part of one type keeps partial sums.
  EXPECT_EQ(CastKeeps(DType::kComplex64, DType::kFloat32, SbpKind::kPartialSum), Exactness::kExact);
  EXPECT_EQ(CastKeeps(DType::kFloat64, DType::kComplex128, SbpKind::kPartialSum),
            Exactness::kExact);
  EXPECT_EQ(CastKeeps(DType::kComplex64, DType::kFloat32, SbpKind::kPartialMax),
            Exactness::kNeedsBoxing);
}

// PyTorch 2.15's DTensor keeps Partial(sum) through int8 -> int32: two
// partials [100, 100, -100] materialize as [200, 200, -200], where one
// device gives [-56, -56, 56].
TEST(CastSignature, Int8PartialSumsAreReducedBeforeWidening) {
  const CastSignature widen = InferCastSignature(DType::kInt8, DType::kInt32, {Sbp::PartialSum()});
  EXPECT_EQ(ToString(widen.input), "(B)");
  EXPECT_EQ(ToString(widen.output), "(B)");
  const CastSignature narrow = InferCastSignature(DType::kInt32, DType::kInt8, {Sbp::PartialSum()});
  EXPECT_EQ(ToString(narrow.output), "(P(sum))");
  EXPECT_TRUE(CastBeforeBoxing(DType::kInt32, DType::kInt8, {Sbp::PartialSum()}));
  EXPECT_FALSE(CastBeforeBoxing(DType::kInt8, DType::kInt32, {Sbp::Split(0)}));
  EXPECT_TRUE(CastBeforeBoxing(DType::kFloat32, DType::kBFloat16, {Sbp::Split(0)}));
  // 2-D placement: each dimension on its own; float16 -> float32 keeps sums
  // only up to rounding, so the strict signature reduces them.
  const NdSbp two_d = {Sbp::Split(1), Sbp::PartialSum()};
  EXPECT_EQ(ToString(InferCastSignature(DType::kFloat16, DType::kFloat32, two_d).output),
            "(S(1), B)");
  const CastSignature loose =
      InferCastSignature(DType::kFloat16, DType::kFloat32, two_d, /*strict=*/false);
  EXPECT_EQ(ToString(loose.output), "(S(1), P(sum))");
  EXPECT_EQ(loose.exactness, Exactness::kUpToRounding);
}

TEST(BinarySignature, PartialsSurviveOnlyWhereTheOpDistributes) {
  const auto signature = [](Op op, DType dtype, NdSbp a, NdSbp b, bool strict = true) {
    absl::StatusOr<BinarySignature> s = InferBinarySignature(op, dtype, a, b, strict);
    EXPECT_TRUE(s.ok()) << s.status();
    return absl::StrCat(ToString(s->a), " ", ToString(s->b), " -> ", ToString(s->output));
  };
  const Sbp P = Sbp::PartialSum(), B = Sbp::Broadcast(), S0 = Sbp::Split(0), S1 = Sbp::Split(1);
  EXPECT_EQ(signature(Op::kAdd, DType::kInt8, {P}, {P}), "(P(sum)) (P(sum)) -> (P(sum))");
  EXPECT_EQ(signature(Op::kAdd, DType::kInt8, {P}, {B}), "(B) (B) -> (B)");
  EXPECT_EQ(signature(Op::kMul, DType::kInt8, {B}, {P}), "(B) (P(sum)) -> (P(sum))");
  EXPECT_EQ(signature(Op::kMul, DType::kInt8, {P}, {P}), "(B) (B) -> (B)");
  EXPECT_EQ(signature(Op::kLt, DType::kInt32, {P}, {B}), "(B) (B) -> (B)");
  EXPECT_EQ(signature(Op::kAdd, DType::kFloat32, {P}, {P}), "(B) (B) -> (B)");
  EXPECT_EQ(signature(Op::kAdd, DType::kFloat32, {P}, {P}, false), "(P(sum)) (P(sum)) -> (P(sum))");
  EXPECT_EQ(signature(Op::kMaximum, DType::kInt16, {Sbp::PartialMax()}, {Sbp::PartialMax()}),
            "(P(max)) (P(max)) -> (P(max))");
  EXPECT_EQ(signature(Op::kAdd, DType::kInt8, {S0, P}, {S1, B}),
            "(S(0), B) (S(0), B) -> (S(0), B)");
  EXPECT_EQ(signature(Op::kSub, DType::kInt8, {S0, P}, {B, P}),
            "(S(0), P(sum)) (S(0), P(sum)) -> (S(0), P(sum))");
  EXPECT_FALSE(InferBinarySignature(Op::kAdd, DType::kInt8, {P}, {P, P}).ok());
}

// The distributive laws the binary rules rely on, on every int8 triple:
// wrapping + and * make a ring modulo 256.
TEST(BinarySignature, Int8PartialsExhaustively) {
  for (int a1 = -128; a1 < 128; ++a1) {
    for (int a2 = -128; a2 < 128; ++a2) {
      const int8_t sum = Add<int8_t>(static_cast<int8_t>(a1), static_cast<int8_t>(a2));
      for (int b = -128; b < 128; b += 3) {
        const auto mul = [](int x, int y) { return static_cast<int8_t>(x * y); };
        ASSERT_EQ(mul(sum, b), Add<int8_t>(mul(a1, b), mul(a2, b)));
        // P + P: partials b1 + b2 of the other operand.
        const int8_t b1 = static_cast<int8_t>(b), b2 = static_cast<int8_t>(b * 37 + 11);
        ASSERT_EQ(Add<int8_t>(sum, Add<int8_t>(b1, b2)),
                  Add<int8_t>(Add<int8_t>(static_cast<int8_t>(a1), b1),
                              Add<int8_t>(static_cast<int8_t>(a2), b2)));
      }
    }
  }
}

}  // namespace
}  // namespace oneflow_promote::sbp
