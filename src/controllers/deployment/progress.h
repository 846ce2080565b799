// Rollout progress (upstream deployment_util.go and progress.go): when a
// rollout is complete, progressing or past its progressDeadlineSeconds, the
// Deployment's status as the controller computes it, and when to look again
// at a rollout that makes no progress.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

#include "api/time.h"
#include "controllers/deployment/deployment_status.h"
#include "controllers/deployment/views.h"

namespace kcm::controllers::deployment {

// HasProgressDeadline: progressDeadlineSeconds is set and not MaxInt32.
bool has_progress_deadline(const DeploymentView& d);
// HasRevisionHistoryLimit: revisionHistoryLimit is set and not MaxInt32.
bool has_revision_history_limit(const DeploymentView& d);

// DeploymentComplete: updated, replicas and available all equal spec.replicas
// and the generation is observed.
bool deployment_complete(const DeploymentView& d, const DeploymentStatus& new_status);
// DeploymentProgressing: compared with d.status, more updated pods, fewer old
// pods, more ready pods or more available pods.
bool deployment_progressing(const DeploymentView& d, const DeploymentStatus& new_status);
// DeploymentTimedOut: with a deadline and a Progressing condition in
// new_status that is not NewReplicaSetAvailable: true for
// ProgressDeadlineExceeded, else lastUpdateTime + deadline strictly before now.
bool deployment_timed_out(const DeploymentView& d, const DeploymentStatus& new_status,
                          api::Time now);

// The DeploymentReplicaSetTerminatingReplicas feature gate (beta, on).
struct StatusOptions {
  bool terminating_replicas = true;
};

// calculateStatus: counts summed over all_rss (replicas, ready, available
// from status; unavailable = max(sum(spec) - available, 0)); updated = the
// new RS's status.replicas; observedGeneration = generation; collisionCount
// and conditions carried over; Available set from available >=
// replicas - MaxUnavailable (MinimumReplicasAvailable "Deployment has
// minimum availability." / MinimumReplicasUnavailable "Deployment does not
// have minimum availability."), stamped with `now` when it changes.
DeploymentStatus calculate_status(const ReplicaSetList& all_rss, const ReplicaSetInfo* new_rs,
                                  const DeploymentView& d, api::Time now,
                                  const StatusOptions& options = {});

// syncRolloutStatus's status: calculate_status, then the Progressing
// condition (removed without a deadline; NewReplicaSetAvailable when
// complete, ReplicaSetUpdated when progressing, ProgressDeadlineExceeded
// when timed out, unless the rollout already completed) and the new RS's (or
// any RS's) first ReplicaFailure condition. The controller writes it when it
// differs from d.status, otherwise calls requeue_stuck_deployment.
DeploymentStatus rollout_status(const ReplicaSetList& all_rss, const ReplicaSetInfo* new_rs,
                                const DeploymentView& d, api::Time now,
                                const StatusOptions& options = {});

// requeueStuckDeployment's decision for an unchanged status.
struct StuckRequeue {
  enum class Kind {
    kNone,         // no deadline, no Progressing condition, complete or already timed out
    kRateLimited,  // the deadline is less than a second away: AddRateLimited now
    kAfter,        // AddAfter(after + 1s)
  };
  Kind kind = Kind::kNone;
  std::chrono::nanoseconds after{0};  // lastUpdateTime + deadline - now (kAfter only)
};
StuckRequeue requeue_stuck_deployment(const DeploymentView& d, const DeploymentStatus& new_status,
                                      api::Time now);

// checkPausedConditions: the status with Progressing=Unknown DeploymentPaused
// ("Deployment is paused") or DeploymentResumed ("Deployment is resumed")
// when the pause state changed, nullopt when nothing changes (no deadline,
// already timed out, or already in that state).
std::optional<DeploymentStatus> paused_conditions_status(const DeploymentView& d, api::Time now);

// getNewReplicaSet's Progressing conditions.
// `Found new replica set "<rs>"` (FoundNewReplicaSet) and
// `Created new replica set "<rs>"` (NewReplicaSetCreated), both True.
DeploymentCondition found_new_replica_set_condition(std::string_view rs_name, api::Time now);
DeploymentCondition new_replica_set_created_condition(std::string_view rs_name, api::Time now);
// Progressing=False ReplicaSetCreateError with `message`.
DeploymentCondition replica_set_create_error_condition(std::string_view message, api::Time now);

}  // namespace kcm::controllers::deployment
