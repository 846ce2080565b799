// The reflector's back-off between list-and-watch attempts (upstream
// wait.NewExponentialBackoffManager(800ms, 30s, 2min, 2.0, 1.0)): each step
// doubles up to the cap, jitter adds up to 100%, and the sequence starts over
// after `reset_after` without a back-off.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <random>

namespace kcm::cache {

class Backoff {
 public:
  struct Options {
    std::chrono::nanoseconds initial = std::chrono::milliseconds(800);
    std::chrono::nanoseconds cap = std::chrono::seconds(30);
    std::chrono::nanoseconds reset_after = std::chrono::minutes(2);
    double factor = 2.0;
    double jitter = 1.0;
  };

  Backoff() : Backoff(Options{}) {}
  explicit Backoff(Options options);

  // The next wait. Thread-safe.
  std::chrono::nanoseconds next();

 private:
  using Clock = std::chrono::steady_clock;
  const Options options_;
  std::mutex mu_;
  std::mt19937_64 rng_;
  std::chrono::nanoseconds duration_;
  bool capped_ = false;  // upstream's Steps reaching 0
  Clock::time_point last_start_;
};

}  // namespace kcm::cache
