#include "local/registry/service_spec.h"

namespace kcm::local::registry {

namespace {

std::string_view spec_type(const json::object& spec) {
  return api::find_string(spec, "type").value_or("");
}

}  // namespace

bool service_needs_cluster_ip(const json::object& spec) {
  return spec_type(spec) != "ExternalName";
}

bool service_needs_node_ports(const json::object& spec) {
  return spec_type(spec) == "NodePort" || spec_type(spec) == "LoadBalancer";
}

bool service_needs_health_check_port(const json::object& spec) {
  return spec_type(spec) == "LoadBalancer" &&
         api::find_string(spec, "externalTrafficPolicy").value_or("") == "Local";
}

bool service_externally_accessible(const json::object& spec) {
  const json::array* external = api::find_array(spec, "externalIPs");
  return service_needs_node_ports(spec) ||
         (spec_type(spec) == "ClusterIP" && external != nullptr && !external->empty());
}

}  // namespace kcm::local::registry
