// The functional frontend on a CUDA device against the same calls on the
// CPU (which //tests:functional_vs_torch checks against libtorch): every
// op (reductions, cumsum and dot included), every dtype pair, operand kinds
// with broadcasting, transposed views, 0-d tensors and Python scalars, out=
// and in place. Integers and bools must
// be equal, floating values within a few units in the last place (device
// math libraries differ from the host's there). Skips without a GPU;
// ONEFLOW_PROMOTE_EXPECT_GPU=1 makes a missing GPU a failure.

#include <cmath>
#include <cstdlib>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "kernels/convert.h"
#include "kernels/cuda_device.h"
#include "oneflow_promote/functional/functional.h"
#include "tests/test_tensors.h"

namespace oneflow_promote::functional {
namespace {

// Every dtype: float8 and uint16/32/64 compute too.
const std::vector<DType> kDTypes(std::begin(kAllDTypes), std::end(kAllDTypes));

bool HaveGpu() {
  if (CudaDeviceCount().ok()) return true;
  const char* expect = std::getenv("ONEFLOW_PROMOTE_EXPECT_GPU");
  if (expect != nullptr && std::string(expect) == "1") {
    ADD_FAILURE() << "ONEFLOW_PROMOTE_EXPECT_GPU=1 but: " << CudaDeviceCount().status();
  }
  return false;
}

// Small nonzero values, as in the libtorch comparisons.
Tensor Filled(DType dtype, std::vector<int64_t> shape, std::mt19937_64& rng) {
  return testing::FilledTensor(dtype, shape, rng());
}

// An operand on both sides: kind 0 [3,4], 1 [4], 2 transposed [3,4], 3 0-d,
// 4 a Python scalar (host wrapped number on both sides).
struct Pair {
  Tensor host, cuda;
};
Pair Make(DType dtype, int kind, std::mt19937_64& rng) {
  if (kind == 4) {
    const Operand scalars[] = {Operand::PyBool(true), Operand::PyInt(2), Operand::PyFloat(-1.5),
                               Operand::PyComplex({0.5, 2})};
    const Tensor s = Tensor::WrappedNumber(scalars[rng() % 4]);
    return {s, s};
  }
  const std::vector<int64_t> shape = kind == 0 ? std::vector<int64_t>{3, 4}
                                     : kind == 1 ? std::vector<int64_t>{4}
                                     : kind == 2 ? std::vector<int64_t>{4, 3}
                                                 : std::vector<int64_t>{};
  const Tensor host = Filled(dtype, shape, rng);
  const Tensor cuda = *host.ToDevice(Device::Cuda(0));
  if (kind == 2) return {*host.Transpose(0, 1), *cuda.Transpose(0, 1)};
  return {host, cuda};
}

double Ulps(DType dtype) {
  if (IsFloat8(dtype)) return 0.25;  // one step of float8_e5m2's 2 mantissa bits
  switch (dtype) {
    case DType::kFloat16: case DType::kComplex32: return 2e-3;
    case DType::kBFloat16: return 1.6e-2;
    case DType::kFloat32: case DType::kComplex64: return 1e-5;
    case DType::kFloat64: case DType::kComplex128: return 1e-12;
    default: return 0;
  }
}

// "" when the CUDA result matches the CPU's.
std::string Compare(const absl::StatusOr<Tensor>& cpu, const absl::StatusOr<Tensor>& cuda) {
  if (cpu.ok() != cuda.ok()) {
    return absl::StrCat("CPU ", cpu.ok() ? "ok" : cpu.status().ToString(), ", CUDA ",
                        cuda.ok() ? "ok" : cuda.status().ToString());
  }
  if (!cpu.ok()) return "";
  if (!cuda->is_cuda()) return "the CUDA call returned a host tensor";
  const Tensor back = *cuda->ToDevice(Device::Cpu());
  if (back.dtype() != cpu->dtype() || back.shape() != cpu->shape()) {
    return absl::StrCat("CPU ", cpu->Describe(), ", CUDA ", cuda->Describe());
  }
  const Tensor a = *cpu->To(DType::kComplex128), b = *back.To(DType::kComplex128);
  const double tol = Ulps(cpu->dtype());
  for (int64_t i = 0; i < a.numel(); ++i) {
    const Complex<double> x = a.data_as<Complex<double>>()[i], y = b.data_as<Complex<double>>()[i];
    for (auto [p, q] : {std::pair{x.real, y.real}, std::pair{x.imag, y.imag}}) {
      if (std::isnan(p) && std::isnan(q)) continue;
      if (std::isinf(p) || std::isinf(q) ? p != q : std::fabs(p - q) > tol * (1 + std::fabs(p))) {
        return absl::StrCat("element ", i, ": CPU (", x.real, ",", x.imag, "), CUDA (", y.real,
                            ",", y.imag, ")");
      }
    }
  }
  return "";
}

class FunctionalCuda : public ::testing::TestWithParam<Op> {};

TEST_P(FunctionalCuda, MatchesTheCpu) {
  if (!HaveGpu()) GTEST_SKIP() << "no CUDA device";
  const Op op = GetParam();
  std::mt19937_64 rng(static_cast<uint64_t>(op) + 11);
  int failures = 0, compared = 0;
  const auto run = [&](const std::vector<Pair>& operands) {
    std::vector<Tensor> host, cuda;
    std::vector<std::string> described;
    for (const Pair& p : operands) {
      host.push_back(p.host);
      cuda.push_back(p.cuda);
      described.push_back(p.cuda.Describe());
    }
    const absl::StatusOr<Tensor> on_cpu = Call(op, host);
    const absl::StatusOr<Tensor> on_cuda = Call(op, cuda);
    compared += on_cpu.ok();
    if (const std::string m = Compare(on_cpu, on_cuda); !m.empty() && ++failures <= 20) {
      ADD_FAILURE() << OpName(op) << "(" << absl::StrJoin(described, ", ") << "): " << m;
    }
  };
  const int arity = OpArity(op);
  for (DType a : kDTypes) {
    if (arity == 1) {
      for (int kind : {0, 2, 3}) run({Make(a, kind, rng)});
      continue;
    }
    for (DType b : kDTypes) {
      if (op == Op::kDot) {
        run({Make(a, 1, rng), Make(b, 1, rng)});
        continue;
      }
      const std::pair<int, int> kinds[] = {{0, 0}, {0, 1}, {2, 0}, {0, 3}, {3, 1}, {0, 4}, {4, 1}};
      for (const auto& [ka, kb] : kinds) {
        std::vector<Pair> operands = {Make(a, ka, rng), Make(b, kb, rng)};
        if (arity == 3) operands.insert(operands.begin(), Make(rng() % 2 ? DType::kBool : DType::kUInt8, 0, rng));
        run(operands);
      }
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(compared, 0);
}

INSTANTIATE_TEST_SUITE_P(AllOps, FunctionalCuda, ::testing::ValuesIn(kAllOps),
                         [](const ::testing::TestParamInfo<Op>& info) {
                           return std::string(OpName(info.param));
                         });

TEST(FunctionalCudaDevices, OutInPlaceAndMixedDevices) {
  if (!HaveGpu()) GTEST_SKIP() << "no CUDA device";
  std::mt19937_64 rng(5);
  const Pair x = Make(DType::kInt8, 0, rng), y = Make(DType::kFloat32, 1, rng);
  Tensor out = *Tensor::Empty(DType::kFloat64, {3, 4}, Device::Cuda(0));
  ASSERT_TRUE(CallOut(Op::kAdd, {x.cuda, y.cuda}, out).ok());
  Tensor host_out = *Tensor::Empty(DType::kFloat64, {3, 4});
  ASSERT_TRUE(CallOut(Op::kAdd, {x.host, y.host}, host_out).ok());
  EXPECT_EQ(Compare(host_out, out), "");

  Tensor self = *Make(DType::kFloat32, 0, rng).cuda.Clone();
  Tensor self_host = *self.ToDevice(Device::Cpu());
  ASSERT_TRUE(CallInPlace(Op::kMul, self, {x.cuda}).ok());
  ASSERT_TRUE(CallInPlace(Op::kMul, self_host, {x.host}).ok());
  EXPECT_EQ(Compare(self_host, self), "");
  Tensor int8s = *x.cuda.Clone();
  EXPECT_EQ(CallInPlace(Op::kDiv, int8s, {y.cuda}).code(),
            absl::StatusCode::kInvalidArgument)
      << "float32 can't be cast into int8 in place";

  // A CUDA tensor with a host tensor of several elements: an error, as in PyTorch.
  const absl::StatusOr<Tensor> mixed = Add(x.cuda, Make(DType::kFloat32, 1, rng).host);
  EXPECT_FALSE(mixed.ok());
  // dot of a device vector and a one-element host vector: an error, not a crash.
  const Tensor one = *Tensor::FromValues<float>({2.0f}, {1});
  EXPECT_FALSE(Dot(*one.ToDevice(Device::Cuda(0)), one).ok());
  // Integer division by a zero element on the device.
  const Tensor zeros = *Tensor::Zeros(DType::kInt32, {4}).value().ToDevice(Device::Cuda(0));
  EXPECT_EQ(FloorDivide(x.cuda, zeros).status().message(), "ZeroDivisionError");
}

// Contiguous operands of every length from 1 to 17 and a few long ones,
// starting 0 to 3 elements into their buffers: the elementwise kernel moves
// aligned operands in packs of consecutive elements and the rest one at a
// time, so this covers packs, the leftover elements after the last pack,
// and each misaligned operand (inputs and out=) sending the launch to the
// element-wise walk.
TEST(FunctionalCudaDevices, ContiguousLengthsAndOffsets) {
  if (!HaveGpu()) GTEST_SKIP() << "no CUDA device";
  std::mt19937_64 rng(7);
  // A contiguous view of `length` elements, `offset` elements into a buffer,
  // on both sides.
  const auto view = [&](DType dtype, int64_t length, int64_t offset) {
    const Tensor full = Filled(dtype, {length + offset}, rng);
    const Tensor on_device = *full.ToDevice(Device::Cuda(0));
    return Pair{*full.AsStrided({length}, {1}, offset), *on_device.AsStrided({length}, {1}, offset)};
  };
  std::vector<int64_t> lengths;
  for (int64_t n = 1; n <= 17; ++n) lengths.push_back(n);
  lengths.insert(lengths.end(), {1000, 4099, 100003});
  struct Case {
    Op op;
    std::vector<DType> inputs;
    DType out;
  };
  const Case cases[] = {
      {Op::kAdd, {DType::kInt8, DType::kFloat32}, DType::kFloat32},
      {Op::kAdd, {DType::kFloat16, DType::kFloat32}, DType::kFloat32},
      {Op::kMul, {DType::kInt64, DType::kComplex128}, DType::kComplex128},
      {Op::kEq, {DType::kUInt8, DType::kInt16}, DType::kBool},
      {Op::kWhere, {DType::kBool, DType::kBFloat16, DType::kInt32}, DType::kFloat32},
      {Op::kNeg, {DType::kInt16}, DType::kInt16},
  };
  const int64_t offsets[][4] = {{0, 0, 0, 0}, {1, 0, 0, 0}, {0, 3, 0, 0},
                                {0, 0, 2, 0}, {0, 0, 0, 1}, {1, 1, 1, 1}};
  int failures = 0;
  for (const Case& c : cases) {
    for (int64_t length : lengths) {
      for (const auto& offset : offsets) {
        std::vector<Tensor> host, cuda;
        for (size_t k = 0; k < c.inputs.size(); ++k) {
          const Pair p = view(c.inputs[k], length, offset[k]);
          host.push_back(p.host);
          cuda.push_back(p.cuda);
        }
        Tensor host_out = *Tensor::Empty(c.out, {length});
        const Tensor device_out = *Tensor::Empty(c.out, {length + offset[3]}, Device::Cuda(0));
        Tensor cuda_out = *device_out.AsStrided({length}, {1}, offset[3]);
        const absl::Status on_cpu = CallOut(c.op, host, host_out);
        const absl::Status on_cuda = CallOut(c.op, cuda, cuda_out);
        std::string m = on_cpu.ok() && on_cuda.ok()
                            ? Compare(host_out, cuda_out)
                            : absl::StrCat("CPU ", on_cpu.ToString(), ", CUDA ", on_cuda.ToString());
        if (!m.empty() && ++failures <= 20) {
          ADD_FAILURE() << OpName(c.op) << " of " << length << " elements, offsets "
                        << absl::StrJoin(offset, ",") << ": " << m;
        }
      }
    }
  }
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace oneflow_promote::functional
