#include "local/cluster/resources.h"

#include <algorithm>

#include "api/quantity.h"

namespace kcm::local::cluster {
namespace {

std::int64_t quantity(const json::object& list, std::string_view name, bool milli) {
  const json::value* v = list.if_contains(name);
  if (v == nullptr) return 0;
  auto q = api::Quantity::from_json(*v);
  if (!q) return 0;
  return milli ? q->milli_value() : q->value();
}

Resources max_of(const Resources& a, const Resources& b) {
  return {std::max(a.milli_cpu, b.milli_cpu), std::max(a.memory, b.memory),
          std::max(a.ephemeral_storage, b.ephemeral_storage), std::max(a.pods, b.pods)};
}

Resources container_requests(const json::value& c, bool non_zero) {
  const json::object* requests = nullptr;
  if (c.is_object()) {
    if (const json::object* r = api::find_object(c.get_object(), "resources")) {
      requests = api::find_object(*r, "requests");
    }
  }
  Resources out = resource_list(requests);
  if (non_zero) {
    if (requests == nullptr || !requests->contains("cpu")) out.milli_cpu = kDefaultMilliCpuRequest;
    if (requests == nullptr || !requests->contains("memory")) out.memory = kDefaultMemoryRequest;
  }
  return out;
}

bool restartable(const json::value& c) {
  return c.is_object() && api::find_string(c.get_object(), "restartPolicy") == "Always";
}

}  // namespace

Resources resource_list(const json::object* list) {
  Resources out;
  if (list == nullptr) return out;
  out.milli_cpu = quantity(*list, "cpu", true);
  out.memory = quantity(*list, "memory", false);
  out.ephemeral_storage = quantity(*list, "ephemeral-storage", false);
  out.pods = quantity(*list, "pods", false);
  return out;
}

Resources pod_requests(const json::object& spec, bool non_zero) {
  Resources total;
  if (const json::array* cs = api::find_array(spec, "containers")) {
    for (const auto& c : *cs)
      total += container_requests(c, non_zero);
  }
  // Sidecars run beside everything after them; a regular init container runs
  // with the sidecars started before it.
  Resources sidecars, init_peak;
  if (const json::array* cs = api::find_array(spec, "initContainers")) {
    for (const auto& c : *cs) {
      const Resources r = container_requests(c, non_zero);
      Resources step;
      if (restartable(c)) {
        total += r;
        sidecars += r;
        step = sidecars;
      } else {
        step = r;
        step += sidecars;
      }
      init_peak = max_of(init_peak, step);
    }
  }
  total = max_of(total, init_peak);
  if (const json::object* pod_level = api::find_object(spec, "resources")) {
    if (const json::object* requests = api::find_object(*pod_level, "requests")) {
      const Resources r = resource_list(requests);
      if (requests->contains("cpu")) total.milli_cpu = r.milli_cpu;
      if (requests->contains("memory")) total.memory = r.memory;
    }
  }
  if (const json::object* overhead = api::find_object(spec, "overhead")) {
    total += resource_list(overhead);
  }
  total.pods = 1;
  return total;
}

Resources node_allocatable(const json::object& node) {
  const json::object* status = api::find_object(node, "status");
  if (status == nullptr) return {};
  if (const json::object* a = api::find_object(*status, "allocatable")) return resource_list(a);
  return resource_list(api::find_object(*status, "capacity"));
}

}  // namespace kcm::local::cluster
