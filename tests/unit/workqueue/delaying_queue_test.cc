#include "workqueue/delaying_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "eventually.h"
#include "workqueue/clock.h"

namespace kcm::workqueue {
namespace {

using namespace std::chrono_literals;
using test_support::eventually;

struct DelayingFixture {
  std::shared_ptr<FakeClock> clock = std::make_shared<FakeClock>();
  DelayingQueue<std::string> q{QueueConfig{.clock = clock}};

  // The waiter thread has seen the latest step and parked again.
  void settle() {
    ASSERT_TRUE(eventually([&] { return clock->waiters() > 0; }));
  }
};

TEST(DelayingQueueTest, Simple) {
  DelayingFixture f;
  f.q.add_after("foo", 50ms);
  EXPECT_EQ(f.q.waiting_len(), 1u);
  EXPECT_EQ(f.q.len(), 0u);

  f.clock->step(60ms);
  ASSERT_TRUE(eventually([&] { return f.q.len() == 1; }));
  EXPECT_EQ(f.q.waiting_len(), 0u);
  const auto item = f.q.get();
  ASSERT_TRUE(item);
  EXPECT_EQ(*item, "foo");
  f.q.done(*item);

  // Step past the next heartbeat: nothing else appears.
  f.clock->step(10s);
  f.settle();
  std::this_thread::sleep_for(30ms);
  EXPECT_EQ(f.q.len(), 0u);
}

TEST(DelayingQueueTest, NotReadyBeforeItsTime) {
  DelayingFixture f;
  f.q.add_after("foo", 50ms);
  f.clock->step(49ms);
  f.settle();
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(f.q.len(), 0u);
  f.clock->step(1ms);  // exactly ready
  EXPECT_TRUE(eventually([&] { return f.q.len() == 1; }));
}

TEST(DelayingQueueTest, Deduping) {
  DelayingFixture f;
  const TimePoint start = f.clock->now();
  f.q.add_after("foo", 50ms);
  f.q.add_after("foo", 70ms);  // later: ignored
  EXPECT_EQ(f.q.waiting_len(), 1u);
  EXPECT_EQ(f.q.ready_at("foo"), start + 50ms);
  EXPECT_EQ(f.q.len(), 0u);

  f.clock->step(60ms);
  ASSERT_TRUE(eventually([&] { return f.q.len() == 1; }));
  EXPECT_EQ(f.q.waiting_len(), 0u);
  auto item = f.q.get();
  f.q.done(*item);

  // Past the second add's time: it was merged, nothing more comes.
  f.clock->step(20ms);
  f.settle();
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(f.q.len(), 0u);

  // Now the earlier one overrides.
  const TimePoint t1 = f.clock->now();
  f.q.add_after("foo", 50ms);
  f.q.add_after("foo", 30ms);
  EXPECT_EQ(f.q.waiting_len(), 1u);
  EXPECT_EQ(f.q.ready_at("foo"), t1 + 30ms);
  EXPECT_EQ(f.q.len(), 0u);

  f.clock->step(40ms);
  ASSERT_TRUE(eventually([&] { return f.q.len() == 1; }));
  EXPECT_EQ(f.q.waiting_len(), 0u);
  item = f.q.get();
  f.q.done(*item);

  f.clock->step(20ms);
  f.settle();
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(f.q.len(), 0u);
}

TEST(DelayingQueueTest, AddTwoFireEarly) {
  DelayingFixture f;
  f.q.add_after("foo", 1s);
  f.q.add_after("bar", 50ms);
  EXPECT_EQ(f.q.waiting_len(), 2u);
  EXPECT_EQ(f.q.len(), 0u);

  f.clock->step(60ms);
  ASSERT_TRUE(eventually([&] { return f.q.len() == 1; }));
  EXPECT_EQ(f.q.waiting_len(), 1u);
  EXPECT_EQ(*f.q.get(), "bar");

  f.q.add_after("baz", 2s);
  f.clock->step(1s);
  ASSERT_TRUE(eventually([&] { return f.q.len() == 1; }));
  EXPECT_EQ(f.q.waiting_len(), 1u);
  EXPECT_EQ(*f.q.get(), "foo");

  f.clock->step(2s);
  ASSERT_TRUE(eventually([&] { return f.q.len() == 1; }));
  EXPECT_EQ(f.q.waiting_len(), 0u);
  EXPECT_EQ(*f.q.get(), "baz");
}

TEST(DelayingQueueTest, CopyShifting) {
  DelayingFixture f;
  f.q.add_after("foo", 1s);
  f.q.add_after("bar", 500ms);
  f.q.add_after("baz", 250ms);
  EXPECT_EQ(f.q.waiting_len(), 3u);
  EXPECT_EQ(f.q.len(), 0u);

  f.clock->step(2s);
  ASSERT_TRUE(eventually([&] { return f.q.len() == 3; }));
  EXPECT_EQ(f.q.waiting_len(), 0u);
  EXPECT_EQ(*f.q.get(), "baz");
  EXPECT_EQ(*f.q.get(), "bar");
  EXPECT_EQ(*f.q.get(), "foo");
}

TEST(DelayingQueueTest, NonPositiveDelayAddsAtOnce) {
  DelayingFixture f;
  f.q.add_after("zero", 0ns);
  f.q.add_after("negative", -5s);
  EXPECT_EQ(f.q.len(), 2u);
  EXPECT_EQ(f.q.waiting_len(), 0u);
}

TEST(DelayingQueueTest, HugeDelaySaturates) {
  DelayingFixture f;
  f.q.add_after("later", Duration::max());
  EXPECT_EQ(f.q.ready_at("later"), TimePoint::max());
  f.clock->step(24h * 365);
  f.settle();
  EXPECT_EQ(f.q.len(), 0u);
}

TEST(DelayingQueueTest, AddAfterWhileProcessingRequeuesOnceAfterDone) {
  DelayingFixture f;
  f.q.add("k");
  const auto item = f.q.get();
  f.q.add_after("k", 10ms);
  f.clock->step(10ms);
  f.settle();
  std::this_thread::sleep_for(10ms);
  EXPECT_EQ(f.q.len(), 0u);  // dirty, but held back until done
  f.q.done(*item);
  EXPECT_EQ(f.q.len(), 1u);
}

TEST(DelayingQueueTest, ShutdownDropsWaitingAndLaterAdds) {
  DelayingFixture f;
  f.q.add_after("waiting", 1s);
  f.q.shut_down();
  f.q.add_after("late", 1ms);
  f.q.add_after("now", 0ns);
  f.clock->step(2s);
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(f.q.len(), 0u);
  EXPECT_FALSE(f.q.get().has_value());
}

TEST(DelayingQueueTest, ShutDownWithDrainStopsTheWaiter) {
  DelayingFixture f;
  f.q.add_after("waiting", 1s);
  f.q.add("x");
  const auto item = f.q.get();
  std::thread drainer([&] { f.q.shut_down_with_drain(); });
  while (!f.q.shutting_down())
    std::this_thread::yield();
  f.q.done(*item);
  drainer.join();
  EXPECT_FALSE(f.q.get().has_value());
}

TEST(DelayingQueueTest, RealClock) {
  DelayingQueue<std::string> q;
  const auto start = std::chrono::steady_clock::now();
  q.add_after("real", 20ms);
  const auto item = q.get();
  ASSERT_TRUE(item);
  EXPECT_EQ(*item, "real");
  EXPECT_GE(std::chrono::steady_clock::now() - start, 20ms);
  q.done(*item);
}

TEST(DelayingQueueTest, DestroyWithoutShutdown) {
  auto clock = std::make_shared<FakeClock>();
  {
    DelayingQueue<std::string> q(QueueConfig{.clock = clock});
    q.add_after("x", 1h);
  }
  {
    DelayingQueue<std::string> q;
    q.add_after("x", 1h);
  }
}

TEST(DelayingQueueTest, ConcurrentAddAfterAndWorkers) {
  DelayingFixture f;
  constexpr int kItems = 200;
  std::atomic<int> processed{0};
  std::vector<std::thread> workers;
  for (int w = 0; w < 4; ++w) {
    workers.emplace_back([&] {
      while (auto item = f.q.get()) {
        ++processed;
        f.q.done(*item);
      }
    });
  }
  std::vector<std::thread> producers;
  for (int p = 0; p < 4; ++p) {
    producers.emplace_back([&, p] {
      for (int i = p; i < kItems; i += 4) {
        f.q.add_after("item-" + std::to_string(i), std::chrono::milliseconds(1 + i % 50));
      }
    });
  }
  for (auto& t : producers)
    t.join();
  EXPECT_EQ(f.q.waiting_len(), static_cast<std::size_t>(kItems));
  f.clock->step(100ms);
  ASSERT_TRUE(eventually([&] { return processed.load() == kItems; }));
  f.q.shut_down();
  for (auto& t : workers)
    t.join();
}

}  // namespace
}  // namespace kcm::workqueue
