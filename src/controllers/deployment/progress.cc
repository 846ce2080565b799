#include "controllers/deployment/progress.h"

#include <limits>
#include <string>

#include "controllers/deployment/events.h"
#include "controllers/deployment/replica_math.h"

namespace kcm::controllers::deployment {

namespace {

constexpr std::int32_t kMaxInt32 = std::numeric_limits<std::int32_t>::max();

// "ReplicaSet "<rs>" <what>" or "Deployment "<d>" <what>" without a new RS.
std::string about(const ReplicaSetInfo* new_rs, const DeploymentView& d, std::string_view what) {
  if (new_rs != nullptr) return "ReplicaSet " + quoted(new_rs->name) + " " + std::string(what);
  return "Deployment " + quoted(d.name) + " " + std::string(what);
}

}  // namespace

bool has_progress_deadline(const DeploymentView& d) {
  return d.progress_deadline_seconds && *d.progress_deadline_seconds != kMaxInt32;
}

bool has_revision_history_limit(const DeploymentView& d) {
  return d.revision_history_limit && *d.revision_history_limit != kMaxInt32;
}

bool deployment_complete(const DeploymentView& d, const DeploymentStatus& s) {
  return s.updated_replicas == d.replicas && s.replicas == d.replicas &&
         s.available_replicas == d.replicas && s.observed_generation >= d.generation;
}

bool deployment_progressing(const DeploymentView& d, const DeploymentStatus& s) {
  const DeploymentStatus& old = d.status;
  const std::int64_t old_old_replicas = std::int64_t{old.replicas} - old.updated_replicas;
  const std::int64_t new_old_replicas = std::int64_t{s.replicas} - s.updated_replicas;
  return s.updated_replicas > old.updated_replicas || new_old_replicas < old_old_replicas ||
         s.ready_replicas > old.ready_replicas || s.available_replicas > old.available_replicas;
}

bool deployment_timed_out(const DeploymentView& d, const DeploymentStatus& new_status,
                          api::Time now) {
  if (!has_progress_deadline(d)) return false;
  const DeploymentCondition* c = get_deployment_condition(new_status, kProgressing);
  if (c == nullptr) return false;
  // A completed rollout is not re-estimated (the condition may be stale).
  if (c->reason == kNewRSAvailableReason) return false;
  if (c->reason == kTimedOutReason) return true;
  if (c->last_update_time.is_zero()) return true;  // Go's zero time + deadline is long past
  const auto deadline =
      c->last_update_time.time_point() + std::chrono::seconds(*d.progress_deadline_seconds);
  return deadline < now.time_point();
}

DeploymentStatus calculate_status(const ReplicaSetList& all_rss, const ReplicaSetInfo* new_rs,
                                  const DeploymentView& d, api::Time now,
                                  const StatusOptions& options) {
  const std::int32_t available = available_replica_count(all_rss);
  const std::int32_t total = replica_count(all_rss);
  DeploymentStatus s;
  s.observed_generation = d.generation;
  s.replicas = actual_replica_count(all_rss);
  s.updated_replicas = new_rs != nullptr ? new_rs->status_replicas : 0;
  s.ready_replicas = ready_replica_count(all_rss);
  s.available_replicas = available;
  s.unavailable_replicas = total - available > 0 ? total - available : 0;
  s.collision_count = d.status.collision_count;
  if (options.terminating_replicas) s.terminating_replicas = terminating_replica_count(all_rss);
  s.conditions = d.status.conditions;
  if (available >= d.replicas - max_unavailable(d)) {
    set_deployment_condition(s,
                             new_deployment_condition(kAvailable, "True", kMinimumReplicasAvailable,
                                                      "Deployment has minimum availability.", now));
  } else {
    set_deployment_condition(
        s, new_deployment_condition(kAvailable, "False", kMinimumReplicasUnavailable,
                                    "Deployment does not have minimum availability.", now));
  }
  return s;
}

DeploymentStatus rollout_status(const ReplicaSetList& all_rss, const ReplicaSetInfo* new_rs,
                                const DeploymentView& d, api::Time now,
                                const StatusOptions& options) {
  DeploymentStatus s = calculate_status(all_rss, new_rs, d, now, options);
  const bool deadline = has_progress_deadline(d);
  if (!deadline) remove_deployment_condition(s, kProgressing);

  // With only the new RS active there is no rollout to estimate.
  const DeploymentCondition* current = get_deployment_condition(d.status, kProgressing);
  const bool complete_already = s.replicas == s.updated_replicas && current != nullptr &&
                                current->reason == kNewRSAvailableReason;
  if (deadline && !complete_already) {
    if (deployment_complete(d, s)) {
      set_deployment_condition(
          s, new_deployment_condition(kProgressing, "True", kNewRSAvailableReason,
                                      about(new_rs, d, "has successfully progressed."), now));
    } else if (deployment_progressing(d, s)) {
      DeploymentCondition c = new_deployment_condition(
          kProgressing, "True", kReplicaSetUpdatedReason, about(new_rs, d, "is progressing."), now);
      if (current != nullptr) {
        if (current->status == "True") c.last_transition_time = current->last_transition_time;
        // Same reason again must still refresh lastUpdateTime.
        remove_deployment_condition(s, kProgressing);
      }
      set_deployment_condition(s, std::move(c));
    } else if (deployment_timed_out(d, s, now)) {
      set_deployment_condition(
          s, new_deployment_condition(kProgressing, "False", kTimedOutReason,
                                      about(new_rs, d, "has timed out progressing."), now));
    }
  }

  // Failures of the new RS win over those of the old ones; only the first counts.
  const DeploymentCondition* failure = nullptr;
  if (new_rs != nullptr && !new_rs->replica_failures.empty()) {
    failure = &new_rs->replica_failures.front();
  } else {
    for (const ReplicaSetInfo* rs : all_rss) {
      if (rs != nullptr && !rs->replica_failures.empty()) {
        failure = &rs->replica_failures.front();
        break;
      }
    }
  }
  if (failure != nullptr) {
    set_deployment_condition(s, *failure);
  } else {
    remove_deployment_condition(s, kReplicaFailure);
  }
  return s;
}

StuckRequeue requeue_stuck_deployment(const DeploymentView& d, const DeploymentStatus& new_status,
                                      api::Time now) {
  const DeploymentCondition* current = get_deployment_condition(d.status, kProgressing);
  if (!has_progress_deadline(d) || current == nullptr) return {};
  if (deployment_complete(d, new_status) || current->reason == kTimedOutReason) return {};
  StuckRequeue r;
  if (current->last_update_time.is_zero()) {
    r.kind = StuckRequeue::Kind::kRateLimited;
    return r;
  }
  const auto after = current->last_update_time.time_point() +
                     std::chrono::seconds(*d.progress_deadline_seconds) - now.time_point();
  if (after < std::chrono::seconds(1)) {
    r.kind = StuckRequeue::Kind::kRateLimited;
    return r;
  }
  r.kind = StuckRequeue::Kind::kAfter;
  r.after = std::chrono::duration_cast<std::chrono::nanoseconds>(after);
  return r;
}

std::optional<DeploymentStatus> paused_conditions_status(const DeploymentView& d, api::Time now) {
  if (!has_progress_deadline(d)) return std::nullopt;
  const DeploymentCondition* c = get_deployment_condition(d.status, kProgressing);
  if (c != nullptr && c->reason == kTimedOutReason) return std::nullopt;
  const bool paused_condition = c != nullptr && c->reason == kPausedDeployReason;
  DeploymentStatus s = d.status;
  if (d.paused && !paused_condition) {
    set_deployment_condition(s,
                             new_deployment_condition(kProgressing, "Unknown", kPausedDeployReason,
                                                      "Deployment is paused", now));
    return s;
  }
  if (!d.paused && paused_condition) {
    set_deployment_condition(s,
                             new_deployment_condition(kProgressing, "Unknown", kResumedDeployReason,
                                                      "Deployment is resumed", now));
    return s;
  }
  return std::nullopt;
}

DeploymentCondition found_new_replica_set_condition(std::string_view rs_name, api::Time now) {
  return new_deployment_condition(kProgressing, "True", kFoundNewRSReason,
                                  "Found new replica set " + quoted(rs_name), now);
}

DeploymentCondition new_replica_set_created_condition(std::string_view rs_name, api::Time now) {
  return new_deployment_condition(kProgressing, "True", kNewReplicaSetReason,
                                  "Created new replica set " + quoted(rs_name), now);
}

DeploymentCondition replica_set_create_error_condition(std::string_view message, api::Time now) {
  return new_deployment_condition(kProgressing, "False", kFailedRSCreateReason, message, now);
}

}  // namespace kcm::controllers::deployment
