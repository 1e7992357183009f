// The CPU cast API: its errors, and that the vectorized, threaded and
// strided kernels produce exactly the element conversion (convert.h, whose
// values tests/cast_vs_torch checks) at every size, alignment and layout.

#include "kernels/cast.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "kernels/cast_test_util.h"
#include "kernels/cpu_cast.h"
#include "kernels/parallel_for.h"
#include "oneflow_promote/convert.h"

namespace oneflow_promote {
namespace {

using cast_internal::ForcedStoreKind;
using cast_internal::StoreKind;
using testing::FillRandom;
using testing::FirstDifference;
using testing::ThreadPerRangePool;

// Runs `check` once with each CPU kernel set this processor runs (AVX2,
// AVX-512 where the processor has it, and the baseline on x86-64; SVE and
// NEON on AArch64), each named in the failures it reports.
template <typename Check>
void ForEachCpuKernelSet(Check check) {
  for (const cast_internal::CpuCastKernels* kernels : cast_internal::RunnableCpuCastKernels()) {
    SCOPED_TRACE(std::string("CPU kernels: ") + kernels->isa);
    const cast_internal::ForcedCpuCastKernels forced(*kernels);
    check();
  }
}

// What converting each element on its own gives.
std::vector<char> ElementByElement(const void* src, DType from, DType to, int64_t n) {
  std::vector<char> out(n * ItemSize(to) + 16);
  VisitDType(from, [&](auto f) {
    VisitDType(to, [&](auto t) {
      using From = typename decltype(f)::type;
      using To = typename decltype(t)::type;
      for (int64_t i = 0; i < n; ++i) {
        From x;
        std::memcpy(&x, static_cast<const char*>(src) + i * sizeof(From), sizeof(From));
        const To y = Convert<To>(x);
        std::memcpy(out.data() + i * sizeof(To), &y, sizeof(To));
      }
    });
  });
  return out;
}

// Casts n elements of src (of `from`) to `to` on one thread and expects
// what ElementByElement gives: the same values, and for 16-bit float
// destinations the same bits (a NaN comes out as the canonical one).
// Each kernel set is checked.
void ExpectCastEqualsOneElementAtATime(const void* src, DType from, DType to, int64_t n) {
  const std::vector<char> expected = ElementByElement(src, from, to, n);
  ForEachCpuKernelSet([&] {
    std::vector<char> out(n * ItemSize(to));
    ASSERT_TRUE(CastElements(src, from, out.data(), to, n, Device::Cpu(1)).ok());
    const int64_t at = FirstDifference(out.data(), expected.data(), to, n);
    EXPECT_EQ(at, -1) << Name(from) << " -> " << Name(to) << " element " << at;
    if (to == DType::kFloat16 || to == DType::kBFloat16 || to == DType::kComplex32) {
      EXPECT_EQ(std::memcmp(out.data(), expected.data(), out.size()), 0)
          << Name(from) << " -> " << Name(to) << ": NaN bits differ";
    }
  });
}

void ExpectError(const absl::Status& status, absl::string_view fragment) {
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_TRUE(absl::StrContains(status.message(), fragment)) << status;
}

// The dispatch finds every kernel set the processor runs, preferred first:
// those ONEFLOW_PROMOTE_EXPECT_CPU_KERNELS names (comma-separated; the Arm
// check sets it for the processor it asks qemu for) or, on x86-64, those
// the flags in /proc/cpuinfo allow.
TEST(CpuCastKernels, DispatchFindsEverySetTheProcessorRuns) {
  std::vector<std::string> expected;
  if (const char* names = std::getenv("ONEFLOW_PROMOTE_EXPECT_CPU_KERNELS")) {
    expected = absl::StrSplit(names, ',');
  } else {
#if defined(__x86_64__)
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line) && !absl::StartsWith(line, "flags")) {
    }
    if (!absl::StartsWith(line, "flags")) GTEST_SKIP() << "no flags line in /proc/cpuinfo";
    const std::vector<std::string> flags = absl::StrSplit(line.substr(line.find(':') + 1), ' ');
    const auto has = [&](absl::string_view flag) {
      return std::find(flags.begin(), flags.end(), flag) != flags.end();
    };
    // Linux lists AVX-512 only where it saves the registers (XCR0).
    const bool avx2 = has("avx2") && has("f16c");
    if (avx2) expected.push_back("avx2");
    if (avx2 && has("avx512f") && has("avx512bw") && has("avx512dq") && has("avx512vl")) {
      expected.push_back("avx512");
    }
    expected.push_back("baseline");
#else
    GTEST_SKIP()
        << "no expectation for this architecture without ONEFLOW_PROMOTE_EXPECT_CPU_KERNELS";
#endif
  }
  std::vector<std::string> found;
  for (const cast_internal::CpuCastKernels* kernels : cast_internal::RunnableCpuCastKernels()) {
    found.push_back(kernels->isa);
  }
  EXPECT_EQ(found, expected);
  EXPECT_EQ(std::string(cast_internal::BestCpuCastKernels().isa), expected.front());
}

TEST(CastElements, RejectsBadArgumentsWithClearErrors) {
  alignas(16) float f[8] = {};
  alignas(16) int8_t b[32] = {};
  ExpectError(CastElements(nullptr, DType::kFloat32, b, DType::kInt8, 4),
              "source pointer is null, for 4 elements of float32");
  ExpectError(CastElements(f, DType::kFloat32, nullptr, DType::kInt8, 4), "destination pointer");
  ExpectError(CastElements(f, DType::kFloat32, b, DType::kInt8, -1), "negative (-1)");
  ExpectError(CastElements(f, static_cast<DType>(42), b, DType::kInt8, 1),
              "source dtype has invalid enum value 42");
  ExpectError(CastElements(f, DType::kFloat32, b, static_cast<DType>(200), 1),
              "destination dtype has invalid enum value 200");
  ExpectError(CastElements(reinterpret_cast<char*>(f) + 1, DType::kFloat32, b, DType::kInt8, 2),
              "not aligned to float32's 4-byte alignment");
  // Overlap: in place with a different dtype, and a partial overlap.
  ExpectError(CastElements(f, DType::kFloat32, f, DType::kInt32, 8), "overlap");
  ExpectError(CastElements(b, DType::kInt8, b + 4, DType::kInt8, 8), "overlap");
  ExpectError(CastElements(f, DType::kFloat32, b, DType::kInt8, 1, Device::Cpu(-2)), "cpu_threads");
  // No-ops.
  EXPECT_TRUE(CastElements(nullptr, DType::kFloat32, nullptr, DType::kInt8, 0).ok());
  EXPECT_TRUE(CastElements(f, DType::kFloat32, f, DType::kFloat32, 8).ok());
}

TEST(CastElements, CudaWithoutADeviceIsUnavailableNotACrash) {
  alignas(16) float f[4] = {};
  alignas(16) int8_t b[4] = {};
  const absl::Status status = CastElements(f, DType::kFloat32, b, DType::kInt8, 4, Device::Cuda());
  if (status.ok()) GTEST_SKIP() << "host memory was accepted as device memory (managed system)";
  // Host pointers are never device memory: with a GPU the error says so.
  EXPECT_TRUE(status.code() == absl::StatusCode::kUnavailable ||
              status.code() == absl::StatusCode::kInvalidArgument)
      << status;
}

// Every pair, sizes around the vector widths, and every byte offset 0..15 of
// both pointers, with each kernel set: element-aligned offsets must convert
// exactly, the others must be rejected.
TEST(CastElements, EveryPairSizeAndOffset) {
  ForEachCpuKernelSet([] {
    std::mt19937_64 rng(1);
    for (DType from : kAllDTypes) {
      for (DType to : kAllDTypes) {
        for (int64_t n : {0, 1, 7, 8, 15, 16, 17, 33, 64, 255, 1000}) {
          for (int offset = 0; offset < 16; ++offset) {
            alignas(64) static char src[1000 * 16 + 64];
            alignas(64) static char dst[1000 * 16 + 64];
            char* s = src + offset;
            char* d = dst + (offset * 7) % 16;
            FillRandom(s, from, n, rng);
            const absl::Status status = CastElements(s, from, d, to, n);
            const bool src_ok =
                reinterpret_cast<uintptr_t>(s) %
                    VisitDType(from, [](auto t) { return alignof(typename decltype(t)::type); }) ==
                0;
            const bool dst_ok =
                reinterpret_cast<uintptr_t>(d) %
                    VisitDType(to, [](auto t) { return alignof(typename decltype(t)::type); }) ==
                0;
            if (n > 0 && !(src_ok && dst_ok)) {
              ExpectError(status, "not aligned");
              continue;
            }
            ASSERT_TRUE(status.ok()) << status;
            const std::vector<char> expected = ElementByElement(s, from, to, n);
            ASSERT_EQ(FirstDifference(d, expected.data(), to, n), -1)
                << Name(from) << " -> " << Name(to) << " n=" << n << " offset=" << offset;
          }
        }
      }
    }
  });
}

// Random bit patterns, half of them with the bits below a random position
// made a tie (10...0) or one step either side of it (01...1, 10...01), at
// every magnitude: the inputs where a rounding shortcut would show.
void FillTieHeavy(void* out, DType dtype, int64_t n, std::mt19937_64& rng) {
  FillRandom(out, dtype, n, rng);
  const size_t size = ItemSize(dtype);
  if (dtype == DType::kBool) return;
  for (int64_t i = 0; i < n; ++i) {
    // Each scalar part (both halves of a complex) is a separate field.
    const size_t part = IsComplex(dtype) ? size / 2 : size;
    for (size_t offset = 0; offset < size; offset += part) {
      uint64_t bits = 0;
      std::memcpy(&bits, static_cast<char*>(out) + i * size + offset, part);
      const int width = static_cast<int>(part * 8);
      switch (rng() % 4) {
        case 0:
          break;
        case 1:
          bits >>= rng() % width;  // small magnitudes
          break;
        default: {
          const int position = 1 + static_cast<int>(rng() % (width - 1));
          const uint64_t below = (uint64_t{1} << position) - 1;
          const uint64_t half = uint64_t{1} << (position - 1);
          const uint64_t patterns[] = {half, half - 1, half + 1};
          bits = (bits & ~below) | (patterns[rng() % 3] & below);
          if (rng() % 2 == 0) bits >>= rng() % width;
        }
      }
      std::memcpy(static_cast<char*>(out) + i * size + offset, &bits, part);
    }
  }
}

// Every kernel set this processor runs against convert.h one element at a
// time, on tie-heavy patterns.
TEST(CastElements, EveryPairOnTieHeavyPatternsEqualsOneElementAtATime) {
  std::mt19937_64 rng(4);
  const int64_t n = int64_t{1} << 16;
  for (DType from : kAllDTypes) {
    std::vector<char> src(n * ItemSize(from));
    FillTieHeavy(src.data(), from, n, rng);
    for (DType to : kAllDTypes) ExpectCastEqualsOneElementAtATime(src.data(), from, to, n);
  }
}

// float64 values a hair (2^-30 of the format's step) either side of a
// float16 or bfloat16 tie, in every binade of the format and among its
// subnormals, both signs: rounded to float32 first, each lands on the tie
// and then goes to even, the wrong way for half of them.
std::vector<double> NearHalfFormatTies(int mantissa_bits, int min_exponent, int max_exponent,
                                       std::mt19937_64& rng) {
  std::vector<double> values;
  // min_exponent - 1 stands for the subnormals: the lowest binade's steps, from 0.
  for (int exponent = min_exponent - 1; exponent <= max_exponent; ++exponent) {
    const bool subnormal = exponent < min_exponent;
    const int quantum = (subnormal ? min_exponent : exponent) - mantissa_bits;
    for (int i = 0; i < 16; ++i) {
      const uint64_t steps = uint64_t{1} << mantissa_bits;
      const uint64_t step = (subnormal ? 0 : steps) + rng() % steps;
      const double tie = std::ldexp(static_cast<double>(step) + 0.5, quantum);
      const double hair = std::ldexp(1.0, quantum - 30);
      for (double value : {tie + hair, tie - hair}) {
        values.push_back(value);
        values.push_back(-value);
      }
    }
  }
  return values;
}

// float64 (and complex128, whose parts are converted alike) rounds once to
// the 16-bit float formats in every kernel set, as convert.h does.
TEST(CastElements, Float64RoundsOnceToSixteenBitFloats) {
  // The reference itself: 1 + 2^-11 + 2^-40 lies above the float16 tie
  // between 1 and 1 + 2^-10, 1 + 2^-8 + 2^-40 above bfloat16's.
  EXPECT_EQ(Convert<Float16>(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)).bits, 0x3C01);
  EXPECT_EQ(Convert<BFloat16>(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)).bits, 0x3F81);
  std::mt19937_64 rng(5);
  for (const auto& [to, values] :
       {std::pair{DType::kFloat16, NearHalfFormatTies(10, -14, 15, rng)},
        std::pair{DType::kBFloat16, NearHalfFormatTies(7, -126, 127, rng)}}) {
    const auto n = static_cast<int64_t>(values.size());
    ExpectCastEqualsOneElementAtATime(values.data(), DType::kFloat64, to, n);
    if (to == DType::kFloat16) {
      ExpectCastEqualsOneElementAtATime(values.data(), DType::kComplex128, DType::kComplex32,
                                        n / 2);
    }
  }
}

// Floating values mostly inside every integer range, with a NaN, an
// infinity, a value past 2^31, or exactly -2^31 at one position in about
// forty: most vectors of the float -> integer kernels hold no value that
// saturates, and some hold a single one.
void FillMostlyInRange(void* out, DType dtype, int64_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> in_range(-300.0, 300.0);
  const double specials[] = {std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             3e9,
                             -3e9,
                             -2147483648.0,
                             1e300};
  std::vector<double> values(2 * n);
  for (double& v : values) {
    v = rng() % 40 == 0 ? specials[rng() % std::size(specials)] : in_range(rng);
  }
  // The values as complex128 (real, imag pairs), converted to the dtype.
  ASSERT_TRUE(CastElements(values.data(), DType::kComplex128, out, dtype, n).ok());
}

TEST(CastElements, FloatToIntegerWithAndWithoutOutOfRangeLanes) {
  std::mt19937_64 rng(6);
  const int64_t n = (int64_t{1} << 14) + 3;
  for (DType from : kAllDTypes) {
    if (!IsFloating(from) && !IsComplex(from)) continue;
    std::vector<char> src(n * ItemSize(from));
    FillMostlyInRange(src.data(), from, n, rng);
    for (DType to : {DType::kUInt8, DType::kInt8, DType::kInt16, DType::kInt32, DType::kInt64}) {
      ExpectCastEqualsOneElementAtATime(src.data(), from, to, n);
    }
  }
}

// Integers of every bit length below max_length, either sign, half of them
// with the bits below a random position made a tie or one step from one
// (the inputs where rounding to float32 or narrower shows), and at one
// position in about forty one of the specials (values at the edges where
// a conversion's exactness changes).
std::vector<int64_t> MostlySmallIntegers(int64_t n, int max_length,
                                         const std::vector<int64_t>& specials,
                                         std::mt19937_64& rng) {
  std::vector<int64_t> values(n);
  for (int64_t& v : values) {
    if (rng() % 40 == 0) {
      v = specials[rng() % specials.size()];
      continue;
    }
    const int length = static_cast<int>(rng() % max_length);
    uint64_t magnitude = rng() & ((uint64_t{1} << length) - 1);
    if (length > 1 && rng() % 2 == 0) {
      const int position = 1 + static_cast<int>(rng() % (length - 1));
      const uint64_t below = (uint64_t{1} << position) - 1;
      const uint64_t half = uint64_t{1} << (position - 1);
      const uint64_t patterns[] = {half, half - 1, half + 1};
      magnitude =
          (magnitude & ~below) | (patterns[rng() % 3] & below) | (uint64_t{1} << (length - 1));
    }
    v = rng() % 2 == 0 ? static_cast<int64_t>(magnitude) : -static_cast<int64_t>(magnitude);
  }
  return values;
}

// Casts n values of values_dtype (which fit in `from`) to `from` and from
// there to every dtype, against convert.h one element at a time.
void ExpectEveryDestinationEqualsOneElementAtATime(const void* values, DType values_dtype,
                                                   int64_t n, DType from) {
  std::vector<char> src(n * ItemSize(from));
  ASSERT_TRUE(CastElements(values, values_dtype, src.data(), from, n).ok());
  for (DType to : kAllDTypes) ExpectCastEqualsOneElementAtATime(src.data(), from, to, n);
}

// The same for int64 values.
void ExpectEveryDestinationEqualsOneElementAtATime(const std::vector<int64_t>& values, DType from) {
  ExpectEveryDestinationEqualsOneElementAtATime(values.data(), DType::kInt64,
                                                static_cast<int64_t>(values.size()), from);
}

// int64 values on either side of 2^51 and 2^53, past which float64 holds
// fewer of them.
TEST(CastElements, Int64WithAndWithoutLanesPast2To51) {
  std::mt19937_64 rng(8);
  constexpr int64_t kEdge = int64_t{1} << 51;
  const std::vector<int64_t> specials = {kEdge - 1,
                                         kEdge,
                                         -kEdge,
                                         -kEdge - 1,
                                         std::numeric_limits<int64_t>::max(),
                                         std::numeric_limits<int64_t>::min(),
                                         (int64_t{1} << 62) + (int64_t{1} << 38)};  // a float32 tie
  ExpectEveryDestinationEqualsOneElementAtATime(
      MostlySmallIntegers((int64_t{1} << 16) + 5, 52, specials, rng), DType::kInt64);
}

// int32 and int64 values on either side of 2^24, past which float32 rounds
// them, and of float16's overflow.
TEST(CastElements, IntegerWithAndWithoutLanesPast2To24) {
  std::mt19937_64 rng(9);
  constexpr int64_t kEdge = int64_t{1} << 24;
  const std::vector<int64_t> specials = {kEdge - 1,
                                         kEdge,
                                         kEdge + 1,  // a float32 tie
                                         kEdge + 3,
                                         -kEdge,
                                         -kEdge - 1,
                                         65519,  // the last value below float16's overflow
                                         65520,
                                         -65520,
                                         std::numeric_limits<int32_t>::max(),
                                         std::numeric_limits<int32_t>::min()};
  for (DType from : {DType::kInt32, DType::kInt64}) {
    ExpectEveryDestinationEqualsOneElementAtATime(
        MostlySmallIntegers((int64_t{1} << 16) + 5, 26, specials, rng), from);
  }
}

// int16 values on either side of 256, past which bfloat16 rounds them.
TEST(CastElements, Int16WithAndWithoutLanesPast256) {
  std::mt19937_64 rng(10);
  const std::vector<int64_t> specials = {255, 256, -256, -257, 257, 259, -259, 32767, -32768};
  ExpectEveryDestinationEqualsOneElementAtATime(
      MostlySmallIntegers((int64_t{1} << 16) + 5, 10, specials, rng), DType::kInt16);
}

// float16, bfloat16 and complex32 values of float16's normal range, either
// sign, with one lane in about forty at or past an edge of it (subnormal,
// overflow, inf, NaN).
TEST(CastElements, SixteenBitFloatsWithAndWithoutLanesPastFloat16sNormalRange) {
  std::mt19937_64 rng(10);
  const int64_t n = (int64_t{1} << 16) + 5;
  const double specials[] = {0.0,
                             -0.0,
                             65504.0,  // float16's largest
                             65280.0,  // bfloat16's largest below 2^16
                             65536.0,
                             -65536.0,
                             98304.0,  // past float16's range, with mantissa bits
                             -70000.0,
                             131072.0,
                             0x1p-14,  // float16's smallest normal
                             0x1.fep-15,
                             0x1p-24,
                             0x1p-25,
                             1e-30,
                             3e38,
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN()};
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::vector<double> values(2 * n);  // complex128 pairs
  for (double& v : values) {
    if (rng() % 40 == 0) {
      v = specials[rng() % std::size(specials)];
    } else {
      const double magnitude = std::ldexp(mantissa(rng), -14 + static_cast<int>(rng() % 30));
      v = rng() % 2 == 0 ? magnitude : -magnitude;
    }
  }
  for (DType from : {DType::kFloat16, DType::kBFloat16, DType::kComplex32}) {
    ExpectEveryDestinationEqualsOneElementAtATime(values.data(), DType::kComplex128, n, from);
  }
}

TEST(CastElements, LargeThreadedCastsEqualOneThread) {
  std::mt19937_64 rng(2);
  const int64_t n = (int64_t{1} << 22) + 5;
  for (auto [from, to] :
       std::vector<std::pair<DType, DType>>{{DType::kFloat32, DType::kFloat16},
                                            {DType::kFloat64, DType::kBFloat16},
                                            {DType::kInt64, DType::kInt8},
                                            {DType::kFloat32, DType::kInt32},
                                            {DType::kComplex64, DType::kFloat64}}) {
    std::vector<char> src(n * ItemSize(from));
    FillRandom(src.data(), from, n, rng);
    const std::vector<char> expected = ElementByElement(src.data(), from, to, n);
    ForEachCpuKernelSet([&] {
      std::vector<char> all(n * ItemSize(to)), one(n * ItemSize(to));
      ASSERT_TRUE(CastElements(src.data(), from, all.data(), to, n, Device::Cpu()).ok());
      ASSERT_TRUE(CastElements(src.data(), from, one.data(), to, n, Device::Cpu(1)).ok());
      EXPECT_EQ(FirstDifference(all.data(), one.data(), to, n), -1) << Name(from) << Name(to);
      EXPECT_EQ(FirstDifference(all.data(), expected.data(), to, n), -1) << Name(from) << Name(to);
    });
  }
}

// Large calls on a framework's pool run there, each element once, with the
// results of one thread: contiguous casts (streamed or not), same-dtype
// copies and strided casts. Calls too small to split never reach the pool.
TEST(CastElements, HostPoolRunsLargeCallsWithTheSameResults) {
  std::mt19937_64 rng(4);
  const int64_t n = (int64_t{1} << 22) + 5;
  for (auto [from, to] : std::vector<std::pair<DType, DType>>{{DType::kFloat32, DType::kFloat16},
                                                              {DType::kInt8, DType::kFloat32},
                                                              {DType::kInt64, DType::kInt8},
                                                              {DType::kInt32, DType::kInt32}}) {
    std::vector<char> src(n * ItemSize(from));
    FillRandom(src.data(), from, n, rng);
    const std::vector<char> expected = ElementByElement(src.data(), from, to, n);
    for (const cast_internal::StoreKind store :
         {cast_internal::StoreKind::kStreaming, cast_internal::StoreKind::kStreamingFromMemory,
          cast_internal::StoreKind::kOrdinary}) {
      const cast_internal::ForcedStoreKind forced(store);
      ThreadPerRangePool pool;
      std::vector<char> out(n * ItemSize(to));
      ASSERT_TRUE(
          CastElements(src.data(), from, out.data(), to, n, Device::Cpu(0, pool.Hook())).ok());
      EXPECT_EQ(FirstDifference(out.data(), expected.data(), to, n), -1) << Name(from) << Name(to);
      EXPECT_EQ(pool.calls, 1) << Name(from) << Name(to);
      EXPECT_EQ(pool.elements, n) << Name(from) << Name(to);
    }
  }
  // A transposed 2048 x 2049 view of int16, into float32.
  const int64_t rows = 2048, columns = 2049;
  std::vector<int16_t> matrix(rows * columns);
  FillRandom(matrix.data(), DType::kInt16, rows * columns, rng);
  std::vector<int16_t> transposed(rows * columns);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < columns; ++c) transposed[c * rows + r] = matrix[r * columns + c];
  }
  const std::vector<char> expected =
      ElementByElement(transposed.data(), DType::kInt16, DType::kFloat32, rows * columns);
  ThreadPerRangePool pool;
  std::vector<float> out(rows * columns);
  ASSERT_TRUE(CastStrided(matrix.data(), DType::kInt16, {columns, rows}, {1, columns}, out.data(),
                          DType::kFloat32, Device::Cpu(0, pool.Hook()))
                  .ok());
  EXPECT_EQ(FirstDifference(out.data(), expected.data(), DType::kFloat32, rows * columns), -1);
  EXPECT_EQ(pool.calls, 1);
  EXPECT_EQ(pool.elements, columns);  // the pool splits rows
  // Small: converted on the calling thread.
  ThreadPerRangePool unused;
  ASSERT_TRUE(CastElements(matrix.data(), DType::kInt16, out.data(), DType::kFloat32, 1000,
                           Device::Cpu(0, unused.Hook()))
                  .ok());
  EXPECT_EQ(unused.calls, 0);
}

// Several caller threads casting at once through the shared pool (each on
// all threads, so their jobs contend for it) each get their own exact result.
TEST(CastElements, ConcurrentCallersEachGetTheirOwnResult) {
  constexpr int kCallers = 4;
  constexpr int64_t n = 3 * (int64_t{1} << 16) + 11;
  const std::pair<DType, DType> pairs[kCallers] = {{DType::kFloat32, DType::kFloat16},
                                                   {DType::kInt64, DType::kInt8},
                                                   {DType::kUInt8, DType::kFloat64},
                                                   {DType::kBFloat16, DType::kInt32}};
  std::mt19937_64 rng(9);
  std::vector<std::vector<char>> sources(kCallers), expected(kCallers), results(kCallers);
  for (int i = 0; i < kCallers; ++i) {
    const auto [from, to] = pairs[i];
    sources[i].resize(n * ItemSize(from));
    FillRandom(sources[i].data(), from, n, rng);
    expected[i] = ElementByElement(sources[i].data(), from, to, n);
    results[i].resize(n * ItemSize(to));
  }
  std::vector<std::thread> callers;
  std::atomic<int> failed_calls{0};
  for (int i = 0; i < kCallers; ++i) {
    callers.emplace_back([&, i] {
      const auto [from, to] = pairs[i];
      for (int round = 0; round < 8; ++round) {
        if (!CastElements(sources[i].data(), from, results[i].data(), to, n, Device::Cpu()).ok()) {
          ++failed_calls;
        }
      }
    });
  }
  for (std::thread& caller : callers) caller.join();
  EXPECT_EQ(failed_calls.load(), 0);
  for (int i = 0; i < kCallers; ++i) {
    EXPECT_EQ(FirstDifference(results[i].data(), expected[i].data(), pairs[i].second, n), -1)
        << Name(pairs[i].first) << " -> " << Name(pairs[i].second);
  }
}

// LastLevelCacheBytes reads CPUID; Linux's sysfs describes the same caches
// (cpu0's cache/indexN: level, type, size), and the largest data or unified
// one there must be the same size. Skipped where sysfs has no cache entries.
TEST(CastElements, LastLevelCacheMatchesSysfs) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "LastLevelCacheBytes reads CPUID, which only x86-64 has";
#endif
  int64_t largest = 0;
  for (int index = 0;; ++index) {
    const std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    std::ifstream type_file(dir + "type"), size_file(dir + "size");
    std::string type, size;
    if (!(type_file >> type) || !(size_file >> size)) break;
    if (type == "Instruction") continue;
    int64_t kib = 0;
    ASSERT_TRUE(absl::EndsWith(size, "K") &&
                absl::SimpleAtoi(size.substr(0, size.size() - 1), &kib))
        << size;
    largest = std::max(largest, kib * 1024);
  }
  if (largest == 0) GTEST_SKIP() << "no cache entries in sysfs";
  EXPECT_EQ(cast_internal::LastLevelCacheBytes(), largest);
}

// Streamed destinations (forced, so that the test's size does not follow
// the machine's caches) are written with non-temporal stores after a head
// that aligns them, for the pairs that stream: every destination, from a
// 1-byte source, from one of twice its size, from float16 or bfloat16,
// from float32 and from int64, at offsets that make heads of every length,
// on one thread and on all, with each kernel set, over sources that stay
// in cache and sources from memory (which some pairs prefetch otherwise).
// The same casts with ordinary stores are checked too.
TEST(CastElements, StreamedDestinationsEqualOneElementAtATime) {
  std::mt19937_64 rng(5);
  const auto twice_as_wide = [](DType to) -> std::optional<DType> {
    switch (ItemSize(to)) {
      case 1:
        return DType::kInt16;
      case 2:
        return DType::kInt32;
      case 4:
        return DType::kFloat64;
      case 8:
        return DType::kComplex128;
      default:
        return std::nullopt;
    }
  };
  std::vector<std::pair<DType, DType>> pairs;
  for (DType to : kAllDTypes) {
    pairs.push_back({to == DType::kInt8 ? DType::kUInt8 : DType::kInt8, to});
    if (to == DType::kInt16) pairs.push_back({DType::kUInt8, to});
    if (auto from = twice_as_wide(to)) pairs.push_back({*from, to});
    const DType half = Index(to) % 2 == 0 ? DType::kFloat16 : DType::kBFloat16;
    if (half != to) pairs.push_back({half, to});
    for (const DType from : {DType::kFloat32, DType::kInt64}) {
      if (from != to) pairs.push_back({from, to});
    }
  }
  constexpr int64_t kPage = 4096;
  // Destination offsets up to two 16-byte vectors: heads of every length.
  constexpr int64_t kHeadBytes = 32;
  // Enough elements for two threads' shares, plus an odd tail.
  constexpr int64_t n = 2 * (int64_t{1} << 16) + 777;
  for (auto [from, to] : pairs) {
    const int64_t item = static_cast<int64_t>(ItemSize(to));
    const int64_t source_pages =
        (n * static_cast<int64_t>(ItemSize(from)) + kPage - 1) / kPage * kPage;
    std::vector<char> buffer(kPage + source_pages + n * item + kHeadBytes);
    char* const src = buffer.data() + (kPage - reinterpret_cast<uintptr_t>(buffer.data()) % kPage);
    FillTieHeavy(src, from, n, rng);
    const std::vector<char> expected = ElementByElement(src, from, to, n);
    char* const destinations = src + source_pages;
    ForEachCpuKernelSet([&] {
      for (const StoreKind kind :
           {StoreKind::kStreaming, StoreKind::kStreamingFromMemory, StoreKind::kOrdinary}) {
        const ForcedStoreKind forced(kind);
        for (int64_t offset = 0; offset < kHeadBytes; offset += item) {
          for (const int threads : {1, 0}) {
            std::memset(destinations, 0, n * item + kHeadBytes);
            ASSERT_TRUE(
                CastElements(src, from, destinations + offset, to, n, Device::Cpu(threads)).ok());
            const int64_t at = FirstDifference(destinations + offset, expected.data(), to, n);
            EXPECT_EQ(at, -1) << Name(from) << " -> " << Name(to) << " offset " << offset
                              << " threads " << threads
                              << (kind == StoreKind::kOrdinary ? " ordinary" : " streamed")
                              << (kind == StoreKind::kStreamingFromMemory ? " from memory" : "")
                              << " element " << at;
          }
        }
      }
    });
  }
}

// The source offset of each row-major index, by walking the multi-index
// (independently of StridedLayout's arithmetic).
std::vector<int64_t> GatherOffsets(const std::vector<int64_t>& shape,
                                   const std::vector<int64_t>& strides) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  std::vector<int64_t> offsets;
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t offset = 0;
    for (size_t d = 0; d < shape.size(); ++d) offset += index[d] * strides[d];
    offsets.push_back(offset);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  return offsets;
}

TEST(CastStrided, RandomViewsOfEveryRankEqualAGather) {
  std::mt19937_64 rng(3);
  const DType pairs[][2] = {
      {DType::kInt8, DType::kFloat32},        {DType::kFloat32, DType::kFloat16},
      {DType::kFloat64, DType::kInt64},       {DType::kComplex64, DType::kBool},
      {DType::kBFloat16, DType::kFloat8E5M2}, {DType::kInt32, DType::kInt32}};
  for (int trial = 0; trial < 400; ++trial) {
    const int rank = 1 + static_cast<int>(rng() % kMaxCastRank);
    std::vector<int64_t> shape(rank), strides(rank);
    int64_t n = 1;
    for (int d = 0; d < rank; ++d) {
      shape[d] = 1 + static_cast<int64_t>(rng() % (rank > 4 ? 3 : 7));
      n *= shape[d];
    }
    // Row-major strides, then some transposed, broadcast or reversed.
    int64_t stride = 1 + static_cast<int64_t>(rng() % 2);
    for (int d = rank; d-- > 0;) {
      strides[d] = stride;
      stride *= shape[d];
    }
    if (rank > 1 && rng() % 2) std::swap(strides[0], strides[rank - 1]);
    if (rng() % 4 == 0) strides[rng() % rank] = 0;
    if (rng() % 4 == 0) strides[rng() % rank] *= -1;
    const std::vector<int64_t> offsets = GatherOffsets(shape, strides);
    int64_t low = 0, high = 0;
    for (int64_t o : offsets) low = std::min(low, o), high = std::max(high, o);
    for (const auto& pair : pairs) {
      const DType from = pair[0], to = pair[1];
      const size_t item = ItemSize(from);
      std::vector<char> storage((high - low + 1) * item + 16);
      FillRandom(storage.data(), from, high - low + 1, rng);
      const char* base = storage.data() - low * static_cast<int64_t>(item);
      std::vector<char> gathered(n * item);
      for (int64_t i = 0; i < n; ++i)
        std::memcpy(&gathered[i * item], base + offsets[i] * item, item);
      const std::vector<char> expected = ElementByElement(gathered.data(), from, to, n);
      ForEachCpuKernelSet([&] {
        std::vector<char> got(n * ItemSize(to));
        const absl::Status status = CastStrided(base, from, shape, strides, got.data(), to);
        ASSERT_TRUE(status.ok()) << status;
        ASSERT_EQ(FirstDifference(got.data(), expected.data(), to, n), -1)
            << ::testing::PrintToString(shape) << " strides " << ::testing::PrintToString(strides);
      });
    }
  }
}

TEST(CastStrided, RejectsBadShapes) {
  alignas(16) float f[16] = {};
  alignas(16) double out[16] = {};
  const std::vector<int64_t> nine(9, 1);
  ExpectError(CastStrided(f, DType::kFloat32, {2, 2}, {2}, out, DType::kFloat64),
              "2 dimensions but 1 strides");
  ExpectError(CastStrided(f, DType::kFloat32, nine, nine, out, DType::kFloat64),
              "rank 9 is above the supported maximum of 8");
  ExpectError(CastStrided(f, DType::kFloat32, {2, -1}, {1, 1}, out, DType::kFloat64),
              "dimension 1 has negative size -1");
  ExpectError(CastStrided(f, DType::kFloat32, {4}, {1}, f + 2, DType::kFloat32), "overlap");
  EXPECT_TRUE(CastStrided(nullptr, DType::kFloat32, {3, 0}, {1, 1}, nullptr, DType::kInt8).ok());
}

}  // namespace
}  // namespace oneflow_promote
