// A small fork-join pool: workers sleep on a condition variable, a call
// publishes a job and a generation number, and every participant claims
// chunks from an atomic counter until none are left.

#include "kernels/internal/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace oneflow_promote::cast_internal {
namespace {

class Pool {
 public:
  Pool() : threads_(std::max(1u, std::thread::hardware_concurrency())) {
    for (int i = 1; i < threads_; ++i) workers_.emplace_back([this] { WorkerLoop(); });
  }
  // Lives for the whole process; workers are detached at exit.
  ~Pool() {
    for (std::thread& t : workers_) t.detach();
  }

  int threads() const { return threads_; }

  void Run(int64_t n, int64_t chunk, int participants,
           absl::FunctionRef<void(int64_t, int64_t)> fn) {
    std::unique_lock<std::mutex> busy(run_mutex_, std::try_to_lock);
    if (!busy.owns_lock() || participants <= 1) {
      fn(0, n);
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      fn_ = &fn;
      n_ = n;
      chunk_ = chunk;
      next_.store(0, std::memory_order_relaxed);
      pending_ = participants - 1;
      invited_ = participants - 1;
      ++generation_;
    }
    wake_.notify_all();
    Work();
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
    fn_ = nullptr;
  }

 private:
  void Work() {
    for (;;) {
      const int64_t begin = next_.fetch_add(chunk_, std::memory_order_relaxed);
      if (begin >= n_) return;
      (*fn_)(begin, std::min(n_, begin + chunk_));
    }
  }

  void WorkerLoop() {
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return generation_ != seen && invited_ > 0; });
        seen = generation_;
        --invited_;
      }
      Work();
      std::lock_guard<std::mutex> lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }

  const int threads_;
  std::vector<std::thread> workers_;
  std::mutex run_mutex_;  // one job at a time
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  uint64_t generation_ = 0;
  int invited_ = 0;
  int pending_ = 0;
  const absl::FunctionRef<void(int64_t, int64_t)>* fn_ = nullptr;
  int64_t n_ = 0;
  int64_t chunk_ = 1;
  std::atomic<int64_t> next_{0};
};

Pool& GetPool() {
  static Pool* pool = new Pool();  // never destroyed: workers may outlive main
  return *pool;
}

}  // namespace

int HardwareThreads() { return GetPool().threads(); }

void ParallelFor(int64_t n, int64_t grain, int max_threads,
                 absl::FunctionRef<void(int64_t, int64_t)> fn) {
  if (n <= 0) return;
  Pool& pool = GetPool();
  grain = std::max<int64_t>(grain, 1);
  int threads = max_threads > 0 ? std::min(max_threads, pool.threads()) : pool.threads();
  threads = static_cast<int>(std::min<int64_t>(threads, (n + grain - 1) / grain));
  if (threads <= 1) {
    fn(0, n);
    return;
  }
  // A few chunks per thread balance uneven progress; each stays >= grain.
  const int64_t chunk = std::max(grain, (n + 4 * threads - 1) / (4 * threads));
  pool.Run(n, chunk, threads, fn);
}

}  // namespace oneflow_promote::cast_internal
