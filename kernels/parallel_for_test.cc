// Tests of ParallelFor: every index is visited exactly once, by chunks of at
// least the grain, whether calls follow each other while the pool's threads
// are still spinning or after they have gone to sleep, and when several
// threads call at once, and from inside fn; each thread starts on its own
// share; a forked child gets a working pool.

#include "kernels/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gtest/gtest.h"

namespace oneflow_promote::cast_internal {
namespace {

// Runs ParallelFor over [0, n) and checks that each index was visited once
// and that every chunk but the one ending at n was at least `grain` long.
void ExpectCoversOnce(int64_t n, int64_t grain, int max_threads) {
  std::vector<std::atomic<int>> visits(static_cast<size_t>(n));
  std::atomic<int> short_chunks{0};
  std::mutex mutex;
  std::set<std::thread::id> threads;
  ParallelFor(n, grain, max_threads, [&](int64_t begin, int64_t end) {
    ASSERT_LE(0, begin);
    ASSERT_LT(begin, end);
    ASSERT_LE(end, n);
    if (end - begin < grain && end != n) short_chunks.fetch_add(1);
    for (int64_t i = begin; i < end; ++i) visits[static_cast<size_t>(i)].fetch_add(1);
    std::lock_guard<std::mutex> lock(mutex);
    threads.insert(std::this_thread::get_id());
  });
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(visits[static_cast<size_t>(i)].load(), 1)
        << "index " << i << " of " << n << ", grain " << grain << ", threads " << max_threads;
  }
  EXPECT_EQ(short_chunks.load(), 0) << "n " << n << ", grain " << grain;
  const int allowed = max_threads > 0 ? max_threads : HardwareThreads();
  EXPECT_LE(static_cast<int>(threads.size()), allowed);
}

TEST(ParallelForTest, CoversEveryIndexOnceForManyShapes) {
  for (int max_threads : {0, 1, 2, 3}) {
    for (int64_t grain : {1, 7, 64, 1000}) {
      for (int64_t n : {0, 1, 2, 63, 64, 65, 999, 1000, 1001, 4096, 100003}) {
        ExpectCoversOnce(n, grain, max_threads);
      }
    }
  }
}

// Back-to-back calls find the workers still polling; calls after a pause
// find them asleep. Both must hand every chunk out exactly once.
TEST(ParallelForTest, CallsWhileWorkersSpinAndAfterTheySleep) {
  for (int round = 0; round < 2000; ++round) ExpectCoversOnce(4096, 16, 0);
  for (int round = 0; round < 20; ++round) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    ExpectCoversOnce(4096, 16, 0);
  }
}

// The caller's wait must see the workers' writes (the pool's release and
// acquire), and must not return before a slow worker is done.
TEST(ParallelForTest, ReturnsOnlyAfterSlowChunksFinish) {
  constexpr int64_t kN = 64;
  for (int round = 0; round < 50; ++round) {
    std::vector<int64_t> out(kN, -1);
    ParallelFor(kN, 1, 0, [&](int64_t begin, int64_t end) {
      if (begin % 3 == 0) std::this_thread::sleep_for(std::chrono::microseconds(300));
      for (int64_t i = begin; i < end; ++i) out[static_cast<size_t>(i)] = i * i;
    });
    for (int64_t i = 0; i < kN; ++i) ASSERT_EQ(out[static_cast<size_t>(i)], i * i);
  }
}

// Each thread's first chunk is the first of its own share: the caller's at
// 0, the other thread's halfway. Every thread waits in its first chunk
// until both have arrived, so neither can have finished its share and
// started on the other's before both have made their first claim.
TEST(ParallelForTest, EachThreadStartsOnItsOwnShare) {
  if (HardwareThreads() < 2) GTEST_SKIP() << "one hardware thread";
  constexpr int64_t kN = 1 << 20;
  for (int round = 0; round < 20; ++round) {
    std::mutex mutex;
    std::vector<std::pair<std::thread::id, int64_t>> first_begins;
    std::atomic<int> arrived{0};
    ParallelFor(kN, 1, 2, [&](int64_t begin, int64_t) {
      thread_local int last_round = -1;
      if (last_round == round) return;
      last_round = round;
      {
        std::lock_guard<std::mutex> lock(mutex);
        first_begins.emplace_back(std::this_thread::get_id(), begin);
      }
      arrived.fetch_add(1);
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (arrived.load() < 2 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::yield();
    });
    ASSERT_EQ(first_begins.size(), 2u) << "round " << round;
    for (const auto& [thread, begin] : first_begins) {
      if (thread == std::this_thread::get_id()) {
        EXPECT_EQ(begin, 0) << "round " << round;
      } else {
        EXPECT_EQ(begin, kN / 2) << "round " << round;
      }
    }
  }
}

// A ParallelFor inside fn, on the caller's thread or a worker's, runs on
// that thread alone and still covers its range once.
TEST(ParallelForTest, NestedCallsRunAlone) {
  constexpr int64_t kOuter = 64, kInner = 1000;
  std::vector<std::atomic<int>> visits(static_cast<size_t>(kOuter * kInner));
  std::atomic<int> nested_on_other_threads{0};
  ParallelFor(kOuter, 1, 0, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const std::thread::id outer_thread = std::this_thread::get_id();
      ParallelFor(kInner, 1, 0, [&](int64_t inner_begin, int64_t inner_end) {
        if (std::this_thread::get_id() != outer_thread) nested_on_other_threads.fetch_add(1);
        for (int64_t j = inner_begin; j < inner_end; ++j)
          visits[static_cast<size_t>(i * kInner + j)].fetch_add(1);
      });
    }
  });
  for (size_t k = 0; k < visits.size(); ++k) ASSERT_EQ(visits[k].load(), 1) << "index " << k;
  EXPECT_EQ(nested_on_other_threads.load(), 0);
}

// Callers on other threads while the pool is busy run on their own thread;
// either way each call covers its range once.
TEST(ParallelForTest, ConcurrentCallersEachCoverTheirRange) {
  std::vector<std::thread> callers;
  std::atomic<int> failures{0};
  for (int c = 0; c < 4; ++c) {
    callers.emplace_back([&, c] {
      for (int round = 0; round < 300; ++round) {
        const int64_t n = 1000 + 37 * c + round;
        std::vector<std::atomic<int>> visits(static_cast<size_t>(n));
        ParallelFor(n, 8, 0, [&](int64_t begin, int64_t end) {
          for (int64_t i = begin; i < end; ++i) visits[static_cast<size_t>(i)].fetch_add(1);
        });
        for (int64_t i = 0; i < n; ++i) {
          if (visits[static_cast<size_t>(i)].load() != 1) failures.fetch_add(1);
        }
      }
    });
  }
  for (std::thread& t : callers) t.join();
  EXPECT_EQ(failures.load(), 0);
}

// After threaded work, fork(): the child has none of the parent's workers,
// and a job handed to them would wait forever. The child's call must
// finish, cover its range, and run on two threads at once where the
// machine has two. Its own suite, since ThreadSanitizer refuses threads
// started after a multi-threaded fork.
TEST(ParallelForForkTest, ChildGetsAWorkingPool) {
  ExpectCoversOnce(1 << 16, 1, 0);
  const bool two_threads = HardwareThreads() >= 2;
  const pid_t child = fork();
  ASSERT_GE(child, 0) << "fork failed";
  if (child == 0) {
    std::atomic<int> arrived{0};
    std::atomic<int> visits{0};
    ParallelFor(2, 1, 2, [&](int64_t begin, int64_t end) {
      visits.fetch_add(static_cast<int>(end - begin));
      arrived.fetch_add(1);
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (arrived.load() < 2 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::yield();
      }
    });
    const bool together = arrived.load() == 2;
    _exit(visits.load() != 2 ? 1 : (two_threads && !together) ? 2 : 0);
  }
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      FAIL() << "the forked child's ParallelFor did not return within 60 s";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(WIFEXITED(status)) << "the child died, status " << status;
  EXPECT_NE(WEXITSTATUS(status), 1) << "the child's call did not cover [0, 2) once";
  EXPECT_NE(WEXITSTATUS(status), 2) << "the child's call ran its two chunks one after the other";
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace oneflow_promote::cast_internal
