#include "workqueue/rate_limiting_queue.h"

#include <gtest/gtest.h>

#include <string>

#include "eventually.h"
#include "workqueue/clock.h"
#include "workqueue/rate_limiters.h"

namespace kcm::workqueue {
namespace {

using namespace std::chrono_literals;
using test_support::eventually;

TEST(RateLimitingQueueTest, DelaysFollowTheLimiter) {
  auto clock = std::make_shared<FakeClock>();
  RateLimitingQueue<std::string> queue(
      std::make_shared<ItemExponentialFailureRateLimiter<std::string>>(1ms, 1s),
      QueueConfig{.clock = clock});
  const auto delay_of = [&](const std::string& item) {
    return *queue.ready_at(item) - clock->now();
  };

  queue.add_rate_limited("one");
  EXPECT_EQ(delay_of("one"), 1ms);
  queue.add_rate_limited("one");  // 2ms later than now: the earlier 1ms entry stays
  EXPECT_EQ(delay_of("one"), 1ms);
  EXPECT_EQ(queue.num_requeues("one"), 2);

  queue.add_rate_limited("two");
  EXPECT_EQ(delay_of("two"), 1ms);
  clock->step(1ms);
  ASSERT_TRUE(eventually([&] { return queue.len() == 2; }));
  queue.add_rate_limited("two");
  EXPECT_EQ(delay_of("two"), 2ms);

  queue.forget("one");
  EXPECT_EQ(queue.num_requeues("one"), 0);
  queue.add_rate_limited("one");
  // "one" is queued already (dirty), so nothing waits for it... but the
  // delaying queue still records the wait, as upstream does.
  EXPECT_EQ(delay_of("one"), 1ms);
}

TEST(RateLimitingQueueTest, ControllerWorkerLoop) {
  auto clock = std::make_shared<FakeClock>();
  RateLimitingQueue<std::string> queue(default_controller_rate_limiter<std::string>(clock),
                                       QueueConfig{.clock = clock});
  queue.add("ns/a");
  // Fail twice, then succeed: the usual sync loop.
  for (int attempt = 0; attempt < 3; ++attempt) {
    ASSERT_TRUE(eventually([&] { return queue.len() == 1; })) << attempt;
    const auto key = queue.get();
    ASSERT_TRUE(key);
    if (attempt < 2) {
      queue.add_rate_limited(*key);
      EXPECT_EQ(queue.num_requeues(*key), attempt + 1);
    } else {
      queue.forget(*key);
    }
    queue.done(*key);
    clock->step(5ms * (1 << attempt));
  }
  EXPECT_EQ(queue.num_requeues("ns/a"), 0);
  queue.shut_down();
  EXPECT_FALSE(queue.get().has_value());
}

}  // namespace
}  // namespace kcm::workqueue
