// HealthzAdaptor: the "leaderElection" health check. It fails only when we
// hold the lease but have not renewed it for LeaseDuration + timeout, i.e.
// the process should have stopped leading but is stuck (a deadlock, say).
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <string_view>

#include "api/result.h"

namespace kcm::leaderelection {

class LeaderElector;

class HealthzAdaptor {
 public:
  // `timeout`: how long past the lease's expiry the check still passes
  // (kube-controller-manager uses 20s).
  explicit HealthzAdaptor(std::chrono::nanoseconds timeout) : timeout_(timeout) {}

  static constexpr std::string_view name() { return "leaderElection"; }
  // Passes while no elector is attached (or it is gone).
  Result<void> check() const;
  // The health endpoint may start before the elector exists.
  void set_leader_election(std::weak_ptr<const LeaderElector> elector);

 private:
  const std::chrono::nanoseconds timeout_;
  mutable std::mutex mu_;
  std::weak_ptr<const LeaderElector> elector_;
};

}  // namespace kcm::leaderelection
