// A token bucket with reservations, as golang.org/x/time/rate's Limiter
// behaves for Reserve().Delay(): the bucket starts full, refills at qps
// tokens per second up to burst, and a reservation may drive it negative,
// returning how long its holder must wait.
#pragma once

#include <limits>
#include <memory>
#include <mutex>

#include "workqueue/clock.h"

namespace kcm::workqueue {

class TokenBucket {
 public:
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  // qps kInf means no limit at all; qps 0 allows burst tokens in total.
  TokenBucket(double qps, int burst, std::shared_ptr<Clock> clock = nullptr);

  // Reserves one token: the wait until it may be used, or Duration::max()
  // when it never can (burst 0, or qps 0 with the burst spent).
  Duration reserve();
  // Tokens available now (negative while reservations are outstanding).
  double tokens() const;

 private:
  double advance(TimePoint now) const;

  const double qps_;
  const std::shared_ptr<Clock> clock_;
  mutable std::mutex mu_;
  int burst_;
  double tokens_;
  TimePoint last_;
};

}  // namespace kcm::workqueue
