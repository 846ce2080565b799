// Scaling events and proportional scaling (upstream sync.go isScalingEvent
// and scale): when spec.replicas changes in the middle of a rollout (or while
// paused), every active ReplicaSet grows or shrinks in proportion to its size.
#pragma once

#include "controllers/deployment/scale_action.h"
#include "controllers/deployment/views.h"

namespace kcm::controllers::deployment {

// isScalingEvent: some active RS (old or new) has a valid desired-replicas
// annotation that differs from spec.replicas.
bool is_scaling_event(const DeploymentView& d, const ReplicaSetInfo* new_rs,
                      const ReplicaSetList& old_rss);

// scale(): the updates to send, in order (the controller stops at the first
// failure):
// 1. with at most one active RS (FindActiveOrLatest), that RS goes to
//    spec.replicas when it differs;
// 2. a saturated new RS: every active old RS goes to 0;
// 3. RollingUpdate: the difference between replicas + maxSurge (0 when
//    scaling to 0) and the active total is spread by
//    GetReplicaSetProportion, larger RSs first (newer first when adding,
//    older first when removing), the leftover to the first; every active RS
//    whose size or replica annotations change gets an update, all with the
//    overall direction as the event verb.
ScaleActions plan_scale(const DeploymentView& d, const ReplicaSetInfo* new_rs,
                        const ReplicaSetList& old_rss);

}  // namespace kcm::controllers::deployment
