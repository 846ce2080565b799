// The QoS class the API server records in status.qosClass when a pod is
// created (upstream's qos.ComputePodQOS, PodLevelResources enabled).
#pragma once

#include <string>

#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

// "Guaranteed", "Burstable" or "BestEffort" for a pod spec.
std::string compute_pod_qos(const json::object& spec);

}  // namespace kcm::local::registry
