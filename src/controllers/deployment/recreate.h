// The Recreate strategy's planning (upstream recreate.go): every old pod is
// gone before the new ReplicaSet gets any.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "api/json.h"
#include "controllers/deployment/scale_action.h"
#include "controllers/deployment/views.h"

namespace kcm::controllers::deployment {

// The Deployment's pods grouped by the uid of their controlling ReplicaSet
// (getPodMapForDeployment), terminal pods included.
using PodMap = std::map<std::string, std::vector<const json::object*>, std::less<>>;

// getPodMapForDeployment's grouping: an entry (possibly empty) for every RS
// of `replica_sets`, holding the `pods` (already matched by the Deployment's
// selector) whose controller ownerReference has that RS's uid; other pods
// are dropped.
PodMap pod_map_for_deployment(const std::vector<const json::object*>& pods,
                              const ReplicaSetList& replica_sets);

// scaleDownOldReplicaSetsForRecreate: every old RS with replicas goes to 0.
ScaleActions plan_scale_down_old_replica_sets_for_recreate(const ReplicaSetList& old_rss,
                                                           const DeploymentView& d);

// oldPodsRunning: the old RSs report pods (sum of status.replicas > 0), or a
// pod of any RS other than the new one is not Succeeded or Failed (Unknown
// and unset phases count as running).
bool old_pods_running(const ReplicaSetInfo* new_rs, const ReplicaSetList& old_rss,
                      const PodMap& pod_map);

// scaleUpNewReplicaSetForRecreate: the new RS goes to spec.replicas.
ScaleActions plan_scale_up_new_replica_set_for_recreate(const ReplicaSetInfo& new_rs,
                                                        const DeploymentView& d);

}  // namespace kcm::controllers::deployment
