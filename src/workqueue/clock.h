// Time for the workqueue: a real clock, and a fake one tests step by hand
// (k8s.io/utils/clock and its testing.FakeClock).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

namespace kcm::workqueue {

using Duration = std::chrono::nanoseconds;  // Go's time.Duration
using TimePoint = std::chrono::steady_clock::time_point;

// now + d without overflowing (TimePoint::max() when it would).
TimePoint saturating_add(TimePoint now, Duration d);

// Keeps a Clock::subscribe callback registered until reset or destroyed.
class ClockSubscription {
 public:
  ClockSubscription() = default;
  explicit ClockSubscription(std::function<void()> cancel) : cancel_(std::move(cancel)) {}
  ClockSubscription(ClockSubscription&& other) noexcept : cancel_(std::move(other.cancel_)) {
    other.cancel_ = nullptr;
  }
  ClockSubscription& operator=(ClockSubscription&& other) noexcept;
  ClockSubscription(const ClockSubscription&) = delete;
  ClockSubscription& operator=(const ClockSubscription&) = delete;
  ~ClockSubscription() { reset(); }
  void reset();

 private:
  std::function<void()> cancel_;
};

class Clock {
 public:
  virtual ~Clock() = default;
  virtual TimePoint now() const = 0;
  // Blocks on cv (lock held on entry and exit) until cv is notified or this
  // clock reaches deadline; may return early (callers loop).
  virtual void wait_until(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                          TimePoint deadline) const = 0;
  // Calls wake after each jump of this clock's time, while the subscription
  // lives. Only clocks that jump (the fake one) ever call it; wake may take
  // the lock its owner passes to wait_until, so owners must not hold that lock
  // while resetting the subscription.
  virtual ClockSubscription subscribe(std::function<void()> wake) = 0;
};

class RealClock final : public Clock {
 public:
  TimePoint now() const override { return std::chrono::steady_clock::now(); }
  void wait_until(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                  TimePoint deadline) const override;
  ClockSubscription subscribe(std::function<void()>) override { return {}; }
};

// The process-wide real clock, the default wherever a clock is optional.
std::shared_ptr<Clock> real_clock();

// Time stands still until step() or set_time(); waiters wake on each change.
class FakeClock final : public Clock {
 public:
  explicit FakeClock(TimePoint start = TimePoint{} + std::chrono::hours(24));

  TimePoint now() const override;
  void wait_until(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                  TimePoint deadline) const override;
  ClockSubscription subscribe(std::function<void()> wake) override;

  void step(Duration d);
  void set_time(TimePoint t);
  // Threads currently blocked in wait_until (to know a loop is parked).
  int waiters() const { return waiters_.load(); }

 private:
  void wake_all();

  std::atomic<std::int64_t> now_ns_;  // lock-free so waiters may read it under their own lock
  mutable std::atomic<int> waiters_{0};
  std::mutex subscribers_mu_;
  std::uint64_t next_id_ = 0;
  std::map<std::uint64_t, std::function<void()>> subscribers_;
};

}  // namespace kcm::workqueue
