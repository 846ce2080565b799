#include "record/token_bucket.h"

#include <algorithm>

namespace kcm::record {

TokenBucket::TokenBucket(double qps, int burst, TimePoint now)
    : qps_(qps), burst_(burst), tokens_(burst), last_(now) {}

bool TokenBucket::try_accept(TimePoint now) {
  // A clock that went backwards adds nothing (rate.Limiter treats it as no time passed).
  if (now > last_) {
    const auto elapsed = now - last_;
    const auto whole = std::chrono::duration_cast<std::chrono::seconds>(elapsed);
    const auto frac = std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed - whole);
    // Whole seconds and the remainder separately, as rate.Limiter does, so
    // long idle periods do not lose precision.
    const double added =
        static_cast<double>(whole.count()) * qps_ + static_cast<double>(frac.count()) * qps_ / 1e9;
    tokens_ = std::min(static_cast<double>(burst_), tokens_ + added);
    last_ = now;
  }
  if (tokens_ < 1.0) return false;
  tokens_ -= 1.0;
  return true;
}

}  // namespace kcm::record
