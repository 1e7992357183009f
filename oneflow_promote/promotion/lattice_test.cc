// Lattice laws, constant evaluation and the guards of each policy.

#include <vector>

#include "gtest/gtest.h"
#include "oneflow_promote/promotion/policy.h"

namespace oneflow_promote {
namespace {

// PromoteTypes is usable in constant expressions.
constexpr Promotion kUInt8Int8 = PromoteTypes(DType::kUInt8, DType::kInt8, Policy::kTorch);
static_assert(kUInt8Int8.ok() && kUInt8Int8.dtype() == DType::kInt16);
static_assert(!PromoteTypes(DType::kInt32, DType::kFloat32, Policy::kArrayApi).ok());
static_assert(PromoteTypes(DType::kFloat8E5M2, DType::kFloat32, Policy::kTorch).error() ==
              PromotionError::kFloat8);
static_assert(!PromoteTypes(static_cast<DType>(77), DType::kInt8, Policy::kTorch).ok());
static_assert(CanCast(DType::kInt8, DType::kFloat32, Policy::kTorch));
static_assert(TorchLattice::Reaches(DType::kBool, DType::kComplex128));
static_assert(PromoteTypes(DType::kInt64, DType::kUInt64, Policy::kNumpy).dtype() ==
              DType::kFloat64);
static_assert(JaxLattice::Reaches(WeakScalar::kInt, DType::kUInt8) &&
              !JaxLattice::Reaches(WeakScalar::kFloat, DType::kInt64));

Promotion Fold(Promotion left, DType right, Policy policy) {
  return left.ok() ? PromoteTypes(left.dtype(), right, policy) : left;
}

std::vector<DType> CoreTorchDTypes() {
  std::vector<DType> out;
  for (DType d : kAllDTypes) {
    if (!IsFloat8(d) && d != DType::kUInt16 && d != DType::kUInt32 && d != DType::kUInt64) {
      out.push_back(d);
    }
  }
  return out;
}

TEST(Lattice, CommutativeAndIdempotentEverywhere) {
  for (Policy policy : kAllPolicies) {
    for (DType a : kAllDTypes) {
      if (PolicyDTypes(policy).end() !=
          std::find(PolicyDTypes(policy).begin(), PolicyDTypes(policy).end(), a)) {
        // jax_x32 canonicalizes int64 + int64 to int32, as jnp.asarray does.
        EXPECT_EQ(PromoteTypes(a, a, policy),
                  Promotion::Of(promotion_internal::CanonicalDType(a, policy)))
            << PolicyName(policy) << " " << Name(a);
      } else {
        EXPECT_EQ(PromoteTypes(a, a, policy).error(), PromotionError::kNotInPolicy)
            << PolicyName(policy) << " " << Name(a);
      }
      for (DType b : kAllDTypes) {
        EXPECT_EQ(PromoteTypes(a, b, policy), PromoteTypes(b, a, policy))
            << PolicyName(policy) << " " << Name(a) << " " << Name(b);
      }
    }
  }
}

TEST(Lattice, AssociativeOnEachLattice) {
  const std::vector<DType> torch = CoreTorchDTypes();
  ASSERT_EQ(torch.size(), 14u);  // with bcomplex32
  for (DType a : torch)
    for (DType b : torch)
      for (DType c : torch) {
        EXPECT_EQ(Fold(PromoteTypes(a, b, Policy::kTorch), c, Policy::kTorch),
                  Fold(PromoteTypes(b, c, Policy::kTorch), a, Policy::kTorch));
      }
  // Not jax or mlx: see JaxDTypesAssociateOnlyAsNodes.
  for (Policy policy : {Policy::kArrayApi, Policy::kJaxX32, Policy::kJaxStrict}) {
    for (DType a : kAllDTypes)
      for (DType b : kAllDTypes)
        for (DType c : kAllDTypes) {
          const Promotion left = Fold(PromoteTypes(a, b, policy), c, policy);
          const Promotion right = Fold(PromoteTypes(b, c, policy), a, policy);
          EXPECT_EQ(left.ok(), right.ok()) << PolicyName(policy);
          if (left.ok() && right.ok()) {
            EXPECT_EQ(left.dtype(), right.dtype()) << PolicyName(policy);
          }
        }
  }
}

// JAX's lattice associates (policy.cc proves it), but jnp.promote_types
// answers with dtypes, and where a join is the weak float the dtype is its
// default: promote_types(promote_types(uint64, int64), float16) is float64,
// while promote_types(uint64, promote_types(int64, float16)) is float16.
// ResultType joins nodes and gives jnp.result_type's float16 for all three.
TEST(Lattice, JaxDTypesAssociateOnlyAsNodes) {
  const Policy j = Policy::kJax;
  EXPECT_EQ(Fold(PromoteTypes(DType::kUInt64, DType::kInt64, j), DType::kFloat16, j),
            Promotion::Of(DType::kFloat64));
  EXPECT_EQ(Fold(PromoteTypes(DType::kInt64, DType::kFloat16, j), DType::kUInt64, j),
            Promotion::Of(DType::kFloat16));
}

// np.promote_types(np.promote_types(np.int8, np.uint8), np.float16) is
// float32, np.promote_types(np.int8, np.promote_types(np.uint8, np.float16))
// float16: NumPy's table is no join, and the numpy policy says so.
TEST(Lattice, NumpyIsNotAssociative) {
  const Policy n = Policy::kNumpy;
  EXPECT_EQ(Fold(PromoteTypes(DType::kInt8, DType::kUInt8, n), DType::kFloat16, n),
            Promotion::Of(DType::kFloat32));
  EXPECT_EQ(Fold(PromoteTypes(DType::kUInt8, DType::kFloat16, n), DType::kInt8, n),
            Promotion::Of(DType::kFloat16));
}

// Answers of jnp.promote_types (jax 0.10.2) and np.promote_types (numpy
// 2.4), where they differ from what the feature request's summary of their
// rules suggested: JAX's float8 formats sit above the weak float, which every
// integer and bool reaches, so they mix with integers; they do not mix with
// other floats or complex.
TEST(Lattice, JaxFloat8MixesWithIntegersAndBoolOnly) {
  for (Policy policy : {Policy::kJax, Policy::kJaxX32}) {
    EXPECT_EQ(PromoteTypes(DType::kInt8, DType::kFloat8E4M3FN, policy),
              Promotion::Of(DType::kFloat8E4M3FN));
    EXPECT_EQ(PromoteTypes(DType::kBool, DType::kFloat8E5M2, policy),
              Promotion::Of(DType::kFloat8E5M2));
    EXPECT_EQ(PromoteTypes(DType::kUInt64, DType::kFloat8E8M0FNU, policy),
              Promotion::Of(DType::kFloat8E8M0FNU));
    EXPECT_FALSE(PromoteTypes(DType::kFloat16, DType::kFloat8E4M3FN, policy).ok());
    EXPECT_FALSE(PromoteTypes(DType::kFloat8E5M2, DType::kFloat8E4M3FN, policy).ok());
    EXPECT_FALSE(PromoteTypes(DType::kComplex64, DType::kFloat8E4M3FN, policy).ok());
  }
  EXPECT_FALSE(PromoteTypes(DType::kInt8, DType::kFloat8E4M3FN, Policy::kJaxStrict).ok());
}

// jnp.promote_types(jnp.uint64, jnp.int64) is float64 with x64 (the weak
// float node, standing for the default float); without x64 both are
// canonicalized first and uint32 + int32 is int32.
TEST(Lattice, JaxWeakJoinsStandForDefaults) {
  EXPECT_EQ(PromoteTypes(DType::kUInt64, DType::kInt64, Policy::kJax),
            Promotion::Of(DType::kFloat64));
  EXPECT_EQ(PromoteTypes(DType::kUInt64, DType::kInt64, Policy::kJaxX32),
            Promotion::Of(DType::kInt32));
  EXPECT_EQ(PromoteTypes(DType::kUInt32, DType::kInt32, Policy::kJax),
            Promotion::Of(DType::kInt64));
  EXPECT_EQ(PromoteTypes(DType::kUInt32, DType::kInt8, Policy::kJaxX32),
            Promotion::Of(DType::kInt32));
}

TEST(Lattice, TorchCoreIsACompleteLatticeWithBoolAtTheBottom) {
  for (DType a : CoreTorchDTypes()) {
    EXPECT_EQ(PromoteTypes(DType::kBool, a, Policy::kTorch), Promotion::Of(a));
    EXPECT_EQ(PromoteTypes(DType::kComplex128, a, Policy::kTorch),
              Promotion::Of(DType::kComplex128));
  }
}

// PyTorch's uint16/32/64 guard sits outside the lattice and is not
// associative; ResultType folds left to right exactly as PyTorch does.
TEST(Lattice, TorchUnsignedGuardIsNotAssociative) {
  const Policy t = Policy::kTorch;
  EXPECT_FALSE(Fold(PromoteTypes(DType::kUInt16, DType::kInt8, t), DType::kFloat32, t).ok());
  const Promotion right =
      PromoteTypes(DType::kUInt16, PromoteTypes(DType::kInt8, DType::kFloat32, t).dtype(), t);
  ASSERT_TRUE(right.ok());
  EXPECT_EQ(right.dtype(), DType::kFloat32);
}

TEST(Lattice, ErrorsNameBothDTypes) {
  const absl::Status s = PromoteTypes(DType::kInt32, DType::kFloat32, Policy::kArrayApi).status();
  EXPECT_EQ(s.message(), "int32 and float32 cannot be type promoted together");
  const absl::Status f8 =
      PromoteTypes(DType::kFloat8E4M3FN, DType::kFloat16, Policy::kTorch).status();
  EXPECT_EQ(f8.message(),
            "Promotion for Float8 Types is not supported, attempted to promote float8_e4m3fn "
            "and float16");
  const absl::Status u = PromoteTypes(DType::kUInt32, DType::kInt64, Policy::kTorch).status();
  EXPECT_NE(u.message().find("uint32 and int64"), std::string::npos);
  const absl::Status outside =
      PromoteTypes(DType::kFloat16, DType::kFloat16, Policy::kArrayApi).status();
  EXPECT_NE(outside.message().find("float16 is not a dtype of the array_api policy"),
            std::string::npos);
  const absl::Status invalid =
      PromoteTypes(static_cast<DType>(99), DType::kInt8, Policy::kTorch).status();
  EXPECT_NE(invalid.message().find("<invalid dtype 99>"), std::string::npos);
  const absl::Status bad_policy =
      PromoteTypes(DType::kInt8, DType::kInt8, static_cast<Policy>(42)).status();
  EXPECT_NE(bad_policy.message().find("policy 42 is not a valid policy"), std::string::npos);
  EXPECT_FALSE(CanCast(DType::kInt8, DType::kInt8, static_cast<Policy>(42)));
  // NumPy has neither complex32 nor bcomplex32; JAX has no complex32.
  EXPECT_NE(PromoteTypes(DType::kComplex64, DType::kComplex32, Policy::kNumpy)
                .status()
                .message()
                .find("complex32 is not a dtype of the numpy policy"),
            std::string::npos);
  EXPECT_NE(PromoteTypes(DType::kBComplex32, DType::kFloat32, Policy::kJax)
                .status()
                .message()
                .find("bcomplex32 is not a dtype of the jax policy"),
            std::string::npos);
  // JAX's TypePromotionError, naming both dtypes.
  EXPECT_EQ(PromoteTypes(DType::kFloat16, DType::kFloat8E4M3FN, Policy::kJax).status().message(),
            "Input dtypes ('float16', 'float8_e4m3fn') have no available implicit dtype "
            "promotion path. To avoid unintended promotion, 8-bit floats do not support "
            "implicit promotion");
  EXPECT_EQ(PromoteTypes(DType::kInt8, DType::kInt16, Policy::kJaxStrict).status().message(),
            "Input dtypes ('int8', 'int16') have no available implicit dtype promotion path "
            "when jax_numpy_dtype_promotion=strict");
}

TEST(Lattice, TorchGuardsForNewDTypes) {
  for (DType u : {DType::kUInt16, DType::kUInt32, DType::kUInt64}) {
    EXPECT_EQ(PromoteTypes(u, u, Policy::kTorch), Promotion::Of(u));
    for (DType f : {DType::kFloat16, DType::kBFloat16, DType::kFloat32, DType::kFloat64}) {
      EXPECT_EQ(PromoteTypes(u, f, Policy::kTorch), Promotion::Of(f));
    }
    EXPECT_FALSE(PromoteTypes(u, DType::kComplex64, Policy::kTorch).ok());
    EXPECT_FALSE(PromoteTypes(u, DType::kBool, Policy::kTorch).ok());
  }
  EXPECT_EQ(PromoteTypes(DType::kFloat8E5M2, DType::kFloat8E5M2, Policy::kTorch),
            Promotion::Of(DType::kFloat8E5M2));
  EXPECT_FALSE(PromoteTypes(DType::kFloat8E5M2, DType::kFloat8E4M3FN, Policy::kTorch).ok());
  EXPECT_FALSE(PromoteTypes(DType::kFloat8E5M2, DType::kUInt16, Policy::kTorch).ok());
}

// np.can_cast(FROM, TO, "same_kind"): the kind may rise, never fall.
TEST(Lattice, NumpyCanCastIsSameKindCasting) {
  EXPECT_TRUE(CanCast(DType::kInt64, DType::kInt8, Policy::kNumpy));
  EXPECT_TRUE(CanCast(DType::kUInt64, DType::kInt8, Policy::kNumpy));
  EXPECT_FALSE(CanCast(DType::kInt8, DType::kUInt64, Policy::kNumpy));
  EXPECT_TRUE(CanCast(DType::kFloat64, DType::kFloat16, Policy::kNumpy));
  EXPECT_FALSE(CanCast(DType::kFloat16, DType::kInt64, Policy::kNumpy));
  EXPECT_FALSE(CanCast(DType::kBFloat16, DType::kFloat32, Policy::kNumpy));  // not NumPy's
}

TEST(Lattice, ArrayApiCanCastIsSafeCasting) {
  EXPECT_TRUE(CanCast(DType::kInt8, DType::kInt64, Policy::kArrayApi));
  EXPECT_FALSE(CanCast(DType::kInt64, DType::kInt8, Policy::kArrayApi));
  EXPECT_FALSE(CanCast(DType::kInt32, DType::kFloat64, Policy::kArrayApi));
  EXPECT_TRUE(CanCast(DType::kFloat32, DType::kComplex128, Policy::kArrayApi));
  EXPECT_FALSE(CanCast(DType::kUInt64, DType::kInt64, Policy::kArrayApi));
}

}  // namespace
}  // namespace oneflow_promote
