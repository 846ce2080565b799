// The RollingUpdate strategy's planning (upstream rolling.go): grow the new
// ReplicaSet within maxSurge, then shrink the old ones within maxUnavailable,
// unhealthy pods first.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "api/result.h"
#include "controllers/deployment/scale_action.h"
#include "controllers/deployment/views.h"

namespace kcm::controllers::deployment {

// reconcileNewReplicaSet: nothing when the new RS has spec.replicas; scale it
// down to spec.replicas when bigger; otherwise scale it to NewRSNewReplicas
// (an action only when that changes its size). Errors are NewRSNewReplicas's.
Result<ScaleActions> plan_reconcile_new_replica_set(const DeploymentView& d,
                                                    const ReplicaSetList& all_rss,
                                                    const ReplicaSetInfo& new_rs);

struct OldReplicaSetsPlan {
  // In order. One RS may appear twice (a clean-up, then a scale-down): apply
  // the second to the RS the first update returned.
  ScaleActions actions;
  std::int32_t cleaned_up = 0;   // unhealthy replicas removed
  std::int32_t scaled_down = 0;  // healthy replicas removed
  // Set when a step stopped at an RS it could not size (more available than
  // spec replicas: a stale status). Upstream has updated the RSs before it by
  // then, so `actions` holds those and is still applied; nothing after it is.
  std::optional<std::string> error;
  // reconcileOldReplicaSets' result: some replica was removed, without error.
  bool scaled() const { return !error && cleaned_up + scaled_down > 0; }
};

// cleanupUnhealthyReplicas: old RSs oldest first, while fewer than
// max_cleanup were removed: each RS with spec > available loses
// min(max_cleanup - removed, spec - available). An RS with more available
// than spec replicas is the error "when cleaning up unhealthy replicas, got
// invalid request to scale down <ns>/<name> <spec> -> <new>", after the
// actions for the RSs before it.
OldReplicaSetsPlan plan_cleanup_unhealthy_replicas(const ReplicaSetList& old_rss,
                                                   const DeploymentView& d,
                                                   std::int32_t max_cleanup);

// scaleDownOldReplicaSetsForRollingUpdate: when the available pods of
// all_rss exceed replicas - MaxUnavailable, remove that excess from the old
// RSs, oldest first (sorting its own copy of `old_rss`).
OldReplicaSetsPlan plan_scale_down_old_replica_sets_for_rolling_update(
    const ReplicaSetList& all_rss, ReplicaSetList old_rss, const DeploymentView& d);

// reconcileOldReplicaSets: when the old RSs have replicas and
// sum(spec of all) - minAvailable - (new spec - new available) > 0, the
// clean-up of that many unhealthy old replicas followed by the healthy
// scale-down (computed on the sizes after the clean-up). Upstream swallows
// errors of either step (reporting "not scaled") and keeps the updates made
// before them; the executor should do the same for a failed update.
OldReplicaSetsPlan plan_reconcile_old_replica_sets(const ReplicaSetList& all_rss,
                                                   const ReplicaSetList& old_rss,
                                                   const ReplicaSetInfo& new_rs,
                                                   const DeploymentView& d);

}  // namespace kcm::controllers::deployment
