// TensorProcessor on libtorch's at::Tensor: a PyTorch frontend can take
// promotion and casts from this library. The promoted dtypes must equal
// libtorch's own result_type, the cast values libtorch's Tensor::to (on
// values where the two casts agree by definition), and an add built on the
// processor must equal at::add on the mixed inputs.

#include "functional/torch_tensor_traits.h"

#include <ATen/Parallel.h>
#include <ATen/ScalarOps.h>

#include <cstdio>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "tests/torch_oracle.h"

namespace oneflow_promote {
namespace {

using testing::TorchDTypes;

at::Tensor Values(DType dtype, std::vector<int64_t> shape) {
  return at::arange(1, 1 + c10::multiply_integers(shape), at::kDouble)
      .reshape(shape)
      .to(*ToTorchScalarType(dtype));
}

// Equal dtypes and values (compared as complex128: at::equal has no
// complex32 or float8 kernel in libtorch).
bool Same(const at::Tensor& a, const at::Tensor& b) {
  return a.scalar_type() == b.scalar_type() &&
         at::equal(a.to(at::kComplexDouble), b.to(at::kComplexDouble));
}

TEST(TorchTensorTraits, EveryRowOfTheMappingRoundTrips) {
  for (DType dtype : kAllDTypes) {
    const std::optional<at::ScalarType> torch = ToTorchScalarType(dtype);
    if (!torch.has_value()) continue;
    EXPECT_EQ(FromTorchScalarType(*torch), dtype) << Name(dtype);
    EXPECT_EQ(at::empty({1}, at::TensorOptions().dtype(*torch)).element_size(), ItemSize(dtype))
        << Name(dtype);
  }
  // PyTorch 2.15 has every dtype of the library: a new dtype needs its row.
  EXPECT_EQ(TorchDTypes().size(), static_cast<size_t>(kNumDTypes));
}

TEST(TorchTensorTraits, MatchesResultTypeAndToAndAdd) {
  int promoted = 0, refused = 0, added = 0;
  for (DType a : TorchDTypes()) {
    for (DType b : TorchDTypes()) {
      const at::Tensor x = Values(a, {2, 3});
      const at::Tensor y = Values(b, {3, 2}).t();  // non-contiguous
      TensorProcessor<at::Tensor> processor;
      const absl::Status status =
          processor.AddInputs({x, y}).PromoteInputsToCommonDtype(true).Apply();
      std::optional<at::ScalarType> common;
      try {
        common = at::result_type(x, y);
      } catch (const c10::Error& e) {
        // float8 with another dtype, uint16/32/64 with a non-float one.
        EXPECT_FALSE(status.ok()) << Name(a) << " " << Name(b) << ": libtorch raises ("
                                  << e.what_without_backtrace() << ")";
        ++refused;
        continue;
      }
      ASSERT_TRUE(status.ok()) << Name(a) << " " << Name(b) << ": " << status;
      ASSERT_EQ(ToTorchScalarType(processor.common_dtype()), common) << Name(a) << " " << Name(b);
      ++promoted;
      const auto inputs = processor.GetInputs();
      EXPECT_TRUE(Same(inputs[0], x.to(*common))) << Name(a) << " " << Name(b);
      EXPECT_TRUE(Same(inputs[1], y.to(*common))) << Name(a) << " " << Name(b);
      // An add on the processor's inputs equals at::add on the mixed ones,
      // or raises where that raises (libtorch has no CPU add for float8 or
      // uint16/32/64).
      at::Tensor expected;
      try {
        expected = at::add(x, y);
      } catch (const c10::Error&) {
        EXPECT_THROW(at::add(inputs[0], inputs[1]), c10::Error) << Name(a) << " " << Name(b);
        continue;
      }
      EXPECT_TRUE(at::allclose(at::add(inputs[0], inputs[1]).to(at::kComplexDouble),
                               expected.to(at::kComplexDouble)))
          << Name(a) << " " << Name(b);
      ++added;
    }
  }
  std::printf("%d pairs promoted (%d of them added), %d refused by both\n", promoted, added,
              refused);
  EXPECT_GT(added, 0);
}

// CurrentTorchContext hands large casts to libtorch's intra-op pool
// (at::parallel_for on two of its threads), with libtorch's Tensor::to
// values: here a strided int16 view cast to float32 as the processor
// promotes it.
TEST(TorchTensorTraits, LargeCastsRunOnLibtorchsPool) {
  const int torch_threads = at::get_num_threads();
  at::set_num_threads(2);
  const ExecutionContext torch_context = CurrentTorchContext(c10::Device(c10::kCPU));
  ASSERT_NE(torch_context.cpu_pool.run, nullptr);
  EXPECT_EQ(torch_context.cpu_threads, 2);
  // Forwards to libtorch's pool, counting the calls and the threads.
  struct CountedPool {
    HostParallelFor torch;
    int calls = 0;
    std::mutex mutex;
    std::set<std::thread::id> threads;
    HostParallelFor::Body body = nullptr;
    void* body_state = nullptr;
  } counted{torch_context.cpu_pool};
  ExecutionContext context = torch_context;
  context.cpu_pool = {
      [](void* state, int64_t n, int64_t grain, HostParallelFor::Body body, void* body_state) {
        auto* pool = static_cast<CountedPool*>(state);
        ++pool->calls;
        pool->body = body;
        pool->body_state = body_state;
        const HostParallelFor::Body counted_body = [](void* state, int64_t begin, int64_t end) {
          auto* pool = static_cast<CountedPool*>(state);
          {
            const std::lock_guard<std::mutex> lock(pool->mutex);
            pool->threads.insert(std::this_thread::get_id());
          }
          pool->body(pool->body_state, begin, end);
        };
        pool->torch.run(pool->torch.state, n, grain, counted_body, pool);
      },
      &counted};
  const at::Tensor x = at::randint(-30000, 30000, {1024, 2048}, at::kShort).t();
  const at::Tensor y = at::rand({2048, 1024});
  TensorProcessor<at::Tensor> processor(PromotionOptions{}, Policy::kTorch, context);
  ASSERT_TRUE(processor.AddInputs({x, y}).PromoteInputsToCommonDtype(true).Apply().ok());
  EXPECT_TRUE(Same(processor.GetInputs()[0], x.to(at::kFloat)));
  EXPECT_TRUE(processor.GetInputs()[1].is_same(y));
  EXPECT_EQ(counted.calls, 1);
  EXPECT_EQ(counted.threads.size(), 2u);
  at::set_num_threads(torch_threads);
}

TEST(TorchTensorTraits, SameDtypeIsNotCopied) {
  const at::Tensor x = Values(DType::kFloat32, {4});
  TensorProcessor<at::Tensor> processor;
  ASSERT_TRUE(processor.AddInputs({x, x}).PromoteInputsToCommonDtype(true).Apply().ok());
  EXPECT_TRUE(processor.GetInputs()[0].is_same(x));
}

TEST(TorchTensorTraits, WrappedNumbersAreScalarsToThePromotionRules) {
  const at::Tensor x = Values(DType::kInt8, {4});
  for (const at::Scalar& s : {at::Scalar(2.5), at::Scalar(int64_t{300}), at::Scalar(true),
                              at::Scalar(c10::complex<double>(1, 2))}) {
    const at::Tensor wrapped = at::native::wrapped_scalar_tensor(s);
    TensorProcessor<at::Tensor> processor;
    ASSERT_TRUE(processor.AddInputs({x, wrapped}).PromoteInputsToCommonDtype(true).Apply().ok());
    const at::ScalarType common = at::result_type(x, s);
    EXPECT_EQ(ToTorchScalarType(processor.common_dtype()), common);
    EXPECT_TRUE(Same(processor.GetInputs()[1], wrapped.to(common)));
  }
}

TEST(TorchTensorTraits, UnknownDtypesAreErrors) {
  const at::Tensor q = at::quantize_per_tensor(at::ones({2}), 0.1, 0, at::kQInt8);
  TensorProcessor<at::Tensor> processor;
  EXPECT_FALSE(processor.AddInputs({q, Values(DType::kFloat32, {2})})
                   .PromoteInputsToCommonDtype(true)
                   .Apply()
                   .ok());
}

}  // namespace
}  // namespace oneflow_promote
