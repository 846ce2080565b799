#include "workqueue/token_bucket.h"

#include <cmath>

namespace kcm::workqueue {

TokenBucket::TokenBucket(double qps, int burst, std::shared_ptr<Clock> clock)
    : qps_(qps),
      clock_(clock ? std::move(clock) : real_clock()),
      burst_(burst),
      tokens_(burst),
      last_(clock_->now()) {}

double TokenBucket::advance(TimePoint now) const {
  TimePoint last = last_;
  if (now < last) last = now;
  const double elapsed = std::chrono::duration<double>(now - last).count();
  const double tokens = tokens_ + elapsed * qps_;
  return std::min(tokens, static_cast<double>(burst_));
}

Duration TokenBucket::reserve() {
  std::lock_guard lock(mu_);
  if (std::isinf(qps_) && qps_ > 0) return Duration::zero();
  if (qps_ <= 0) {
    // x/time/rate: a zero limit hands out the burst once and then nothing.
    if (burst_ >= 1) {
      --burst_;
      return Duration::zero();
    }
    return Duration::max();
  }
  const TimePoint now = clock_->now();
  const double tokens = advance(now) - 1;
  Duration wait = Duration::zero();
  if (tokens < 0) {
    const double ns = (-tokens / qps_) * 1e9;
    wait = ns >= 9.2233720368547758e18 ? Duration::max() : Duration(static_cast<Duration::rep>(ns));
  }
  if (burst_ < 1 || wait == Duration::max()) return Duration::max();  // never granted
  last_ = now;
  tokens_ = tokens;
  return wait;
}

double TokenBucket::tokens() const {
  std::lock_guard lock(mu_);
  if (qps_ <= 0 || std::isinf(qps_)) return tokens_;
  return advance(clock_->now());
}

}  // namespace kcm::workqueue
