// Operand rules and explanations. The expected dtypes are PyTorch's and
// array-api-strict's documented answers (docs/promotion.md); the exhaustive
// comparisons live in //tests:promotion_vs_torch and //tests:array_api_vs_strict.

#include "oneflow_promote/promotion/result_type.h"

#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace oneflow_promote {
namespace {

absl::StatusOr<DType> Torch(std::vector<Operand> ops, DType default_dtype = DType::kFloat32) {
  return ResultType(ops, Policy::kTorch, PromotionOptions{default_dtype});
}
absl::StatusOr<DType> ArrayApi(std::vector<Operand> ops) {
  return ResultType(ops, Policy::kArrayApi);
}
Operand T(DType d) { return Operand::Tensor(d, 1); }
Operand Z(DType d) { return Operand::Tensor(d, 0); }

TEST(ResultType, PythonScalarsFollowTheDefaultDType) {
  EXPECT_EQ(*Torch({T(DType::kInt8), Operand::PyFloat(1.0)}), DType::kFloat32);
  EXPECT_EQ(*Torch({T(DType::kInt8), Operand::PyFloat(1.0)}, DType::kFloat64), DType::kFloat64);
  EXPECT_EQ(*Torch({T(DType::kInt32), Operand::PyComplex({0, 1})}, DType::kFloat64),
            DType::kComplex128);
  EXPECT_EQ(*Torch({Operand::PyInt(1), Operand::PyFloat(2.0)}), DType::kFloat32);
}

TEST(ResultType, LowerBucketsCountOnlyInAHigherCategory) {
  EXPECT_EQ(*Torch({T(DType::kInt8), Z(DType::kFloat64)}), DType::kFloat64);
  EXPECT_EQ(*Torch({T(DType::kInt8), Z(DType::kInt64)}), DType::kInt8);
  EXPECT_EQ(*Torch({T(DType::kFloat16), Z(DType::kFloat64)}), DType::kFloat16);
  EXPECT_EQ(*Torch({T(DType::kBool), Operand::PyInt(1)}), DType::kInt64);
  EXPECT_EQ(*Torch({T(DType::kFloat16), Operand::PyComplex({0, 1})}), DType::kComplex32);
}

TEST(ResultType, TorchRejectsIntsBeyondInt64AndBadOptions) {
  const absl::int128 big = absl::int128(std::numeric_limits<int64_t>::max()) + 1;
  const absl::StatusOr<DType> r = Torch({T(DType::kInt8), Operand::PyInt(big)});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("operand 2 (Python int 9223372036854775808)"),
            std::string::npos);
  EXPECT_FALSE(Torch({T(DType::kInt8)}, DType::kFloat16).ok());
  EXPECT_FALSE(Torch({}).ok());
}

TEST(ResultType, InvalidForeignDTypesAreErrorsNotCrashes) {
  const absl::StatusOr<DType> r = Torch({T(static_cast<DType>(42)), T(DType::kInt8)});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("operand 1"), std::string::npos);
  EXPECT_FALSE(ArrayApi({T(static_cast<DType>(42))}).ok());
}

TEST(ResultType, ArrayApiScalarsTakeTheArraysDType) {
  EXPECT_EQ(*ArrayApi({T(DType::kUInt8), Operand::PyInt(255)}), DType::kUInt8);
  EXPECT_FALSE(ArrayApi({T(DType::kUInt8), Operand::PyInt(256)}).ok());
  EXPECT_FALSE(ArrayApi({T(DType::kUInt8), Operand::PyInt(-1)}).ok());
  EXPECT_EQ(*ArrayApi({T(DType::kUInt64), Operand::PyInt(absl::int128(UINT64_MAX))}),
            DType::kUInt64);
  EXPECT_EQ(*ArrayApi({T(DType::kFloat32), Operand::PyInt(1)}), DType::kFloat32);
  EXPECT_EQ(*ArrayApi({T(DType::kFloat64), Operand::PyComplex({1, 2})}), DType::kComplex128);
  EXPECT_FALSE(ArrayApi({T(DType::kInt8), Operand::PyFloat(1.5)}).ok());
  EXPECT_FALSE(ArrayApi({T(DType::kInt8), Operand::PyBool(true)}).ok());
  EXPECT_FALSE(ArrayApi({T(DType::kBool), Operand::PyInt(1)}).ok());
  EXPECT_FALSE(ArrayApi({Operand::PyInt(1), Operand::PyFloat(1)}).ok());
  // 0-d arrays are arrays like any other.
  EXPECT_EQ(*ArrayApi({T(DType::kInt8), Z(DType::kInt64)}), DType::kInt64);
}

TEST(ResultType, ArrayApiRangeErrorNamesOperandAndBounds) {
  const absl::StatusOr<DType> r = ArrayApi({T(DType::kInt8), Operand::PyInt(300)});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("operand 2 (Python int 300)"), std::string::npos);
  EXPECT_NE(r.status().message().find("-128 to 127"), std::string::npos);
}

// PyTorch folds operands left to right through promoteTypes, whose uint16/32/64
// guard makes the order matter: bool then uint16 is already an error, while
// float32 then bool then uint16 stays float32 (docs/promotion.md). The
// fast path's set intersection is order-free, so it must hand these lists on.
TEST(ResultType, GuardedDTypesFoldLeftToRightAsPyTorch) {
  EXPECT_FALSE(Torch({T(DType::kBool), T(DType::kUInt16), T(DType::kFloat32)}).ok());
  EXPECT_EQ(*Torch({T(DType::kFloat32), T(DType::kBool), T(DType::kUInt16)}), DType::kFloat32);
  EXPECT_EQ(*Torch({T(DType::kUInt16), T(DType::kUInt16)}), DType::kUInt16);
  EXPECT_EQ(*Torch({T(DType::kUInt32), Operand::PyFloat(1.5)}), DType::kFloat32);
  EXPECT_FALSE(Torch({T(DType::kFloat8E5M2), T(DType::kFloat16)}).ok());
  EXPECT_EQ(*Torch({T(DType::kFloat8E4M3FN), Z(DType::kFloat8E4M3FN)}), DType::kFloat8E4M3FN);
}

// ResultType folds through bit sets and tables; ExplainResultType walks the
// buckets with PromoteTypes one operand at a time. Every list of one to three
// operands over every dtype, under both default dtypes, must get one answer
// (//tests:promotion_vs_torch compares such lists with libtorch's answers).
TEST(ResultType, FastPathAgreesWithTheStepByStepPathOnEveryDType) {
  std::vector<Operand> pool = {Operand::PyBool(true), Operand::PyInt(3),
                               Operand::PyInt(absl::int128(1) << 70), Operand::PyFloat(0.5),
                               Operand::PyComplex({0, 1})};
  for (DType d : kAllDTypes) {
    pool.push_back(T(d));
    pool.push_back(Z(d));
  }
  int64_t compared = 0;
  for (DType default_dtype : {DType::kFloat32, DType::kFloat64}) {
    const PromotionOptions options{default_dtype};
    std::vector<Operand> ops;
    const auto compare = [&] {
      const absl::StatusOr<DType> fast = ResultType(ops, Policy::kTorch, options);
      const std::string explained = ExplainResultType(ops, Policy::kTorch, options);
      ASSERT_EQ(fast.ok() ? absl::StrCat("result: ", Name(*fast))
                          : absl::StrCat("error: ", fast.status().message()),
                explained.substr(explained.rfind('\n') + 1));
      ++compared;
    };
    for (const Operand& a : pool) {
      ops = {a};
      compare();
      for (const Operand& b : pool) {
        ops = {a, b};
        compare();
        for (const Operand& c : pool) {
          ops = {a, b, c};
          compare();
        }
      }
    }
  }
  const int64_t n = static_cast<int64_t>(pool.size());
  EXPECT_EQ(n, 5 + 2 * kNumDTypes);
  EXPECT_EQ(compared, 2 * (n + n * n + n * n * n));
}

// NumPy 2.4 (NEP 50), each answer with the NumPy expression that gives it.
absl::StatusOr<DType> Numpy(std::vector<Operand> ops) { return ResultType(ops, Policy::kNumpy); }

TEST(ResultType, NumpyPythonScalarsAreWeak) {
  // np.add(np.zeros(3, np.int8), 1), (..., 1.5), np.add(np.zeros(3, np.float32), 1e300)
  EXPECT_EQ(*Numpy({T(DType::kInt8), Operand::PyInt(1)}), DType::kInt8);
  EXPECT_EQ(*Numpy({T(DType::kInt8), Operand::PyFloat(1.5)}), DType::kFloat64);
  EXPECT_EQ(*Numpy({T(DType::kFloat32), Operand::PyFloat(1e300)}), DType::kFloat32);
  // np.add(np.zeros(3, np.float16), 1j) -> complex64; (np.zeros(3, bool), 1) -> int64
  EXPECT_EQ(*Numpy({T(DType::kFloat16), Operand::PyComplex({0, 1})}), DType::kComplex64);
  EXPECT_EQ(*Numpy({T(DType::kBool), Operand::PyInt(1)}), DType::kInt64);
  // NumPy scalars and 0-d arrays are strong: np.add(np.zeros(3, np.uint8), np.int64(1))
  EXPECT_EQ(*Numpy({T(DType::kUInt8), Z(DType::kInt64)}), DType::kInt64);
  // np.add(np.zeros(3, np.int64), np.zeros(3, np.uint64)) -> float64
  EXPECT_EQ(*Numpy({T(DType::kInt64), T(DType::kUInt64)}), DType::kFloat64);
  // np.add(1, 2) -> int64; np.add(True, 1) -> int64; np.add(1, 1.5) -> float64
  EXPECT_EQ(*Numpy({Operand::PyInt(1), Operand::PyInt(2)}), DType::kInt64);
  EXPECT_EQ(*Numpy({Operand::PyBool(true), Operand::PyInt(1)}), DType::kInt64);
  EXPECT_EQ(*Numpy({Operand::PyInt(1), Operand::PyFloat(1.5)}), DType::kFloat64);
}

TEST(ResultType, NumpyRaisesOverflowErrorForIntsOutsideTheDType) {
  // np.add(np.zeros(3, np.int8), 300): OverflowError: Python integer 300 out of bounds for int8
  const absl::StatusOr<DType> r = Numpy({T(DType::kInt8), Operand::PyInt(300)});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("operand 2 (Python int 300) is out of bounds for int8"),
            std::string::npos)
      << r.status();
  EXPECT_NE(r.status().message().find("OverflowError"), std::string::npos);
  EXPECT_FALSE(Numpy({T(DType::kUInt64), Operand::PyInt(-1)}).ok());
  EXPECT_FALSE(Numpy({Z(DType::kInt8), Operand::PyInt(300)}).ok());
  // np.add(np.zeros(3, np.uint64), 2**64 - 1) -> uint64; np.add(2**63, 1) raises
  EXPECT_EQ(*Numpy({T(DType::kUInt64), Operand::PyInt(absl::int128(UINT64_MAX))}), DType::kUInt64);
  EXPECT_FALSE(Numpy({Operand::PyInt(absl::int128(1) << 63), Operand::PyInt(1)}).ok());
  // np.add(np.zeros(3, np.float16), 2**100) -> float16 (inf, no error)
  EXPECT_EQ(*Numpy({T(DType::kFloat16), Operand::PyInt(absl::int128(1) << 100)}), DType::kFloat16);
}

// np.result_type(int8 array, uint8 array, float16 array) is float16: NumPy
// promotes every operand with float16, the dtype it ranks highest, where a
// left-to-right fold would give float32. np.result_type(True, 1, int8 array)
// is int8 (the fold: int64).
TEST(ResultType, NumpyPromotesThreeOperandsWithItsHighestRankedDType) {
  EXPECT_EQ(*Numpy({T(DType::kInt8), T(DType::kUInt8), T(DType::kFloat16)}), DType::kFloat16);
  EXPECT_EQ(*Numpy({T(DType::kInt16), T(DType::kUInt8), T(DType::kFloat16)}), DType::kFloat32);
  EXPECT_EQ(*Numpy({Operand::PyBool(true), Operand::PyInt(1), T(DType::kInt8)}), DType::kInt8);
  EXPECT_EQ(*Numpy({T(DType::kInt8), Operand::PyFloat(1.5), T(DType::kFloat16)}), DType::kFloat16);
}

absl::StatusOr<DType> Jax(std::vector<Operand> ops, Policy policy = Policy::kJax) {
  return ResultType(ops, policy);
}

// JAX 0.10.2: jnp.add(jnp.zeros(3, jnp.int8), 300) is int8 (the value wraps),
// since JAX checks a Python int against its default int only.
TEST(ResultType, JaxChecksPythonIntsAgainstTheDefaultInt) {
  EXPECT_EQ(*Jax({T(DType::kInt8), Operand::PyInt(300)}), DType::kInt8);
  EXPECT_EQ(*Jax({T(DType::kInt8), Operand::PyInt(INT64_MAX)}), DType::kInt8);
  // ... (2**64 - 1) and jnp.add(jnp.zeros(3, jnp.uint64), 2**63) raise OverflowError
  const absl::StatusOr<DType> r = Jax({T(DType::kInt8), Operand::PyInt(absl::int128(UINT64_MAX))});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find(
                "operand 2 (Python int 18446744073709551615) is out of bounds for int64, "
                "JAX's default int"),
            std::string::npos)
      << r.status();
  EXPECT_NE(r.status().message().find("the result is int8"), std::string::npos);
  EXPECT_FALSE(Jax({T(DType::kUInt64), Operand::PyInt(absl::int128(1) << 63)}).ok());
  // Without x64 the default int is int32: jnp.add(jnp.zeros(3, jnp.int8), 2**31) raises.
  EXPECT_FALSE(Jax({T(DType::kInt8), Operand::PyInt(absl::int128(1) << 31)}, Policy::kJaxX32).ok());
  EXPECT_EQ(*Jax({T(DType::kInt8), Operand::PyInt(INT32_MAX)}, Policy::kJaxX32), DType::kInt8);
}

TEST(ResultType, JaxWeakTypesAndCanonicalization) {
  // jnp.add(jnp.zeros(3, bool), 1) -> int64 (x64), int32 (x32); 1 + 1.5 -> float64, float32
  EXPECT_EQ(*Jax({T(DType::kBool), Operand::PyInt(1)}), DType::kInt64);
  EXPECT_EQ(*Jax({T(DType::kBool), Operand::PyInt(1)}, Policy::kJaxX32), DType::kInt32);
  EXPECT_EQ(*Jax({Operand::PyInt(1), Operand::PyFloat(1.5)}, Policy::kJaxX32), DType::kFloat32);
  // x32: np.int64 arrays become int32 arrays; jnp.add(int8, 1j) -> complex64
  EXPECT_EQ(*Jax({T(DType::kInt64), T(DType::kInt8)}, Policy::kJaxX32), DType::kInt32);
  EXPECT_EQ(*Jax({T(DType::kInt8), Operand::PyComplex({0, 1})}, Policy::kJaxX32),
            DType::kComplex64);
  // 0-d arrays are strong: jnp.add(int8 array, np.zeros((), np.int64)) -> int64
  EXPECT_EQ(*Jax({T(DType::kInt8), Z(DType::kInt64)}), DType::kInt64);
  // (uint64 + int64) is the weak float: with float16 after it, float16.
  EXPECT_EQ(*Jax({T(DType::kUInt64), T(DType::kInt64), T(DType::kFloat16)}), DType::kFloat16);
}

TEST(ResultType, JaxStrictPromotesOnlyWeakScalars) {
  EXPECT_EQ(*Jax({T(DType::kInt8), Operand::PyInt(300)}, Policy::kJaxStrict), DType::kInt8);
  EXPECT_EQ(*Jax({Operand::PyInt(1), Operand::PyFloat(1.5)}, Policy::kJaxStrict), DType::kFloat64);
  // TypePromotionError: bool with a Python int, int8 with a Python float or with uint8.
  EXPECT_FALSE(Jax({T(DType::kBool), Operand::PyInt(1)}, Policy::kJaxStrict).ok());
  EXPECT_FALSE(Jax({T(DType::kInt8), Operand::PyFloat(1.5)}, Policy::kJaxStrict).ok());
  const absl::StatusOr<DType> r = Jax({T(DType::kInt8), T(DType::kUInt8)}, Policy::kJaxStrict);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("cannot promote operand 2 (uint8 tensor) with int8 "
                                      "(operand 1) under the jax_strict policy"),
            std::string::npos)
      << r.status();
}

// MLX 0.32's answers, read from mx.add and mx.result_type on the CPU
// (tests/mlx/cases.tsv holds every case).
TEST(ResultType, MlxFoldsLeftToRightThroughArrays) {
  auto mlx = [](std::vector<Operand> ops) { return ResultType(ops, Policy::kMlx); };
  // uint64 + int64 is the weak float, an array of float32 at once.
  EXPECT_EQ(*mlx({T(DType::kUInt64), T(DType::kInt64)}), DType::kFloat32);
  EXPECT_EQ(*mlx({T(DType::kInt8), T(DType::kUInt64), T(DType::kFloat16)}), DType::kFloat32);
  EXPECT_EQ(*mlx({T(DType::kFloat16), T(DType::kInt8), T(DType::kUInt64)}), DType::kFloat16);
  EXPECT_EQ(*mlx({T(DType::kFloat64), T(DType::kComplex64)}), DType::kComplex64);
  // Python scalars take the array's dtype; bool with a Python int is int32.
  EXPECT_EQ(*mlx({T(DType::kInt8), Operand::PyInt(-1)}), DType::kInt8);
  EXPECT_EQ(*mlx({T(DType::kBool), Operand::PyInt(int64_t{1} << 40)}), DType::kInt32);
  EXPECT_EQ(*mlx({T(DType::kUInt8), Operand::PyFloat(2.5)}), DType::kFloat32);
  EXPECT_EQ(*mlx({T(DType::kFloat64), Operand::PyComplex({0, 1})}), DType::kComplex64);
  // Only a narrow integer dtype checks a Python int's range.
  EXPECT_FALSE(mlx({T(DType::kInt8), Operand::PyInt(300)}).ok());
  EXPECT_FALSE(mlx({T(DType::kUInt32), Operand::PyInt(-1)}).ok());
  EXPECT_EQ(*mlx({T(DType::kUInt64), Operand::PyInt(-1)}), DType::kUInt64);
  EXPECT_FALSE(mlx({T(DType::kUInt64), Operand::PyInt(absl::int128(1) << 63)}).ok());
  // Python scalars alone are arrays of their own: an int beyond int32 is int64.
  EXPECT_EQ(*mlx({Operand::PyInt(2), Operand::PyInt(3)}), DType::kInt32);
  EXPECT_EQ(*mlx({Operand::PyInt(int64_t{1} << 40), Operand::PyBool(true)}), DType::kInt64);
  EXPECT_EQ(*mlx({Operand::PyInt(int64_t{1} << 40), Operand::PyFloat(1.5)}), DType::kFloat32);
  EXPECT_FALSE(mlx({T(DType::kComplex128)}).ok());
}

TEST(ResultType, DTypesOutsideAPolicyAreNamed) {
  const absl::StatusOr<DType> r = Numpy({T(DType::kInt8), T(DType::kBFloat16)});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find(
                "operand 2 (bfloat16 tensor): bfloat16 is not a dtype of the numpy policy"),
            std::string::npos)
      << r.status();
  EXPECT_FALSE(Jax({T(DType::kComplex32)}).ok());
  EXPECT_FALSE(ResultType({T(DType::kInt8)}, static_cast<Policy>(9)).ok());
}

TEST(ExplainResultType, ShowsWeakNodesAndNumpysLeader) {
  const std::string jax = ExplainResultType(
      {T(DType::kInt64), Operand::PyInt(300), Operand::PyFloat(1.5)}, Policy::kJaxX32);
  EXPECT_NE(jax.find("int64, canonicalized to int32"), std::string::npos) << jax;
  EXPECT_NE(jax.find("join(int32, Python int) = int32"), std::string::npos) << jax;
  EXPECT_NE(jax.find("the weak Python float stands for float32"), std::string::npos) << jax;
  EXPECT_EQ(jax.substr(jax.rfind('\n') + 1), "result: float32");
  const std::string numpy =
      ExplainResultType({T(DType::kInt8), T(DType::kUInt8), T(DType::kFloat16)}, Policy::kNumpy);
  EXPECT_NE(numpy.find("with operand 3 (float16)"), std::string::npos) << numpy;
  EXPECT_EQ(numpy.substr(numpy.rfind('\n') + 1), "result: float16");
}

TEST(ExplainResultType, ShowsBucketsJoinsAndResult) {
  const std::string text = ExplainResultType(
      {T(DType::kInt8), Z(DType::kFloat64), Operand::PyFloat(1.5)}, Policy::kTorch);
  EXPECT_NE(text.find("operand 3 (Python float 1.5): the default dtype, float32"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("opens the 0-d bucket as float64"), std::string::npos) << text;
  EXPECT_NE(text.find("promote(int8, float64) = float64"), std::string::npos) << text;
  EXPECT_EQ(text.substr(text.rfind('\n') + 1), "result: float64");
  const std::string error =
      ExplainResultType({T(DType::kInt32), T(DType::kFloat32)}, Policy::kArrayApi);
  EXPECT_NE(error.find("error: operand 2 (float32 tensor)"), std::string::npos) << error;
}

TEST(Operand, SpellsItselfAsTheCliDoes) {
  EXPECT_EQ(T(DType::kInt8).ToString(), "int8");
  EXPECT_EQ(Z(DType::kInt8).ToString(), "int8[]");
  EXPECT_EQ(Operand::PyBool(false).ToString(), "False");
  EXPECT_EQ(Operand::PyInt(absl::int128(INT64_MIN)).ToString(), "-9223372036854775808");
  EXPECT_EQ(Operand::PyFloat(1.0).ToString(), "1.0");
  EXPECT_EQ(Operand::PyFloat(-0.0).ToString(), "-0.0");
  EXPECT_EQ(Operand::PyComplex({0, 2}).ToString(), "2j");
  EXPECT_EQ(Operand::PyComplex({1, -2}).ToString(), "(1-2j)");
}

}  // namespace
}  // namespace oneflow_promote
