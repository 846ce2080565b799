#include "client/rate_limiter.h"

#include <fmt/format.h>

#include <condition_variable>
#include <limits>

#include "api/duration.h"

namespace kcm::client {
namespace {

using std::chrono::nanoseconds;
using TimePoint = RateLimiterClock::TimePoint;

constexpr nanoseconds kInfDuration = nanoseconds::max();

class RealClock : public RateLimiterClock {
 public:
  TimePoint now() const override { return std::chrono::steady_clock::now(); }
  bool sleep_for(nanoseconds d, std::stop_token stop) override {
    if (d <= nanoseconds::zero()) return !stop.stop_requested();
    std::mutex mu;
    std::condition_variable_any cv;
    std::unique_lock lock(mu);
    // Wakes early only when stop is requested (nothing notifies cv).
    cv.wait_for(lock, stop, d, [] { return false; });
    return !stop.stop_requested();
  }
};

// t + d without overflowing into the past.
TimePoint add(TimePoint t, nanoseconds d) {
  if (d > TimePoint::max() - t) return TimePoint::max();
  return t + d;
}

}  // namespace

std::shared_ptr<RateLimiterClock> real_rate_limiter_clock() {
  static const auto clock = std::make_shared<RealClock>();
  return clock;
}

TokenBucketRateLimiter::TokenBucketRateLimiter(float qps, int burst,
                                               std::shared_ptr<RateLimiterClock> clock)
    : qps_(qps),
      limit_(static_cast<double>(qps)),
      burst_(burst),
      clock_(std::move(clock)),
      tokens_(static_cast<double>(burst)),
      last_(clock_->now()),
      last_event_(last_) {}

double TokenBucketRateLimiter::tokens_from_duration(nanoseconds d) const {
  if (limit_ <= 0) return 0;
  // time.Duration.Seconds(): whole seconds plus the remainder, in that order.
  const auto sec = d.count() / 1'000'000'000;
  const auto nsec = d.count() % 1'000'000'000;
  const double seconds = static_cast<double>(sec) + static_cast<double>(nsec) / 1e9;
  return seconds * limit_;
}

nanoseconds TokenBucketRateLimiter::duration_from_tokens(double tokens) const {
  if (limit_ <= 0) return kInfDuration;
  const double ns = tokens / limit_ * 1e9;
  if (ns >= static_cast<double>(std::numeric_limits<nanoseconds::rep>::max())) return kInfDuration;
  return nanoseconds(static_cast<nanoseconds::rep>(ns));
}

double TokenBucketRateLimiter::tokens_at(TimePoint t) const {
  const TimePoint last = t < last_ ? t : last_;
  const double tokens = tokens_ + tokens_from_duration(t - last);
  return tokens > burst_ ? static_cast<double>(burst_) : tokens;
}

TokenBucketRateLimiter::Reservation TokenBucketRateLimiter::reserve(TimePoint t,
                                                                    nanoseconds max_wait) {
  const double tokens = tokens_at(t) - 1;
  nanoseconds wait{0};
  if (tokens < 0) wait = duration_from_tokens(-tokens);
  Reservation r;
  r.ok = 1 <= burst_ && wait <= max_wait;
  if (r.ok) {
    r.time_to_act = add(t, wait);
    last_ = t;
    tokens_ = tokens;
    last_event_ = r.time_to_act;
  }
  return r;
}

// rate.Reservation.CancelAt: give the token back, minus what later
// reservations have already counted on.
void TokenBucketRateLimiter::cancel(const Reservation& r, TimePoint t) {
  std::lock_guard lock(mu_);
  if (!r.ok || r.time_to_act < t) return;
  const double restore = 1 - tokens_from_duration(last_event_ - r.time_to_act);
  if (restore <= 0) return;
  double tokens = tokens_at(t) + restore;
  if (tokens > burst_) tokens = burst_;
  last_ = t;
  tokens_ = tokens;
  if (r.time_to_act == last_event_) {
    const TimePoint prev = r.time_to_act - duration_from_tokens(1);
    if (!(prev < t)) last_event_ = prev;
  }
}

bool TokenBucketRateLimiter::try_accept() {
  std::lock_guard lock(mu_);
  return reserve(clock_->now(), nanoseconds::zero()).ok;
}

Result<nanoseconds> TokenBucketRateLimiter::wait(std::stop_token stop,
                                                 std::optional<TimePoint> deadline) {
  if (burst_ < 1) return fail(fmt::format("rate: Wait(n=1) exceeds limiter's burst {}", burst_));
  if (stop.stop_requested()) return fail("context canceled");
  const TimePoint start = clock_->now();
  Reservation r;
  {
    std::lock_guard lock(mu_);
    const nanoseconds max_wait = deadline ? *deadline - start : kInfDuration;
    r = reserve(start, max_wait);
  }
  if (!r.ok) return fail("rate: Wait(n=1) would exceed context deadline");
  const nanoseconds delay = r.time_to_act > start ? r.time_to_act - start : nanoseconds::zero();
  if (delay > nanoseconds::zero() && !clock_->sleep_for(delay, stop)) {
    cancel(r, clock_->now());
    return fail("context canceled");
  }
  return clock_->now() - start;
}

std::unique_ptr<TokenBucketRateLimiter> make_rate_limiter(float qps, int burst,
                                                          std::shared_ptr<RateLimiterClock> clock) {
  if (qps == 0) qps = 5;
  if (burst == 0) burst = 10;
  if (qps < 0) return nullptr;
  return std::make_unique<TokenBucketRateLimiter>(qps, burst, std::move(clock));
}

std::string throttle_message(nanoseconds latency, std::string_view verb, std::string_view url,
                             std::string_view retry_info) {
  if (!retry_info.empty()) {
    return fmt::format("Waited for {}, {} - request: {}:{}", api::format_duration(latency),
                       retry_info, verb, url);
  }
  return fmt::format(
      "Waited for {} due to client-side throttling, not priority and fairness, request: {}:{}",
      api::format_duration(latency), verb, url);
}

ThrottledLogger::ThrottledLogger(std::shared_ptr<RateLimiterClock> clock)
    : clock_(std::move(clock)),
      settings_{{2, std::chrono::seconds(1), std::nullopt},
                {0, std::chrono::seconds(10), std::nullopt}} {}

std::optional<int> ThrottledLogger::attempt_to_log(int verbosity) {
  std::lock_guard lock(mu_);
  const TimePoint now = clock_->now();
  for (Setting& s : settings_) {
    if (verbosity < s.level) continue;
    // The first enabled level decides; a recent log there suppresses this one.
    if (!s.last_log || now - *s.last_log >= s.min_interval) {
      s.last_log = now;
      return s.level;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace kcm::client
