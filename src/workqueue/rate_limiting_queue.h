// A delaying queue whose retries are paced by a rate limiter (client-go's
// rate-limiting queue). Remember forget(): otherwise failures are tracked
// forever.
#pragma once

#include <memory>
#include <string>

#include "workqueue/delaying_queue.h"
#include "workqueue/rate_limiter.h"

namespace kcm::workqueue {

template <class T>
class RateLimitingQueue : public DelayingQueue<T> {
 public:
  explicit RateLimitingQueue(std::shared_ptr<RateLimiter<T>> rate_limiter, QueueConfig config = {})
      : DelayingQueue<T>(std::move(config)), rate_limiter_(std::move(rate_limiter)) {}

  // add_after(item, rate_limiter.when(item)).
  void add_rate_limited(const T& item) { this->add_after(item, rate_limiter_->when(item)); }
  // Clears the limiter's record of item; done() is still needed.
  void forget(const T& item) { rate_limiter_->forget(item); }
  int num_requeues(const T& item) { return rate_limiter_->num_requeues(item); }

 private:
  const std::shared_ptr<RateLimiter<T>> rate_limiter_;
};

extern template class RateLimitingQueue<std::string>;

}  // namespace kcm::workqueue
