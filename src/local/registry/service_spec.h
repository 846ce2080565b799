// What a Service's spec says it needs, as upstream's service helpers read it;
// shared by its defaulting, allocation and validation.
#pragma once

#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

// Every type but ExternalName has cluster IPs (or is headless).
bool service_needs_cluster_ip(const json::object& spec);
// NodePort and LoadBalancer.
bool service_needs_node_ports(const json::object& spec);
// A LoadBalancer with externalTrafficPolicy Local.
bool service_needs_health_check_port(const json::object& spec);
// NodePort, LoadBalancer, or ClusterIP with external IPs.
bool service_externally_accessible(const json::object& spec);

}  // namespace kcm::local::registry
