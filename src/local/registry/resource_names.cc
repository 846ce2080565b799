#include "local/registry/resource_names.h"

#include <array>
#include <string>

#include "api/name_validation.h"

namespace kcm::local::registry {
namespace {

template <std::size_t N>
bool one_of(std::string_view name, const std::array<std::string_view, N>& set) {
  for (std::string_view s : set) {
    if (s == name) return true;
  }
  return false;
}

constexpr std::array<std::string_view, 9> kIntegerResources = {"pods",
                                                               "resourcequotas",
                                                               "services",
                                                               "replicationcontrollers",
                                                               "secrets",
                                                               "configmaps",
                                                               "persistentvolumeclaims",
                                                               "services.nodeports",
                                                               "services.loadbalancers"};

constexpr std::array<std::string_view, 20> kStandardResources = {"cpu",
                                                                 "memory",
                                                                 "ephemeral-storage",
                                                                 "requests.cpu",
                                                                 "requests.memory",
                                                                 "requests.ephemeral-storage",
                                                                 "limits.cpu",
                                                                 "limits.memory",
                                                                 "limits.ephemeral-storage",
                                                                 "pods",
                                                                 "resourcequotas",
                                                                 "services",
                                                                 "replicationcontrollers",
                                                                 "secrets",
                                                                 "configmaps",
                                                                 "persistentvolumeclaims",
                                                                 "storage",
                                                                 "requests.storage",
                                                                 "services.nodeports",
                                                                 "services.loadbalancers"};

}  // namespace

bool is_huge_page_resource(std::string_view name) {
  return name.starts_with("hugepages-");
}

bool is_native_resource(std::string_view name) {
  return name.find('/') == std::string_view::npos ||
         name.find("kubernetes.io/") != std::string_view::npos;
}

bool is_extended_resource(std::string_view name) {
  if (is_native_resource(name) || name.starts_with("requests.")) return false;
  return api::is_qualified_name("requests." + std::string(name)).empty();
}

bool is_overcommit_allowed(std::string_view name) {
  return is_native_resource(name) && !is_huge_page_resource(name);
}

bool is_integer_resource(std::string_view name) {
  return one_of(name, kIntegerResources) || is_extended_resource(name);
}

bool is_standard_container_resource(std::string_view name) {
  return name == "cpu" || name == "memory" || name == "ephemeral-storage" ||
         is_huge_page_resource(name);
}

bool is_standard_resource(std::string_view name) {
  return one_of(name, kStandardResources) || is_huge_page_resource(name) ||
         name.starts_with("requests.hugepages-");
}

bool is_qos_compute_resource(std::string_view name) {
  return name == "cpu" || name == "memory";
}

}  // namespace kcm::local::registry
