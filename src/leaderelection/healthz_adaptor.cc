#include "leaderelection/healthz_adaptor.h"

#include "leaderelection/leader_elector.h"

namespace kcm::leaderelection {

Result<void> HealthzAdaptor::check() const {
  std::shared_ptr<const LeaderElector> elector;
  {
    std::lock_guard lock(mu_);
    elector = elector_.lock();
  }
  if (!elector) return {};
  return elector->check(timeout_);
}

void HealthzAdaptor::set_leader_election(std::weak_ptr<const LeaderElector> elector) {
  std::lock_guard lock(mu_);
  elector_ = std::move(elector);
}

}  // namespace kcm::leaderelection
