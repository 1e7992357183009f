// Helpers shared by the fuzz targets: a reader that takes fields from the
// front of the fuzz input (so seeds can be written by hand, field by field)
// and a check that aborts, which libFuzzer reports as a finding.

#ifndef ONEFLOW_PROMOTE_TESTS_FUZZ_FUZZ_INPUT_H_
#define ONEFLOW_PROMOTE_TESTS_FUZZ_FUZZ_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "absl/numeric/int128.h"
#include "absl/strings/string_view.h"

namespace oneflow_promote::fuzz {

// Fields in input order; past the end every field reads as zero, so any
// prefix of a seed is still a valid input.
class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }

  // `bytes` (at most 8) little-endian bytes as an unsigned value.
  uint64_t Bits(int bytes) {
    uint64_t value = 0;
    for (int i = 0; i < bytes; ++i) value |= uint64_t{Byte()} << (8 * i);
    return value;
  }

  // A signed integer of 1, 2, 4, 8 or 16 bytes, sign-extended.
  absl::int128 SignedInt(int bytes) {
    if (bytes == 16) {
      const uint64_t low = Bits(8);
      const uint64_t high = Bits(8);
      return static_cast<absl::int128>(absl::MakeUint128(high, low));
    }
    const uint64_t raw = Bits(bytes);
    const int shift = 64 - 8 * bytes;
    return static_cast<int64_t>(raw << shift) >> shift;  // arithmetic shift sign-extends
  }

  double Double() {
    const uint64_t bits = Bits(8);
    double value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
  }

  // What is left, consumed.
  absl::string_view Rest() {
    const absl::string_view rest(reinterpret_cast<const char*>(data_ + pos_), size_ - pos_);
    pos_ = size_;
    return rest;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

}  // namespace oneflow_promote::fuzz

// Aborts with a message when `cond` fails: a broken invariant is a finding,
// like a crash.
#define FUZZ_CHECK(cond, ...)                                                       \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      std::fprintf(stderr, __VA_ARGS__);                                            \
      std::fprintf(stderr, "\n");                                                   \
      std::abort();                                                                 \
    }                                                                               \
  } while (false)

#endif  // ONEFLOW_PROMOTE_TESTS_FUZZ_FUZZ_INPUT_H_
