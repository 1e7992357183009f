// The AutoTest's global mode, in process: for every placement (1-D of 2, 3
// and 4 ranks; 2-D of 2 x 2) and every SBP on it, a generated global tensor
// is laid out over simulated ranks, each rank casts (or runs a promoted
// binary op on) its local tensors with the library's kernels, and the
// assembled global result must equal the single-device result bit for bit.
// A planted looser rule (partial sums kept by every cast, as OneFlow's
// CastOp declares) must fail with a reproducer.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "functional/functional.h"
#include "functional/tensor.h"
#include "gtest/gtest.h"
#include "oneflow_promote/convert.h"
#include "oneflow_promote/sbp/global_op.h"
#include "oneflow_promote/sbp/sbp.h"
#include "oneflow_promote/status_macros.h"

namespace oneflow_promote::sbp {
namespace {

using ops::Op;
using Placement = std::vector<int>;  // ranks per placement dimension
using Locals = std::vector<Tensor>;  // one per rank, row-major over the placement

constexpr int64_t kExtent = 12;  // global tensors are [12, 12]: every split divides

// A T of random bits: one draw of the generator per 8 bytes.
template <typename T>
T RandomBits(std::mt19937_64& rng) {
  unsigned char bytes[sizeof(T)];
  for (size_t at = 0; at < sizeof(T); at += 8) {
    const uint64_t word = rng();
    std::memcpy(bytes + at, &word, std::min<size_t>(8, sizeof(T) - at));
  }
  T x;
  std::memcpy(&x, bytes, sizeof(T));
  return x;
}

// Values of every kind: any bit pattern of the dtype (NaN, inf, subnormals
// and wrapping integers included).
Tensor RandomTensor(DType dtype, std::mt19937_64& rng) {
  Tensor t = *Tensor::Empty(dtype, {kExtent, kExtent});
  VisitDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = t.data_as<T>();
    for (int64_t i = 0; i < t.numel(); ++i) {
      if constexpr (std::is_same_v<T, bool>) {
        data[i] = rng() & 1;
      } else {
        data[i] = RandomBits<T>(rng);
      }
    }
  });
  return t;
}

// `parts` tensors whose reduction (sum, max or min, in rank order, in the
// dtype's own arithmetic) is `global`.
Locals Decompose(const Tensor& global, SbpKind kind, int parts, std::mt19937_64& rng) {
  Locals out;
  for (int r = 0; r < parts; ++r) out.push_back(*Tensor::Zeros(global.dtype(), global.shape()));
  VisitDType(global.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* x = global.data_as<T>();
    for (int64_t i = 0; i < global.numel(); ++i) {
      const int owner = static_cast<int>(rng() % parts);
      for (int r = 0; r < parts; ++r) {
        T& part = out[r].data_as<T>()[i];
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
          // Random parts; the owner's makes the wrapping sum come out.
          if (kind == SbpKind::kPartialSum) {
            part = r == owner ? T{} : RandomBits<T>(rng);
          } else {
            const T other = RandomBits<T>(rng);
            part = r == owner                     ? x[i]
                   : kind == SbpKind::kPartialMax ? std::min(x[i], other)
                                                  : std::max(x[i], other);
          }
        } else {
          // The owner holds the value; the others a zero of its sign (sum:
          // -0 + -0 is -0), or the value itself (max, min).
          part = r == owner || kind != SbpKind::kPartialSum ? x[i] : T{};
          if constexpr (!std::is_same_v<T, bool>) {
            if (r != owner && kind == SbpKind::kPartialSum && std::signbit(Convert<double>(x[i]))) {
              part = Convert<T>(-0.0);
            }
          }
          if constexpr (std::is_same_v<T, bool>) {
            if (kind == SbpKind::kPartialSum && r != owner) part = x[i] && (rng() & 1);
          }
        }
      }
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        if (kind == SbpKind::kPartialSum) {
          uint64_t rest = static_cast<uint64_t>(x[i]);
          for (int r = 0; r < parts; ++r) rest -= static_cast<uint64_t>(out[r].data_as<T>()[i]);
          out[owner].data_as<T>()[i] = static_cast<T>(rest);
        }
      }
    }
  });
  return out;
}

Locals Shard1(const Tensor& global, const Sbp& sbp, int parts, std::mt19937_64& rng) {
  switch (sbp.kind) {
    case SbpKind::kBroadcast:
      return Locals(parts, global);
    case SbpKind::kSplit: {
      Locals out;
      const int64_t size = global.shape()[sbp.axis] / parts;
      for (int r = 0; r < parts; ++r) {
        std::vector<int64_t> shape(global.shape().begin(), global.shape().end());
        shape[sbp.axis] = size;
        const int64_t offset = r * size * global.strides()[sbp.axis];
        out.push_back(*global.AsStrided(shape, global.strides(), offset)->Clone());
      }
      return out;
    }
    default:
      return Decompose(global, sbp.kind, parts, rng);
  }
}

absl::StatusOr<Tensor> Concat(const Locals& parts, int axis) {
  std::vector<int64_t> shape(parts[0].shape().begin(), parts[0].shape().end());
  const int64_t size = shape[axis];
  shape[axis] *= static_cast<int64_t>(parts.size());
  ASSIGN_OR_RETURN(Tensor out, Tensor::Empty(parts[0].dtype(), shape));
  const int64_t rows = axis == 0 ? size : shape[0];
  const int64_t cols = axis == 0 ? shape[1] : size;
  const size_t item = ItemSize(parts[0].dtype());
  for (size_t r = 0; r < parts.size(); ++r) {
    for (int64_t i = 0; i < rows; ++i) {
      const int64_t row = axis == 0 ? r * size + i : i;
      const int64_t col = axis == 0 ? 0 : r * size;
      std::memcpy(static_cast<char*>(out.data()) + (row * shape[1] + col) * item,
                  static_cast<const char*>(parts[r].data()) + i * cols * item, cols * item);
    }
  }
  return out;
}

bool SameBits(const Tensor& a, const Tensor& b, int64_t* first_difference = nullptr);

absl::StatusOr<Tensor> Assemble1(const Locals& parts, const Sbp& sbp) {
  switch (sbp.kind) {
    case SbpKind::kBroadcast:
      for (const Tensor& part : parts) {
        if (!SameBits(part, parts[0])) return absl::InternalError("broadcast ranks differ");
      }
      return parts[0];
    case SbpKind::kSplit:
      return Concat(parts, sbp.axis);
    default: {
      const Op op = sbp.kind == SbpKind::kPartialSum   ? Op::kAdd
                    : sbp.kind == SbpKind::kPartialMax ? Op::kMaximum
                                                       : Op::kMinimum;
      Tensor acc = parts[0];
      for (size_t r = 1; r < parts.size(); ++r) {
        const Tensor inputs[] = {acc, parts[r]};
        ASSIGN_OR_RETURN(acc, functional::Call(op, inputs));
      }
      return acc;
    }
  }
}

// Lays `global` out as `nd_sbp` over `placement`: the first dimension's SBP
// over rows of ranks, then the second's within each row.
Locals Shard(const Tensor& global, const NdSbp& nd_sbp, const Placement& placement,
             std::mt19937_64& rng) {
  Locals level = Shard1(global, nd_sbp[0], placement[0], rng);
  if (placement.size() == 1) return level;
  Locals out;
  for (const Tensor& row : level) {
    for (Tensor& t : Shard1(row, nd_sbp[1], placement[1], rng)) out.push_back(t);
  }
  return out;
}

absl::StatusOr<Tensor> Assemble(const Locals& locals, const NdSbp& nd_sbp,
                                const Placement& placement) {
  if (placement.size() == 1) return Assemble1(locals, nd_sbp[0]);
  Locals rows;
  for (int r = 0; r < placement[0]; ++r) {
    const Locals row(locals.begin() + r * placement[1], locals.begin() + (r + 1) * placement[1]);
    ASSIGN_OR_RETURN(Tensor t, Assemble1(row, nd_sbp[1]));
    rows.push_back(t);
  }
  return Assemble1(rows, nd_sbp[0]);
}

// Bit for bit, any NaN equal to any NaN (the kernels write canonical NaNs).
bool SameBits(const Tensor& a, const Tensor& b, int64_t* first_difference) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
  return VisitDType(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const Tensor ca = *a.Clone(), cb = *b.Clone();
    for (int64_t i = 0; i < ca.numel(); ++i) {
      const T x = ca.data_as<T>()[i], y = cb.data_as<T>()[i];
      bool same = std::memcmp(&x, &y, sizeof(T)) == 0;
      if constexpr (!std::is_integral_v<T>) {
        same = same || (Convert<double>(x) != Convert<double>(x) &&
                        Convert<double>(y) != Convert<double>(y));
      }
      if (!same) {
        if (first_difference != nullptr) *first_difference = i;
        return false;
      }
    }
    return true;
  });
}

std::string Describe(const Tensor& t, int64_t i) {
  if (i < 0) return "";
  return VisitDType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return absl::StrCat(Convert<double>(t.Clone()->data_as<T>()[i]));
  });
}

std::vector<Placement> Placements() { return {{2}, {3}, {4}, {2, 2}}; }

std::vector<NdSbp> AllNdSbp(size_t dims) {
  const std::vector<Sbp> one = {Sbp::Split(0),     Sbp::Split(1),     Sbp::Broadcast(),
                                Sbp::PartialSum(), Sbp::PartialMax(), Sbp::PartialMin()};
  std::vector<NdSbp> out;
  for (const Sbp& a : one) {
    if (dims == 1) {
      out.push_back({a});
      continue;
    }
    for (const Sbp& b : one) out.push_back({a, b});
  }
  return out;
}

using CastRule = std::function<CastSignature(DType, DType, const NdSbp&)>;

// "int8 int32 2 P(sum) 59": what the environment variable
// ONEFLOW_PROMOTE_GLOBAL_CASE takes to run one case again.
std::string CaseSpec(DType from, DType to, const Placement& placement, const NdSbp& nd_sbp,
                     uint64_t seed) {
  return absl::StrCat(
      Name(from), " ", Name(to), " ", absl::StrJoin(placement, "x"), " ",
      absl::StrJoin(nd_sbp, ",",
                    [](std::string* out, const Sbp& sbp) { out->append(sbp.ToString()); }),
      " ", seed);
}

// One cast case: the mismatch, with a command that runs it again, or "".
std::string RunCastCase(DType from, DType to, const Placement& placement, const NdSbp& given,
                        uint64_t seed, const CastRule& rule) {
  std::mt19937_64 rng(seed);
  const Tensor global = RandomTensor(from, rng);
  const CastSignature signature = rule(from, to, given);
  Locals locals = Shard(global, signature.input, placement, rng);
  std::vector<std::string> parts;
  for (Tensor& local : locals) local = *local.To(to);
  absl::StatusOr<Tensor> assembled = Assemble(locals, signature.output, placement);
  const Tensor expected = *global.To(to);
  int64_t at = -1;
  if (assembled.ok() && SameBits(*assembled, expected, &at)) return "";
  for (const Tensor& local : locals) {
    if (at >= 0 && local.numel() == global.numel()) parts.push_back(Describe(local, at));
  }
  return absl::StrCat(
      "cast ", Name(from), " -> ", Name(to), " on ranks [", absl::StrJoin(placement, ", "), "] as ",
      ToString(given), " (cast under ", ToString(signature.input), " -> ",
      ToString(signature.output), "), seed ", seed, ": element ", at, " of the global ",
      Describe(global, at), " (ranks' cast parts ", absl::StrJoin(parts, ", "), ") gives ",
      assembled.ok() ? Describe(*assembled, at) : assembled.status().ToString(), ", one device ",
      Describe(expected, at),
      "\n  reproduce: bazel test //oneflow_promote/sbp:global_autotest_test --test_output=all "
      "--test_filter=GlobalAutoTest.OneCase --test_env=ONEFLOW_PROMOTE_GLOBAL_CASE='",
      CaseSpec(from, to, placement, given, seed), "'");
}

// Runs every cast over every placement and SBP under `rule`; returns the
// mismatches, each with its reproducer.
std::vector<std::string> RunCasts(const std::vector<DType>& dtypes, const CastRule& rule) {
  std::vector<std::string> failures;
  uint64_t seed = 1;
  for (DType from : dtypes) {
    for (DType to : dtypes) {
      for (const Placement& placement : Placements()) {
        for (const NdSbp& given : AllNdSbp(placement.size())) {
          std::string failure = RunCastCase(from, to, placement, given, ++seed, rule);
          if (!failure.empty()) failures.push_back(std::move(failure));
        }
      }
    }
  }
  return failures;
}

CastSignature LibraryRule(DType from, DType to, const NdSbp& in) {
  return InferCastSignature(from, to, in);
}

Sbp ParseSbp(absl::string_view text) {
  if (text == "B") return Sbp::Broadcast();
  if (text == "P(sum)") return Sbp::PartialSum();
  if (text == "P(max)") return Sbp::PartialMax();
  if (text == "P(min)") return Sbp::PartialMin();
  return Sbp::Split(text == "S(1)" ? 1 : 0);
}

// Runs the case ONEFLOW_PROMOTE_GLOBAL_CASE names ("int8 int32 2x2
// S(0),P(sum) 59") under the checkout's rules, printing what each rank did.
TEST(GlobalAutoTest, OneCase) {
  const char* spec = std::getenv("ONEFLOW_PROMOTE_GLOBAL_CASE");
  if (spec == nullptr) GTEST_SKIP() << "set ONEFLOW_PROMOTE_GLOBAL_CASE to run one case";
  const std::vector<std::string> words = absl::StrSplit(spec, ' ', absl::SkipEmpty());
  ASSERT_EQ(words.size(), 5u) << "FROM TO PLACEMENT NDSBP SEED, e.g. int8 int32 2 P(sum) 59";
  const absl::StatusOr<DType> from = ParseDType(words[0]), to = ParseDType(words[1]);
  ASSERT_TRUE(from.ok() && to.ok()) << spec;
  Placement placement;
  for (absl::string_view n : absl::StrSplit(words[2], 'x'))
    placement.push_back(std::stoi(std::string(n)));
  NdSbp nd_sbp;
  for (absl::string_view sbp : absl::StrSplit(words[3], ',')) nd_sbp.push_back(ParseSbp(sbp));
  ASSERT_EQ(nd_sbp.size(), placement.size()) << spec;
  const std::string failure =
      RunCastCase(*from, *to, placement, nd_sbp, std::stoull(words[4]), LibraryRule);
  EXPECT_TRUE(failure.empty()) << failure;
}

const std::vector<DType>& CastDTypes() {
  static const auto* dtypes = new std::vector<DType>{
      DType::kBool,    DType::kUInt8,   DType::kInt8,        DType::kInt16,
      DType::kInt32,   DType::kInt64,   DType::kFloat16,     DType::kBFloat16,
      DType::kFloat32, DType::kFloat64, DType::kFloat8E4M3FN};
  return *dtypes;
}

TEST(GlobalAutoTest, EveryCastOnEveryPlacementAndSbp) {
  const std::vector<std::string> failures = RunCasts(CastDTypes(), LibraryRule);
  EXPECT_TRUE(failures.empty()) << failures.size() << " mismatches; first: " << failures[0];
}

TEST(GlobalAutoTest, CatchesAPlantedLooserRule) {
  // Partial sums kept by every cast.
  const std::vector<std::string> failures =
      RunCasts({DType::kInt8, DType::kInt32}, [](DType, DType, const NdSbp& in) {
        return CastSignature{in, in, Exactness::kExact};
      });
  ASSERT_FALSE(failures.empty());
  EXPECT_NE(failures[0].find("int8 -> int32"), std::string::npos) << failures[0];
  std::cout << "reproducer: " << failures[0] << "\n";
}

// Binary ops through PlanGlobalOp: each input laid out as its plan says
// before the cast, cast, re-laid out (the boxing) for the op, run per rank.
TEST(GlobalAutoTest, PromotedBinaryOpsFollowTheirPlan) {
  const std::vector<std::pair<DType, DType>> pairs = {{DType::kInt8, DType::kInt32},
                                                      {DType::kInt16, DType::kInt16},
                                                      {DType::kFloat16, DType::kFloat32},
                                                      {DType::kInt32, DType::kFloat32},
                                                      {DType::kBool, DType::kUInt8}};
  int checked = 0;
  uint64_t seed = 1000;
  for (Op op : {Op::kAdd, Op::kSub, Op::kMul, Op::kMaximum, Op::kMinimum, Op::kLt, Op::kEq}) {
    for (const auto& [a_dtype, b_dtype] : pairs) {
      for (const Placement& placement : {Placement{2}, Placement{3}, Placement{2, 2}}) {
        for (const NdSbp& a_sbp : AllNdSbp(placement.size())) {
          for (const NdSbp& b_sbp : AllNdSbp(placement.size())) {
            std::mt19937_64 rng(++seed);
            const Tensor a = RandomTensor(a_dtype, rng), b = RandomTensor(b_dtype, rng);
            const GlobalOperand operands[] = {{a.AsOperand(), a_sbp}, {b.AsOperand(), b_sbp}};
            absl::StatusOr<GlobalPlan> plan = PlanGlobalOp(op, operands);
            if (!plan.ok()) continue;  // the op's dtype rules refuse (sub of bools)
            Locals at_op[2];
            const Tensor globals[] = {a, b};
            Tensor cast_globals[2];
            for (int i = 0; i < 2; ++i) {
              const InputPlan& input = plan->inputs[i];
              Locals locals = Shard(globals[i], input.before_cast, placement, rng);
              for (Tensor& local : locals) local = *local.To(input.to);
              const NdSbp cast_out =
                  InferCastSignature(input.from, input.to, input.before_cast).output;
              cast_globals[i] = *Assemble(locals, cast_out, placement);
              at_op[i] = Shard(cast_globals[i], input.at_op, placement, rng);
            }
            Locals results;
            for (size_t r = 0; r < at_op[0].size(); ++r) {
              const Tensor inputs[] = {at_op[0][r], at_op[1][r]};
              results.push_back(*functional::Call(op, inputs));
            }
            absl::StatusOr<Tensor> assembled = Assemble(results, plan->output, placement);
            const Tensor inputs[] = {a, b};
            const Tensor expected = *functional::Call(op, inputs);
            int64_t at = -1;
            ASSERT_TRUE(assembled.ok() && SameBits(*assembled, expected, &at))
                << ops::OpName(op) << "(" << Name(a_dtype) << " " << ToString(a_sbp) << ", "
                << Name(b_dtype) << " " << ToString(b_sbp) << ") on " << placement.size()
                << "-D placement, seed " << seed << ", output " << ToString(plan->output)
                << ": element " << at;
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 5000);
}

}  // namespace
}  // namespace oneflow_promote::sbp
