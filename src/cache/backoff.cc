#include "cache/backoff.h"

namespace kcm::cache {

Backoff::Backoff(Options options)
    : options_(options),
      rng_(std::random_device{}()),
      duration_(options.initial),
      last_start_(Clock::now()) {}

std::chrono::nanoseconds Backoff::next() {
  std::lock_guard lock(mu_);
  const auto now = Clock::now();
  if (now - last_start_ > options_.reset_after) {
    duration_ = options_.initial;
    capped_ = false;
  }
  last_start_ = now;
  const std::chrono::nanoseconds current = duration_;
  if (!capped_) {
    duration_ = std::chrono::nanoseconds(
        static_cast<std::int64_t>(static_cast<double>(duration_.count()) * options_.factor));
    if (options_.cap.count() > 0 && duration_ > options_.cap) {
      duration_ = options_.cap;
      capped_ = true;
    }
  }
  if (options_.jitter <= 0) return current;
  const double r = std::uniform_real_distribution<double>(0.0, 1.0)(rng_);
  return current + std::chrono::nanoseconds(static_cast<std::int64_t>(
                       r * options_.jitter * static_cast<double>(current.count())));
}

}  // namespace kcm::cache
