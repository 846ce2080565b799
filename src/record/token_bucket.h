// A token bucket that starts full (flowcontrol's token bucket over
// golang.org/x/time/rate): `burst` tokens, refilled at `qps` per second on
// the caller's clock. Not thread-safe; the spam filter guards it.
#pragma once

#include <chrono>

namespace kcm::record {

class TokenBucket {
 public:
  using TimePoint = std::chrono::system_clock::time_point;

  TokenBucket(double qps, int burst, TimePoint now);

  // Takes one token if one is available at `now` (TryAccept).
  bool try_accept(TimePoint now);

 private:
  double qps_;
  int burst_;
  double tokens_;
  TimePoint last_;
};

}  // namespace kcm::record
