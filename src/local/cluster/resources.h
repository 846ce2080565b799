// The resource arithmetic of scheduling: what a pod requests (upstream's
// resourcehelper.PodRequests, with sidecars, init containers, overhead and
// pod-level resources) and what a node offers, as plain integers.
#pragma once

#include <cstdint>

#include "api/json.h"

namespace kcm::local::cluster {

namespace json = boost::json;

struct Resources {
  std::int64_t milli_cpu = 0;
  std::int64_t memory = 0;  // bytes
  std::int64_t ephemeral_storage = 0;
  std::int64_t pods = 0;  // allocatable pod slots (nodes) / pods counted (usage)

  Resources& operator+=(const Resources& o) {
    milli_cpu += o.milli_cpu;
    memory += o.memory;
    ephemeral_storage += o.ephemeral_storage;
    pods += o.pods;
    return *this;
  }
  Resources& operator-=(const Resources& o) {
    milli_cpu -= o.milli_cpu;
    memory -= o.memory;
    ephemeral_storage -= o.ephemeral_storage;
    pods -= o.pods;
    return *this;
  }
  friend bool operator==(const Resources&, const Resources&) = default;
};

// The scheduler's defaults for a container that requests no cpu / memory,
// used only to spread such pods (schedutil.DefaultMilliCPURequest / DefaultMemoryRequest).
inline constexpr std::int64_t kDefaultMilliCpuRequest = 100;
inline constexpr std::int64_t kDefaultMemoryRequest = 200 * 1024 * 1024;

// The effective requests of a pod spec: max(sum of containers and sidecars,
// largest init container step) plus overhead; pod-level requests win for cpu
// and memory. `pods` is 1. With `non_zero`, missing cpu/memory requests count
// as the defaults above (for scoring, never for fit).
Resources pod_requests(const json::object& spec, bool non_zero = false);

// status.allocatable of a node (capacity when allocatable is absent).
Resources node_allocatable(const json::object& node);

// A resource list ({"cpu": "500m", ...}) as Resources; unparsable values count as zero.
Resources resource_list(const json::object* list);

}  // namespace kcm::local::cluster
