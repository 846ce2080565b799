#include "workqueue/rate_limiters.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "workqueue/clock.h"

namespace kcm::workqueue {
namespace {

using namespace std::chrono_literals;

// One step of a scripted run: call when(item) and expect a delay, or
// (with kNumRequeues / kForget) query or forget instead.
enum class Op { kWhen, kNumRequeues, kForget };
struct Step {
  Op op;
  std::string item;
  Duration want_delay = Duration::zero();
  int want_requeues = 0;
};

Step when(std::string item, Duration d) {
  return {Op::kWhen, std::move(item), d, 0};
}
Step requeues(std::string item, int n) {
  return {Op::kNumRequeues, std::move(item), {}, n};
}
Step forget(std::string item) {
  return {Op::kForget, std::move(item), {}, 0};
}

void run(RateLimiter<std::string>& limiter, const std::vector<Step>& steps) {
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    switch (s.op) {
      case Op::kWhen:
        EXPECT_EQ(limiter.when(s.item).count(), s.want_delay.count()) << "step " << i;
        break;
      case Op::kNumRequeues:
        EXPECT_EQ(limiter.num_requeues(s.item), s.want_requeues) << "step " << i;
        break;
      case Op::kForget:
        limiter.forget(s.item);
        break;
    }
  }
}

TEST(RateLimitersTest, ItemExponentialFailure) {
  ItemExponentialFailureRateLimiter<std::string> limiter(1ms, 1s);
  run(limiter, {when("one", 1ms), when("one", 2ms), when("one", 4ms), when("one", 8ms),
                when("one", 16ms), requeues("one", 5), when("two", 1ms), when("two", 2ms),
                requeues("two", 2), forget("one"), requeues("one", 0), when("one", 1ms)});
}

TEST(RateLimitersTest, ItemExponentialFailureOverflow) {
  ItemExponentialFailureRateLimiter<std::string> limiter(1ms, 1000s);
  for (int i = 0; i < 5; ++i)
    (void)limiter.when("one");
  EXPECT_EQ(limiter.when("one"), 32ms);
  for (int i = 0; i < 1000; ++i)
    (void)limiter.when("overflow1");
  EXPECT_EQ(limiter.when("overflow1"), 1000s);

  ItemExponentialFailureRateLimiter<std::string> hours(1min, 1000h);
  for (int i = 0; i < 2; ++i)
    (void)hours.when("two");
  EXPECT_EQ(hours.when("two"), 4min);
  for (int i = 0; i < 1000; ++i)
    (void)hours.when("overflow2");
  EXPECT_EQ(hours.when("overflow2"), 1000h);

  // 1ns * 2^63 is just past int64: the cap, never a wrapped value.
  ItemExponentialFailureRateLimiter<std::string> edge(1ns, Duration::max());
  for (int i = 0; i < 62; ++i)
    (void)edge.when("e");
  EXPECT_EQ(edge.when("e"), Duration(std::int64_t{1} << 62));
  EXPECT_EQ(edge.when("e"), Duration::max());
}

TEST(RateLimitersTest, DefaultItemBased) {
  auto limiter = default_item_based_rate_limiter<std::string>();
  run(*limiter, {when("a", 1ms), when("a", 2ms), requeues("a", 2)});
}

TEST(RateLimitersTest, ItemFastSlow) {
  ItemFastSlowRateLimiter<std::string> limiter(5ms, 10s, 3);
  run(limiter, {when("one", 5ms), when("one", 5ms), when("one", 5ms), when("one", 10s),
                when("one", 10s), requeues("one", 5), when("two", 5ms), when("two", 5ms),
                requeues("two", 2), forget("one"), requeues("one", 0), when("one", 5ms)});
}

TEST(RateLimitersTest, MaxOf) {
  MaxOfRateLimiter<std::string> limiter({
      std::make_shared<ItemFastSlowRateLimiter<std::string>>(5ms, 3s, 3),
      std::make_shared<ItemExponentialFailureRateLimiter<std::string>>(1ms, 1s),
  });
  run(limiter, {when("one", 5ms), when("one", 5ms), when("one", 5ms), when("one", 3s),
                when("one", 3s), requeues("one", 5), when("two", 5ms), when("two", 5ms),
                requeues("two", 2), forget("one"), requeues("one", 0), when("one", 5ms)});
}

// Upstream's test helper: base delay for `threshold` calls, then max.
class StepRateLimiter final : public RateLimiter<std::string> {
 public:
  StepRateLimiter(Duration base, Duration max, int threshold)
      : base_(base), max_(max), threshold_(threshold) {}
  Duration when(const std::string&) override { return ++count_ <= threshold_ ? base_ : max_; }
  int num_requeues(const std::string&) override { return 0; }
  void forget(const std::string&) override {}

 private:
  Duration base_, max_;
  int threshold_;
  int count_ = 0;
};

TEST(RateLimitersTest, WithMaxWait) {
  WithMaxWaitRateLimiter<std::string> limiter(std::make_shared<StepRateLimiter>(5ms, 1000s, 100),
                                              500s);
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(limiter.when(std::to_string(i)), 5ms) << i;
  for (int i = 100; i < 200; ++i)
    EXPECT_EQ(limiter.when(std::to_string(i)), 500s) << i;
}

TEST(TokenBucketTest, BurstThenPacedReservations) {
  auto clock = std::make_shared<FakeClock>();
  TokenBucket bucket(10, 100, clock);
  for (int i = 0; i < 100; ++i)
    ASSERT_EQ(bucket.reserve(), Duration::zero()) << i;
  EXPECT_EQ(bucket.reserve(), 100ms);
  EXPECT_EQ(bucket.reserve(), 200ms);
  EXPECT_EQ(bucket.reserve(), 300ms);
  EXPECT_DOUBLE_EQ(bucket.tokens(), -3);
  clock->step(1s);  // 10 tokens back: 7 available
  EXPECT_DOUBLE_EQ(bucket.tokens(), 7);
  for (int i = 0; i < 7; ++i)
    ASSERT_EQ(bucket.reserve(), Duration::zero()) << i;
  EXPECT_EQ(bucket.reserve(), 100ms);
  clock->step(1h);  // refills to the burst, no further
  EXPECT_DOUBLE_EQ(bucket.tokens(), 100);
}

TEST(TokenBucketTest, EdgeLimits) {
  auto clock = std::make_shared<FakeClock>();
  TokenBucket unlimited(TokenBucket::kInf, 0, clock);
  for (int i = 0; i < 1000; ++i)
    ASSERT_EQ(unlimited.reserve(), Duration::zero());
  TokenBucket no_burst(10, 0, clock);
  EXPECT_EQ(no_burst.reserve(), Duration::max());
  TokenBucket zero_rate(0, 2, clock);
  EXPECT_EQ(zero_rate.reserve(), Duration::zero());
  EXPECT_EQ(zero_rate.reserve(), Duration::zero());
  EXPECT_EQ(zero_rate.reserve(), Duration::max());
  clock->step(1h);
  EXPECT_EQ(zero_rate.reserve(), Duration::max());
}

TEST(RateLimitersTest, Bucket) {
  auto clock = std::make_shared<FakeClock>();
  BucketRateLimiter<std::string> limiter(std::make_shared<TokenBucket>(1, 1, clock));
  run(limiter, {when("a", 0ns), when("b", 1s), when("a", 2s), requeues("a", 0), forget("a")});
}

TEST(RateLimitersTest, DefaultController) {
  auto clock = std::make_shared<FakeClock>();
  auto limiter = default_controller_rate_limiter<std::string>(clock);
  // The first 100 distinct items only see the per-item 5ms.
  for (int i = 0; i < 100; ++i)
    ASSERT_EQ(limiter->when(std::to_string(i)), 5ms) << i;
  // Then the shared bucket (10 qps) dominates.
  EXPECT_EQ(limiter->when("new"), 100ms);
  EXPECT_EQ(limiter->when("new2"), 200ms);
  EXPECT_EQ(limiter->num_requeues("new"), 1);
  // The per-item back-off dominates for an item failing often.
  for (int i = 0; i < 14; ++i)
    (void)limiter->when("hot");
  EXPECT_EQ(limiter->when("hot"), Duration(5ms) * (1 << 14));
  EXPECT_EQ(limiter->num_requeues("hot"), 15);
  limiter->forget("hot");
  EXPECT_EQ(limiter->num_requeues("hot"), 0);
  clock->step(1h);
  EXPECT_EQ(limiter->when("hot"), 5ms);
}

}  // namespace
}  // namespace kcm::workqueue
