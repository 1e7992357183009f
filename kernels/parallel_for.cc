// A small fork-join pool. A call splits [0, n) into chunks and gives each
// participating thread (the caller first, then the workers in a fixed
// order) a contiguous share of them; a thread that finishes its share takes
// chunks left in the others'. Between jobs, workers and the waiting caller
// spin for a while before sleeping on a condition variable
// (kSpinBeforeSleeping says why). A forked child gets a new pool: the
// parent's workers do not exist there (ForgetThePoolInTheChild).

#include "kernels/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#endif

namespace oneflow_promote::cast_internal {
namespace {

// How long an idle worker polls for the next job, and the caller for its
// workers, before sleeping. Waking a sleeping thread costs a futex call and,
// on a virtual machine, an interrupt to a halted vCPU, which made short
// two-thread casts far slower than libtorch's, whose OpenMP workers spin
// (docs/tuning.md, kSpinBeforeSleeping). Calls that follow each other
// within this window (a cast, then the operation it feeds) pay no wake-up;
// after it, an idle pool costs no processor time.
constexpr std::chrono::microseconds kSpinBeforeSleeping{200};

// Polls `done` until it returns true or kSpinBeforeSleeping has passed;
// returns its last answer.
template <typename Done>
bool SpinUntil(Done done) {
  const auto deadline = std::chrono::steady_clock::now() + kSpinBeforeSleeping;
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (done()) return true;
#if defined(__x86_64__) || defined(__i386__)
      _mm_pause();
#endif
    }
    if (std::chrono::steady_clock::now() >= deadline) return done();
  }
}

// Whether this thread is running a job's chunks.
thread_local bool t_in_job = false;

class Pool {
 public:
  Pool() : threads_(std::max(1u, std::thread::hardware_concurrency())), shares_(threads_) {
    for (int id = 1; id < threads_; ++id) workers_.emplace_back([this, id] { WorkerLoop(id); });
  }
  // Lives for the whole process; workers are detached at exit.
  ~Pool() {
    for (std::thread& t : workers_) t.detach();
  }

  int threads() const { return threads_; }

  void Run(int64_t n, int64_t chunk, int participants,
           absl::FunctionRef<void(int64_t, int64_t)> fn) {
    // A call from inside a job's fn runs alone: the pool is busy with the
    // job, and its caller holds run_mutex_, which it may not try to lock.
    if (t_in_job || participants <= 1) {
      fn(0, n);
      return;
    }
    std::unique_lock<std::mutex> busy(run_mutex_, std::try_to_lock);
    if (!busy.owns_lock()) {
      fn(0, n);
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      fn_ = &fn;
      n_ = n;
      chunk_ = chunk;
      participants_ = participants;
      const int64_t chunks = (n + chunk - 1) / chunk;
      for (int id = 0; id < participants; ++id) {
        shares_[id].next.store(chunks * id / participants, std::memory_order_relaxed);
        shares_[id].end = chunks * (id + 1) / participants;
      }
      pending_.store(participants - 1, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    Work(0);
    const auto finished = [this] { return pending_.load(std::memory_order_acquire) == 0; };
    if (!SpinUntil(finished)) {
      std::unique_lock<std::mutex> lock(mutex_);
      done_.wait(lock, finished);
    }
    fn_ = nullptr;
  }

 private:
  // The chunks a participant owns: [next, end) by chunk index.
  struct alignas(64) Share {
    std::atomic<int64_t> next{0};
    int64_t end = 0;
  };

  // Runs participant `id`'s own chunks in order, then whatever is left of
  // the others'. Owning a fixed share is what keeps a thread on the same
  // memory from call to call, as libtorch's static OpenMP split does, which
  // matters when a pass nearly fills the L3 (docs/tuning.md). Taking the
  // others' leftovers keeps a thread that was preempted from holding up the
  // call.
  void Work(int id) {
    t_in_job = true;
    for (int i = 0; i < participants_; ++i) {
      Share& share = shares_[(id + i) % participants_];
      for (;;) {
        const int64_t index = share.next.fetch_add(1, std::memory_order_relaxed);
        if (index >= share.end) break;
        const int64_t begin = index * chunk_;
        (*fn_)(begin, std::min(n_, begin + chunk_));
      }
    }
    t_in_job = false;
  }

  void WorkerLoop(int id) {
    uint64_t seen = 0;
    for (;;) {
      SpinUntil([&] { return generation_.load(std::memory_order_acquire) != seen; });
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return generation_.load(std::memory_order_relaxed) != seen; });
        seen = generation_.load(std::memory_order_relaxed);
        if (id >= participants_) continue;  // a job for fewer threads
      }
      Work(id);
      // The caller reads pending_ under mutex_ before it sleeps, so
      // notifying under the lock cannot slip between its check and its wait.
      if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard<std::mutex> lock(mutex_);
        done_.notify_one();
      }
    }
  }

  const int threads_;
  std::vector<Share> shares_;  // one per thread; job's entries set under mutex_
  std::vector<std::thread> workers_;
  std::mutex run_mutex_;  // one job at a time
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::atomic<uint64_t> generation_{0};
  std::atomic<int> pending_{0};  // workers still working on this job
  // The job, set under mutex_ before generation_ changes.
  const absl::FunctionRef<void(int64_t, int64_t)>* fn_ = nullptr;
  int64_t n_ = 0;
  int64_t chunk_ = 1;
  int participants_ = 0;
};

// The process's pool, made on first use and never destroyed (workers may
// outlive main); a forked child starts with none.
std::atomic<Pool*> g_pool{nullptr};
std::mutex g_pool_creation;

#if defined(__unix__) || defined(__APPLE__)
// fork() copies only the calling thread: in the child the pool's workers
// are gone and its locks may be held by threads that no longer exist, so a
// job would wait for them forever. The child forgets that pool (leaking it,
// as PyTorch's intra-op pool does) and makes a new one when first asked.
// Holding g_pool_creation across fork keeps a pool half made in another
// thread out of the child.
void LockPoolCreation() { g_pool_creation.lock(); }
void UnlockPoolCreation() { g_pool_creation.unlock(); }
void ForgetThePoolInTheChild() {
  g_pool.store(nullptr, std::memory_order_relaxed);
  t_in_job = false;  // fork() called from inside a job's fn
  g_pool_creation.unlock();
}
#endif

Pool& GetPool() {
  if (Pool* pool = g_pool.load(std::memory_order_acquire)) return *pool;
  std::lock_guard<std::mutex> lock(g_pool_creation);
  Pool* pool = g_pool.load(std::memory_order_relaxed);
  if (pool == nullptr) {
#if defined(__unix__) || defined(__APPLE__)
    static const bool registered = [] {
      return pthread_atfork(LockPoolCreation, UnlockPoolCreation, ForgetThePoolInTheChild) == 0;
    }();
    (void)registered;
#endif
    pool = new Pool();
    g_pool.store(pool, std::memory_order_release);
  }
  return *pool;
}

}  // namespace

int HardwareThreads() { return GetPool().threads(); }

// How many threads ParallelFor(n, grain, max_threads, ...) splits [0, n)
// among when the pool is free.
static int ParallelThreads(int64_t n, int64_t grain, int max_threads) {
  if (n <= 0) return 1;
  const int pool = GetPool().threads();
  const int threads = max_threads > 0 ? std::min(max_threads, pool) : pool;
  grain = std::max<int64_t>(grain, 1);
  return static_cast<int>(
      std::max<int64_t>(1, std::min<int64_t>(threads, (n + grain - 1) / grain)));
}

void ParallelFor(int64_t n, int64_t grain, int max_threads,
                 absl::FunctionRef<void(int64_t, int64_t)> fn) {
  if (n <= 0) return;
  const int threads = ParallelThreads(n, grain, max_threads);
  if (threads <= 1) {
    fn(0, n);
    return;
  }
  // Four chunks a thread, the unit a thread that finishes early takes from
  // another's share; each stays >= grain.
  grain = std::max<int64_t>(grain, 1);
  const int64_t chunk = std::max(grain, (n + 4 * threads - 1) / (4 * threads));
  GetPool().Run(n, chunk, threads, fn);
}

void ParallelFor(const Device& device, int64_t n, int64_t grain,
                 absl::FunctionRef<void(int64_t, int64_t)> fn) {
  const HostParallelFor& pool = device.cpu_pool;
  if (pool.run == nullptr) return ParallelFor(n, grain, device.cpu_threads, fn);
  if (n <= 0) return;
  // Work too small to split runs here, without a round trip through the host.
  if (n <= grain || device.cpu_threads == 1) return fn(0, n);
  const HostParallelFor::Body body = [](void* body_state, int64_t begin, int64_t end) {
    (*static_cast<absl::FunctionRef<void(int64_t, int64_t)>*>(body_state))(begin, end);
  };
  pool.run(pool.state, n, std::max<int64_t>(grain, 1), body, &fn);
}

}  // namespace oneflow_promote::cast_internal
