// client-go's rate limiters: per-item exponential and fast/slow back-off, a
// token bucket shared by all items, the maximum of several, a cap on another,
// and the default controller rate limiter.
#pragma once

#include <cmath>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "workqueue/rate_limiter.h"
#include "workqueue/token_bucket.h"

namespace kcm::workqueue {

// base * 2^failures, capped at max_delay; each when() counts a failure.
template <class T>
class ItemExponentialFailureRateLimiter final : public RateLimiter<T> {
 public:
  ItemExponentialFailureRateLimiter(Duration base_delay, Duration max_delay)
      : base_delay_(base_delay), max_delay_(max_delay) {}

  Duration when(const T& item) override {
    std::lock_guard lock(mu_);
    const int exp = failures_[item]++;
    // Computed in floating point so it cannot overflow; anything past the
    // int64 range (upstream compares with MaxInt64) is the maximum.
    const double backoff = static_cast<double>(base_delay_.count()) * std::pow(2.0, exp);
    if (!(backoff < 9.2233720368547758e18)) return max_delay_;
    const Duration calculated(static_cast<Duration::rep>(backoff));
    return calculated > max_delay_ ? max_delay_ : calculated;
  }
  int num_requeues(const T& item) override {
    std::lock_guard lock(mu_);
    const auto it = failures_.find(item);
    return it == failures_.end() ? 0 : it->second;
  }
  void forget(const T& item) override {
    std::lock_guard lock(mu_);
    failures_.erase(item);
  }

 private:
  const Duration base_delay_;
  const Duration max_delay_;
  std::mutex mu_;
  std::unordered_map<T, int> failures_;
};

// fast_delay for the first max_fast_attempts failures, slow_delay after.
template <class T>
class ItemFastSlowRateLimiter final : public RateLimiter<T> {
 public:
  ItemFastSlowRateLimiter(Duration fast_delay, Duration slow_delay, int max_fast_attempts)
      : fast_delay_(fast_delay), slow_delay_(slow_delay), max_fast_attempts_(max_fast_attempts) {}

  Duration when(const T& item) override {
    std::lock_guard lock(mu_);
    const int failures = ++failures_[item];
    return failures <= max_fast_attempts_ ? fast_delay_ : slow_delay_;
  }
  int num_requeues(const T& item) override {
    std::lock_guard lock(mu_);
    const auto it = failures_.find(item);
    return it == failures_.end() ? 0 : it->second;
  }
  void forget(const T& item) override {
    std::lock_guard lock(mu_);
    failures_.erase(item);
  }

 private:
  const Duration fast_delay_;
  const Duration slow_delay_;
  const int max_fast_attempts_;
  std::mutex mu_;
  std::unordered_map<T, int> failures_;
};

// One token bucket for every item: the delay of the reserved token.
template <class T>
class BucketRateLimiter final : public RateLimiter<T> {
 public:
  explicit BucketRateLimiter(std::shared_ptr<TokenBucket> bucket) : bucket_(std::move(bucket)) {}
  Duration when(const T&) override { return bucket_->reserve(); }
  int num_requeues(const T&) override { return 0; }
  void forget(const T&) override {}

 private:
  const std::shared_ptr<TokenBucket> bucket_;
};

// The worst (longest) answer of several limiters; every limiter sees each call.
template <class T>
class MaxOfRateLimiter final : public RateLimiter<T> {
 public:
  explicit MaxOfRateLimiter(std::vector<std::shared_ptr<RateLimiter<T>>> limiters)
      : limiters_(std::move(limiters)) {}

  Duration when(const T& item) override {
    Duration ret = Duration::zero();
    for (const auto& limiter : limiters_)
      ret = std::max(ret, limiter->when(item));
    return ret;
  }
  int num_requeues(const T& item) override {
    int ret = 0;
    for (const auto& limiter : limiters_)
      ret = std::max(ret, limiter->num_requeues(item));
    return ret;
  }
  void forget(const T& item) override {
    for (const auto& limiter : limiters_)
      limiter->forget(item);
  }

 private:
  const std::vector<std::shared_ptr<RateLimiter<T>>> limiters_;
};

// Another limiter's answer, capped at max_delay.
template <class T>
class WithMaxWaitRateLimiter final : public RateLimiter<T> {
 public:
  WithMaxWaitRateLimiter(std::shared_ptr<RateLimiter<T>> limiter, Duration max_delay)
      : limiter_(std::move(limiter)), max_delay_(max_delay) {}
  Duration when(const T& item) override { return std::min(limiter_->when(item), max_delay_); }
  int num_requeues(const T& item) override { return limiter_->num_requeues(item); }
  void forget(const T& item) override { limiter_->forget(item); }

 private:
  const std::shared_ptr<RateLimiter<T>> limiter_;
  const Duration max_delay_;
};

// Per item 5ms * 2^failures up to 1000s, and overall 10 qps with a burst of
// 100, whichever is longer (client-go's DefaultControllerRateLimiter).
template <class T>
std::shared_ptr<RateLimiter<T>> default_controller_rate_limiter(
    std::shared_ptr<Clock> clock = nullptr) {
  using std::chrono::milliseconds;
  using std::chrono::seconds;
  return std::make_shared<MaxOfRateLimiter<T>>(std::vector<std::shared_ptr<RateLimiter<T>>>{
      std::make_shared<ItemExponentialFailureRateLimiter<T>>(milliseconds(5), seconds(1000)),
      std::make_shared<BucketRateLimiter<T>>(
          std::make_shared<TokenBucket>(10, 100, std::move(clock))),
  });
}

// Per item 1ms * 2^failures up to 1000s (client-go's DefaultItemBasedRateLimiter).
template <class T>
std::shared_ptr<RateLimiter<T>> default_item_based_rate_limiter() {
  return std::make_shared<ItemExponentialFailureRateLimiter<T>>(std::chrono::milliseconds(1),
                                                                std::chrono::seconds(1000));
}

extern template class ItemExponentialFailureRateLimiter<std::string>;
extern template class ItemFastSlowRateLimiter<std::string>;
extern template class BucketRateLimiter<std::string>;
extern template class MaxOfRateLimiter<std::string>;
extern template class WithMaxWaitRateLimiter<std::string>;

}  // namespace kcm::workqueue
