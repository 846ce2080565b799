#include "workqueue/clock.h"

namespace kcm::workqueue {

TimePoint saturating_add(TimePoint now, Duration d) {
  if (d.count() > 0 && now > TimePoint::max() - d) return TimePoint::max();
  if (d.count() < 0 && now < TimePoint::min() - d) return TimePoint::min();
  return now + d;
}

ClockSubscription& ClockSubscription::operator=(ClockSubscription&& other) noexcept {
  if (this != &other) {
    reset();
    cancel_ = std::move(other.cancel_);
    other.cancel_ = nullptr;
  }
  return *this;
}

void ClockSubscription::reset() {
  if (cancel_) {
    auto cancel = std::move(cancel_);
    cancel_ = nullptr;
    cancel();
  }
}

void RealClock::wait_until(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                           TimePoint deadline) const {
  if (deadline == TimePoint::max()) {
    cv.wait(lock);
  } else {
    cv.wait_until(lock, deadline);
  }
}

std::shared_ptr<Clock> real_clock() {
  static const std::shared_ptr<Clock> clock = std::make_shared<RealClock>();
  return clock;
}

FakeClock::FakeClock(TimePoint start) : now_ns_(start.time_since_epoch().count()) {}

TimePoint FakeClock::now() const {
  return TimePoint(Duration(now_ns_.load()));
}

void FakeClock::wait_until(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                           TimePoint deadline) const {
  // A step between this check and the wait cannot be missed: its wake
  // callback needs the caller's lock, which cv.wait releases atomically.
  if (now() >= deadline) return;
  ++waiters_;
  cv.wait(lock);
  --waiters_;
}

ClockSubscription FakeClock::subscribe(std::function<void()> wake) {
  std::lock_guard lock(subscribers_mu_);
  const std::uint64_t id = next_id_++;
  subscribers_.emplace(id, std::move(wake));
  return ClockSubscription([this, id] {
    std::lock_guard lock(subscribers_mu_);
    subscribers_.erase(id);
  });
}

void FakeClock::step(Duration d) {
  now_ns_.fetch_add(d.count());
  wake_all();
}

void FakeClock::set_time(TimePoint t) {
  now_ns_.store(t.time_since_epoch().count());
  wake_all();
}

void FakeClock::wake_all() {
  // Held while calling out so a subscription cannot be cancelled (and its
  // owner destroyed) under a running callback.
  std::lock_guard lock(subscribers_mu_);
  for (const auto& [id, wake] : subscribers_)
    wake();
}

}  // namespace kcm::workqueue
