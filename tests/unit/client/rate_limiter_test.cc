#include "client/rate_limiter.h"

#include <gtest/gtest.h>

#include "fake_clock.h"

namespace kcm::client {
namespace {

using namespace std::chrono_literals;
using std::chrono::nanoseconds;

TEST(TokenBucketTest, BurstThenRefillAtQps) {
  auto clock = std::make_shared<FakeClock>();
  TokenBucketRateLimiter limiter(1, 3, clock);
  EXPECT_TRUE(limiter.try_accept());
  EXPECT_TRUE(limiter.try_accept());
  EXPECT_TRUE(limiter.try_accept());
  EXPECT_FALSE(limiter.try_accept());
  clock->step(999ms);
  EXPECT_FALSE(limiter.try_accept());
  clock->step(1ms);
  EXPECT_TRUE(limiter.try_accept());
  EXPECT_FALSE(limiter.try_accept());
  // The bucket never holds more than burst.
  clock->step(1h);
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(limiter.try_accept()) << i;
  EXPECT_FALSE(limiter.try_accept());
}

TEST(TokenBucketTest, WaitReturnsHowLongItWaited) {
  auto clock = std::make_shared<FakeClock>();
  TokenBucketRateLimiter limiter(10, 2, clock);
  const nanoseconds want[] = {0ms, 0ms, 100ms, 100ms, 100ms};
  for (const auto& w : want) {
    auto waited = limiter.wait();
    ASSERT_TRUE(waited.ok()) << waited.error();
    EXPECT_EQ(*waited, w);
  }
  EXPECT_EQ(clock->slept().size(), 3u);
}

TEST(TokenBucketTest, FractionalQpsAndQueuedReservations) {
  auto clock = std::make_shared<FakeClock>();
  TokenBucketRateLimiter limiter(0.5f, 1, clock);
  EXPECT_EQ(*limiter.wait(), 0s);
  EXPECT_EQ(*limiter.wait(), 2s);
  // Reservations queue: a caller that takes the bucket below zero makes the
  // next one wait longer.
  EXPECT_FALSE(limiter.try_accept());
  clock->step(1s);
  EXPECT_EQ(*limiter.wait(), 1s);
}

TEST(TokenBucketTest, WaitErrors) {
  auto clock = std::make_shared<FakeClock>();
  TokenBucketRateLimiter no_burst(5, 0, clock);
  auto r = no_burst.wait();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "rate: Wait(n=1) exceeds limiter's burst 0");
  EXPECT_FALSE(no_burst.try_accept());

  TokenBucketRateLimiter limiter(1, 1, clock);
  ASSERT_TRUE(limiter.wait().ok());
  r = limiter.wait({}, clock->now() + 500ms);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "rate: Wait(n=1) would exceed context deadline");
  EXPECT_TRUE(limiter.wait({}, clock->now() + 1s).ok());  // exactly enough

  std::stop_source stop;
  stop.request_stop();
  r = limiter.wait(stop.get_token());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "context canceled");
}

TEST(TokenBucketTest, CanceledWaitGivesItsTokenBack) {
  auto clock = std::make_shared<FakeClock>();
  TokenBucketRateLimiter limiter(1, 1, clock);
  ASSERT_TRUE(limiter.wait().ok());
  clock->interrupt_next_sleep();
  auto r = limiter.wait();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "context canceled");
  clock->step(1s);
  EXPECT_TRUE(limiter.try_accept());  // without the give-back this would be false

  TokenBucketRateLimiter control(1, 1, clock);
  ASSERT_TRUE(control.wait().ok());
  ASSERT_TRUE(control.wait().ok());
  EXPECT_FALSE(control.try_accept());
}

TEST(TokenBucketTest, RealClockSleeps) {
  TokenBucketRateLimiter limiter(50, 1);
  ASSERT_TRUE(limiter.wait().ok());
  auto waited = limiter.wait();
  ASSERT_TRUE(waited.ok());
  EXPECT_GE(*waited, 10ms);
  EXPECT_LT(*waited, 2s);

  std::stop_source stop;
  std::thread stopper([&] {
    std::this_thread::sleep_for(20ms);
    stop.request_stop();
  });
  TokenBucketRateLimiter slow(0.01f, 1);
  ASSERT_TRUE(slow.wait().ok());
  auto r = slow.wait(stop.get_token());
  stopper.join();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "context canceled");
}

TEST(TokenBucketTest, MakeRateLimiterAppliesRestDefaults) {
  auto l = make_rate_limiter(0, 0);
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->qps(), 5);
  EXPECT_EQ(l->burst(), 10);
  l = make_rate_limiter(20, 30);
  EXPECT_EQ(l->qps(), 20);
  EXPECT_EQ(l->burst(), 30);
  EXPECT_EQ(make_rate_limiter(-1, 30), nullptr);
}

TEST(ThrottleMessageTest, FormatsLikeClientGo) {
  struct Case {
    nanoseconds latency;
    std::string retry_info;
    std::string want;
  };
  const Case cases[] = {
      {1200ms, "",
       "Waited for 1.2s due to client-side throttling, not priority and fairness, request: "
       "GET:https://10.0.0.1:6443/api/v1/pods?limit=500"},
      {nanoseconds(52'300'000), "",
       "Waited for 52.3ms due to client-side throttling, not priority and fairness, request: "
       "GET:https://10.0.0.1:6443/api/v1/pods?limit=500"},
      {nanoseconds(1'072'292'808), "",
       "Waited for 1.072292808s due to client-side throttling, not priority and fairness, request: "
       "GET:https://10.0.0.1:6443/api/v1/pods?limit=500"},
      {2s, "retries: 1, retry-after: 2s - retry-reason: 503",
       "Waited for 2s, retries: 1, retry-after: 2s - retry-reason: 503 - request: "
       "GET:https://10.0.0.1:6443/api/v1/pods?limit=500"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(throttle_message(c.latency, "GET", "https://10.0.0.1:6443/api/v1/pods?limit=500",
                               c.retry_info),
              c.want);
  }
  EXPECT_EQ(kLongThrottleLatency, 50ms);
  EXPECT_EQ(kExtraLongThrottleLatency, 1s);
}

TEST(ThrottledLoggerTest, LogsAtMostOncePerInterval) {
  auto clock = std::make_shared<FakeClock>();
  ThrottledLogger v0(clock);
  EXPECT_EQ(v0.attempt_to_log(0), 0);
  EXPECT_EQ(v0.attempt_to_log(0), std::nullopt);
  clock->step(9s);
  EXPECT_EQ(v0.attempt_to_log(0), std::nullopt);
  clock->step(1s);
  EXPECT_EQ(v0.attempt_to_log(0), 0);

  ThrottledLogger v2(clock);
  EXPECT_EQ(v2.attempt_to_log(4), 2);
  EXPECT_EQ(v2.attempt_to_log(4), std::nullopt);  // the V(2) setting decides alone
  clock->step(1s);
  EXPECT_EQ(v2.attempt_to_log(4), 2);
}

}  // namespace
}  // namespace kcm::client
