// The reference Tensor: allocation, views, wrapped numbers and conversion.

#include "functional/tensor.h"

#include "gtest/gtest.h"

namespace oneflow_promote {
namespace {

TEST(Tensor, EmptyIsContiguousRowMajor) {
  const Tensor t = *Tensor::Empty(DType::kInt16, {2, 3, 4});
  EXPECT_EQ(t.numel(), 24);
  EXPECT_EQ(std::vector<int64_t>(t.strides().begin(), t.strides().end()),
            (std::vector<int64_t>{12, 4, 1}));
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.data()) % 64, 0u);
}

TEST(Tensor, RejectsBadShapesAndDtypes) {
  EXPECT_FALSE(Tensor::Empty(DType::kInt8, {2, -1}).ok());
  EXPECT_FALSE(Tensor::Empty(static_cast<DType>(200), {2}).ok());
  EXPECT_FALSE(Tensor::Empty(DType::kInt8, {int64_t{1} << 40, int64_t{1} << 40}).ok());
  EXPECT_FALSE(Tensor::FromValues<float>({1.0f, 2.0f}, {3}).ok());
}

TEST(Tensor, TransposeIsAViewAndCloneCopies) {
  const Tensor t = *Tensor::FromValues<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor v = *t.Transpose(0, 1);
  EXPECT_FALSE(v.is_contiguous());
  EXPECT_EQ(v.data(), t.data());
  const Tensor c = *v.Clone();
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_EQ(std::vector<int32_t>(c.data_as<int32_t>(), c.data_as<int32_t>() + 6),
            (std::vector<int32_t>{1, 4, 2, 5, 3, 6}));
  EXPECT_FALSE(t.AsStrided({3}, {3}, 0).ok()) << "reaches past the buffer";
}

TEST(Tensor, WrappedNumbersKeepTheirPythonValue) {
  const Tensor s = Tensor::WrappedNumber(Operand::PyFloat(2.5));
  EXPECT_TRUE(s.is_wrapped_number());
  EXPECT_EQ(s.dtype(), DType::kFloat64);
  EXPECT_EQ(s.ndim(), 0);
  EXPECT_EQ(s.AsOperand().kind(), Operand::Kind::kPyFloat);
  const Tensor f = *s.To(DType::kFloat16);
  EXPECT_FALSE(f.is_wrapped_number());
  EXPECT_EQ(f.data_as<Float16>()->bits, 0x4100);  // 2.5
  EXPECT_EQ(Tensor::WrappedNumber(Operand::PyInt(-7)).AsOperand().int_value(), -7);
}

TEST(Tensor, ToSameDtypeSharesToOtherConverts) {
  const Tensor t = *Tensor::FromValues<double>({1.5, -2.5}, {2});
  EXPECT_EQ(t.To(DType::kFloat64)->data(), t.data());
  const Tensor i = *t.To(DType::kInt32);
  EXPECT_EQ(i.data_as<int32_t>()[0], 1);
  EXPECT_EQ(i.data_as<int32_t>()[1], -2);
}

TEST(Tensor, ViewSharesTheCallersMemoryAndChecksIt) {
  alignas(8) float values[6] = {1, 2, 3, 4, 5, 6};
  absl::StatusOr<Tensor> view = Tensor::View(values, DType::kFloat32, {2, 3});
  ASSERT_TRUE(view.ok()) << view.status();
  EXPECT_EQ(view->data_as<float>(), values);
  absl::StatusOr<Tensor> doubled = view->To(DType::kFloat64);
  ASSERT_TRUE(doubled.ok());
  EXPECT_EQ(doubled->data_as<double>()[5], 6.0);
  values[5] = 7;  // the view reads through to the caller's buffer
  EXPECT_EQ(view->data_as<float>()[5], 7.0f);

  absl::StatusOr<Tensor> null = Tensor::View(nullptr, DType::kInt8, {3});
  EXPECT_EQ(null.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(null.status().message().find("null data for int8[3]"), absl::string_view::npos)
      << null.status();
  absl::StatusOr<Tensor> misaligned =
      Tensor::View(reinterpret_cast<char*>(values) + 1, DType::kFloat32, {2});
  EXPECT_NE(misaligned.status().message().find("not aligned to 4 bytes for float32"),
            absl::string_view::npos)
      << misaligned.status();
  EXPECT_FALSE(Tensor::View(values, DType::kFloat32, {-1}).ok());
}

}  // namespace
}  // namespace oneflow_promote
