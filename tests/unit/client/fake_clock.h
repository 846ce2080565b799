// A RateLimiterClock for tests, shared by the client suite's files.
#pragma once

#include <chrono>
#include <stop_token>
#include <vector>

#include "client/rate_limiter.h"

namespace kcm::client {

// Time moves only through sleeps and step(); a sleep can be made to fail as
// if the caller's stop token fired.
class FakeClock : public RateLimiterClock {
 public:
  TimePoint now() const override { return now_; }
  bool sleep_for(std::chrono::nanoseconds d, std::stop_token) override {
    slept_.push_back(d);
    if (interrupt_next_) {
      interrupt_next_ = false;
      return false;
    }
    now_ += d;
    return true;
  }
  void step(std::chrono::nanoseconds d) { now_ += d; }
  void interrupt_next_sleep() { interrupt_next_ = true; }
  const std::vector<std::chrono::nanoseconds>& slept() const { return slept_; }

 private:
  TimePoint now_ = TimePoint(std::chrono::hours(1000));
  bool interrupt_next_ = false;
  std::vector<std::chrono::nanoseconds> slept_;
};

}  // namespace kcm::client
