// The CPU kernels on the dtypes PyTorch 2.15 added kernels for, and on those
// it still has none for. Expected values come from PyTorch 2.15 on the CPU
// where it has the kernel; elsewhere from exact integer arithmetic, or from
// torch computing in float32 (complex64) and rounding to the narrow dtype
// once, which is the library's definition. float8 values are bit patterns.

#include "functional/functional.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "functional/internal/op_blocks.h"
#include "gtest/gtest.h"
#include "oneflow_promote/convert.h"

namespace oneflow_promote::functional {
namespace {

constexpr uint64_t kTop = uint64_t{1} << 63;

template <typename T>
Tensor Of(std::vector<T> values) {
  return *Tensor::FromValues<T>(values, {static_cast<int64_t>(values.size())});
}
Tensor Bools(std::initializer_list<bool> values) {
  return *Tensor::FromValues<bool>(absl::MakeConstSpan(values.begin(), values.size()),
                                   {static_cast<int64_t>(values.size())});
}
Tensor E4M3(std::vector<uint8_t> bits) {
  std::vector<Float8E4M3FN> v;
  for (uint8_t b : bits) v.push_back({b});
  return Of(v);
}
Tensor E5M2(std::vector<uint8_t> bits) {
  std::vector<Float8E5M2> v;
  for (uint8_t b : bits) v.push_back({b});
  return Of(v);
}
Tensor Wrapped(double v) { return Tensor::WrappedNumber(Operand::PyFloat(v)); }

// The op on both CPU cast paths, which must agree byte for byte; returns
// the first.
Tensor RunBoth(ops::Op op, std::vector<Tensor> inputs) {
  OpOptions fused, materialized;
  fused.cast_path = CastPath::kFused;
  materialized.cast_path = CastPath::kMaterialized;
  const absl::StatusOr<Tensor> a = Call(op, inputs, fused);
  const absl::StatusOr<Tensor> b = Call(op, inputs, materialized);
  EXPECT_TRUE(a.ok()) << ops::OpName(op) << ": " << a.status();
  EXPECT_TRUE(b.ok()) << ops::OpName(op) << ": " << b.status();
  if (!a.ok() || !b.ok()) return *Tensor::Empty(DType::kBool, {0});
  EXPECT_EQ(a->dtype(), b->dtype());
  EXPECT_EQ(std::memcmp(a->data(), b->data(), a->numel() * ItemSize(a->dtype())), 0)
      << ops::OpName(op) << ": the fused and materialized paths differ";
  return *a;
}

template <typename T>
std::vector<T> Values(const Tensor& t) {
  EXPECT_EQ(t.dtype(), DTypeOf<T>::value);
  if (t.dtype() != DTypeOf<T>::value) return {};
  return std::vector<T>(t.data_as<T>(), t.data_as<T>() + t.numel());
}
template <typename F8>
std::vector<uint8_t> Bits(const Tensor& t) {
  std::vector<uint8_t> bits;
  for (F8 x : Values<F8>(t)) bits.push_back(x.bits);
  return bits;
}

// Whatever the rules accept, a kernel computes: every op on every pair (and,
// for where, condition and pair) of dtypes, as 1-d tensors of ones, on both
// cast paths.
TEST(FunctionalNewDTypes, EveryCaseTheRulesAcceptComputes) {
  const auto ones = [](DType d) { return *Of<double>({1, 1, 1}).To(d); };
  int computed = 0;
  for (ops::Op op : ops::kKernelOps) {
    for (DType a : kAllDTypes) {
      for (DType b : kAllDTypes) {
        if (ops::OpArity(op) == 1 && b != a) continue;
        std::vector<Tensor> inputs = {ones(a)};
        if (ops::OpArity(op) >= 2) inputs.push_back(ones(b));
        if (op == ops::Op::kWhere) inputs.insert(inputs.begin(), ones(DType::kBool));
        std::vector<Operand> operands;
        for (const Tensor& t : inputs) operands.push_back(t.AsOperand());
        const absl::StatusOr<ops::OpDTypes> dtypes = ops::InferOpDTypes(op, operands);
        if (!dtypes.ok()) continue;
        for (CastPath path : {CastPath::kFused, CastPath::kMaterialized}) {
          OpOptions options;
          options.cast_path = path;
          const absl::StatusOr<Tensor> out = Call(op, inputs, options);
          const std::string call = absl::StrCat(ops::OpName(op), "(", Name(a), ", ", Name(b), ")");
          ASSERT_TRUE(out.ok()) << call << ": " << out.status();
          EXPECT_EQ(out->dtype(), dtypes->result) << call;
          ++computed;
        }
      }
    }
  }
  EXPECT_GT(computed, 2000);
}

// CallOutWithDTypes, given InferOpDTypes' answer, writes the bytes CallOut
// writes: every elementwise op on every pair of dtypes, one operand a
// broadcast row.
// The same calls under other frameworks' rules, their dtypes and values as
// numpy 2.4.6 and jax.numpy 0.10.2 (x64 off) give them: np.divide of two
// int8 arrays computes in float64, jnp.divide in float32, np.add of an int8
// array and 300 raises OverflowError, np.sum of uint8 is uint64.
TEST(FunctionalPolicies, CastAndComputeAsThePolicysFramework) {
  const Tensor a = Of<int8_t>({1, 2, 3});
  const Tensor b = Of<int8_t>({2, 2, 2});
  OpOptions numpy;
  numpy.policy = Policy::kNumpy;
  const absl::StatusOr<Tensor> q = Call(ops::Op::kDiv, {a, b}, numpy);
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ(Values<double>(*q), (std::vector<double>{0.5, 1.0, 1.5}));
  OpOptions jax;
  jax.policy = Policy::kJaxX32;
  const absl::StatusOr<Tensor> r = Call(ops::Op::kDiv, {a, b}, jax);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values<float>(*r), (std::vector<float>{0.5f, 1.0f, 1.5f}));
  const absl::StatusOr<Tensor> overflow =
      Call(ops::Op::kAdd, {a, Tensor::WrappedNumber(Operand::PyInt(300))}, numpy);
  EXPECT_TRUE(absl::StrContains(overflow.status().message(), "OverflowError")) << overflow.status();
  const absl::StatusOr<Tensor> sum = Call(ops::Op::kSum, {Of<uint8_t>({200, 100})}, numpy);
  ASSERT_TRUE(sum.ok()) << sum.status();
  EXPECT_EQ(Values<uint64_t>(*sum), (std::vector<uint64_t>{300}));
  // out= follows the policy's casting: NumPy's same_kind lets float64 into
  // float32, which torch's canCast allows too, but not into int8.
  Tensor out = *Tensor::Zeros(DType::kInt8, {3});
  EXPECT_FALSE(CallOut(ops::Op::kDiv, {a, b}, out, numpy).ok());
}

TEST(FunctionalCallOutWithDTypes, WritesWhatCallOutWrites) {
  const auto values = [](DType d, int64_t n) {
    std::vector<double> v;
    for (int64_t i = 0; i < n; ++i) v.push_back(static_cast<double>(i % 4 + 1));
    return *Tensor::FromValues<double>(v, {n})->To(d);
  };
  int compared = 0;
  for (ops::Op op : ops::kKernelOps) {
    if (op == ops::Op::kDot || ops::OpArity(op) == 1) continue;
    for (DType a : kAllDTypes) {
      for (DType b : kAllDTypes) {
        std::vector<Tensor> inputs = {*values(a, 6).AsStrided({2, 3}, {3, 1}, 0), values(b, 3)};
        // Rows [1, 2, 3] and [4, 1, 2] against [1, 2, 3]: ties and differences.
        if (op == ops::Op::kWhere) inputs.insert(inputs.begin(), values(DType::kBool, 3));
        std::vector<Operand> operands;
        for (const Tensor& t : inputs) operands.push_back(t.AsOperand());
        const absl::StatusOr<ops::OpDTypes> dtypes = ops::InferOpDTypes(op, operands);
        if (!dtypes.ok()) continue;
        Tensor expected = *Tensor::Zeros(dtypes->result, {2, 3});
        Tensor got = *Tensor::Zeros(dtypes->result, {2, 3});
        const std::string call = absl::StrCat(ops::OpName(op), "(", Name(a), ", ", Name(b), ")");
        ASSERT_TRUE(CallOut(op, inputs, expected).ok()) << call;
        ASSERT_TRUE(CallOutWithDTypes(op, inputs, *dtypes, got).ok()) << call;
        EXPECT_EQ(std::memcmp(expected.data(), got.data(), 6 * ItemSize(dtypes->result)), 0)
            << call;
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 2000);
  OpOptions negative;
  negative.context.cpu_threads = -1;
  const Tensor inputs[] = {values(DType::kFloat32, 3), values(DType::kFloat32, 3)};
  Tensor out = *Tensor::Zeros(DType::kFloat32, {3});
  const ops::OpDTypes float32 = {DType::kFloat32, DType::kFloat32, DType::kFloat32};
  EXPECT_EQ(CallOutWithDTypes(ops::Op::kAdd, inputs, float32, out, negative).code(),
            absl::StatusCode::kInvalidArgument);
}

// On x86-64 the binary loops run as AVX2 code where the processor has it:
// every binary op on every pair of dtypes, contiguous and with a broadcast
// row and a single element, must give the baseline loops' bytes.
TEST(FunctionalAvx2Blocks, EqualTheBaselineBitForBit) {
  std::vector<double> values;
  for (int i = 0; i < 67; ++i) values.push_back((i % 13 - 6) * 0.75 + (i % 5 == 0 ? 1e-3 : 0));
  // Specials, and values that float16 and bfloat16 round, flush to their
  // subnormals or overflow: the narrow floats' blocks convert with the
  // cast kernels, the baseline element by element.
  const double specials[] = {std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             -0.0,
                             1e-7,
                             -3e-8,
                             70000.0,
                             1.00048828125,
                             3.0e38,
                             1e-40};
  for (int i = 0; i < 10; ++i) values[6 * i + 3] = specials[i];
  const Tensor base = *Tensor::FromValues<double>(values, {67});
  int compared = 0;
  // add and sub also with alpha (their FMA blocks; the narrow floats'
  // widened chunks).
  OpOptions with_alpha;
  with_alpha.alpha = Operand::PyFloat(-0.7);
  for (ops::Op op : ops::kKernelOps) {
    if (ops::OpArity(op) != 2 || op == ops::Op::kDot) continue;
    const bool takes_alpha = op == ops::Op::kAdd || op == ops::Op::kSub;
    for (const OpOptions& options : {OpOptions(), with_alpha}) {
      if (options.alpha.has_value() && !takes_alpha) continue;
      for (DType a : kAllDTypes) {
        for (DType b : kAllDTypes) {
          const Tensor x_full = *base.To(a);
          const Tensor y_full = *base.To(b);
          // 16-bit float NaNs with payloads, which arithmetic carries and
          // narrowing drops (the fused mixed-dtype add and mul keep some).
          // Positive, as the other NaNs: of two NaN operands the compiler
          // picks which one the result carries, sign included.
          if (a == b && (a == DType::kFloat16 || a == DType::kBFloat16)) {
            const bool half = a == DType::kFloat16;
            static_cast<uint16_t*>(x_full.data())[9] = half ? 0x7F01 : 0x7FC1;
            static_cast<uint16_t*>(y_full.data())[40] = half ? 0x7E0F : 0x7FC3;
          }
          // Contiguous, one element, and a stride-0 row (the general loop);
          // a single first operand too (each broadcast pattern's loop).
          for (const auto& [x, y] :
               {std::pair{x_full, y_full},
                {x_full, *y_full.AsStrided({1}, {1}, 3)},
                {x_full, *y_full.AsStrided({67}, {0}, 3)},
                {*x_full.AsStrided({1}, {1}, 3), y_full},
                {*x_full.AsStrided({1}, {1}, 3), *y_full.AsStrided({1}, {1}, 5)}}) {
            const Tensor inputs[] = {x, y};
            functional_internal::ForceBaselineBlocks(true);
            const absl::StatusOr<Tensor> baseline = Call(op, inputs, options);
            functional_internal::ForceBaselineBlocks(false);
            const absl::StatusOr<Tensor> fast = Call(op, inputs, options);
            ASSERT_EQ(baseline.ok(), fast.ok());
            if (!fast.ok()) continue;
            EXPECT_EQ(std::memcmp(baseline->data(), fast->data(),
                                  fast->numel() * ItemSize(fast->dtype())),
                      0)
                << ops::OpName(op) << "(" << Name(a) << ", " << Name(b) << ")"
                << (options.alpha.has_value() ? " with alpha" : "");
            ++compared;
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 5500);
}

TEST(FunctionalNewDTypes, UnsignedWhereTorchHasKernels) {
  const Tensor a = Of<uint64_t>({kTop + 3, ~uint64_t{0}, 12345678901234567890u});
  EXPECT_EQ(Values<uint64_t>(RunBoth(ops::Op::kMul, {a, Of<uint64_t>({3, 2, 7})})),
            (std::vector<uint64_t>{kTop + 9, ~uint64_t{0} - 1, 12632776013803768766u}));
  EXPECT_EQ(
      Values<bool>(RunBoth(ops::Op::kEq, {a, Of<uint64_t>({kTop + 3, 1, 12345678901234567890u})})),
      (std::vector<bool>{true, false, true}));
  const Tensor x = Of<uint64_t>({kTop, 1}), y = Of<uint64_t>({1, ~uint64_t{0}});
  EXPECT_EQ(Values<uint64_t>(RunBoth(ops::Op::kMaximum, {x, y})),
            (std::vector<uint64_t>{kTop, ~uint64_t{0}}));
  EXPECT_EQ(Values<uint64_t>(RunBoth(ops::Op::kMinimum, {x, y})), (std::vector<uint64_t>{1, 1}));
  EXPECT_EQ(Values<uint32_t>(RunBoth(ops::Op::kBitwiseXor, {Of<uint32_t>({0xF0F0F0F0u, 7}),
                                                            Of<uint32_t>({0xFFFFFFFFu, 1})})),
            (std::vector<uint32_t>{252645135u, 6}));
  // Reductions accumulate in int64: uint64 values above 2^63 wrap there.
  EXPECT_EQ(Values<int64_t>(*Sum(Of<uint64_t>({kTop + 1, kTop, 5}))), std::vector<int64_t>{6});
  EXPECT_EQ(Values<int64_t>(*Cumsum(Of<uint32_t>({4000000000u, 4000000000u, 1}), 0)),
            (std::vector<int64_t>{4000000000, 8000000000, 8000000001}));
  EXPECT_EQ(Values<int64_t>(*Prod(Of<uint16_t>({65535, 3}))), std::vector<int64_t>{196605});
  EXPECT_EQ(Values<uint64_t>(RunBoth(ops::Op::kWhere, {Bools({true, false}), x, y})),
            (std::vector<uint64_t>{kTop, ~uint64_t{0}}));
}

// PyTorch 2.15 has no CPU kernel for these: exact unsigned arithmetic.
TEST(FunctionalNewDTypes, UnsignedWhereTorchHasNoKernel) {
  EXPECT_EQ(Values<uint64_t>(RunBoth(
                ops::Op::kAdd, {Of<uint64_t>({~uint64_t{0}, kTop}), Of<uint64_t>({2, kTop})})),
            (std::vector<uint64_t>{1, 0}));
  EXPECT_EQ(
      Values<uint16_t>(RunBoth(ops::Op::kSub, {Of<uint16_t>({1, 0}), Of<uint16_t>({2, 65535})})),
      (std::vector<uint16_t>{65535, 1}));
  const Tensor big = Of<uint64_t>({~uint64_t{0}, 7}), two = Of<uint64_t>({2, 2});
  EXPECT_EQ(Values<uint64_t>(RunBoth(ops::Op::kFloorDivide, {big, two})),
            (std::vector<uint64_t>{kTop - 1, 3}));
  EXPECT_EQ(Values<uint64_t>(RunBoth(ops::Op::kDivTrunc, {big, two})),
            (std::vector<uint64_t>{kTop - 1, 3}));
  EXPECT_EQ(Values<uint64_t>(RunBoth(ops::Op::kRemainder, {big, two})),
            (std::vector<uint64_t>{1, 1}));
  EXPECT_EQ(Values<bool>(RunBoth(ops::Op::kLt, {Of<uint64_t>({kTop, 1}), Of<uint64_t>({1, kTop})})),
            (std::vector<bool>{false, true}));
  EXPECT_EQ(
      Values<bool>(RunBoth(ops::Op::kLogicalAnd, {Of<uint64_t>({0, kTop}), Of<uint64_t>({5, 5})})),
      (std::vector<bool>{false, true}));
  EXPECT_EQ(
      Values<uint32_t>(RunBoth(ops::Op::kPow, {Of<uint32_t>({3, 2}), Of<uint32_t>({21, 33})})),
      (std::vector<uint32_t>{1870418611u, 0}));  // 3^21 and 2^33 modulo 2^32
  EXPECT_EQ(Values<uint16_t>(RunBoth(ops::Op::kNeg, {Of<uint16_t>({1, 0})})),
            (std::vector<uint16_t>{65535, 0}));
  EXPECT_EQ(Values<uint32_t>(RunBoth(ops::Op::kAbs, {Of<uint32_t>({4000000000u})})),
            std::vector<uint32_t>{4000000000u});
  EXPECT_EQ(Values<uint16_t>(*Dot(Of<uint16_t>({300, 400}), Of<uint16_t>({300, 400}))),
            std::vector<uint16_t>{53392});  // 250000 modulo 2^16
  const absl::StatusOr<Tensor> by_zero =
      Call(ops::Op::kFloorDivide, {Of<uint32_t>({1, 2}), Of<uint32_t>({1, 0})});
  ASSERT_FALSE(by_zero.ok());
  EXPECT_EQ(by_zero.status().message(), "ZeroDivisionError");
}

// PyTorch's CPU kernels refuse a zero divisor element by element: a Python
// int that wraps to 0 in the compute dtype divides by zero (torch.ones(3,
// dtype=torch.int8) // 256 raises), and an empty tensor divides nothing
// (torch.empty(0, dtype=torch.int32) // 0 is an empty tensor).
TEST(Functional, IntegerDivisionByZeroIsTheKernelsToRefuse) {
  const Tensor int8s = *Tensor::FromValues<int8_t>({1, 2, 3}, {3});
  for (ops::Op op :
       {ops::Op::kFloorDivide, ops::Op::kDivFloor, ops::Op::kDivTrunc, ops::Op::kRemainder}) {
    const absl::StatusOr<Tensor> wrapped =
        Call(op, {int8s, Tensor::WrappedNumber(Operand::PyInt(256))});
    ASSERT_FALSE(wrapped.ok()) << ops::OpName(op);
    EXPECT_EQ(wrapped.status().message(), "ZeroDivisionError") << ops::OpName(op);
    const absl::StatusOr<Tensor> empty =
        Call(op, {*Tensor::Empty(DType::kInt32, {0}), Tensor::WrappedNumber(Operand::PyInt(0))});
    ASSERT_TRUE(empty.ok()) << ops::OpName(op) << ": " << empty.status();
    EXPECT_EQ(empty->dtype(), DType::kInt32);
    EXPECT_EQ(empty->numel(), 0);
  }
}

// Writing over an input: exactly the same elements is in place; anything
// between that and no shared memory would read elements already written,
// and is refused as PyTorch refuses it, with both operands named.
TEST(Functional, OutputsMayNotPartlyOverlapInputs) {
  Tensor x = *Tensor::FromValues<float>({0, 1, 2, 3, 4, 5}, {2, 3});
  const Tensor row = *x.AsStrided({3}, {1}, 0);
  const absl::Status partial = CallOut(ops::Op::kAdd, {x, row}, x);
  ASSERT_FALSE(partial.ok());
  EXPECT_EQ(partial.message(),
            "add(): out= (float32[2, 3]) partially overlaps operand 2 (float32[3]): some elements "
            "of the input tensor and the written-to tensor refer to a single memory location. "
            "Please clone() the tensor before performing the operation.");
  EXPECT_EQ(Values<float>(x), (std::vector<float>{0, 1, 2, 3, 4, 5})) << "a refused op wrote";
  // The transpose of the output covers the same bytes in another order.
  Tensor square = *Tensor::FromValues<float>({1, 2, 3, 4}, {2, 2});
  EXPECT_FALSE(CallOut(ops::Op::kAdd, {*square.Transpose(0, 1), square}, square).ok());
  Tensor self_row = *x.AsStrided({3}, {1}, 3);
  EXPECT_FALSE(CallInPlace(ops::Op::kMul, self_row, {*x.AsStrided({3}, {1}, 1)}).ok());
  // Exactly the output, even with another dtype of the same size: in place.
  ASSERT_TRUE(CallOut(ops::Op::kAdd, {x, x}, x).ok());
  EXPECT_EQ(Values<float>(x), (std::vector<float>{0, 2, 4, 6, 8, 10}));
  ASSERT_TRUE(CallInPlace(ops::Op::kMul, x, {Tensor::WrappedNumber(Operand::PyInt(2))}).ok());
  EXPECT_EQ(Values<float>(x), (std::vector<float>{0, 4, 8, 12, 16, 20}));
  // Disjoint parts of one buffer.
  Tensor second_row = *x.AsStrided({3}, {1}, 3);
  ASSERT_TRUE(CallOut(ops::Op::kAdd, {*x.AsStrided({3}, {1}, 0), row}, second_row).ok());
  EXPECT_EQ(Values<float>(x), (std::vector<float>{0, 4, 8, 0, 8, 16}));
}

TEST(FunctionalNewDTypes, Float8) {
  // 1.125, 1.5, -3.25, 0.013671875, 0.1015625 and 1.125, 2.5, 7, 0.5, 3.
  const Tensor a = E4M3({0x39, 0x3c, 0xc5, 0x07, 0x1d}), b = E4M3({0x39, 0x42, 0x4e, 0x30, 0x44});
  // PyTorch 2.15 computes these.
  EXPECT_EQ(Bits<Float8E4M3FN>(RunBoth(ops::Op::kMul, {a, b})),
            (std::vector<uint8_t>{0x3a, 0x47, 0xdb, 0x04, 0x2a}));
  const Tensor c = E5M2({0x3d, 0x3e, 0xc2, 0x14, 0x56}), d = E5M2({0x3d, 0x41, 0x47, 0x38, 0x42});
  EXPECT_EQ(Bits<Float8E5M2>(RunBoth(ops::Op::kMul, {c, d})),
            (std::vector<uint8_t>{0x3e, 0x44, 0xcd, 0x10, 0x5c}));
  EXPECT_EQ(Values<bool>(RunBoth(ops::Op::kEq, {a, E4M3({0x39, 0x38, 0xc5, 0x00, 0x1d})})),
            (std::vector<bool>{true, false, true, false, true}));
  EXPECT_EQ(Bits<Float8E4M3FN>(RunBoth(ops::Op::kAbs, {a})),
            (std::vector<uint8_t>{0x39, 0x3c, 0x45, 0x07, 0x1d}));
  EXPECT_EQ(
      Bits<Float8E5M2>(RunBoth(ops::Op::kWhere, {Bools({true, false, true, false, false}), c, d})),
      (std::vector<uint8_t>{0x3d, 0x41, 0xc2, 0x38, 0x42}));
  // No kernel in PyTorch 2.15: float32 arithmetic, one rounding.
  EXPECT_EQ(Bits<Float8E4M3FN>(RunBoth(ops::Op::kAdd, {a, b})),
            (std::vector<uint8_t>{0x41, 0x48, 0x47, 0x30, 0x44}));
  EXPECT_EQ(Values<bool>(RunBoth(ops::Op::kLt, {c, d})),
            (std::vector<bool>{false, true, true, true, false}));
  // sqrt of 4, 2, 0.25, 3.
  EXPECT_EQ(Bits<Float8E4M3FN>(RunBoth(ops::Op::kSqrt, {E4M3({0x48, 0x40, 0x28, 0x44})})),
            (std::vector<uint8_t>{0x40, 0x3b, 0x30, 0x3e}));
  EXPECT_EQ(Bits<Float8E4M3FN>(*Sum(a)), std::vector<uint8_t>{0xb0});  // -0.509765625 -> -0.5
  EXPECT_EQ(Bits<Float8E4M3FN>(*Add(a, Wrapped(0.5))),
            (std::vector<uint8_t>{0x3d, 0x40, 0xc3, 0x30, 0x32}));  // 1.625 2 -2.75 0.5 0.625
}

// PyTorch 2.15's reduced-float kernels: a single-element second operand is
// taken in float, unrounded (a Python 1.1 is not bfloat16's 1.1015625), and
// floor and truncating division by it run in float; by a tensor they round
// each step to bfloat16.
TEST(FunctionalNewDTypes, NarrowFloatsBySingleElement) {
  std::vector<BFloat16> x;
  for (double v : {-11.5, -3.15625, -12.625, -8.8125, -17.625, -5.5})
    x.push_back(Convert<BFloat16>(v));
  const Tensor a = Of(x);
  const Tensor py = Wrapped(1.1);
  const Tensor zero_d = *Tensor::FromValues<BFloat16>({Convert<BFloat16>(1.1)}, {});
  const Tensor full = Of(std::vector<BFloat16>(x.size(), Convert<BFloat16>(1.1)));
  const auto values = [](const Tensor& t) {
    std::vector<double> v;
    for (BFloat16 b : Values<BFloat16>(t)) v.push_back(Convert<double>(b));
    return v;
  };
  using V = std::vector<double>;
  EXPECT_EQ(values(RunBoth(ops::Op::kMul, {a, py})),
            (V{-12.625, -3.46875, -13.875, -9.6875, -19.375, -6.0625}));
  EXPECT_EQ(values(RunBoth(ops::Op::kFloorDivide, {a, py})), (V{-11, -3, -12, -9, -17, -5}));
  EXPECT_EQ(values(RunBoth(ops::Op::kDivTrunc, {a, py})), (V{-10, -2, -11, -8, -16, -5}));
  EXPECT_EQ(values(RunBoth(ops::Op::kDivFloor, {a, zero_d})), (V{-11, -3, -12, -8, -16, -5}));
  EXPECT_EQ(values(RunBoth(ops::Op::kDivTrunc, {a, zero_d})), (V{-10, -2, -11, -8, -16, -4}));
  EXPECT_EQ(values(RunBoth(ops::Op::kDivFloor, {a, full})), (V{-11, -3, -12, -8, -16, -5}));
  EXPECT_EQ(values(RunBoth(ops::Op::kDivTrunc, {a, full})), (V{-10, -2, -11, -8, -16, -5}));
}

// x ** True and x ** False skip PyTorch's kernel, so bool computes there.
TEST(FunctionalNewDTypes, PowOfBoolByBool) {
  const Tensor x = Bools({true, false});
  EXPECT_EQ(Values<bool>(RunBoth(ops::Op::kPow, {x, Tensor::WrappedNumber(Operand::PyBool(true))})),
            (std::vector<bool>{true, false}));
  EXPECT_EQ(
      Values<bool>(RunBoth(ops::Op::kPow, {x, Tensor::WrappedNumber(Operand::PyBool(false))})),
      (std::vector<bool>{true, true}));
}

TEST(FunctionalNewDTypes, Atan2OfFloat16) {
  std::vector<Float16> y, x;
  for (double v : {1.0, -2.0, 0.5, 3.0}) y.push_back(Convert<Float16>(v));
  for (double v : {3.0, 0.25, -1.0, 3.0}) x.push_back(Convert<Float16>(v));
  const Tensor r = RunBoth(ops::Op::kAtan2, {Of(y), Of(x)});
  ASSERT_EQ(r.dtype(), DType::kFloat16);
  const double expected[] = {0.32177734375, -1.4462890625, 2.677734375, 0.78515625};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(Convert<double>(r.data_as<Float16>()[i]), expected[i]) << i;
  }
}

// PyTorch 2.15 divides complex numbers by Smith's algorithm with fused
// multiply-adds (its vectorized kernels): x / 0 is infinite, not NaN.
TEST(FunctionalNewDTypes, ComplexDivision) {
  using C = Complex<float>;
  const std::vector<C> a = {{1, 2}, {-3, 0.5f}, {0.25f, -1}, {1, 1}};
  const std::vector<C> b = {{3, -1}, {0.5f, 0.5f}, {2, 0}, {0, 0}};
  const Tensor q = RunBoth(ops::Op::kDiv, {Of(a), Of(b)});
  const std::vector<C> expected = {{0.10000000149011612f, 0.699999988079071f},
                                   {-2.5f, 3.5f},
                                   {0.125f, -0.5f},
                                   {INFINITY, INFINITY}};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(q.data_as<C>()[i].real, expected[i].real) << i;
    EXPECT_EQ(q.data_as<C>()[i].imag, expected[i].imag) << i;
  }
  // complex32 (no kernel in 2.15): complex64 arithmetic, each part rounded once.
  const Tensor h =
      RunBoth(ops::Op::kDiv, {*Of(a).To(DType::kComplex32), *Of(b).To(DType::kComplex32)});
  const double expected_half[4][2] = {
      {0.0999755859375, 0.7001953125}, {-2.5, 3.5}, {0.125, -0.5}, {INFINITY, INFINITY}};
  for (int i = 0; i < 4; ++i) {
    const Complex<Float16> z = h.data_as<Complex<Float16>>()[i];
    EXPECT_EQ(Convert<double>(z.real), expected_half[i][0]) << i;
    EXPECT_EQ(Convert<double>(z.imag), expected_half[i][1]) << i;
  }
}

TEST(FunctionalNewDTypes, PythonScalarsAlone) {
  const Tensor sum = RunBoth(ops::Op::kAdd, {Wrapped(1.5), Wrapped(2.5)});
  EXPECT_EQ(Values<float>(sum), std::vector<float>{4.0f});
  const Tensor chosen = RunBoth(
      ops::Op::kWhere, {Tensor::WrappedNumber(Operand::PyBool(true)), Wrapped(1.5), Wrapped(2.5)});
  EXPECT_EQ(Values<float>(chosen), std::vector<float>{1.5f});
  EXPECT_EQ(Values<double>(*Sum(Wrapped(1.5))), std::vector<double>{1.5});
}

// A framework's pool (HostParallelFor) that runs a call's grain-sized
// ranges on the calling thread, last first, and counts the calls.
void RunRangesBackwards(void* calls, int64_t n, int64_t grain, HostParallelFor::Body body,
                        void* body_state) {
  ++*static_cast<int*>(calls);
  for (int64_t begin = (n - 1) / grain * grain; begin >= 0; begin -= grain) {
    body(body_state, begin, std::min(n, begin + grain));
  }
}

// Elementwise ops large enough to split run on the framework's pool given
// in the context, on both cast paths and on broadcast rows, with exact
// sums.
TEST(FunctionalHostPool, LargeOpsRunOnTheFrameworksPool) {
  const int64_t n = int64_t{1} << 20;
  std::vector<int8_t> small(n);
  std::vector<float> quarters(n);
  for (int64_t i = 0; i < n; ++i) {
    small[i] = static_cast<int8_t>(i % 101 - 50);
    quarters[i] = 0.25f * static_cast<float>(i);
  }
  for (const CastPath path : {CastPath::kFused, CastPath::kMaterialized}) {
    int calls = 0;
    OpOptions options;
    options.cast_path = path;
    options.context.cpu_pool = {&RunRangesBackwards, &calls};
    const absl::StatusOr<Tensor> sum = Add(Of(small), Of(quarters), options);
    ASSERT_TRUE(sum.ok()) << sum.status();
    const std::vector<float> got = Values<float>(*sum);
    ASSERT_EQ(got.size(), static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_EQ(got[i], static_cast<float>(small[i]) + quarters[i]) << i;
    }
    // The fused add; the materialized path casts int8 to float32 first.
    EXPECT_EQ(calls, path == CastPath::kFused ? 1 : 2);
  }
  const int64_t rows = 1024, columns = 1024;
  std::vector<int32_t> matrix(rows * columns), row(columns);
  for (int64_t i = 0; i < rows * columns; ++i) matrix[i] = static_cast<int32_t>(i);
  for (int64_t c = 0; c < columns; ++c) row[c] = static_cast<int32_t>(-3 * c);
  int calls = 0;
  OpOptions options;
  options.context.cpu_pool = {&RunRangesBackwards, &calls};
  const absl::StatusOr<Tensor> sum =
      Add(*Tensor::FromValues<int32_t>(matrix, {rows, columns}), Of(row), options);
  ASSERT_TRUE(sum.ok()) << sum.status();
  const std::vector<int32_t> got = Values<int32_t>(*sum);
  ASSERT_EQ(got.size(), matrix.size());
  for (int64_t i = 0; i < rows * columns; ++i)
    ASSERT_EQ(got[i], matrix[i] - 3 * (i % columns)) << i;
  EXPECT_EQ(calls, 1);
}

// A negative thread count is refused by name, also for an op that casts
// nothing, before any work reaches the pool.
TEST(FunctionalHostPool, NegativeThreadCountsAreRefused) {
  const std::vector<int32_t> values = {1, 2, 3};
  int calls = 0;
  OpOptions options;
  options.context.cpu_threads = -1;
  options.context.cpu_pool = {&RunRangesBackwards, &calls};
  const absl::StatusOr<Tensor> same = Add(Of(values), Of(values), options);
  EXPECT_EQ(same.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(same.status().message().find("cpu_threads is -1"), absl::string_view::npos)
      << same.status();
  options.context.cpu_pool = {};
  const absl::StatusOr<Tensor> mixed = Add(Of(values), Of(std::vector<float>{0.5f, 1, 2}), options);
  EXPECT_EQ(mixed.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(calls, 0);
}

// add and sub with alpha (OpOptions::alpha), against PyTorch 2.15 on the CPU:
// one fused multiply-add in float64 (-0.30000000000000004 + 3 * 0.1 is
// -2^-55 there, 0 with the product rounded first), wrapping integers, and
// sub as add of -alpha negated in alpha's own type (a real alpha keeps the
// +0 imaginary part of -2.0, a complex one negates it: the signs of zero
// differ).
TEST(FunctionalAlpha, ComputesAsPyTorch) {
  OpOptions options;
  options.alpha = Operand::PyInt(3);
  const Tensor a = Of<double>({-0.30000000000000004, 1.0, 1e16});
  const Tensor b = Of<double>({0.1, 3.0, 1.0});
  for (CastPath path : {CastPath::kFused, CastPath::kMaterialized}) {
    options.cast_path = path;
    EXPECT_EQ(Values<double>(*Call(ops::Op::kAdd, {a, b}, options)),
              (std::vector<double>{-std::ldexp(1.0, -55), 10.0, 0x1.1c37937e08002p+53}));
  }
  options.cast_path = CastPath::kAuto;
  options.alpha = Operand::PyInt(-3);
  EXPECT_EQ(Values<double>(*Call(ops::Op::kSub, {a, b}, options))[0], -std::ldexp(1.0, -55));

  const Tensor i = Of<int8_t>({100, -128, 7});
  options.alpha = Operand::PyInt(2);
  EXPECT_EQ(Values<int8_t>(*Call(ops::Op::kAdd, {i, i}, options)),
            (std::vector<int8_t>{44, -128, 21}));
  options.alpha = Operand::PyInt(-127);
  EXPECT_EQ(Values<int8_t>(*Call(ops::Op::kSub, {i, Of<int8_t>({1, 1, 1})}, options)),
            (std::vector<int8_t>{-29, -1, -122}));

  using C = Complex<float>;
  const Tensor z = Of<C>({{-0.0f, 0.0f}, {1, 2}});
  const Tensor w = Of<C>({{0, 1}, {3, -1}});
  const auto signs = [](const Tensor& t) {
    std::vector<bool> bits;
    for (C c : Values<C>(t)) bits.insert(bits.end(), {std::signbit(c.real), std::signbit(c.imag)});
    return bits;
  };
  options.alpha = Operand::PyFloat(2.0);
  EXPECT_EQ(signs(*Call(ops::Op::kSub, {z, w}, options)),
            (std::vector<bool>{true, true, true, false}));  // (-0, -2), (-5, 4)
  options.alpha = Operand::PyComplex({2, 0});
  EXPECT_EQ(signs(*Call(ops::Op::kSub, {z, w}, options)),
            (std::vector<bool>{false, true, true, false}));  // (0, -2), (-5, 4)

  // float16 computes in float32 with alpha rounded to float16, as
  // PyTorch's vector loop: 1.498046875 + (-3.125) * 23.109375.
  options.alpha = Operand::PyFloat(-3.125);
  const Tensor h = *Of<float>(std::vector<float>(40, 1.498046875f)).To(DType::kFloat16);
  const Tensor g = *Of<float>(std::vector<float>(40, 23.109375f)).To(DType::kFloat16);
  EXPECT_EQ(Values<float>(*Call(ops::Op::kAdd, {h, g}, options)->To(DType::kFloat32))[0], -70.75f);
}

TEST(FunctionalAlpha, RefusedAsPyTorchRefusesIt) {
  OpOptions options;
  options.alpha = Operand::PyFloat(1.5);
  const Tensor i = Of<int32_t>({1, 2});
  EXPECT_EQ(Call(ops::Op::kAdd, {i, i}, options).status().message(),
            "For integral input tensors, argument alpha must not be a floating point number.");
  EXPECT_EQ(Call(ops::Op::kMul, {i, i}, options).status().message(), "mul() takes no alpha");
  // c10::Scalar::to's range, after sub's negation (torch 2.15's messages).
  const Tensor i8 = Of<int8_t>({1, 2});
  options.alpha = Operand::PyInt(-128);
  EXPECT_TRUE(Call(ops::Op::kAdd, {i8, i8}, options).ok());
  EXPECT_EQ(Call(ops::Op::kSub, {i8, i8}, options).status().message(),
            "value cannot be converted to type int8_t without overflow");
  options.alpha = Operand::PyInt(-255);
  EXPECT_TRUE(Call(ops::Op::kAdd, {Of<uint8_t>({1}), Of<uint8_t>({1})}, options).ok());
  options.alpha = Operand::PyFloat(70000.0);
  const Tensor h = *Of<float>({1}).To(DType::kFloat16);
  EXPECT_EQ(Call(ops::Op::kAdd, {h, h}, options).status().message(),
            "value cannot be converted to type c10::Half without overflow");
}

}  // namespace
}  // namespace oneflow_promote::functional
