// TensorTraits<at::Tensor>: dtype mapping, wrapped numbers, casts by this
// library's kernels on libtorch's buffers.

#include "functional/torch_tensor_traits.h"

#include <type_traits>
#include <vector>

#include <ATen/Parallel.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/impl/VirtualGuardImpl.h>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "kernels/cast.h"
#include "oneflow_promote/convert.h"

namespace oneflow_promote {
namespace {

// One row per dtype both libraries have, in our enum's order (BComplex32
// apart): adding a dtype to the mapping is adding its row.
struct DTypePair {
  DType dtype;
  at::ScalarType torch;
};
constexpr DTypePair kPairs[] = {
    {DType::kBool, at::kBool},
    {DType::kUInt8, at::kByte},
    {DType::kInt8, at::kChar},
    {DType::kInt16, at::kShort},
    {DType::kInt32, at::kInt},
    {DType::kInt64, at::kLong},
    {DType::kUInt16, at::kUInt16},
    {DType::kUInt32, at::kUInt32},
    {DType::kUInt64, at::kUInt64},
    {DType::kFloat8E4M3FN, at::kFloat8_e4m3fn},
    {DType::kFloat8E5M2, at::kFloat8_e5m2},
    {DType::kFloat16, at::kHalf},
    {DType::kBFloat16, at::kBFloat16},
    {DType::kFloat32, at::kFloat},
    {DType::kFloat64, at::kDouble},
    {DType::kComplex32, at::kComplexHalf},
    {DType::kComplex64, at::kComplexFloat},
    {DType::kComplex128, at::kComplexDouble},
    {DType::kFloat8E4M3FNUZ, at::ScalarType::Float8_e4m3fnuz},
    {DType::kFloat8E5M2FNUZ, at::ScalarType::Float8_e5m2fnuz},
    {DType::kFloat8E8M0FNU, at::ScalarType::Float8_e8m0fnu},
};

// at::ScalarType::BComplex32 where the torch compiled against has it (2.15
// and later); absent before, as the dtype is.
template <typename ScalarType, typename = void>
struct BComplex32Of {
  static constexpr std::optional<ScalarType> kValue = std::nullopt;
};
template <typename ScalarType>
struct BComplex32Of<ScalarType, std::void_t<decltype(ScalarType::BComplex32)>> {
  static constexpr std::optional<ScalarType> kValue = ScalarType::BComplex32;
};

// kPairs indexed both ways, as the extension looks dtypes up on every call.
struct DTypeTables {
  std::optional<at::ScalarType> torch[256];
  std::optional<DType> ours[static_cast<size_t>(at::ScalarType::NumOptions)];
};

const DTypeTables& Tables() {
  static const DTypeTables tables = [] {
    DTypeTables t;
    const auto add = [&t](DType dtype, at::ScalarType torch) {
      t.torch[static_cast<uint8_t>(dtype)] = torch;
      t.ours[static_cast<size_t>(torch)] = dtype;
    };
    for (const DTypePair& pair : kPairs) add(pair.dtype, pair.torch);
    constexpr std::optional<at::ScalarType> bcomplex32 = BComplex32Of<at::ScalarType>::kValue;
    if (bcomplex32.has_value()) add(DType::kBComplex32, *bcomplex32);
    return t;
  }();
  return tables;
}

}  // namespace

std::optional<at::ScalarType> ToTorchScalarType(DType dtype) {
  return Tables().torch[static_cast<uint8_t>(dtype)];
}

std::optional<DType> FromTorchScalarType(at::ScalarType type) {
  const size_t index = static_cast<size_t>(type);
  if (index >= static_cast<size_t>(at::ScalarType::NumOptions)) return std::nullopt;
  return Tables().ours[index];
}

Operand ScalarOperand(const c10::Scalar& value) {
  if (value.isBoolean()) return Operand::PyBool(value.toBool());
  if (value.isIntegral(/*includeBool=*/false)) return Operand::PyInt(value.toLong());
  if (value.isComplex()) {
    const c10::complex<double> z = value.toComplexDouble();
    return Operand::PyComplex({z.real(), z.imag()});
  }
  return Operand::PyFloat(value.toDouble());
}

Operand TensorTraits<at::Tensor>::ScalarOf(const at::Tensor& t) { return ScalarOperand(t.item()); }

namespace {

// The library's CPU work on libtorch's intra-op pool, so that the two do not
// hand the cores to each other between ops (docs/benchmarks.md).
void RunOnTorchPool(void*, int64_t n, int64_t grain, HostParallelFor::Body body, void* body_state) {
  at::parallel_for(0, n, grain, [&](int64_t begin, int64_t end) { body(body_state, begin, end); });
}

}  // namespace

ExecutionContext CurrentTorchContext(const c10::Device& device) {
  ExecutionContext context;
  context.cpu_threads = at::get_num_threads();
  context.cpu_pool = {&RunOnTorchPool, nullptr};
  if (device.is_cuda()) {
    const c10::impl::VirtualGuardImpl guard_impl(c10::DeviceType::CUDA);
    context.cuda_stream = guard_impl.getStream(device).native_handle();
  }
  return context;
}

absl::StatusOr<at::Tensor> TensorTraits<at::Tensor>::Cast(const at::Tensor& t, DType dtype,
                                                          const ExecutionContext& context) {
  const std::optional<at::ScalarType> target = ToTorchScalarType(dtype);
  const std::optional<DType> source = FromTorchScalarType(t.scalar_type());
  if (!source.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot cast a libtorch ", c10::toString(t.scalar_type()), " tensor to ",
                     Name(dtype), ": this library has no ", c10::toString(t.scalar_type())));
  }
  if (!target.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat("cannot cast a libtorch ",
                                                   c10::toString(t.scalar_type()), " tensor to ",
                                                   Name(dtype), ": libtorch has no ", Name(dtype)));
  }
  const c10::DeviceGuard device_guard(t.device());
  at::Tensor out = at::empty(t.sizes(), t.options().dtype(*target));
  if (t.numel() == 0) return out;
  if (IsWrappedNumber(t)) {
    // A Python scalar: convert on the host, with no kernel dispatch.
    VisitDType(*source, [&](auto from_tag) {
      using From = typename decltype(from_tag)::type;
      VisitDType(dtype, [&](auto to_tag) {
        using To = typename decltype(to_tag)::type;
        *static_cast<To*>(out.data_ptr()) = Convert<To>(*static_cast<const From*>(t.data_ptr()));
      });
    });
    return out;
  }
  ExecutionContext on = context;
  if (t.is_cuda() && on.cuda_stream == nullptr) {
    on.cuda_stream = CurrentTorchContext(t.device()).cuda_stream;
  }
  const Device device =
      WithContext(t.is_cuda() ? Device::Cuda(t.device().index()) : Device::Cpu(), on);
  absl::Status status;
  if (t.is_contiguous()) {
    status = CastElements(t.data_ptr(), *source, out.data_ptr(), dtype, t.numel(), device);
  } else {
    const std::vector<int64_t> shape = t.sizes().vec(), strides = t.strides().vec();
    status = CastStrided(t.data_ptr(), *source, shape, strides, out.data_ptr(), dtype, device);
  }
  if (!status.ok()) return status;
  return out;
}

}  // namespace oneflow_promote
