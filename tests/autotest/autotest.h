// AutoTest: random differential testing of the functional frontend against
// libtorch, in the manner of OneFlow's AutoTest, with what it lacks: dtypes
// are always compared, every dtype can be drawn, and a failure prints (and
// saves) a complete program that reproduces it in C++ with this library and
// libtorch, plus the same call in PyTorch's Python.
//
//   Generator<DType> dtypes = RandomDType(kFloating | kSigned);
//   Generator<Shape> shapes = RandomShape(1, 3, 4);
//   AutoTestResult r = RunAutoTest({.op = Op::kAdd, .cases = 200, .seed = 1},
//                                  BinaryOperands(dtypes, dtypes, shapes));
//
// Everything is driven by one seeded engine per case (case i uses seed
// seed + i), so a case is reproducible from its seed alone.

#ifndef ONEFLOW_PROMOTE_TESTS_AUTOTEST_AUTOTEST_H_
#define ONEFLOW_PROMOTE_TESTS_AUTOTEST_AUTOTEST_H_

#include <ATen/ATen.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "functional/functional.h"
#include "tests/autotest/judge.h"
#include "tests/test_tensors.h"

namespace oneflow_promote::autotest {

using Rng = std::mt19937_64;
using Shape = std::vector<int64_t>;

// A source of random values of T. `size` is how many distinct values it
// can produce (for `|`, which picks a side with probability proportional
// to the sides' sizes); 0 means "continuous" and counts as 1000.
template <typename T>
class Generator {
 public:
  Generator(std::function<T(Rng&)> draw, double size)
      : draw_(std::make_shared<std::function<T(Rng&)>>(std::move(draw))), size_(size) {}

  T operator()(Rng& rng) const { return (*draw_)(rng); }
  double size() const { return size_ > 0 ? size_ : 1000; }

  // A generator of f(value).
  template <typename F>
  auto Map(F f) const -> Generator<decltype(f(std::declval<T>()))> {
    auto self = *this;
    return {[self, f](Rng& rng) { return f(self(rng)); }, size_};
  }

 private:
  std::shared_ptr<std::function<T(Rng&)>> draw_;
  double size_;
};

// Either side, weighted by size: random_dtype(bool) | random_dtype(complex)
// draws each of the 1 + 3 dtypes with equal probability.
template <typename T>
Generator<T> operator|(const Generator<T>& a, const Generator<T>& b) {
  const double p = a.size() / (a.size() + b.size());
  return {[a, b, p](Rng& rng) {
            return std::uniform_real_distribution<double>(0, 1)(rng) < p ? a(rng) : b(rng);
          },
          a.size() + b.size()};
}
// Arithmetic on numeric generators: random(0, 4) * 2 + 1 draws odd numbers.
template <typename T>
Generator<T> operator+(const Generator<T>& g, T v) {
  return g.Map([v](T x) { return x + v; });
}
template <typename T>
Generator<T> operator-(const Generator<T>& g, T v) {
  return g.Map([v](T x) { return x - v; });
}
template <typename T>
Generator<T> operator*(const Generator<T>& g, T v) {
  return g.Map([v](T x) { return x * v; });
}

// Uniform integers in [lo, hi] and reals in [lo, hi).
Generator<int64_t> Random(int64_t lo, int64_t hi);
Generator<double> Random(double lo, double hi);
Generator<bool> RandomBool();
// Always `value`.
template <typename T>
Generator<T> Constant(T value) {
  return {[value](Rng&) { return value; }, 1};
}
// One of the values, uniformly.
template <typename T>
Generator<T> OneOf(std::vector<T> values) {
  const double n = static_cast<double>(values.size());
  return {[values](Rng& rng) { return values[rng() % values.size()]; }, n};
}
// One of the generators, weighted by their sizes.
template <typename T>
Generator<T> OneOf(std::initializer_list<Generator<T>> generators) {
  Generator<T> result = *generators.begin();
  for (auto it = generators.begin() + 1; it != generators.end(); ++it) result = result | *it;
  return result;
}
// Nothing: an absent optional argument.
template <typename T>
Generator<std::optional<T>> Nothing() {
  return {[](Rng&) { return std::optional<T>(); }, 1};
}

// Dtype groups for RandomDType, combinable with |.
enum DTypeGroup : uint32_t {
  kBoolGroup = 1,
  kUnsigned = 2,  // uint8, uint16, uint32, uint64
  kSigned = 4,    // int8 ... int64
  kHalf = 8,      // float16
  kBFloat16 = 16,
  kFloat = 32,    // float32, float64
  kComplex = 64,  // complex32, complex64, complex128
  kFloat8 = 128,  // float8_e4m3fn, float8_e5m2
  kFloating = kHalf | kBFloat16 | kFloat | kFloat8,
  kIntegral = kUnsigned | kSigned,
  kAllDTypes = 255,
};
// One of libtorch's dtypes (testing::TorchDTypes) within the groups, uniformly.
Generator<DType> RandomDType(uint32_t groups = kAllDTypes);

// Where tensors live. The frontend's kernels are CPU-only, so this draws
// the CPU; it is here so tests say where they may run.
enum class DeviceKind { kCpu, kCuda };
Generator<DeviceKind> RandomDevice();

// Shapes of rank in [min_rank, max_rank], extents in [1, max_extent].
Generator<Shape> RandomShape(int min_rank, int max_rank, int64_t max_extent);
// A shape that broadcasts with `shape`: a suffix of it with some extents
// replaced by 1.
Shape BroadcastPartner(const Shape& shape, Rng& rng);

// Python scalars of a kind.
enum class ScalarKind { kBool, kInt, kFloat, kComplex, kAny };
Generator<Operand> RandomScalar(ScalarKind kind);

// One operand of a case: a tensor (dtype, shape, possibly a transposed
// non-contiguous view, values drawn from its own seed) or a Python scalar.
struct OperandSpec {
  bool is_scalar = false;
  Operand scalar = Operand::PyBool(false);
  DType dtype = DType::kFloat32;
  Shape shape;
  bool transposed = false;  // a view of the transposed buffer (rank >= 2)
  uint64_t value_seed = 0;
  bool special_values = false;  // FilledTensor's
  // "int8[3, 4]", "float32[4, 3].t()", "Python 1.5".
  std::string Describe() const;
};

// Operand lists for an op.
using OperandsGenerator = Generator<std::vector<OperandSpec>>;

// Tensor operand specs: `dtypes` x shapes, sometimes transposed, sometimes
// 0-d; and Python scalars.
Generator<OperandSpec> TensorOperand(const Generator<DType>& dtypes,
                                     const Generator<Shape>& shapes);
Generator<OperandSpec> ScalarOperand(const Generator<Operand>& scalars);
// Lists of 1, 2 or 3 operands whose tensor shapes broadcast together (later
// operands are broadcast partners of the first tensor's shape).
OperandsGenerator Operands(std::vector<Generator<OperandSpec>> slots);

// A contiguous tensor of `shape` with values drawn from `seed` (small
// nonzero numbers; see tests/test_tensors.h).
using testing::FilledTensor;

// The tensors a spec stands for, filled with the same values on both sides
// (small nonzero numbers; bools and uint8 mixed).
Tensor MakeTensor(const OperandSpec& spec);
at::Tensor MakeTorchTensor(const OperandSpec& spec);

struct AutoTestConfig {
  ops::Op op = ops::Op::kAdd;
  int cases = 100;     // cases that must be compared (both sides ran)
  int loop_limit = 0;  // most draws in all (0: 20x cases); both-rejected draws are skipped
  uint64_t seed = 1;
  std::string name;  // for reproducer file names (default: the op's name)
};

struct AutoTestResult {
  int compared = 0;             // cases run on both sides and compared
  int skipped = 0;              // cases both sides rejected
  int torch_lacks_kernel = 0;   // cases libtorch has no CPU kernel for and the library computes
  int torch_special_cases = 0;  // TorchSpecialCasesScalarPow
  int failed = 0;
  std::string first_failure;  // the diagnosis and reproducers of the first failure
};

// Runs config.cases cases. On the first mismatch it prints the reproducers
// to stderr, writes them to $TEST_UNDECLARED_OUTPUTS_DIR (or /tmp) as
// <name>_seed<S>.cc and .py, and stops. The environment variable
// ONEFLOW_PROMOTE_AUTOTEST_CASES overrides `cases` (a soak run), and
// ONEFLOW_PROMOTE_AUTOTEST_SEED the seed.
AutoTestResult RunAutoTest(const AutoTestConfig& config, const OperandsGenerator& operands);

// The two reproducers for a case.
std::string CppReproducer(ops::Op op, const std::vector<OperandSpec>& operands, DType default_dtype,
                          uint64_t seed, const std::string& diagnosis);
std::string PythonReproducer(ops::Op op, const std::vector<OperandSpec>& operands,
                             DType default_dtype, uint64_t seed);

}  // namespace oneflow_promote::autotest

#endif  // ONEFLOW_PROMOTE_TESTS_AUTOTEST_AUTOTEST_H_
