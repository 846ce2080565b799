#include "local/registry/pod_qos.h"

#include <map>
#include <set>

#include "api/quantity.h"
#include "local/registry/field_access.h"
#include "local/registry/resource_names.h"

namespace kcm::local::registry {
namespace {

using ResourceMap = std::map<std::string, api::Quantity>;

// Adds the positive cpu/memory quantities of `list`; returns their names.
std::set<std::string> add_positive(ResourceMap& into, const json::object* list) {
  std::set<std::string> names;
  if (list == nullptr) return names;
  for (const auto& kv : *list) {
    if (!is_qos_compute_resource(kv.key())) continue;
    auto q = api::Quantity::from_json(kv.value());
    if (!q || q->sign() <= 0) continue;
    names.insert(std::string(kv.key()));
    auto [it, inserted] = into.try_emplace(std::string(kv.key()), *q);
    if (!inserted) it->second.add(*q);
  }
  return names;
}

bool has_cpu_and_memory(const std::set<std::string>& names) {
  return names.contains("cpu") && names.contains("memory");
}

bool pod_level_set(const json::object* resources) {
  if (resources == nullptr) return false;
  for (std::string_view which : {"requests", "limits"}) {
    if (const json::object* list = object_member(*resources, which)) {
      for (const auto& kv : *list) {
        if (is_qos_compute_resource(kv.key()) || kv.key().starts_with("hugepages-")) return true;
      }
    }
  }
  return false;
}

}  // namespace

std::string compute_pod_qos(const json::object& spec) {
  ResourceMap requests, limits;
  bool guaranteed = true;
  const json::object* pod_resources = object_member(spec, "resources");
  if (pod_level_set(pod_resources)) {
    add_positive(requests, object_member(*pod_resources, "requests"));
    if (const json::object* l = object_member(*pod_resources, "limits"); l && !l->empty()) {
      if (!has_cpu_and_memory(add_positive(limits, l))) guaranteed = false;
    }
  } else {
    // Ephemeral containers cannot have resources and do not count.
    for (std::string_view key : {"containers", "initContainers"}) {
      const json::array* cs = array_member(spec, key);
      if (cs == nullptr) continue;
      for (const auto& v : *cs) {
        const json::object* c = v.if_object();
        const json::object* res = c != nullptr ? object_member(*c, "resources") : nullptr;
        add_positive(requests, res != nullptr ? object_member(*res, "requests") : nullptr);
        const auto found =
            add_positive(limits, res != nullptr ? object_member(*res, "limits") : nullptr);
        if (!has_cpu_and_memory(found)) guaranteed = false;
      }
    }
  }
  if (requests.empty() && limits.empty()) return "BestEffort";
  if (guaranteed) {
    for (const auto& [name, req] : requests) {
      auto it = limits.find(name);
      if (it == limits.end() || it->second.cmp(req) != 0) {
        guaranteed = false;
        break;
      }
    }
  }
  if (guaranteed && requests.size() == limits.size()) return "Guaranteed";
  return "Burstable";
}

}  // namespace kcm::local::registry
