#include "controllers/deployment/scale_action.h"

#include "controllers/deployment/annotations.h"
#include "controllers/deployment/replica_math.h"

namespace kcm::controllers::deployment {

std::optional<ScaleAction> scale_replica_set(const ReplicaSetInfo& rs, std::int32_t new_size,
                                             const DeploymentView& d) {
  const bool size_change = rs.spec_replicas != new_size;
  const bool annotations_change =
      replicas_annotations_need_update(rs.annotations, d.replicas, d.replicas + max_surge(d));
  if (!size_change && !annotations_change) return std::nullopt;
  return ScaleAction{&rs, new_size, rs.spec_replicas};
}

std::optional<ScaleAction> scale_replica_set_and_record_event(const ReplicaSetInfo& rs,
                                                              std::int32_t new_size,
                                                              const DeploymentView& d) {
  if (rs.spec_replicas == new_size) return std::nullopt;
  return scale_replica_set(rs, new_size, d);
}

json::object scaled_replica_set(const json::object& rs, std::int32_t replicas,
                                const DeploymentView& d) {
  json::object copy = rs;
  api::ensure_object(copy, "spec")["replicas"] = replicas;
  set_replicas_annotations(copy, d.replicas, d.replicas + max_surge(d));
  return copy;
}

}  // namespace kcm::controllers::deployment
