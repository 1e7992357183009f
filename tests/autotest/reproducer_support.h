// What an AutoTest reproducer program needs beyond the library: tensors
// rebuilt from the exact bytes the failing case used, on both sides, and
// printing. Kept here so that a printed reproducer is short and still a
// complete program (tests/autotest/repro.cc, `bazel run //tests/autotest:repro`).

#ifndef ONEFLOW_PROMOTE_TESTS_AUTOTEST_REPRODUCER_SUPPORT_H_
#define ONEFLOW_PROMOTE_TESTS_AUTOTEST_REPRODUCER_SUPPORT_H_

#include <ATen/ATen.h>

#include <cstdint>
#include <cstring>
#include <iostream>
#include <vector>

#include "absl/status/statusor.h"
#include "functional/functional.h"
#include "tests/torch_oracle.h"

namespace oneflow_promote::autotest {

// A tensor of `dtype` whose row-major buffer of `storage_shape` holds
// `bytes`; with `transposed`, the view with its last two dimensions swapped.
inline Tensor OursFromBytes(DType dtype, const std::vector<int64_t>& storage_shape,
                            const std::vector<uint8_t>& bytes, bool transposed) {
  Tensor t = *Tensor::Empty(dtype, storage_shape);
  std::memcpy(t.data(), bytes.data(), bytes.size());
  return transposed ? *t.Transpose(t.ndim() - 2, t.ndim() - 1) : t;
}

inline at::Tensor TorchFromBytes(DType dtype, const std::vector<int64_t>& storage_shape,
                                 const std::vector<uint8_t>& bytes, bool transposed) {
  at::Tensor t = at::empty(storage_shape, at::TensorOptions().dtype(*testing::ToTorch(dtype)));
  std::memcpy(t.data_ptr(), bytes.data(), bytes.size());
  return transposed ? t.transpose(-2, -1) : t;
}

// Prints a result as dtype, shape and values (as complex128, exactly).
inline void PrintOurs(const absl::StatusOr<Tensor>& result) {
  if (!result.ok()) {
    std::cout << "oneflow_promote error: " << result.status() << "\n";
    return;
  }
  std::cout << "oneflow_promote: " << result->Describe() << "\n";
  const Tensor values = *result->To(DType::kComplex128);
  const auto* v = values.data_as<Complex<double>>();
  for (int64_t i = 0; i < values.numel(); ++i) {
    std::cout << "  [" << i << "] " << v[i].real;
    if (v[i].imag != 0) std::cout << (v[i].imag < 0 ? " - " : " + ") << std::abs(v[i].imag) << "j";
    std::cout << "\n";
  }
}

inline void PrintTorch(const at::Tensor& result) {
  std::cout << "libtorch: " << c10::toString(result.scalar_type()) << result.sizes() << "\n"
            << result << "\n";
}

}  // namespace oneflow_promote::autotest

#endif  // ONEFLOW_PROMOTE_TESTS_AUTOTEST_REPRODUCER_SUPPORT_H_
