#include "controller/parallel_calls.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace kcm::controller {
namespace {

using namespace std::chrono_literals;

// Every index is called once, whatever the parallelism, and run() returns
// only after the last call returned.
TEST(ParallelCalls, CallsEveryIndexOnceAndWaitsForAll) {
  for (const int parallelism : {0, 1, 3, 16}) {
    ParallelCalls calls(parallelism);
    for (const std::size_t n : {0u, 1u, 2u, 7u, 100u}) {
      std::vector<std::atomic<int>> seen(n);
      std::atomic<std::size_t> returned{0};
      calls.run(n, [&](std::size_t i) {
        std::this_thread::sleep_for(100us);
        seen[i].fetch_add(1);
        returned.fetch_add(1);
      });
      EXPECT_EQ(returned.load(), n) << "parallelism " << parallelism << " n " << n;
      for (std::size_t i = 0; i < n; ++i)
        EXPECT_EQ(seen[i].load(), 1) << "parallelism " << parallelism << " index " << i;
    }
  }
}

// The calls of one run overlap up to the parallelism, never beyond it.
TEST(ParallelCalls, RunsUpToParallelismCallsAtOnce) {
  ParallelCalls calls(4);
  std::atomic<int> running{0};
  std::atomic<int> most{0};
  calls.run(12, [&](std::size_t) {
    const int now = running.fetch_add(1) + 1;
    for (int m = most.load(); now > m && !most.compare_exchange_weak(m, now);) {
    }
    std::this_thread::sleep_for(20ms);
    running.fetch_sub(1);
  });
  EXPECT_EQ(most.load(), 4);
}

// Parallelism 1 (or less) runs on the caller's thread.
TEST(ParallelCalls, SequentialRunsOnTheCallersThread) {
  ParallelCalls calls(1);
  const std::thread::id me = std::this_thread::get_id();
  int others = 0;
  calls.run(5, [&](std::size_t) { others += std::this_thread::get_id() != me ? 1 : 0; });
  EXPECT_EQ(others, 0);
}

// Several callers at once share the threads and all complete.
TEST(ParallelCalls, ConcurrentRunsAllComplete) {
  ParallelCalls calls(3);
  std::atomic<int> total{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 6; ++c) {
    callers.emplace_back([&] {
      for (int r = 0; r < 20; ++r)
        calls.run(5, [&](std::size_t) { total.fetch_add(1); });
    });
  }
  for (auto& t : callers)
    t.join();
  EXPECT_EQ(total.load(), 6 * 20 * 5);
}

}  // namespace
}  // namespace kcm::controller
