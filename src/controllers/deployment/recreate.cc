#include "controllers/deployment/recreate.h"

#include "controller/pod_util.h"
#include "controllers/deployment/replica_math.h"

namespace kcm::controllers::deployment {

PodMap pod_map_for_deployment(const std::vector<const json::object*>& pods,
                              const ReplicaSetList& replica_sets) {
  PodMap map;
  for (const ReplicaSetInfo* rs : replica_sets) {
    if (rs != nullptr) map[rs->uid];
  }
  for (const json::object* pod : pods) {
    const json::object* meta = api::find_object(*pod, "metadata");
    const json::array* refs = meta != nullptr ? api::find_array(*meta, "ownerReferences") : nullptr;
    if (refs == nullptr) continue;
    for (const json::value& ref : *refs) {
      if (!ref.is_object() || !api::find_bool(ref.as_object(), "controller").value_or(false)) {
        continue;
      }
      const auto it = map.find(api::find_string(ref.as_object(), "uid").value_or(""));
      if (it != map.end()) it->second.push_back(pod);
      break;  // only the controller counts
    }
  }
  return map;
}

ScaleActions plan_scale_down_old_replica_sets_for_recreate(const ReplicaSetList& old_rss,
                                                           const DeploymentView& d) {
  ScaleActions actions;
  for (const ReplicaSetInfo* rs : old_rss) {
    if (rs == nullptr || rs->spec_replicas == 0) continue;
    if (auto a = scale_replica_set_and_record_event(*rs, 0, d)) actions.push_back(std::move(*a));
  }
  return actions;
}

bool old_pods_running(const ReplicaSetInfo* new_rs, const ReplicaSetList& old_rss,
                      const PodMap& pod_map) {
  if (actual_replica_count(old_rss) > 0) return true;
  for (const auto& [rs_uid, pods] : pod_map) {
    if (new_rs != nullptr && new_rs->uid == rs_uid) continue;
    for (const json::object* pod : pods) {
      const std::string_view phase = controller::pod_phase(*pod);
      if (phase == controller::kPodFailed || phase == controller::kPodSucceeded) continue;
      return true;  // running, pending, unknown or unset
    }
  }
  return false;
}

ScaleActions plan_scale_up_new_replica_set_for_recreate(const ReplicaSetInfo& new_rs,
                                                        const DeploymentView& d) {
  ScaleActions actions;
  if (auto a = scale_replica_set_and_record_event(new_rs, d.replicas, d)) {
    actions.push_back(std::move(*a));
  }
  return actions;
}

}  // namespace kcm::controllers::deployment
