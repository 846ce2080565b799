// Upstream's PodValidationOptions as kcm-local uses them: the feature gates
// of the targeted release are fixed (relaxed env var names and DNS search
// paths, zero-second sleep hooks, pod-level resources, sidecar resize
// policies: on), and the leniencies an update may keep for an old object
// are computed from that object.
#pragma once

#include <optional>
#include <set>
#include <string>

#include "local/registry/volume_validation.h"

namespace kcm::local::registry {

struct PodValidationOptions {
  // The object is a Pod, not a template inside another kind.
  bool resource_is_pod = false;
  bool allow_invalid_pod_deletion_cost = false;
  bool allow_invalid_label_value_in_selector = false;
  bool allow_invalid_topology_spread_constraint_label_selector = false;
  bool allow_namespaced_sysctls_for_host_net_and_host_ipc = false;
  bool allow_invalid_label_value_in_required_node_affinity = false;
};

// What container validation needs to know about the pod spec around it.
struct ContainerContext {
  const VolumeMap* volumes = nullptr;
  std::set<std::string> pod_claim_names;
  std::optional<std::int64_t> grace_period;  // spec.terminationGracePeriodSeconds
  std::string restart_policy;                // spec.restartPolicy
  bool host_users = true;                    // spec.hostUsers (default true)
  PodValidationOptions opts;
};

}  // namespace kcm::local::registry
