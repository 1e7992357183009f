// Fuzzes ResultType on lists of 1 to 8 operands under every policy and
// both default dtypes: under torch, array_api and mlx against a slow fold
// written here from the rules (docs/promotion.md; PyTorch's
// at::native::result_type for torch, the Array API standard for array_api,
// MLX's Python to_arrays for mlx), sharing only PromoteTypes on pairs with
// the library; under the JAX
// policies, whose join is a lattice's, the answer must not depend on the
// operands' order (NumPy's, per np.result_type, must not either). Under
// every policy ExplainResultType must end in the same answer.
//
// Input, field by field (ByteReader; missing bytes read as 0):
//   settings: bit 0 array_api, bit 1 float64 default, bit 2 the default
//             dtype is the next byte taken as a raw dtype (often invalid),
//             bit 3 one of numpy, jax, jax_x32, jax_strict, mlx by
//             bits 4-6 % 5
//   count:    1 + byte % 8 operands, each:
//     kind:   byte % 6: 0 tensor with ndim 1 + (byte >> 3) % 4, 1 0-d tensor,
//             2 Python bool, 3 int, 4 float, 5 complex
//     tensor: dtype byte: below 0xF0 the dtype byte % 18, else that raw
//             (invalid) enum value
//     bool:   byte & 1
//     int:    width byte (1, 2, 4, 8 or 16 by byte % 5), then that many
//             little-endian bytes, sign-extended
//     float:  8 bytes of a double; complex: two doubles

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/numeric/int128.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "oneflow_promote/dtype.h"
#include "oneflow_promote/promotion/policy.h"
#include "oneflow_promote/promotion/result_type.h"
#include "tests/fuzz/fuzz_input.h"

namespace oneflow_promote::fuzz {
namespace {

// nullopt: the operation raises.
using Outcome = std::optional<DType>;

bool IsCoreDType(uint8_t raw) { return raw < kNumDTypes; }

// c10's categories, restated: float8 is floating, complex is not.
bool Complex(DType d) {
  return d == DType::kComplex32 || d == DType::kComplex64 || d == DType::kComplex128 ||
         d == DType::kBComplex32;
}
bool Float8(DType d) {
  return d == DType::kFloat8E4M3FN || d == DType::kFloat8E5M2 || d == DType::kFloat8E4M3FNUZ ||
         d == DType::kFloat8E5M2FNUZ || d == DType::kFloat8E8M0FNU;
}
bool Floating(DType d) {
  return Float8(d) || d == DType::kFloat16 || d == DType::kBFloat16 || d == DType::kFloat32 ||
         d == DType::kFloat64;
}
bool Integer(DType d) { return d != DType::kBool && !Floating(d) && !Complex(d); }

// c10::toComplexType: float8 and the rest have no complex dtype.
Outcome ToComplexType(DType d) {
  switch (d) {
    case DType::kFloat16:
    case DType::kComplex32:
      return DType::kComplex32;
    case DType::kBFloat16:
    case DType::kBComplex32:
      return DType::kBComplex32;
    case DType::kFloat32:
    case DType::kComplex64:
      return DType::kComplex64;
    case DType::kFloat64:
    case DType::kComplex128:
      return DType::kComplex128;
    default:
      return std::nullopt;
  }
}

Outcome Promote(DType a, DType b, Policy policy) {
  const Promotion p = PromoteTypes(a, b, policy);
  if (!p.ok()) return std::nullopt;
  return p.dtype();
}

// A bucket: empty (undefined), a dtype, or failed.
struct Bucket {
  bool defined = false;
  bool failed = false;
  DType dtype = DType::kBool;
};

// promote_skip_undefined.
Bucket Join(Bucket bucket, DType d) {
  if (bucket.failed) return bucket;
  if (!bucket.defined) return {true, false, d};
  const Outcome p = Promote(bucket.dtype, d, Policy::kTorch);
  if (!p) return {true, true, d};
  return {true, false, *p};
}

// combine_categories(higher, lower), branch for branch.
Bucket Combine(Bucket higher, Bucket lower) {
  if (higher.failed || lower.failed) return {true, true, DType::kBool};
  if (!higher.defined) return lower;
  if (!lower.defined) return higher;
  const DType h = higher.dtype, l = lower.dtype;
  if (Complex(h)) return higher;
  if (Complex(l)) {
    if (Floating(h)) {
      const Outcome c = ToComplexType(h);
      return c ? Bucket{true, false, *c} : Bucket{true, true, h};
    }
    return lower;
  }
  if (Floating(h)) return higher;
  if (h == DType::kBool || Floating(l)) return Join(higher, l);
  return higher;
}

struct Input {
  Policy policy = Policy::kTorch;
  PromotionOptions options;
  std::vector<Operand> operands;
};

Outcome TorchFold(const Input& in) {
  const DType def = in.options.default_dtype;
  if (def != DType::kFloat32 && def != DType::kFloat64) return std::nullopt;
  const DType default_complex = def == DType::kFloat64 ? DType::kComplex128 : DType::kComplex64;
  Bucket dim, zero, wrapped;
  for (const Operand& op : in.operands) {
    switch (op.kind()) {
      case Operand::Kind::kTensor:
        if (!IsCoreDType(static_cast<uint8_t>(op.dtype()))) return std::nullopt;
        if (op.ndim() > 0) {
          dim = Join(dim, op.dtype());
        } else {
          zero = Join(zero, op.dtype());
        }
        break;
      case Operand::Kind::kPyBool:
        wrapped = Join(wrapped, DType::kBool);
        break;
      case Operand::Kind::kPyInt:
        // Python ints outside int64 do not become tensors at all.
        if (op.int_value() < std::numeric_limits<int64_t>::min() ||
            op.int_value() > std::numeric_limits<int64_t>::max()) {
          return std::nullopt;
        }
        wrapped = Join(wrapped, DType::kInt64);
        break;
      case Operand::Kind::kPyFloat:
        wrapped = Join(wrapped, def);
        break;
      case Operand::Kind::kPyComplex:
        wrapped = Join(wrapped, default_complex);
        break;
    }
  }
  const Bucket result = Combine(dim, Combine(zero, wrapped));
  if (result.failed || !result.defined) return std::nullopt;
  return result.dtype;
}

// The 13 dtypes of the Array API standard.
bool InArrayApi(uint8_t raw) {
  if (!IsCoreDType(raw)) return false;
  const DType d = static_cast<DType>(raw);
  return !Float8(d) && d != DType::kFloat16 && d != DType::kBFloat16 && d != DType::kComplex32 &&
         d != DType::kBComplex32;
}

// The inclusive range of an integer dtype.
void IntRange(DType d, absl::int128& lo, absl::int128& hi) {
  const int bits = static_cast<int>(ItemSize(d)) * 8;
  const bool is_signed =
      d == DType::kInt8 || d == DType::kInt16 || d == DType::kInt32 || d == DType::kInt64;
  if (is_signed) {
    hi = (absl::int128(1) << (bits - 1)) - 1;
    lo = -hi - 1;
  } else {
    lo = 0;
    hi = (absl::int128(1) << bits) - 1;
  }
}

bool InRange(absl::int128 value, DType d) {
  absl::int128 lo, hi;
  IntRange(d, lo, hi);
  return value >= lo && value <= hi;
}

Outcome ArrayApiFold(const Input& in) {
  std::optional<DType> arrays;
  for (const Operand& op : in.operands) {
    if (!op.is_tensor()) continue;
    if (!InArrayApi(static_cast<uint8_t>(op.dtype()))) return std::nullopt;
    if (!arrays) {
      arrays = op.dtype();
      continue;
    }
    arrays = Promote(*arrays, op.dtype(), Policy::kArrayApi);
    if (!arrays) return std::nullopt;
  }
  if (!arrays) return std::nullopt;  // an array is required
  const DType a = *arrays;
  bool any_complex_scalar = false;
  for (const Operand& op : in.operands) {
    switch (op.kind()) {
      case Operand::Kind::kTensor:
        break;
      case Operand::Kind::kPyBool:
        if (a != DType::kBool) return std::nullopt;
        break;
      case Operand::Kind::kPyInt:
        if (a == DType::kBool) return std::nullopt;
        if (Integer(a) && !InRange(op.int_value(), a)) return std::nullopt;
        break;
      case Operand::Kind::kPyFloat:
        if (!Floating(a) && !Complex(a)) return std::nullopt;
        break;
      case Operand::Kind::kPyComplex:
        if (!Floating(a) && !Complex(a)) return std::nullopt;
        any_complex_scalar = true;
        break;
    }
  }
  return any_complex_scalar ? ToComplexType(a) : Outcome(a);
}

Input Decode(const uint8_t* data, size_t size) {
  ByteReader r(data, size);
  Input in;
  const uint8_t settings = r.Byte();
  in.policy = settings & 1 ? Policy::kArrayApi : Policy::kTorch;
  if (settings & 8) {
    constexpr Policy kWeakScalarPolicies[] = {Policy::kNumpy, Policy::kJax, Policy::kJaxX32,
                                              Policy::kJaxStrict, Policy::kMlx};
    in.policy = kWeakScalarPolicies[((settings >> 4) & 7) % std::size(kWeakScalarPolicies)];
  }
  in.options.default_dtype = settings & 2 ? DType::kFloat64 : DType::kFloat32;
  if (settings & 4) in.options.default_dtype = static_cast<DType>(r.Byte());
  const int count = 1 + r.Byte() % 8;
  for (int i = 0; i < count; ++i) {
    const uint8_t kind = r.Byte();
    switch (kind % 6) {
      case 0:
      case 1: {
        const uint8_t b = r.Byte();
        const DType d = static_cast<DType>(b < 0xF0 ? b % kNumDTypes : b);
        in.operands.push_back(Operand::Tensor(d, kind % 6 == 0 ? 1 + (kind >> 3) % 4 : 0));
        break;
      }
      case 2:
        in.operands.push_back(Operand::PyBool(r.Byte() & 1));
        break;
      case 3: {
        constexpr int kWidths[] = {1, 2, 4, 8, 16};
        in.operands.push_back(Operand::PyInt(r.SignedInt(kWidths[r.Byte() % 5])));
        break;
      }
      case 4:
        in.operands.push_back(Operand::PyFloat(r.Double()));
        break;
      default: {
        const double re = r.Double();
        in.operands.push_back(Operand::PyComplex({re, r.Double()}));
        break;
      }
    }
  }
  return in;
}

std::string Describe(const Input& in) {
  std::vector<std::string> parts;
  for (const Operand& op : in.operands) parts.push_back(op.Describe());
  return absl::StrCat(PolicyName(in.policy), " default ",
                      static_cast<int>(in.options.default_dtype), ": ", absl::StrJoin(parts, ", "));
}

// MLX's Python layer, restated: to_array of a scalar beside an array of
// dtype `other` (none: among scalars only), then promote_types on arrays.
Outcome MlxArrayOf(const Operand& op, std::optional<DType> other) {
  switch (op.kind()) {
    case Operand::Kind::kTensor:
      return IsValid(op.dtype()) && InMlx(op.dtype()) ? Outcome(op.dtype()) : std::nullopt;
    case Operand::Kind::kPyBool:
      return other.value_or(DType::kBool);
    case Operand::Kind::kPyInt: {
      if (!InRange(op.int_value(), DType::kInt64)) return std::nullopt;  // std::bad_cast
      if (!other) return InRange(op.int_value(), DType::kInt32) ? DType::kInt32 : DType::kInt64;
      if (*other == DType::kBool) return DType::kInt32;
      if (Integer(*other) && ItemSize(*other) < 8 && !InRange(op.int_value(), *other)) {
        return std::nullopt;  // "would result in overflow"
      }
      return *other;
    }
    case Operand::Kind::kPyFloat:
      return other && Floating(*other) ? *other : DType::kFloat32;
    case Operand::Kind::kPyComplex:
      return DType::kComplex64;
  }
  return std::nullopt;
}

// mx.add folded left to right: each step's result is an array.
Outcome MlxFold(const Input& in) {
  const Operand& first = in.operands[0];
  if (in.operands.size() == 1) return MlxArrayOf(first, std::nullopt);
  Outcome acc;
  for (size_t i = 1; i < in.operands.size(); ++i) {
    const Operand& op = in.operands[i];
    Outcome a, b;
    if (i == 1 && !first.is_tensor()) {
      b = MlxArrayOf(op, std::nullopt);
      if (op.is_tensor()) {
        a = b ? MlxArrayOf(first, *b) : std::nullopt;
      } else {
        a = MlxArrayOf(first, std::nullopt);
      }
    } else {
      a = i == 1 ? MlxArrayOf(first, std::nullopt) : acc;
      b = a ? MlxArrayOf(op, *a) : std::nullopt;
    }
    if (!a || !b) return std::nullopt;
    acc = Promote(*a, *b, Policy::kMlx);
    if (!acc) return std::nullopt;
  }
  return acc;
}

std::string OutcomeName(const Outcome& o) { return o ? std::string(Name(*o)) : "error"; }

}  // namespace
}  // namespace oneflow_promote::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace oneflow_promote;
  using namespace oneflow_promote::fuzz;
  const Input in = Decode(data, size);
  const absl::StatusOr<DType> got = ResultType(in.operands, in.policy, in.options);
  const Outcome got_outcome = got.ok() ? Outcome(*got) : std::nullopt;
  Outcome want;
  const bool folds =
      in.policy == Policy::kTorch || in.policy == Policy::kArrayApi || in.policy == Policy::kMlx;
  if (folds) {
    want = in.policy == Policy::kTorch      ? TorchFold(in)
           : in.policy == Policy::kArrayApi ? ArrayApiFold(in)
                                            : MlxFold(in);
  } else {
    const std::vector<Operand> reversed(in.operands.rbegin(), in.operands.rend());
    const absl::StatusOr<DType> backwards = ResultType(reversed, in.policy, in.options);
    want = backwards.ok() ? Outcome(*backwards) : std::nullopt;
  }
  FUZZ_CHECK(
      got_outcome == want, "ResultType gave %s, the %s %s, for %s",
      got.ok() ? OutcomeName(got_outcome).c_str() : std::string(got.status().message()).c_str(),
      folds ? "fold" : "reversed operands", OutcomeName(want).c_str(), Describe(in).c_str());
  if (!got.ok()) {
    FUZZ_CHECK(got.status().code() == absl::StatusCode::kInvalidArgument &&
                   !got.status().message().empty(),
               "ResultType failed with code %d for %s", static_cast<int>(got.status().code()),
               Describe(in).c_str());
  }
  // The explanation runs the step-by-step path, and must end where ResultType does.
  const std::string explained = ExplainResultType(in.operands, in.policy, in.options);
  const std::string last = explained.substr(explained.rfind('\n') + 1);
  const std::string expected_last = got.ok() ? absl::StrCat("result: ", Name(*got))
                                             : absl::StrCat("error: ", got.status().message());
  FUZZ_CHECK(last == expected_last, "ExplainResultType ends in '%s', ResultType '%s', for %s",
             last.c_str(), expected_last.c_str(), Describe(in).c_str());
  return 0;
}
