// Client-side request throttling: a token bucket with client-go's
// flowcontrol.NewTokenBucketRateLimiter semantics (golang.org/x/time/rate
// underneath), and the "Waited for ..." message rest.Request logs.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

#include "api/result.h"

namespace kcm::client {

// The time source the limiter reads and sleeps on; tests inject a fake one.
class RateLimiterClock {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  virtual ~RateLimiterClock() = default;
  virtual TimePoint now() const = 0;
  // Sleeps for `d`; false when `stop` was requested first.
  virtual bool sleep_for(std::chrono::nanoseconds d, std::stop_token stop) = 0;
};

// steady_clock with real sleeps.
std::shared_ptr<RateLimiterClock> real_rate_limiter_clock();

// Thread-safe. The bucket starts full (`burst` tokens) and refills at `qps`
// tokens per second up to `burst`.
class TokenBucketRateLimiter {
 public:
  TokenBucketRateLimiter(float qps, int burst,
                         std::shared_ptr<RateLimiterClock> clock = real_rate_limiter_clock());

  // Takes a token if one is available now.
  bool try_accept();

  // Blocks until a token is this caller's and returns how long that took.
  // Errors (rate.Limiter.Wait's): burst < 1 `rate: Wait(n=1) exceeds
  // limiter's burst 0`; a `deadline` that comes before the token
  // `rate: Wait(n=1) would exceed context deadline`; `context canceled` when
  // `stop` is requested while waiting (the reserved token is given back).
  Result<std::chrono::nanoseconds> wait(
      std::stop_token stop = {},
      std::optional<RateLimiterClock::TimePoint> deadline = std::nullopt);

  float qps() const { return qps_; }
  int burst() const { return burst_; }

 private:
  struct Reservation {
    bool ok = false;
    RateLimiterClock::TimePoint time_to_act;
  };
  // The bucket's content at `t` (rate.Limiter.advance).
  double tokens_at(RateLimiterClock::TimePoint t) const;
  Reservation reserve(RateLimiterClock::TimePoint t, std::chrono::nanoseconds max_wait);
  void cancel(const Reservation& r, RateLimiterClock::TimePoint t);
  std::chrono::nanoseconds duration_from_tokens(double tokens) const;
  double tokens_from_duration(std::chrono::nanoseconds d) const;

  const float qps_;
  const double limit_;  // tokens per second (the float32 QPS widened, as Go does)
  const int burst_;
  const std::shared_ptr<RateLimiterClock> clock_;

  std::mutex mu_;
  double tokens_;
  RateLimiterClock::TimePoint last_;        // when tokens_ was last brought up to date
  RateLimiterClock::TimePoint last_event_;  // the latest reservation's time to act
};

// rest.Config's QPS/burst as RESTClientFor applies them: 0 means 5 (QPS) and
// 10 (burst); a negative QPS means no limiter (nullptr).
std::unique_ptr<TokenBucketRateLimiter> make_rate_limiter(
    float qps, int burst, std::shared_ptr<RateLimiterClock> clock = real_rate_limiter_clock());

// Thresholds of rest.Request's throttling log: above 50ms at V(3); above 1s
// also through the throttled logger (V(2) at most once a second, else V(0) at
// most once every 10s).
inline constexpr std::chrono::milliseconds kLongThrottleLatency{50};
inline constexpr std::chrono::seconds kExtraLongThrottleLatency{1};

// "Waited for 1.2s due to client-side throttling, not priority and fairness,
// request: GET:https://..."; with `retry_info` (retry_reason() in
// retry_policy.h) "Waited for 1.2s, <retry_info> - request: GET:https://...".
// The latency is printed as Go's Duration.String().
std::string throttle_message(std::chrono::nanoseconds latency, std::string_view verb,
                             std::string_view url, std::string_view retry_info = {});

// rest's globalThrottledLogger: decides at which verbosity a >1s throttle
// message is printed, if at all, given the process verbosity. Thread-safe.
class ThrottledLogger {
 public:
  explicit ThrottledLogger(std::shared_ptr<RateLimiterClock> clock = real_rate_limiter_clock());
  // The level to log at, or nullopt when it was logged too recently (or the
  // verbosity enables neither level... which cannot happen: V(0) is always on).
  std::optional<int> attempt_to_log(int verbosity);

 private:
  struct Setting {
    int level;
    std::chrono::nanoseconds min_interval;
    std::optional<RateLimiterClock::TimePoint> last_log;
  };
  std::shared_ptr<RateLimiterClock> clock_;
  std::mutex mu_;
  Setting settings_[2];
};

}  // namespace kcm::client
