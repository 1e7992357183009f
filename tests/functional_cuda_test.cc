// The functional frontend on a CUDA device against the same calls on the
// CPU (which //tests:functional_vs_torch checks against libtorch): every
// op (reductions, cumsum and dot included), every dtype pair, operand kinds
// with broadcasting, transposed views, 0-d tensors and Python scalars, out=
// and in place. Integers and bools must be equal; floating results within
// the bound docs/ops.md states for the op, in units in the last place of
// the result's magnitude: one for results narrower than float64 (both
// devices round the same wider value), more for float64 and complex128,
// where the devices' math libraries differ. Ops queued on a stream are
// captured in a CUDA graph and replayed. Skips without a GPU;
// ONEFLOW_PROMOTE_EXPECT_GPU=1 makes a missing GPU a failure.

#include <cmath>
#include <cstdlib>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "functional/functional.h"
#include "gtest/gtest.h"
#include "kernels/cuda_device.h"
#include "oneflow_promote/convert.h"
#include "tests/test_tensors.h"

#if ONEFLOW_PROMOTE_HAVE_CUDA
#include <cuda_runtime.h>
#endif

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
  const std::vector<int64_t> shape = kind == 0   ? std::vector<int64_t>{3, 4}
                                     : kind == 1 ? std::vector<int64_t>{4}
                                     : kind == 2 ? std::vector<int64_t>{4, 3}
                                                 : std::vector<int64_t>{};
  const Tensor host = Filled(dtype, shape, rng);
  const Tensor cuda = *host.ToDevice(Device::Cuda(0));
  if (kind == 2) return {*host.Transpose(0, 1), *cuda.Transpose(0, 1)};
  return {host, cuda};
}

// Bits after the binary point of the format of a result's (real) parts.
int MantissaBits(DType dtype) {
  switch (dtype) {
    case DType::kFloat8E4M3FN:
    case DType::kFloat8E4M3FNUZ:
      return 3;
    case DType::kFloat8E5M2:
    case DType::kFloat8E5M2FNUZ:
      return 2;
    case DType::kFloat8E8M0FNU:
      return 0;
    case DType::kFloat16:
    case DType::kComplex32:
      return 10;
    case DType::kBFloat16:
    case DType::kBComplex32:
      return 7;
    case DType::kFloat32:
    case DType::kComplex64:
      return 23;
    default:
      return 52;
  }
}

// How many units in the last place of |result| the devices may differ by
// (docs/ops.md, "CPU and CUDA"). Narrower results round the same float32
// (or float64) value on both devices: at most one unit, where that value
// sits on a rounding boundary. In float64 the devices' own libraries
// differ: pow (exp(y log x) for complex) most, then the other
// transcendental functions, then sums in another order; elsewhere the
// device's fused multiply-adds in complex products.
double MaxUlps(ops::Op op, DType result) {
  if (op == ops::Op::kPow && result == DType::kComplex64) return 64;  // computed in complex<float>
  // Where each device follows its own PyTorch kernel (cuda_op_math.h):
  // CUDA's atan2f (2 ulp), a host-scalar divisor by its reciprocal.
  if (op == ops::Op::kAtan2) return 4;
  if (op == ops::Op::kDiv || op == ops::Op::kDivFloor || op == ops::Op::kDivTrunc ||
      op == ops::Op::kFloorDivide)
    return MantissaBits(result) < 52 ? 2 : 4;
  if (MantissaBits(result) < 52) return 1;
  switch (op) {
    case ops::Op::kPow:
      return 64;
    case ops::Op::kAtan2:
    case ops::Op::kSqrt:
    case ops::Op::kAbs:
      return 4;
    case ops::Op::kSum:
    case ops::Op::kProd:
    case ops::Op::kMean:
    case ops::Op::kCumsum:
    case ops::Op::kDot:
      return 4096;
    default:
      return 2;
  }
}

// One unit in the last place of `dtype` at `magnitude`.
double UlpAt(DType dtype, double magnitude) {
  int exponent = 0;
  std::frexp(magnitude, &exponent);  // magnitude = f * 2^exponent, f in [0.5, 1)
  return std::ldexp(1.0, std::max(exponent - 1, -1022) - MantissaBits(dtype));
}

// "" when the CUDA result matches the CPU's within MaxUlps(op).
std::string Compare(const absl::StatusOr<Tensor>& cpu, const absl::StatusOr<Tensor>& cuda,
                    ops::Op op) {
  // Integer division by zero: PyTorch's CPU kernel refuses it, its CUDA
  // kernel gives the device's answer without looking (torch_extension's
  // cuda_graph_test holds those answers against torch's).
  if (!cpu.ok() && absl::StrContains(cpu.status().message(), "ZeroDivisionError") && cuda.ok()) {
    return "";
  }
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
  const bool exact = IsIntegral(cpu->dtype()) || cpu->dtype() == DType::kBool;
  const double ulps = exact ? 0 : MaxUlps(op, cpu->dtype());
  for (int64_t i = 0; i < a.numel(); ++i) {
    const Complex<double> x = a.data_as<Complex<double>>()[i], y = b.data_as<Complex<double>>()[i];
    const double allowed = ulps * UlpAt(cpu->dtype(), std::hypot(x.real, x.imag));
    for (auto [p, q] : {std::pair{x.real, y.real}, std::pair{x.imag, y.imag}}) {
      if (std::isnan(p) && std::isnan(q)) continue;
      if (std::isinf(p) || std::isinf(q) ? p != q : std::fabs(p - q) > allowed) {
        return absl::StrCat("element ", i, ": CPU (", x.real, ",", x.imag, "), CUDA (", y.real, ",",
                            y.imag, "), more than ", ulps, " ulp apart");
      }
    }
  }
  return "";
}

class FunctionalCuda : public ::testing::TestWithParam<ops::Op> {};

TEST_P(FunctionalCuda, MatchesTheCpu) {
  if (!HaveGpu()) GTEST_SKIP() << "no CUDA device";
  const ops::Op op = GetParam();
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
    if (const std::string m = Compare(on_cpu, on_cuda, op); !m.empty() && ++failures <= 20) {
      ADD_FAILURE() << ops::OpName(op) << "(" << absl::StrJoin(described, ", ") << "): " << m;
    }
  };
  const int arity = ops::OpArity(op);
  for (DType a : kDTypes) {
    if (arity == 1) {
      for (int kind : {0, 2, 3}) run({Make(a, kind, rng)});
      continue;
    }
    for (DType b : kDTypes) {
      if (op == ops::Op::kDot) {
        run({Make(a, 1, rng), Make(b, 1, rng)});
        continue;
      }
      const std::pair<int, int> kinds[] = {{0, 0}, {0, 1}, {2, 0}, {0, 3}, {3, 1}, {0, 4}, {4, 1}};
      for (const auto& [ka, kb] : kinds) {
        std::vector<Pair> operands = {Make(a, ka, rng), Make(b, kb, rng)};
        if (arity == 3)
          operands.insert(operands.begin(), Make(rng() % 2 ? DType::kBool : DType::kUInt8, 0, rng));
        run(operands);
      }
    }
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(compared, 0);
}

INSTANTIATE_TEST_SUITE_P(AllOps, FunctionalCuda, ::testing::ValuesIn(ops::kKernelOps),
                         [](const ::testing::TestParamInfo<ops::Op>& info) {
                           return std::string(ops::OpName(info.param));
                         });

TEST(FunctionalCudaDevices, OutInPlaceAndMixedDevices) {
  if (!HaveGpu()) GTEST_SKIP() << "no CUDA device";
  std::mt19937_64 rng(5);
  const Pair x = Make(DType::kInt8, 0, rng), y = Make(DType::kFloat32, 1, rng);
  Tensor out = *Tensor::Empty(DType::kFloat64, {3, 4}, Device::Cuda(0));
  ASSERT_TRUE(CallOut(ops::Op::kAdd, {x.cuda, y.cuda}, out).ok());
  Tensor host_out = *Tensor::Empty(DType::kFloat64, {3, 4});
  ASSERT_TRUE(CallOut(ops::Op::kAdd, {x.host, y.host}, host_out).ok());
  EXPECT_EQ(Compare(host_out, out, ops::Op::kAdd), "");

  Tensor self = *Make(DType::kFloat32, 0, rng).cuda.Clone();
  Tensor self_host = *self.ToDevice(Device::Cpu());
  ASSERT_TRUE(CallInPlace(ops::Op::kMul, self, {x.cuda}).ok());
  ASSERT_TRUE(CallInPlace(ops::Op::kMul, self_host, {x.host}).ok());
  EXPECT_EQ(Compare(self_host, self, ops::Op::kMul), "");
  Tensor int8s = *x.cuda.Clone();
  EXPECT_EQ(CallInPlace(ops::Op::kDiv, int8s, {y.cuda}).code(), absl::StatusCode::kInvalidArgument)
      << "float32 can't be cast into int8 in place";

  // A CUDA tensor with a host tensor of several elements: an error, as in PyTorch.
  const absl::StatusOr<Tensor> mixed = Add(x.cuda, Make(DType::kFloat32, 1, rng).host);
  EXPECT_FALSE(mixed.ok());
  // dot of a device vector and a one-element host vector: an error, not a crash.
  const Tensor one = *Tensor::FromValues<float>({2.0f}, {1});
  EXPECT_FALSE(Dot(*one.ToDevice(Device::Cuda(0)), one).ok());
  // Integer division by a zero element on the device gives the device's
  // answer, as PyTorch's CUDA kernels do, without waiting for the kernel.
  const Tensor zeros = *Tensor::Zeros(DType::kInt32, {4}).value().ToDevice(Device::Cuda(0));
  EXPECT_TRUE(FloorDivide(x.cuda, zeros).ok());
}

#if ONEFLOW_PROMOTE_HAVE_CUDA
// Ops queued on a stream that is being captured become a CUDA graph: no op
// may wait for the device, allocate outside the stream's order or read a
// result back. Replayed, the graph must give the uncaptured answers.
TEST(FunctionalCudaDevices, OpsAreCapturedInACudaGraph) {
  if (!HaveGpu()) GTEST_SKIP() << "no CUDA device";
  std::mt19937_64 rng(9);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  OpOptions options;
  options.context.cuda_stream = stream;
  const Pair ints = Make(DType::kInt32, 0, rng), divisors = Make(DType::kInt32, 1, rng);
  const Pair int8s = Make(DType::kInt8, 0, rng), floats = Make(DType::kFloat32, 1, rng);
  const Pair condition = Make(DType::kBool, 0, rng);
  struct Captured {
    ops::Op op;
    std::vector<Tensor> inputs;
    DType out;
  };
  // Elementwise ops into out= tensors of their result's dtype: integer
  // division and a fused mixed-dtype op among them.
  const Captured ops[] = {
      {ops::Op::kFloorDivide, {ints.cuda, divisors.cuda}, DType::kInt32},
      {ops::Op::kRemainder, {ints.cuda, divisors.cuda}, DType::kInt32},
      {ops::Op::kAdd, {int8s.cuda, floats.cuda}, DType::kFloat32},
      {ops::Op::kWhere, {condition.cuda, int8s.cuda, floats.cuda}, DType::kFloat32},
  };
  std::vector<Tensor> outs, expected;
  for (const Captured& c : ops) {
    outs.push_back(*Tensor::Empty(c.out, {3, 4}, Device::Cuda(0)));
    const absl::StatusOr<Tensor> direct = Call(c.op, c.inputs, options);
    ASSERT_TRUE(direct.ok()) << ops::OpName(c.op) << ": " << direct.status();
    // ToDevice copies on the default stream, which does not wait for `stream`.
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    expected.push_back(*direct->ToDevice(Device::Cpu()));
  }
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), cudaSuccess);
  for (size_t k = 0; k < std::size(ops); ++k) {
    const absl::Status s = CallOut(ops[k].op, ops[k].inputs, outs[k], options);
    EXPECT_TRUE(s.ok()) << ops::OpName(ops[k].op) << " during capture: " << s;
  }
  ASSERT_EQ(cudaStreamEndCapture(stream, &graph), cudaSuccess) << "an op broke the capture";
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  for (int replay = 0; replay < 2; ++replay) {
    ASSERT_EQ(cudaGraphLaunch(exec, stream), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    for (size_t k = 0; k < std::size(ops); ++k) {
      EXPECT_EQ(Compare(expected[k], outs[k], ops[k].op), "") << ops::OpName(ops[k].op);
    }
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
}
#endif

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
    return Pair{*full.AsStrided({length}, {1}, offset),
                *on_device.AsStrided({length}, {1}, offset)};
  };
  std::vector<int64_t> lengths;
  for (int64_t n = 1; n <= 17; ++n) lengths.push_back(n);
  lengths.insert(lengths.end(), {1000, 4099, 100003});
  struct Case {
    ops::Op op;
    std::vector<DType> inputs;
    DType out;
  };
  const Case cases[] = {
      {ops::Op::kAdd, {DType::kInt8, DType::kFloat32}, DType::kFloat32},
      {ops::Op::kAdd, {DType::kFloat16, DType::kFloat32}, DType::kFloat32},
      {ops::Op::kMul, {DType::kInt64, DType::kComplex128}, DType::kComplex128},
      {ops::Op::kEq, {DType::kUInt8, DType::kInt16}, DType::kBool},
      {ops::Op::kWhere, {DType::kBool, DType::kBFloat16, DType::kInt32}, DType::kFloat32},
      {ops::Op::kNeg, {DType::kInt16}, DType::kInt16},
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
        std::string m = on_cpu.ok() && on_cuda.ok() ? Compare(host_out, cuda_out, c.op)
                                                    : absl::StrCat("CPU ", on_cpu.ToString(),
                                                                   ", CUDA ", on_cuda.ToString());
        if (!m.empty() && ++failures <= 20) {
          ADD_FAILURE() << ops::OpName(c.op) << " of " << length << " elements, offsets "
                        << absl::StrJoin(offset, ",") << ": " << m;
        }
      }
    }
  }
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace oneflow_promote::functional
