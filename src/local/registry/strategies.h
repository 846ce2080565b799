// The strategies of the built-in kinds, one file each (pods.cc, deployments.cc, ...).
#pragma once

#include <memory>
#include <string_view>

#include "local/registry/resource_info.h"
#include "local/registry/strategy.h"

namespace kcm::local::registry {

std::shared_ptr<const Strategy> namespace_strategy();
std::shared_ptr<const Strategy> pod_strategy();
std::shared_ptr<const Strategy> node_strategy();
std::shared_ptr<const Strategy> core_event_strategy();
std::shared_ptr<const Strategy> events_event_strategy();
std::shared_ptr<const Strategy> deployment_strategy(const ApiFeatures& features = {});
std::shared_ptr<const Strategy> replica_set_strategy(const ApiFeatures& features = {});
std::shared_ptr<const Strategy> lease_strategy();
std::shared_ptr<const Strategy> config_map_strategy();
std::shared_ptr<const Strategy> secret_strategy();
std::shared_ptr<const Strategy> service_strategy();
std::shared_ptr<const Strategy> resource_quota_strategy();
std::shared_ptr<const Strategy> limit_range_strategy();
std::shared_ptr<const Strategy> custom_resource_definition_strategy();

// Sets a CRD status condition, keeping lastTransitionTime when the status
// does not change (upstream apiextensions SetCRDCondition).
void set_crd_condition(json::object& crd, std::string_view type, std::string_view status,
                       std::string_view reason, std::string_view message);

// events.k8s.io/v1 Event <-> core/v1 Event (event_conversion.cc).
std::shared_ptr<const Conversion> events_to_core_conversion();

}  // namespace kcm::local::registry
