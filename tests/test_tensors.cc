// FilledTensor (see test_tensors.h).

#include "tests/test_tensors.h"

#include <limits>
#include <random>
#include <type_traits>

#include "oneflow_promote/convert.h"

namespace oneflow_promote::testing {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Parts of special floating values: signed zeros, infinities, NaN, float32
// and float64 subnormals, the largest float16 and float32 and beyond,
// a float16 subnormal, halves.
constexpr double kSpecialParts[] = {
    0.0,    -0.0,    kInf,    -kInf, std::numeric_limits<double>::quiet_NaN(),
    1e-40,  -5e-324, 65504.0, 7e4,   3.4e38,
    -1e300, 6e-8,    0.5,     -2.5};

// A special integer of T: 0, 1, -1 (2 unsigned), the largest, and the
// smallest plus one.
template <typename T>
T SpecialInteger(uint64_t draw) {
  const int64_t values[] = {0, 1, static_cast<int64_t>(std::numeric_limits<T>::max()),
                            static_cast<int64_t>(std::numeric_limits<T>::min()) + 1,
                            std::is_signed_v<T> ? -1 : 2};
  return static_cast<T>(values[draw % (sizeof(values) / sizeof(values[0]))]);
}

}  // namespace

Tensor FilledTensor(DType dtype, const std::vector<int64_t>& shape, uint64_t seed,
                    bool special_values) {
  Tensor t = *Tensor::Empty(dtype, shape);
  std::mt19937_64 rng(seed);
  VisitDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = t.data_as<T>();
    constexpr size_t kParts = sizeof(kSpecialParts) / sizeof(kSpecialParts[0]);
    for (int64_t i = 0; i < t.numel(); ++i) {
      if (special_values && rng() % 3 == 0) {
        if constexpr (std::is_same_v<T, bool>) {
          data[i] = rng() % 2;
        } else if constexpr (std::is_integral_v<T>) {
          data[i] = SpecialInteger<T>(rng());
        } else {
          data[i] = Convert<T>(
              Complex<double>{kSpecialParts[rng() % kParts], kSpecialParts[rng() % kParts]});
        }
        continue;
      }
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
