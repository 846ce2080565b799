#include "workqueue/queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "eventually.h"

namespace kcm::workqueue {
namespace {

using namespace std::chrono_literals;
using test_support::eventually;

// Records which items are being processed, failing on any overlap.
class InFlight {
 public:
  void begin(const std::string& item) {
    std::lock_guard lock(mu_);
    if (!items_.insert(item).second) ++overlaps_;
  }
  void end(const std::string& item) {
    std::lock_guard lock(mu_);
    items_.erase(item);
  }
  int overlaps() const {
    std::lock_guard lock(mu_);
    return overlaps_;
  }

 private:
  mutable std::mutex mu_;
  std::set<std::string> items_;
  int overlaps_ = 0;
};

enum class Shutdown { kShutDown, kWithDrain };

void shut(Queue<std::string>& q, Shutdown how) {
  if (how == Shutdown::kShutDown) {
    q.shut_down();
  } else {
    q.shut_down_with_drain();
  }
}

class QueueShutdownTest : public ::testing::TestWithParam<Shutdown> {};

TEST_P(QueueShutdownTest, Basic) {
  Queue<std::string> q;
  InFlight in_flight;
  std::atomic<int> after_shutdown{0};
  constexpr int kProducers = 50;
  std::vector<std::thread> producers;
  for (int i = 0; i < kProducers; ++i) {
    producers.emplace_back([&q, i] {
      for (int j = 0; j < 50; ++j) {
        q.add(std::to_string(i));
        std::this_thread::sleep_for(1ms);
      }
    });
  }
  std::vector<std::thread> consumers;
  for (int i = 0; i < 10; ++i) {
    consumers.emplace_back([&] {
      while (auto item = q.get()) {
        if (*item == "added after shutdown!") ++after_shutdown;
        in_flight.begin(*item);
        std::this_thread::sleep_for(3ms);
        in_flight.end(*item);
        q.done(*item);
      }
    });
  }
  for (auto& t : producers)
    t.join();
  shut(q, GetParam());
  q.add("added after shutdown!");
  for (auto& t : consumers)
    t.join();
  EXPECT_EQ(q.len(), 0u);
  EXPECT_EQ(after_shutdown.load(), 0);
  EXPECT_EQ(in_flight.overlaps(), 0);
}

TEST_P(QueueShutdownTest, AddWhileProcessing) {
  Queue<std::string> q;
  InFlight in_flight;
  std::vector<std::thread> producers;
  for (int i = 0; i < 50; ++i)
    producers.emplace_back([&q, i] { q.add(std::to_string(i)); });
  std::mutex counts_mu;
  std::map<std::string, int> processed;
  std::vector<std::thread> consumers;
  for (int i = 0; i < 10; ++i) {
    consumers.emplace_back([&] {
      // Every worker re-adds each item it sees up to twice: the
      // dirty-while-processing path.
      std::map<std::string, int> counters;
      while (auto item = q.get()) {
        in_flight.begin(*item);
        if (++counters[*item] < 2) q.add(*item);
        {
          std::lock_guard lock(counts_mu);
          ++processed[*item];
        }
        in_flight.end(*item);
        q.done(*item);
      }
    });
  }
  for (auto& t : producers)
    t.join();
  // Let the re-adds happen before shutting down (upstream does not wait; we
  // do, to be able to assert every item ran at least twice).
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(counts_mu);
    if (processed.size() != 50) return false;
    for (const auto& [item, n] : processed) {
      if (n < 2) return false;
    }
    return true;
  }));
  shut(q, GetParam());
  for (auto& t : consumers)
    t.join();
  EXPECT_EQ(q.len(), 0u);
  EXPECT_EQ(in_flight.overlaps(), 0);
}

INSTANTIATE_TEST_SUITE_P(Both, QueueShutdownTest,
                         ::testing::Values(Shutdown::kShutDown, Shutdown::kWithDrain));

TEST(QueueTest, Len) {
  Queue<std::string> q;
  q.add("foo");
  EXPECT_EQ(q.len(), 1u);
  q.add("bar");
  EXPECT_EQ(q.len(), 2u);
  q.add("foo");  // already queued: no growth
  EXPECT_EQ(q.len(), 2u);
}

TEST(QueueTest, FifoOrder) {
  Queue<std::string> q;
  for (const char* s : {"c", "a", "b", "a"})
    q.add(s);
  EXPECT_EQ(*q.get(), "c");
  EXPECT_EQ(*q.get(), "a");
  EXPECT_EQ(*q.get(), "b");
  EXPECT_EQ(q.len(), 0u);
}

TEST(QueueTest, Reinsert) {
  Queue<std::string> q;
  q.add("foo");
  auto i = q.get();
  ASSERT_TRUE(i);
  EXPECT_EQ(*i, "foo");
  q.add(*i);  // back while processing: not queued yet
  EXPECT_EQ(q.len(), 0u);
  q.add(*i);  // and only once
  q.done(*i);
  EXPECT_EQ(q.len(), 1u);
  i = q.get();
  ASSERT_TRUE(i);
  EXPECT_EQ(*i, "foo");
  q.done(*i);
  EXPECT_EQ(q.len(), 0u);
}

TEST(QueueTest, ItemsQueuedBeforeShutdownAreStillHandedOut) {
  Queue<std::string> q;
  q.add("a");
  q.add("b");
  q.shut_down();
  EXPECT_TRUE(q.shutting_down());
  q.add("c");
  EXPECT_EQ(q.len(), 2u);
  EXPECT_EQ(*q.get(), "a");
  EXPECT_EQ(*q.get(), "b");
  EXPECT_FALSE(q.get().has_value());
  EXPECT_FALSE(q.get().has_value());
}

TEST(QueueTest, GetBlocksUntilAddOrShutdown) {
  Queue<std::string> q;
  std::atomic<int> got{0};
  std::thread worker([&] {
    while (auto item = q.get()) {
      ++got;
      q.done(*item);
    }
  });
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(got.load(), 0);
  q.add("x");
  EXPECT_TRUE(eventually([&] { return got.load() == 1; }));
  q.shut_down();
  worker.join();
}

TEST(QueueTest, DrainageUsingShutDownWithDrain) {
  Queue<std::string> q;
  q.add("foo");
  q.add("bar");
  const auto first = q.get();
  const auto second = q.get();
  std::atomic<bool> finished{false};
  std::thread drainer([&] {
    q.shut_down_with_drain();
    finished = true;
  });
  // Wait until the drain has started, as upstream does.
  while (q.get().has_value()) {
  }
  std::this_thread::sleep_for(20ms);
  EXPECT_FALSE(finished.load());  // two items are still being processed
  q.done(*first);
  std::this_thread::sleep_for(20ms);
  EXPECT_FALSE(finished.load());
  q.done(*second);
  drainer.join();
  EXPECT_TRUE(finished.load());
}

TEST(QueueTest, NoDrainageUsingShutDown) {
  Queue<std::string> q;
  q.add("foo");
  q.add("bar");
  (void)q.get();
  (void)q.get();
  // ShutDown returns at once although nothing was done().
  std::thread t([&] { q.shut_down(); });
  t.join();
  EXPECT_TRUE(q.shutting_down());
}

TEST(QueueTest, ForceShutdownUsingShutDownDuringDrain) {
  Queue<std::string> q;
  q.add("foo");
  q.add("bar");
  (void)q.get();
  (void)q.get();
  std::thread drainer([&] { q.shut_down_with_drain(); });
  while (q.get().has_value()) {
  }
  q.shut_down();  // e.g. a second SIGTERM: ends the drain
  drainer.join();
}

TEST(QueueTest, DrainageWithDirtyItem) {
  Queue<std::string> q;
  q.add("foo");
  const auto gotten = q.get();
  q.add("foo");
  std::thread drainer([&] { q.shut_down_with_drain(); });
  while (!q.shutting_down())
    std::this_thread::yield();
  EXPECT_EQ(q.len(), 0u);
  q.done(*gotten);
  // done() put the dirty item back: it is still handed out.
  const auto again = q.get();
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(*again, "foo");
  q.done(*again);
  EXPECT_FALSE(q.get().has_value());
  drainer.join();
}

TEST(QueueTest, DrainWithNothingInFlightReturnsAtOnce) {
  Queue<std::string> q;
  q.add("a");
  q.shut_down_with_drain();
  EXPECT_EQ(*q.get(), "a");
}

TEST(QueueTest, WorksWithOtherHashableTypes) {
  Queue<int> q;
  q.add(3);
  q.add(3);
  q.add(4);
  EXPECT_EQ(q.len(), 2u);
  EXPECT_EQ(*q.get(), 3);
}

// Many producers and workers over a small key space: no key is ever processed
// by two workers at once, and every add is followed by a processing start.
TEST(QueueTest, StressNoConcurrentProcessingAndNoLostAdds) {
  Queue<std::string> q;
  constexpr int kKeys = 16;
  constexpr int kProducers = 8;
  constexpr int kWorkers = 8;
  constexpr int kAddsPerProducer = 2000;
  InFlight in_flight;
  std::mutex stamps_mu;
  std::uint64_t seq = 0;
  std::map<std::string, std::uint64_t> last_add;
  std::map<std::string, std::uint64_t> last_start;
  std::atomic<int> processed{0};

  std::vector<std::thread> workers;
  for (int w = 0; w < kWorkers; ++w) {
    workers.emplace_back([&] {
      while (auto item = q.get()) {
        {
          std::lock_guard lock(stamps_mu);
          last_start[*item] = ++seq;
        }
        in_flight.begin(*item);
        std::this_thread::yield();
        in_flight.end(*item);
        ++processed;
        q.done(*item);
      }
    });
  }
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&, p] {
      for (int i = 0; i < kAddsPerProducer; ++i) {
        const std::string key = "ns/key-" + std::to_string((i * 7 + p) % kKeys);
        {
          std::lock_guard lock(stamps_mu);
          last_add[key] = ++seq;
        }
        q.add(key);
      }
    });
  }
  for (auto& t : producers)
    t.join();
  q.shut_down_with_drain();
  for (auto& t : workers)
    t.join();

  EXPECT_EQ(in_flight.overlaps(), 0);
  EXPECT_EQ(q.len(), 0u);
  EXPECT_GT(processed.load(), 0);
  ASSERT_EQ(last_add.size(), static_cast<std::size_t>(kKeys));
  for (const auto& [key, added] : last_add) {
    EXPECT_GT(last_start[key], added) << key << " was not processed after its last add";
  }
}

}  // namespace
}  // namespace kcm::workqueue
