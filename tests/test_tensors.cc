// FilledTensor (see test_tensors.h).

#include "tests/test_tensors.h"

#include <random>
#include <type_traits>

#include "oneflow_promote/convert.h"

namespace oneflow_promote::testing {

Tensor FilledTensor(DType dtype, const std::vector<int64_t>& shape, uint64_t seed) {
  Tensor t = *Tensor::Empty(dtype, shape);
  std::mt19937_64 rng(seed);
  VisitDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = t.data_as<T>();
    for (int64_t i = 0; i < t.numel(); ++i) {
      if constexpr (std::is_same_v<T, bool>) {
        data[i] = rng() % 2;
      } else if constexpr (std::is_integral_v<T>) {
        const int64_t magnitude = 1 + static_cast<int64_t>(rng() % 3);
        data[i] = static_cast<T>(std::is_signed_v<T> && rng() % 2 ? -magnitude : magnitude);
      } else {
        const auto value = [&] {
          const double v = (1 + static_cast<double>(rng() % 300)) / 100.0;
          return rng() % 2 ? -v : v;
        };
        data[i] = Convert<T>(Complex<double>{value(), value()});
      }
    }
  });
  return t;
}

}  // namespace oneflow_promote::testing
