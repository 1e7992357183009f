// Fuzzes the argument checking of the two C ABIs: oneflow_promote_cast
// (kernels/cast_c_api.h) and oneflow_promote_binary_op
// (functional/functional_c_api.h). The input picks dtype
// codes (invalid ones too), null, misaligned and overlapping pointers,
// element counts, CUDA ordinals, cast paths and error buffers of 0, 1 and
// more bytes; the buffers are real allocations of exactly the bytes the
// count needs, so ASan sees any access past them. Counts are only ever
// larger than the buffers where the API promises to refuse them without
// touching memory: negative, or past a 64-bit byte count.
//
// Checked: the return value is a valid absl::StatusCode; the message is
// NUL-terminated within error_size and nothing is written past it (or at
// all, for error_size 0 or a null buffer); what the contract says is an
// error is one; a CUDA ordinal fails cleanly without a GPU (with one, only
// ordinals past the last device are used); a host pool is called as its
// contract says (HostCall::Check); and a successful CPU cast matches the
// same elements cast one at a time (NaNs compared as NaNs).
//
// Input, field by field (ByteReader): api byte (bit 0: binary op; for a
// call on the host, bit 1: through the ABI's _on_host function, bit 2: on a
// pool that runs the ranges in turn, bits 3-4: threads 0, 1, 2 or -1), then
//   cast:      from, to, layout, source offset, destination offset, count,
//              cuda, error-buffer fields, then the source bytes
//   binary op: name, a, b and out dtypes, layout, three offsets, count,
//              cuda, cast path, error-buffer fields, then the input bytes
// Dtype codes: a byte below 0xE0 is byte % 18, else a listed invalid code.
// bool inputs are made 0 or 1: docs/casts.md says a bool is 0 or 1.

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "functional/functional_c_api.h"
#include "kernels/cast.h"
#include "kernels/cast_c_api.h"
#include "kernels/cuda_device.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/ops/op_list.h"
#include "oneflow_promote/ops/op_rules.h"
#include "oneflow_promote/promotion/result_type.h"
#include "tests/fuzz/fuzz_input.h"

namespace oneflow_promote::fuzz {
namespace {

constexpr size_t kAlign = 64;

// An allocation of exactly `bytes` bytes (at least 1), 64-byte aligned, so
// that offsets into it choose the alignment of the pointers handed out.
class Buffer {
 public:
  explicit Buffer(size_t bytes) : size_(std::max<size_t>(bytes, 1)) {
    data_ = static_cast<unsigned char*>(::operator new (size_, std::align_val_t{kAlign}));
  }
  ~Buffer() { ::operator delete (data_, std::align_val_t{kAlign}); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  unsigned char* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  size_t size_;
  unsigned char* data_;
};

int DTypeCode(ByteReader& r) {
  constexpr int kInvalid[] = {-1, kNumDTypes, kNumDTypes + 1, 255, 256, INT_MIN, INT_MAX, -256};
  const uint8_t b = r.Byte();
  return b < 0xE0 ? b % kNumDTypes : kInvalid[b & 7];
}

bool ValidCode(int code) { return code >= 0 && code < kNumDTypes; }
size_t SizeOf(int code) { return ValidCode(code) ? ItemSize(static_cast<DType>(code)) : 1; }
size_t AlignOf(int code) {
  if (!ValidCode(code)) return 1;
  return VisitDType(static_cast<DType>(code),
                    [](auto tag) { return alignof(typename decltype(tag)::type); });
}
bool Aligned(const void* p, int code) {
  return reinterpret_cast<uintptr_t>(p) % AlignOf(code) == 0;
}

// Usable CUDA devices; with none, any ordinal must fail.
int CudaDevices() {
  static const int count = [] {
    const absl::StatusOr<int> n = CudaDeviceCount();
    return n.ok() ? *n : 0;
  }();
  return count;
}

// A CUDA ordinal (>= 0) or a CPU one (< 0). With GPUs present only
// ordinals past the last device are used: the pointers are host memory.
int CudaOrdinal(ByteReader& r) {
  const uint8_t b = r.Byte();
  if (b < 0xC0) return b < 0x80 ? -1 : (b & 1 ? INT_MIN : -2);
  return CudaDevices() + (b & 7);
}

// Honest counts of `big` inputs pass 65536 elements, where the CPU kernels
// split the work across threads.
constexpr int64_t kBigFrom = 65537;
constexpr int64_t kBigTo = kBigFrom + 256;

// An element count: mostly honest (up to `limit`, or between kBigFrom and
// kBigTo when `big`), sometimes negative or `overflow_from` and up, past a
// 64-bit byte count (0: no count overflows, as for 1-byte elements).
int64_t Count(ByteReader& r, bool big, int64_t limit, int64_t overflow_from) {
  const uint8_t sel = r.Byte();
  const uint64_t v = r.Bits(2);
  switch (sel >> 6) {
    case 3:
      if (overflow_from > 0) {
        return v % 2 ? std::numeric_limits<int64_t>::max()
                     : overflow_from + static_cast<int64_t>(v % 1024);
      }
      [[fallthrough]];
    case 2: {
      constexpr int64_t kNegative[] = {-1, -2, std::numeric_limits<int64_t>::min(),
                                       -(int64_t{1} << 40)};
      return kNegative[v % 4];
    }
    default:
      if (big) return kBigFrom + static_cast<int64_t>(v % (kBigTo - kBigFrom + 1));
      return static_cast<int64_t>(v % static_cast<uint64_t>(limit + 1));
  }
}

// The caller's error buffer: null, or exactly error_size bytes (one canary
// byte for error_size 0) filled with a marker.
struct ErrorBuffer {
  std::optional<Buffer> storage;
  char* pointer = nullptr;
  size_t size = 0;

  explicit ErrorBuffer(uint8_t b) {
    switch (b % 6) {
      case 0:
        size = 0;
        return;
      case 1:
        size = 64;  // a null buffer with a size: nothing may be written
        return;
      case 2:
        size = 0;
        break;
      case 3:
        size = 1;
        break;
      case 4:
        size = 2 + (b >> 3) % 62;
        break;
      default:
        size = 512;
        break;
    }
    storage.emplace(size);
    std::memset(storage->data(), 0x5A, storage->size());
    pointer = reinterpret_cast<char*>(storage->data());
  }

  void Check(int rc, const char* what) const {
    // absl::StatusCode's values are 0 (OK) to 16 (kUnauthenticated).
    FUZZ_CHECK(rc >= 0 && rc <= static_cast<int>(absl::StatusCode::kUnauthenticated),
               "%s returned %d, not an absl::StatusCode", what, rc);
    // The whole message stays readable: empty after a success, and what the
    // caller's buffer holds is its beginning.
    const size_t length = oneflow_promote_last_error(nullptr, 0);
    FUZZ_CHECK((rc == 0) == (length == 0), "%s returned %d with a last error of %zu bytes", what,
               rc, length);
    std::string whole(length + 1, '\0');
    FUZZ_CHECK(oneflow_promote_last_error(whole.data(), whole.size()) == length,
               "oneflow_promote_last_error gave two lengths");
    if (pointer == nullptr) return;
    if (size > 0) {
      FUZZ_CHECK(std::strncmp(whole.c_str(), pointer, std::min(size - 1, length)) == 0,
                 "%s's message '%s' is not the start of its last error '%s'", what, pointer,
                 whole.c_str());
    }
    if (size == 0) {
      FUZZ_CHECK(static_cast<unsigned char>(pointer[0]) == 0x5A,
                 "%s wrote into an error buffer of size 0", what);
      return;
    }
    const void* nul = std::memchr(pointer, '\0', size);
    FUZZ_CHECK(nul != nullptr, "%s left its message unterminated in %zu bytes", what, size);
    if (rc == 0) {
      FUZZ_CHECK(pointer[0] == '\0', "%s succeeded with message '%s'", what, pointer);
    } else if (size >= 2) {
      FUZZ_CHECK(pointer[0] != '\0', "%s failed (%d) with an empty message", what, rc);
    }
  }
};

bool IsNaNBits(const unsigned char* p, DType d) {
  uint64_t bits = 0;
  std::memcpy(&bits, p, std::min<size_t>(ItemSize(d), 8));
  switch (d) {
    case DType::kFloat8E4M3FN:
      return (bits & 0x7F) == 0x7F;
    case DType::kFloat8E5M2:
      return (bits & 0x7C) == 0x7C && (bits & 0x03) != 0;
    case DType::kFloat8E4M3FNUZ:
    case DType::kFloat8E5M2FNUZ:
      return (bits & 0xFF) == 0x80;
    case DType::kFloat8E8M0FNU:
      return (bits & 0xFF) == 0xFF;
    case DType::kFloat16:
      return (bits & 0x7C00) == 0x7C00 && (bits & 0x03FF) != 0;
    case DType::kBFloat16:
      return (bits & 0x7F80) == 0x7F80 && (bits & 0x007F) != 0;
    case DType::kFloat32:
      return (bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu) != 0;
    case DType::kFloat64:
      return (bits & 0x7FF0000000000000u) == 0x7FF0000000000000u &&
             (bits & 0x000FFFFFFFFFFFFFu) != 0;
    default:
      return false;
  }
}

// Two elements of `d` are the same value: equal bytes, or NaN in the same
// places (payloads may differ).
bool SameElement(const unsigned char* x, const unsigned char* y, DType d) {
  const size_t size = ItemSize(d);
  if (std::memcmp(x, y, size) == 0) return true;
  const DType part = d == DType::kComplex32    ? DType::kFloat16
                     : d == DType::kBComplex32 ? DType::kBFloat16
                     : d == DType::kComplex64  ? DType::kFloat32
                     : d == DType::kComplex128 ? DType::kFloat64
                                               : d;
  const size_t part_size = ItemSize(part);
  for (size_t offset = 0; offset < size; offset += part_size) {
    const bool nan_x = IsNaNBits(x + offset, part), nan_y = IsNaNBits(y + offset, part);
    if (nan_x != nan_y) return false;
    if (!nan_x && std::memcmp(x + offset, y + offset, part_size) != 0) return false;
  }
  return true;
}

// Copies the fuzz bytes over [p, p + bytes), repeating them (zeros when
// there are none).
void Fill(unsigned char* p, size_t bytes, absl::string_view pattern) {
  for (size_t i = 0; i < bytes; ++i) {
    p[i] = pattern.empty() ? 0 : static_cast<unsigned char>(pattern[i % pattern.size()]);
  }
}

void MakeBools(unsigned char* p, int64_t n) {
  for (int64_t i = 0; i < n; ++i) p[i] &= 1;
}

// A host framework's parallel-for as a C frontend would write one: the
// ranges in turn, after checking that it is handed work and a grain.
void RunRangesInTurn(void* state, int64_t n, int64_t grain, oneflow_promote_parallel_body body,
                     void* body_state) {
  ++*static_cast<int*>(state);
  FUZZ_CHECK(n > 0 && grain > 0, "the pool was handed n %lld, grain %lld",
             static_cast<long long>(n), static_cast<long long>(grain));
  for (int64_t begin = 0; begin < n; begin += grain)
    body(body_state, begin, std::min(n, begin + grain));
}

// How a call is made, from the api byte: through the _on_host function
// (host ordinals only), with which thread count and pool.
struct HostCall {
  HostCall(uint8_t api, int ordinal)
      : on_host((api & 2) && ordinal < 0),
        threads(on_host ? kThreadCounts[(api >> 3) & 3] : 0),
        run(api & 4 ? &RunRangesInTurn : nullptr) {}

  static constexpr int kThreadCounts[] = {0, 1, 2, -1};
  const bool on_host;
  const int threads;
  const oneflow_promote_parallel_for run;
  int pool_calls = 0;

  // threads 1 keeps the work on the calling thread. A cast calls the pool
  // at most once, and not at all when refused (an op's casts and kernel may
  // each call it, and integer division refuses only after them).
  void Check(int rc, bool is_cast) const {
    FUZZ_CHECK(threads != 1 || pool_calls == 0, "the pool was called with threads 1");
    FUZZ_CHECK(!is_cast || (pool_calls <= 1 && (rc == 0 || pool_calls == 0)),
               "the pool was called %d times by a cast that returned %d", pool_calls, rc);
  }
};

void FuzzCast(ByteReader& r, uint8_t api) {
  const int from = DTypeCode(r);
  const int to = DTypeCode(r);
  const uint8_t layout = r.Byte();
  const uint8_t src_offset_byte = r.Byte();
  const uint8_t dst_offset_byte = r.Byte();
  const size_t item = std::max(SizeOf(from), SizeOf(to));
  const bool big = layout >= 0xF0;
  const int64_t limit = big ? kBigTo : 2048 / static_cast<int64_t>(item);
  const int64_t overflow_from =
      item > 1 ? std::numeric_limits<int64_t>::max() / static_cast<int64_t>(item) + 1 : 0;
  const int64_t n = Count(r, big, limit, overflow_from);
  const int ordinal = CudaOrdinal(r);
  const ErrorBuffer error(r.Byte());
  const absl::string_view pattern = r.Rest();
  HostCall host(api, ordinal);

  // Honest counts size the buffers; the others get small buffers.
  const int64_t honest = n >= 0 && n <= limit ? n : 0;
  const size_t src_bytes = static_cast<size_t>(honest) * SizeOf(from);
  const size_t dst_bytes = static_cast<size_t>(honest) * SizeOf(to);
  std::optional<Buffer> src_buffer, dst_buffer;
  const unsigned char* src = nullptr;
  unsigned char* dst = nullptr;
  const int mode =
      layout & 3;  // 0 separate, 1 one shared buffer, 2 null source, 3 null destination
  if (mode == 1) {
    const size_t src_offset = src_offset_byte, dst_offset = dst_offset_byte;
    src_buffer.emplace(std::max(src_offset + src_bytes, dst_offset + dst_bytes));
    Fill(src_buffer->data(), src_buffer->size(), pattern);
    src = src_buffer->data() + src_offset;
    dst = src_buffer->data() + dst_offset;
  } else {
    const size_t src_offset = src_offset_byte % kAlign, dst_offset = dst_offset_byte % kAlign;
    if (mode != 2) {
      src_buffer.emplace(src_offset + src_bytes);
      Fill(src_buffer->data(), src_buffer->size(), pattern);
      src = src_buffer->data() + src_offset;
    }
    if (mode != 3) {
      dst_buffer.emplace(dst_offset + dst_bytes);
      std::memset(dst_buffer->data(), 0xA5, dst_buffer->size());
      dst = dst_buffer->data() + dst_offset;
    }
  }
  if (src != nullptr && from == static_cast<int>(DType::kBool)) {
    MakeBools(const_cast<unsigned char*>(src), honest);
  }

  // What the contract (kernels/cast.h) makes an error; nullopt where it
  // leaves the outcome open (a misaligned pointer with no elements).
  std::optional<bool> expect_error;
  const bool alias = src == dst && from == to;
  const uintptr_t s = reinterpret_cast<uintptr_t>(src), d = reinterpret_cast<uintptr_t>(dst);
  const bool overlap = s < d + dst_bytes && d < s + src_bytes;
  if (!ValidCode(from) || !ValidCode(to) || n < 0) {
    expect_error = true;
  } else if (n == 0) {
    if (Aligned(src, from) && Aligned(dst, to)) expect_error = false;
  } else if (src == nullptr || dst == nullptr || !Aligned(src, from) || !Aligned(dst, to) ||
             (overflow_from > 0 && n >= overflow_from)) {
    expect_error = true;
  } else if (alias) {
    expect_error = false;  // an exact alias with equal dtypes is a no-op
  } else {
    expect_error = overlap || ordinal >= 0 || host.threads < 0;
  }

  const int rc = host.on_host
                     ? oneflow_promote_cast_on_host(src, from, dst, to, n, host.threads, host.run,
                                                    &host.pool_calls, error.pointer, error.size)
                     : oneflow_promote_cast(src, from, dst, to, n, ordinal, nullptr, error.pointer,
                                            error.size);
  error.Check(rc, "oneflow_promote_cast");
  if (expect_error.has_value()) {
    FUZZ_CHECK(
        (rc != 0) == *expect_error,
        "oneflow_promote_cast%s(from %d, to %d, n %lld, src %p, dst %p, cuda %d, threads %d) "
        "returned %d",
        host.on_host ? "_on_host" : "", from, to, static_cast<long long>(n),
        static_cast<const void*>(src), static_cast<void*>(dst), ordinal, host.threads, rc);
  }
  host.Check(rc, /*is_cast=*/true);
  if (rc != 0 || n == 0 || alias || ordinal >= 0) return;

  // The same elements one at a time, through the kernels' scalar tail (of
  // a big cast, every 61st and the last 64, to keep runs fast).
  const DType f = static_cast<DType>(from), t = static_cast<DType>(to);
  std::vector<unsigned char> one(16);
  for (int64_t i = 0; i < n; i += big && i < n - 64 ? 61 : 1) {
    const absl::Status st = CastElements(src + i * ItemSize(f), f, one.data(), t, 1);
    FUZZ_CHECK(st.ok(), "one-element cast failed: %s", std::string(st.message()).c_str());
    FUZZ_CHECK(SameElement(one.data(), dst + i * ItemSize(t), t),
               "element %lld of %lld differs between the bulk cast and a one-element cast "
               "(%s -> %s)",
               static_cast<long long>(i), static_cast<long long>(n), std::string(Name(f)).c_str(),
               std::string(Name(t)).c_str());
  }
}

// Op names the binary-op ABI may be handed: every op (unary and where
// too), the aliases docs/ops.md lists, and near misses.
constexpr absl::string_view kAliases[] = {"true_divide",
                                          "divide",
                                          "multiply",
                                          "subtract",
                                          "greater",
                                          "greater_equal",
                                          "less",
                                          "less_equal",
                                          "not_equal",
                                          "absolute",
                                          "negative",
                                          "arctan2",
                                          "div(rounding_mode=floor)",
                                          "div(rounding_mode=trunc)"};
constexpr absl::string_view kNearMisses[] = {"",     "ADD",  "add ", "div(rounding_mode=round)",
                                             "div(", "adds", "ad"};

// The op a name stands for, or nullopt.
std::optional<ops::Op> KnownOp(absl::string_view name) {
  for (ops::Op op : ops::kKernelOps) {
    if (ops::OpName(op) == name) return op;
  }
  const absl::StatusOr<ops::Op> parsed = ops::ParseOp(name);
  for (absl::string_view alias : kAliases) {
    if (alias == name) {
      FUZZ_CHECK(parsed.ok(), "the alias '%s' is not accepted", std::string(name).c_str());
      return *parsed;
    }
  }
  return std::nullopt;
}

void FuzzBinaryOp(ByteReader& r, uint8_t api) {
  constexpr size_t kNumOps = std::size(ops::kKernelOps);
  constexpr size_t kNumAliases = std::size(kAliases);
  constexpr size_t kNumNearMisses = std::size(kNearMisses);
  const uint8_t name_byte = r.Byte();
  std::string name_storage;
  const char* name = nullptr;
  if (name_byte < kNumOps) {
    name_storage = std::string(ops::OpName(ops::kKernelOps[name_byte]));
  } else if (name_byte < kNumOps + kNumAliases) {
    name_storage = std::string(kAliases[name_byte - kNumOps]);
  } else if (name_byte < kNumOps + kNumAliases + kNumNearMisses) {
    name_storage = std::string(kNearMisses[name_byte - kNumOps - kNumAliases]);
  } else if (name_byte < 0xF0) {
    name_storage = std::string(ops::OpName(ops::kKernelOps[name_byte % kNumOps]));
  } else if (name_byte < 0xF8) {
    for (int i = r.Byte() % 16; i > 0; --i) name_storage.push_back(static_cast<char>(r.Byte()));
    name_storage.resize(std::strlen(name_storage.c_str()));  // the C string the ABI sees
  }
  const bool null_name = name_byte >= 0xF8;
  if (!null_name) name = name_storage.c_str();

  const int a_code = DTypeCode(r), b_code = DTypeCode(r), out_code = DTypeCode(r);
  const uint8_t layout = r.Byte();
  const uint8_t offset_bytes[3] = {r.Byte(), r.Byte(), r.Byte()};
  const size_t item = std::max({SizeOf(a_code), SizeOf(b_code), SizeOf(out_code)});
  const bool big = layout >= 0xF0;
  const int64_t limit = big ? kBigTo : 1024 / static_cast<int64_t>(item);
  // Past a 64-bit byte count for 16-byte elements (Tensor::View refuses
  // from a quarter of that).
  const int64_t overflow_from = std::numeric_limits<int64_t>::max() / 16 + 1;
  const int64_t n = Count(r, big, limit, overflow_from);
  const int ordinal = CudaOrdinal(r);
  HostCall host(api, ordinal);
  const uint8_t path_byte = r.Byte();
  constexpr int kBadPaths[] = {-1, 3, 255, INT_MIN, INT_MAX, 4, -2, 1000};
  const int cast_path = path_byte < 0xE0 ? path_byte % 3 : kBadPaths[path_byte & 7];
  const ErrorBuffer error(r.Byte());
  const absl::string_view pattern = r.Rest();

  const int codes[3] = {a_code, b_code, out_code};
  const int64_t honest = n >= 0 && n <= limit ? n : 0;
  size_t bytes[3];
  for (int i = 0; i < 3; ++i) bytes[i] = static_cast<size_t>(honest) * SizeOf(codes[i]);
  std::vector<std::optional<Buffer>> buffers(3);
  unsigned char* pointers[3] = {nullptr, nullptr, nullptr};
  const int mode = layout % 5;  // 0 separate, 1 one shared buffer, 2-4 a, b or out null
  if (mode == 1) {
    size_t offsets[3] = {offset_bytes[0], offset_bytes[1], offset_bytes[2]};
    // Writing out over a bool input as another dtype would leave that
    // input's bytes other than 0 and 1: such an out goes past both inputs.
    for (int i = 0; i < 2; ++i) {
      const bool clash = offsets[2] < offsets[i] + bytes[i] && offsets[i] < offsets[2] + bytes[2];
      if (clash && codes[i] == static_cast<int>(DType::kBool) && out_code != codes[i]) {
        const size_t end = std::max(offsets[0] + bytes[0], offsets[1] + bytes[1]);
        offsets[2] = (end + kAlign - 1) / kAlign * kAlign + offsets[2] % kAlign;
        break;
      }
    }
    size_t total = 0;
    for (int i = 0; i < 3; ++i) total = std::max(total, offsets[i] + bytes[i]);
    buffers[0].emplace(total);
    Fill(buffers[0]->data(), total, pattern);
    for (int i = 0; i < 3; ++i) pointers[i] = buffers[0]->data() + offsets[i];
  } else {
    for (int i = 0; i < 3; ++i) {
      if (mode == 2 + i) continue;
      const size_t offset = offset_bytes[i] % kAlign;
      buffers[i].emplace(offset + bytes[i]);
      Fill(buffers[i]->data(), buffers[i]->size(),
           pattern.substr(std::min(pattern.size(), static_cast<size_t>(i) * 7)));
      pointers[i] = buffers[i]->data() + offset;
    }
  }
  for (int i = 0; i < 2; ++i) {
    if (pointers[i] != nullptr && codes[i] == static_cast<int>(DType::kBool)) {
      MakeBools(pointers[i], honest);
    }
  }

  // The arguments the ABI must refuse, whatever the dtype rules say.
  const std::optional<ops::Op> op = null_name ? std::nullopt : KnownOp(name_storage);
  bool bad_pointer = false;
  for (int i = 0; i < 3; ++i) {
    bad_pointer |= pointers[i] == nullptr || !Aligned(pointers[i], codes[i]);
  }
  // out sharing bytes with an input, without being exactly that input (the
  // same first byte and element size), would read elements already written.
  bool partial_overlap = false;
  for (int i = 0; i < 2 && mode == 1 && honest > 0; ++i) {
    const bool shared =
        pointers[2] < pointers[i] + bytes[i] && pointers[i] < pointers[2] + bytes[2];
    const bool exact = pointers[2] == pointers[i] && bytes[2] == bytes[i];
    partial_overlap |= shared && !exact;
  }
  std::optional<bool> expect_error;
  if (!op || ops::OpArity(*op) != 2 || cast_path < 0 || cast_path > 2 || !ValidCode(a_code) ||
      !ValidCode(b_code) || !ValidCode(out_code) || n < 0 || n >= overflow_from ||
      (n > 0 && (bad_pointer || ordinal >= 0)) || host.threads < 0 || partial_overlap) {
    expect_error = true;
  } else if (!bad_pointer && ordinal < 0 && *op != ops::Op::kDot) {
    // Valid arguments on the CPU: the op's dtype rules decide, and then
    // whether the result can be written to out's dtype; integer division
    // may still find a zero divisor. (dot's 0-d result never has out's
    // shape [n], and its own rules are left to the ABI.)
    const Operand operands[] = {Operand::Tensor(static_cast<DType>(a_code), 1),
                                Operand::Tensor(static_cast<DType>(b_code), 1)};
    const absl::StatusOr<ops::OpDTypes> dtypes = ops::InferOpDTypes(*op, operands);
    const bool integer_division = *op == ops::Op::kDivFloor || *op == ops::Op::kDivTrunc ||
                                  *op == ops::Op::kFloorDivide || *op == ops::Op::kRemainder;
    if (!dtypes.ok() ||
        !ops::CheckCanCastToOutput(dtypes->result, static_cast<DType>(out_code)).ok()) {
      expect_error = true;
    } else if (!integer_division) {
      expect_error = false;
    }
  }

  const int rc =
      host.on_host
          ? oneflow_promote_binary_op_on_host(
                name, pointers[0], a_code, pointers[1], b_code, pointers[2], out_code, n,
                host.threads, host.run, &host.pool_calls, cast_path, error.pointer, error.size)
          : oneflow_promote_binary_op(name, pointers[0], a_code, pointers[1], b_code, pointers[2],
                                      out_code, n, ordinal, cast_path, error.pointer, error.size);
  error.Check(rc, "oneflow_promote_binary_op");
  if (expect_error.has_value()) {
    FUZZ_CHECK((rc != 0) == *expect_error,
               "oneflow_promote_binary_op%s('%s', a %d, b %d, out %d, n %lld, cuda %d, threads %d, "
               "path %d) returned %d: %s",
               host.on_host ? "_on_host" : "", null_name ? "(null)" : name_storage.c_str(), a_code,
               b_code, out_code, static_cast<long long>(n), ordinal, host.threads, cast_path, rc,
               error.pointer != nullptr && error.size > 0 ? error.pointer : "");
  }
  host.Check(rc, /*is_cast=*/false);
}

}  // namespace
}  // namespace oneflow_promote::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  oneflow_promote::fuzz::ByteReader reader(data, size);
  const uint8_t api = reader.Byte();
  if (api & 1) {
    oneflow_promote::fuzz::FuzzBinaryOp(reader, api);
  } else {
    oneflow_promote::fuzz::FuzzCast(reader, api);
  }
  return 0;
}
