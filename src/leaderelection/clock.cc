#include "leaderelection/clock.h"

#include <algorithm>

namespace kcm::leaderelection {
namespace {

class RealClock : public Clock {
 public:
  WallTime now() const override { return std::chrono::system_clock::now(); }
  MonoTime monotonic() const override { return std::chrono::steady_clock::now(); }
  bool sleep_for(std::chrono::nanoseconds d, std::stop_token stop) override {
    if (stop.stop_requested()) return false;
    if (d <= std::chrono::nanoseconds::zero()) return true;
    std::mutex mu;
    std::condition_variable_any cv;
    std::unique_lock lock(mu);
    // Only a stop request ends the wait early; the predicate never holds otherwise.
    cv.wait_for(lock, stop, d, [] { return false; });
    return !stop.stop_requested();
  }
};

}  // namespace

std::shared_ptr<Clock> real_clock() {
  static const std::shared_ptr<Clock> clock = std::make_shared<RealClock>();
  return clock;
}

FakeClock::FakeClock(WallTime start) : wall_(start), mono_(MonoTime(std::chrono::hours(1))) {}

Clock::WallTime FakeClock::now() const {
  std::lock_guard lock(mu_);
  return wall_;
}

Clock::MonoTime FakeClock::monotonic() const {
  std::lock_guard lock(mu_);
  return mono_;
}

bool FakeClock::sleep_for(std::chrono::nanoseconds d, std::stop_token stop) {
  std::unique_lock lock(mu_);
  if (stop.stop_requested()) return false;
  if (d <= std::chrono::nanoseconds::zero()) return true;
  Sleeper self{mono_ + d};
  sleepers_.push_back(&self);
  cv_.notify_all();
  cv_.wait(lock, stop, [&] { return self.due; });
  if (!self.due) sleepers_.remove(&self);  // stopped first: still listed
  cv_.notify_all();
  return self.due;
}

void FakeClock::wake_due() {
  for (auto it = sleepers_.begin(); it != sleepers_.end();) {
    if ((*it)->deadline <= mono_) {
      (*it)->due = true;
      it = sleepers_.erase(it);
    } else {
      ++it;
    }
  }
  cv_.notify_all();
}

void FakeClock::step(std::chrono::nanoseconds d) {
  std::lock_guard lock(mu_);
  wall_ += std::chrono::duration_cast<WallTime::duration>(d);
  mono_ += d;
  wake_due();
}

bool FakeClock::step_to_next_waiter() {
  std::lock_guard lock(mu_);
  if (sleepers_.empty()) return false;
  MonoTime next = MonoTime::max();
  for (const Sleeper* s : sleepers_)
    next = std::min(next, s->deadline);
  if (next > mono_) {
    wall_ += std::chrono::duration_cast<WallTime::duration>(next - mono_);
    mono_ = next;
  }
  wake_due();
  return true;
}

std::size_t FakeClock::waiters() const {
  std::lock_guard lock(mu_);
  return sleepers_.size();
}

bool FakeClock::await_waiters(std::size_t n, std::chrono::milliseconds real_timeout) const {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, real_timeout, [&] { return sleepers_.size() >= n; });
}

}  // namespace kcm::leaderelection
