// The strategies of the built-in kinds, one file each (pods.cc, deployments.cc, ...).
#pragma once

#include <memory>

#include "local/registry/strategy.h"

namespace kcm::local::registry {

std::shared_ptr<const Strategy> namespace_strategy();
std::shared_ptr<const Strategy> pod_strategy();
std::shared_ptr<const Strategy> node_strategy();
std::shared_ptr<const Strategy> core_event_strategy();
std::shared_ptr<const Strategy> events_event_strategy();
std::shared_ptr<const Strategy> deployment_strategy();
std::shared_ptr<const Strategy> replica_set_strategy();
std::shared_ptr<const Strategy> lease_strategy();

}  // namespace kcm::local::registry
