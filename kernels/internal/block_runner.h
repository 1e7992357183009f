// The instruction-set-neutral half of the CPU cast blocks: which pairs read
// their source in interleaved streams and which prefetch it; RunBlocks,
// the loop that walks a run in blocks of one conversion; and LoopBlockCast,
// blocks of the compiler's own loop. A set's hand-written blocks
// (avx2_block_cast.h) give the conversion of one block and its stores;
// these rules decide how the run reaches memory. docs/tuning.md gives the
// measurements behind each, under its name.
// Its vector-touching functions are force-inlined with internal linkage,
// and in a kernel set's file (ONEFLOW_PROMOTE_CPU_TARGET defined) all of it
// lies in an inline namespace named after the set, so each instruction
// set's file compiles its own copy under its own flags.

#ifndef ONEFLOW_PROMOTE_KERNELS_INTERNAL_BLOCK_RUNNER_H_
#define ONEFLOW_PROMOTE_KERNELS_INTERNAL_BLOCK_RUNNER_H_

#if defined(__AVX__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#else
#include <cfenv>
#endif

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "kernels/cpu_cast.h"
#include "oneflow_promote/convert.h"
#include "oneflow_promote/numeric_types.h"

namespace oneflow_promote::cast_internal::blocks {
#if defined(ONEFLOW_PROMOTE_CPU_TARGET)
// The templates here have external linkage: one set's instantiation of
// LoopBlockCast or RoundTowardZero, emitted out of line, would otherwise
// stand in for every set's at link time (the baseline's int8 -> complex128
// streaming kernel ran the AVX2 set's LoopBlockCast).
inline namespace ONEFLOW_PROMOTE_CPU_TARGET {
#endif

#define ONEFLOW_PROMOTE_BLOCK_INLINE static inline __attribute__((always_inline))

// How a block writes its destination: ordinary stores, through the caches,
// or non-temporal (streaming) stores, to memory; kStreamingFromMemory also
// says that the source is too large to stay in the last-level cache
// (SourceOutgrowsCache, cpu_cast.h), so that a prefetch may keep its lines
// out of the outer caches (kPrefetchesNextTurn).
enum class Store { kOrdinary, kStreaming, kStreamingFromMemory };

// Whether blocks under kStore write with non-temporal stores.
template <Store kStore>
inline constexpr bool kStreams = kStore != Store::kOrdinary;

// The rounding mode a run of blocks converts under: the calling thread's
// own, left as it is, or round-toward-zero, set for the run.
enum class Rounding { kCallersMode, kTowardZero };

// Where a prefetch brings its lines: into every cache level, or with the
// non-temporal hint that keeps them out of the outer ones.
enum class PrefetchHint { kAllLevels, kNonTemporal };

// Pair classes the rules below name.
template <typename T>
inline constexpr bool kIsNarrowFloatDest =
    std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;

template <typename T>
inline constexpr bool kIsSmallIntDest = std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> ||
                                        std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t>;

template <typename T>
inline constexpr bool kIsComplexSource =
    std::is_same_v<T, Complex<float>> || std::is_same_v<T, Complex<double>> ||
    std::is_same_v<T, Complex<Float16>>;

// Integer parts that int32 lanes hold exactly.
template <typename T>
inline constexpr bool kIsInt32LaneInteger =
    std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t> || std::is_same_v<T, int16_t> ||
    std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t>;

template <typename T>
inline constexpr bool kIsBuiltinFloat = std::is_same_v<T, float> || std::is_same_v<T, double>;

// Part pairs that convert as static_cast does, lane by lane, with one vector
// instruction or two (or none): an integer held in int32 lanes to a wider
// integer, to float32 or to float64; float32 and float64 to either.
template <typename S, typename D>
inline constexpr bool kIsPlainPartConversion = kIsInt32LaneInteger<S>
                                                   ? (std::is_integral_v<D> &&
                                                      !std::is_same_v<D, bool> &&
                                                      sizeof(D) > sizeof(S) &&
                                                      (sizeof(D) != 2 || sizeof(S) == 1)) ||
                                                         kIsBuiltinFloat<D>
                                                   : kIsBuiltinFloat<S>&& kIsBuiltinFloat<D>;

// Pairs made of plain part conversions: real -> real, real -> complex
// (zero imaginary parts; float32 -> complex64 and float64 -> complex128
// keep the value as their real part) and complex -> complex (part by part).
template <typename From, typename To>
inline constexpr bool kIsPlainConversion =
    !std::is_same_v<From, To> &&
    (!convert_internal::IsComplex<From>::value || convert_internal::IsComplex<To>::value) &&
    kIsPlainPartConversion<typename PartOf<From>::type, typename PartOf<To>::type>;

// complex64 -> float64 and complex128 -> float32: the real part, converted
// as float32 <-> float64 is.
template <typename From, typename To>
inline constexpr bool kIsRealPartCast = (std::is_same_v<From, Complex<float>> &&
                                         std::is_same_v<To, double>) ||
                                        (std::is_same_v<From, Complex<double>> &&
                                         std::is_same_v<To, float>);

// Sets the rounding mode of the calling thread to toward-zero for its
// lifetime; the scalar tail after it runs in the caller's mode.
#if defined(__SSE2__)
class RoundTowardZero {
 public:
  RoundTowardZero() : saved_(_mm_getcsr()) { _mm_setcsr(saved_ | kTowardZero); }
  ~RoundTowardZero() { _mm_setcsr(saved_); }
  RoundTowardZero(const RoundTowardZero&) = delete;
  RoundTowardZero& operator=(const RoundTowardZero&) = delete;

 private:
  static constexpr unsigned kTowardZero = 0x6000;  // MXCSR's RC bits 13-14 both set
  unsigned saved_;
};
#else
class RoundTowardZero {
 public:
  RoundTowardZero() : saved_(std::fegetround()) { std::fesetround(FE_TOWARDZERO); }
  ~RoundTowardZero() { std::fesetround(saved_); }
  RoundTowardZero(const RoundTowardZero&) = delete;
  RoundTowardZero& operator=(const RoundTowardZero&) = delete;

 private:
  int saved_;
};
#endif

// Asks for the source lines kAhead bytes past a block of kBlockBytes at in,
// where kHint says; for blocks smaller than a line, only for the block that
// starts each line (offset_bytes from the start of the run).
template <int64_t kBlockBytes, int64_t kAhead = kPrefetchAheadBytes,
          PrefetchHint kHint = PrefetchHint::kAllLevels>
ONEFLOW_PROMOTE_BLOCK_INLINE void PrefetchAhead(const void* in, int64_t offset_bytes) {
  // On x86, prefetchnta for kNonTemporal and prefetcht0 for kAllLevels.
  constexpr int kLocality = kHint == PrefetchHint::kNonTemporal ? 0 : 3;
  // Prefetches never fault, so reaching past the source's end is harmless
  // (the address is formed as an integer, never as a pointer past it).
  const char* ahead = reinterpret_cast<const char*>(reinterpret_cast<uintptr_t>(in) + kAhead);
  if constexpr (kBlockBytes >= 64) {
    for (int64_t line = 0; line < kBlockBytes; line += 64)
      __builtin_prefetch(ahead + line, 0, kLocality);
  } else if (offset_bytes % 64 < kBlockBytes) {
    __builtin_prefetch(ahead, 0, kLocality);
  }
}

// Whether a streaming run of the pair reads its source as kReadStreams
// interleaved streams (RunBlocks): one core keeps more reads in flight from
// several streams than from one, which narrowing casts, bound by their
// reads, and same-size casts of 4 and 8 bytes turn into speed. Widening
// casts are bound by their writes and int32 rounded to 16-bit floats by its
// arithmetic; they read one stream (docs/tuning.md, kReadsInStreams).
template <typename From, typename To>
inline constexpr bool kReadsInStreams = sizeof(From) == sizeof(To)
                                            ? sizeof(From) >= 4
                                            : sizeof(From) > sizeof(To) &&
                                                  !(std::is_integral_v<From> && sizeof(From) <= 4 &&
                                                    (kIsNarrowFloatDest<To> ||
                                                     std::is_same_v<To, Complex<Float16>>));
// Four, except six for complex128 -> 8- and 16-bit integers, which read 8
// and 16 times the bytes they write, and two for float32 -> float16 (and
// complex64 -> complex32, as twice the float32): the counts that read
// fastest (docs/tuning.md, kReadStreams).
template <typename From, typename To>
inline constexpr int64_t kReadStreams =
    std::is_same_v<From, Complex<double>>&& kIsSmallIntDest<To> && sizeof(To) <= 2 ? 6
    : std::is_same_v<From, float>&& std::is_same_v<To, Float16>                    ? 2
                                                                                   : 4;
// How much of a stream is read before the next: longer turns lose the
// streams' gain, shorter ones the prefetchers' (docs/tuning.md,
// kStreamTurnBytes).
inline constexpr int64_t kStreamTurnBytes = 512;

// Whether a streaming run prefetches its source (PrefetchAhead): not for
// streamed blocks that do the least arithmetic (integer narrowing, real
// parts, plain conversions, complex to small integers), which the hardware
// prefetchers keep fed and whose extra loads cost more than they hide
// (docs/tuning.md, kPrefetchAheadBytes and kPrefetchesAhead).
template <typename From, typename To>
inline constexpr bool kPrefetchesAhead =
    !(kReadsInStreams<From, To> &&
      ((std::is_integral_v<From> && sizeof(From) > sizeof(To)) || kIsRealPartCast<From, To> ||
       kIsPlainConversion<From, To> ||
       (kIsComplexSource<From> && sizeof(From) >= 8 && kIsSmallIntDest<To>)));

// Whether a streaming run of a narrowing pair asks for the next turn of its
// stream (kStreamTurnBytes ahead, which the rotation reaches after a turn of
// each other stream): the pairs listed gained; same-size pairs, int64 ->
// integers, int32 -> 8-bit, float64 -> float32 and complex128 -> complex64
// lost with it. With the NTA hint, and instead of kPrefetchesAhead's
// prefetch, only where the source outgrows the last-level cache
// (Store::kStreamingFromMemory): the hint keeps the lines out of the outer
// caches, and an L3 filled from the cores' evictions (AMD's, and Intel's
// since Skylake-SP) then loses them, so that a source it could have held is
// read from memory again. Over a source that may stay, kPrefetchesAhead's
// pairs take that prefetch and the others this one with the hint for every
// level (docs/tuning.md, kPrefetchesNextTurn).
template <typename From, typename To>
inline constexpr bool kPrefetchesNextTurn =
    (kPrefetchesAhead<From, To> || (std::is_same_v<From, int64_t> && !std::is_integral_v<To>) ||
     (std::is_same_v<From, Complex<float>> && kIsSmallIntDest<To>) ||
     (std::is_same_v<From, Complex<double>> && kIsSmallIntDest<To> && sizeof(To) == 1) ||
     (std::is_integral_v<From> && sizeof(From) <= 4 && std::is_same_v<To, bool>)) &&
    kReadsInStreams<From, To> && sizeof(From) > sizeof(To);

// Whether a forward walk's loads would wait on the streaming stores just
// before them. A load whose address matches an earlier, still pending
// store's in its low 12 bits waits for that store ("4K aliasing"). The
// source and destination of a same-size pair keep one distance, and when
// the destination runs less than 128 bytes ahead of the source modulo
// 4 KiB, the loads of each block wait for the stores of the block before
// (a std::vector source and a 64-byte-aligned destination put float32 ->
// int32's 48 bytes ahead). Walking downwards, each load lies behind the
// stores before it. Pairs that change the size pass through that window
// briefly, every 4 KiB (docs/tuning.md, ForwardLoadsWaitOnStores).
// Integer arithmetic alone, so one copy serves every instruction set.
template <typename From, typename To>
bool ForwardLoadsWaitOnStores(const From* in, const To* out) {
  if constexpr (sizeof(From) != sizeof(To)) {
    return false;
  } else {
    const uintptr_t ahead =
        (reinterpret_cast<uintptr_t>(out) - reinterpret_cast<uintptr_t>(in)) % 4096;
    return ahead != 0 && ahead < 128;
  }
}

// Calls block(in + i, out + i) for i = 0, kWidth, 2 kWidth, ... while
// kWidth elements remain, under kRounding; returns how many it converted.
// Streaming runs (the destination is written with non-temporal stores, to
// memory) prefetch their source ahead where kPrefetchesAhead, since one
// core keeps too few misses in flight for the hardware prefetchers alone;
// those of kReadsInStreams pairs go through kReadStreams equal parts of
// whole turns in rotation, a turn of each at a time, before the rest.
// Streaming runs whose ForwardLoadsWaitOnStores walk the same streams,
// turns and blocks from last to first instead, without prefetching, which
// beat a forward walk with ordinary stores.
template <int kWidth, Rounding kRounding, Store kStore, typename From, typename To, typename Block>
ONEFLOW_PROMOTE_BLOCK_INLINE int64_t RunBlocks(const From* in, To* out, int64_t n, Block block) {
  constexpr int64_t kBlockBytes = kWidth * static_cast<int64_t>(sizeof(From));
  constexpr int64_t kTurn = std::max<int64_t>(kStreamTurnBytes / kBlockBytes, 1) * kWidth;
  // Forced inline: GCC otherwise kept this loop out of line for some
  // pairs, which slowed them (docs/tuning.md, RunBlocks).
  const auto blocks = [&](int64_t begin, int64_t end) __attribute__((always_inline)) {
    for (int64_t i = begin; i < end; i += kWidth) {
      [[maybe_unused]] const int64_t offset_bytes = i * static_cast<int64_t>(sizeof(From));
      if constexpr (kStore == Store::kStreamingFromMemory && kPrefetchesNextTurn<From, To>) {
        PrefetchAhead<kBlockBytes, kStreamTurnBytes, PrefetchHint::kNonTemporal>(in + i,
                                                                                 offset_bytes);
      } else if constexpr (kStreams<kStore> && kPrefetchesAhead<From, To>) {
        PrefetchAhead<kBlockBytes>(in + i, offset_bytes);
      } else if constexpr (kStreams<kStore> && kPrefetchesNextTurn<From, To>) {
        PrefetchAhead<kBlockBytes, kStreamTurnBytes, PrefetchHint::kAllLevels>(in + i,
                                                                               offset_bytes);
      }
      block(in + i, out + i);
    }
  };
  const auto blocks_downwards = [&](int64_t begin, int64_t end) __attribute__((always_inline)) {
    for (int64_t i = end - kWidth; i >= begin; i -= kWidth) block(in + i, out + i);
  };
  const auto run = [&] {
    const int64_t end = n / kWidth * kWidth;
    const int64_t streams =
        kStreams<kStore> && (kReadsInStreams<From, To> || sizeof(From) == sizeof(To))
            ? kReadStreams<From, To>
            : 1;
    const int64_t part = n / streams / kTurn * kTurn;
    if (kStreams<kStore> && ForwardLoadsWaitOnStores(in, out)) {
      blocks_downwards(streams * part, end);
      for (int64_t turn = part - kTurn; turn >= 0; turn -= kTurn) {
        for (int64_t stream = 0; stream < streams; ++stream) {
          blocks_downwards(stream * part + turn, stream * part + turn + kTurn);
        }
      }
      return end;
    }
    if constexpr (kStreams<kStore> && kReadsInStreams<From, To>) {
      for (int64_t turn = 0; turn < part; turn += kTurn) {
        for (int64_t stream = 0; stream < streams; ++stream) {
          blocks(stream * part + turn, stream * part + turn + kTurn);
        }
      }
      blocks(streams * part, end);
    } else {
      blocks(0, end);
    }
    return end;
  };
  if constexpr (kRounding == Rounding::kTowardZero) {
    const RoundTowardZero mode;
    return run();
  } else {
    return run();
  }
}

// The BlockCast<From, To> of pairs without hand-written blocks (every pair
// of an instruction set that has none): converts nothing, leaving the pair
// to the compiler's loop over convert.h.
template <typename From, typename To>
struct NoBlockCast {
  static constexpr bool kConvertsNothing = true;
  template <Store kStore = Store::kOrdinary>
  static int64_t Run(const From*, To*, int64_t) {
    return 0;
  }
};

#if defined(__SSE2__)
// Writes kBytes from `from` to the aligned `to` with non-temporal stores,
// the widest the set has.
template <int64_t kBytes>
ONEFLOW_PROMOTE_BLOCK_INLINE void StreamOut(const void* from, void* to) {
#if defined(__AVX__)
  static_assert(kBytes % 32 == 0);
  for (int64_t v = 0; v < kBytes / 32; ++v) {
    _mm256_stream_si256(static_cast<__m256i*>(to) + v,
                        _mm256_load_si256(static_cast<const __m256i*>(from) + v));
  }
#else
  static_assert(kBytes % 16 == 0);
  for (int64_t v = 0; v < kBytes / 16; ++v) {
    _mm_stream_si128(static_cast<__m128i*>(to) + v,
                     _mm_load_si128(static_cast<const __m128i*>(from) + v));
  }
#endif
}

// Blocks of the compiler's own loop over Convert, for the pairs without
// hand-written blocks: they need blocks only to stream, so
// Run<Store::kOrdinary> converts nothing and leaves the run to that loop.
// Each block converts into a local array, which the compiler keeps in
// registers, and streams it out; at least a cache line of destination and
// 32 bytes of source a block (docs/tuning.md, LoopBlockCast).
template <typename From, typename To>
struct LoopBlockCast {
  static constexpr int kWidth = static_cast<int>(std::max(64 / sizeof(To), 32 / sizeof(From)));

  template <Store kStore = Store::kOrdinary>
  static int64_t Run(const From* in, To* out, int64_t n) {
    if constexpr (kStore == Store::kOrdinary) {
      return 0;
    } else {
      return RunBlocks<kWidth, Rounding::kCallersMode, kStore>(
          in, out, n, [](const From* block_in, To* block_out) {
            alignas(64) To converted[kWidth];
#pragma GCC unroll 1
            // Kept a loop until the vectorizer has seen it: unrolled first,
            // as GCC 12 does loops this short, the conversions to complex
            // were left to the straight-line vectorizer, which converted
            // them one element at a time.
            for (int i = 0; i < kWidth; ++i) converted[i] = Convert<To>(block_in[i]);
            StreamOut<kWidth * sizeof(To)>(converted, block_out);
          });
    }
  }
};
#endif

#undef ONEFLOW_PROMOTE_BLOCK_INLINE

#if defined(ONEFLOW_PROMOTE_CPU_TARGET)
}  // namespace ONEFLOW_PROMOTE_CPU_TARGET
#endif
}  // namespace oneflow_promote::cast_internal::blocks

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_BLOCK_RUNNER_H_
