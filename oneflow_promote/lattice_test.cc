// Lattice laws, constant evaluation and the guards of each policy.

#include <vector>

#include "gtest/gtest.h"
#include "oneflow_promote/policy.h"

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
        EXPECT_EQ(PromoteTypes(a, a, policy), Promotion::Of(a)) << Name(a);
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
  for (DType a : kAllDTypes)
    for (DType b : kAllDTypes)
      for (DType c : kAllDTypes) {
        const Promotion left = Fold(PromoteTypes(a, b, Policy::kArrayApi), c, Policy::kArrayApi);
        const Promotion right = Fold(PromoteTypes(b, c, Policy::kArrayApi), a, Policy::kArrayApi);
        EXPECT_EQ(left.ok(), right.ok());
        if (left.ok() && right.ok()) {
          EXPECT_EQ(left.dtype(), right.dtype());
        }
      }
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
  const Promotion right = PromoteTypes(DType::kUInt16,
                                       PromoteTypes(DType::kInt8, DType::kFloat32, t).dtype(), t);
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
  const absl::Status u =
      PromoteTypes(DType::kUInt32, DType::kInt64, Policy::kTorch).status();
  EXPECT_NE(u.message().find("uint32 and int64"), std::string::npos);
  const absl::Status outside =
      PromoteTypes(DType::kFloat16, DType::kFloat16, Policy::kArrayApi).status();
  EXPECT_NE(outside.message().find("float16 is not a dtype of the array_api policy"),
            std::string::npos);
  const absl::Status invalid =
      PromoteTypes(static_cast<DType>(99), DType::kInt8, Policy::kTorch).status();
  EXPECT_NE(invalid.message().find("<invalid dtype 99>"), std::string::npos);
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

TEST(Lattice, ArrayApiCanCastIsSafeCasting) {
  EXPECT_TRUE(CanCast(DType::kInt8, DType::kInt64, Policy::kArrayApi));
  EXPECT_FALSE(CanCast(DType::kInt64, DType::kInt8, Policy::kArrayApi));
  EXPECT_FALSE(CanCast(DType::kInt32, DType::kFloat64, Policy::kArrayApi));
  EXPECT_TRUE(CanCast(DType::kFloat32, DType::kComplex128, Policy::kArrayApi));
  EXPECT_FALSE(CanCast(DType::kUInt64, DType::kInt64, Policy::kArrayApi));
}

}  // namespace
}  // namespace oneflow_promote
