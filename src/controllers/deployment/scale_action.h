// One ReplicaSet update that a planning function asks the controller to
// send (upstream scaleReplicaSet): spec.replicas set to `replicas` and the
// desired-replicas / max-replicas annotations refreshed from the Deployment.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "api/json.h"
#include "controllers/deployment/views.h"

namespace kcm::controllers::deployment {

struct ScaleAction {
  const ReplicaSetInfo* rs = nullptr;
  std::int32_t replicas = 0;  // the new spec.replicas
  std::int32_t previous = 0;  // spec.replicas before this action
  // The size changes, so a successful update records the ScalingReplicaSet
  // event (scaling_replica_set_message) and counts as "scaled".
  bool size_changed() const { return replicas != previous; }
  // The event's direction, from this RS's own sizes (upstream since the
  // "from A to B" wording, proportional scaling included).
  std::string_view operation() const { return previous < replicas ? "up" : "down"; }
};
using ScaleActions = std::vector<ScaleAction>;

// scaleReplicaSet: an action when the size or the replica annotations
// (replicas, replicas + MaxSurge) need an update; nullopt otherwise.
std::optional<ScaleAction> scale_replica_set(const ReplicaSetInfo& rs, std::int32_t new_size,
                                             const DeploymentView& d);
// scaleReplicaSetAndRecordEvent: nullopt when the size is already right
// (annotations are then left alone).
std::optional<ScaleAction> scale_replica_set_and_record_event(const ReplicaSetInfo& rs,
                                                              std::int32_t new_size,
                                                              const DeploymentView& d);

// The ReplicaSet the controller PUTs for `action`: a copy of `rs` with
// spec.replicas and SetReplicasAnnotations(replicas, replicas + MaxSurge).
json::object scaled_replica_set(const json::object& rs, std::int32_t replicas,
                                const DeploymentView& d);

}  // namespace kcm::controllers::deployment
