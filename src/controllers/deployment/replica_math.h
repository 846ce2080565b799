// The arithmetic of rollouts (upstream deployment_util.go): surge and
// unavailability fenceposts, replica sums, how big the new ReplicaSet may
// grow, and each ReplicaSet's share in proportional scaling.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "api/int_or_string.h"
#include "api/result.h"
#include "controllers/deployment/views.h"

namespace kcm::controllers::deployment {

struct Fenceposts {
  std::int32_t surge = 0;
  std::int32_t unavailable = 0;
};

// ResolveFenceposts: surge = maxSurge of `desired` rounded up, unavailable =
// maxUnavailable rounded down (unset values count as 0); when both are 0,
// unavailable becomes 1 so that a rollout can progress. Errors are
// GetScaledValueFromIntOrPercent's, and "... is out of int32 range" for
// values that do not fit.
Result<Fenceposts> resolve_fenceposts(const std::optional<api::IntOrString>& max_surge,
                                      const std::optional<api::IntOrString>& max_unavailable,
                                      std::int32_t desired);

// MaxSurge: 0 unless RollingUpdate (errors, which validation prevents, count as 0).
std::int32_t max_surge(const DeploymentView& d);
// MaxUnavailable: 0 unless RollingUpdate or when replicas is 0; otherwise
// the resolved unavailable, at most replicas.
std::int32_t max_unavailable(const DeploymentView& d);
// MinAvailable: 0 unless RollingUpdate; replicas - MaxUnavailable.
std::int32_t min_available(const DeploymentView& d);

// GetReplicaCountForReplicaSets (spec), GetActualReplicaCountForReplicaSets
// (status.replicas), ready and available sums; null entries are skipped.
std::int32_t replica_count(const ReplicaSetList& replica_sets);
std::int32_t actual_replica_count(const ReplicaSetList& replica_sets);
std::int32_t ready_replica_count(const ReplicaSetList& replica_sets);
std::int32_t available_replica_count(const ReplicaSetList& replica_sets);
// GetTerminatingReplicaCountForReplicaSets: the sum of
// status.terminatingReplicas; an RS that was never synced (observedGeneration
// 0, no count) adds 0; any other RS without a count makes the sum unknown.
std::optional<std::int32_t> terminating_replica_count(const ReplicaSetList& replica_sets);

// FilterActiveReplicaSets: non-null RSs with spec.replicas > 0, in order.
ReplicaSetList filter_active_replica_sets(const ReplicaSetList& replica_sets);

// NewRSNewReplicas: for RollingUpdate, the new RS grows by
// min(replicas + maxSurge - sum(spec of all_rss), replicas - new.spec) unless
// the total is already at replicas + maxSurge (then it keeps its size); for
// Recreate, replicas. Other strategies are an error
// ("deployment type X isn't supported").
Result<std::int32_t> new_rs_new_replicas(const DeploymentView& d, const ReplicaSetList& all_rss,
                                         const ReplicaSetInfo& new_rs);

// IsSaturated: the new RS has replicas pods in spec, in its desired-replicas
// annotation and available.
bool is_saturated(const DeploymentView& d, const ReplicaSetInfo* rs);

// getReplicaSetFraction: the change proportional scaling gives `rs`:
// -spec when the Deployment scales to 0; otherwise
// round(spec * (replicas + maxSurge) / maxReplicasAnnotation) - spec, with
// status.replicas instead of a missing, invalid or 0 annotation and 0 when
// that is 0 too.
std::int32_t replica_set_fraction(const ReplicaSetInfo& rs, const DeploymentView& d);
// GetReplicaSetProportion: the fraction clamped to what is left to add
// (to_add - added): min when scaling up, max when scaling down; 0 for a null
// or empty RS or when nothing is left.
std::int32_t replica_set_proportion(const ReplicaSetInfo* rs, const DeploymentView& d,
                                    std::int32_t to_add, std::int32_t added);

}  // namespace kcm::controllers::deployment
