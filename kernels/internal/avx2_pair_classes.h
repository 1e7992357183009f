// The pair classes of the AVX2 blocks (avx2_block_cast.h): the predicates
// over source and destination types that pick the family of blocks, if
// any, that converts a pair (From, To), and the rounding mode a source's
// blocks run under. Included per instruction set, as the blocks are, in
// the namespace that ONEFLOW_PROMOTE_CPU_TARGET names.

#ifndef ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_PAIR_CLASSES_H_
#define ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_PAIR_CLASSES_H_

#include <cstdint>
#include <type_traits>

#include "kernels/internal/block_runner.h"
#include "oneflow_promote/numeric_types.h"

namespace oneflow_promote::cast_internal::ONEFLOW_PROMOTE_CPU_TARGET {

// The pair classes, the store and rounding kinds and RunBlocks of
// block_runner.h that the blocks name.
using blocks::kIsComplexSource;
using blocks::kIsPlainConversion;
using blocks::kStreams;
using blocks::Rounding;
using blocks::RunBlocks;
using blocks::Store;

// Sources that LoadFloat8 rounds to odd, which needs round-toward-zero.
template <typename T>
inline constexpr bool kRoundsToOdd =
    std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t> || std::is_same_v<T, double> ||
    std::is_same_v<T, Complex<double>>;

// The rounding mode of blocks that convert from T: round-toward-zero where
// they round T to odd, the caller's own otherwise.
template <typename T>
inline constexpr Rounding kRoundingFor =
    kRoundsToOdd<T> ? Rounding::kTowardZero : Rounding::kCallersMode;

// Sources LoadFloat8 reads (bool goes through the uint8 kernels).
template <typename T>
inline constexpr bool kIsFloatLoadable =
    std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t> || std::is_same_v<T, int16_t> ||
    std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t> || std::is_same_v<T, float> ||
    std::is_same_v<T, double> || std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16> ||
    kIsComplexSource<T>;

// Pairs converted in 16-bit integer lanes, without float32.
template <typename From, typename To>
inline constexpr bool kConvertsIn16BitLanes =
    (std::is_same_v<To, BFloat16> &&
     (std::is_same_v<From, Float16> || std::is_same_v<From, Complex<Float16>>)) ||
    (std::is_same_v<From, BFloat16> && std::is_same_v<To, Float16>);

// Sources whose float32 value is exact, so truncating it is the cast.
template <typename T>
inline constexpr bool kIsExactFloatSource =
    std::is_same_v<T, float> || std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16> ||
    std::is_same_v<T, Complex<float>> || std::is_same_v<T, Complex<Float16>>;

template <typename T>
inline constexpr bool kIsDoubleSource =
    std::is_same_v<T, double> || std::is_same_v<T, Complex<double>>;

// Floating and complex sources: LoadFloat8 or LoadDouble8 reads them exactly.
template <typename T>
inline constexpr bool kIsFloatingSource = kIsExactFloatSource<T> || kIsDoubleSource<T>;

// 16-bit floating sources, and the destinations they widen to exactly.
template <typename T>
inline constexpr bool kIsHalfSource = std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16> ||
                                      std::is_same_v<T, Complex<Float16>>;
template <typename T>
inline constexpr bool kIsWideFloatDest =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, Complex<float>> ||
    std::is_same_v<T, Complex<double>>;

template <typename T>
inline constexpr bool kIsWrappingInteger =
    std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t> || std::is_same_v<T, int16_t> ||
    std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>;

// Pairs whose cast keeps the low sizeof(To) bytes of each source element:
// integer -> narrower integer (wraps) and complex -> its part type (the
// real part comes first).
template <typename From, typename To>
inline constexpr bool kKeepsLowBytes = (kIsWrappingInteger<From> && kIsWrappingInteger<To> &&
                                        sizeof(From) > sizeof(To)) ||
                                       std::is_same_v<From, Complex<To>>;

// Pairs that GCC's own loop over Convert converts as fast as a block did,
// so that they need blocks only to stream (LoopBlockCast): real integers
// and floating types -> bool; integer narrowing and complex -> its part
// type; and the plain conversions (docs/tuning.md,
// kStreamsCompilerLoop).
template <typename From, typename To>
inline constexpr bool kStreamsCompilerLoop =
    (std::is_same_v<To, bool> && !kIsComplexSource<From> &&
     ((std::is_integral_v<From> && sizeof(From) >= 2) || kIsFloatingSource<From>)) ||
    kKeepsLowBytes<From, To> || kIsPlainConversion<From, To>;

template <typename T>
inline constexpr bool kMayBeNaN = !std::is_integral_v<T>;

// Sources whose every value bfloat16 holds exactly (bool goes through the
// uint8 kernels): their float32 needs no rounding, only its high half.
template <typename T>
inline constexpr bool kIsExactInBFloat16 = std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t>;

}  // namespace oneflow_promote::cast_internal::ONEFLOW_PROMOTE_CPU_TARGET

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_AVX2_PAIR_CLASSES_H_
