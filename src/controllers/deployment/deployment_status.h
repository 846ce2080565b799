// apps/v1 DeploymentStatus and DeploymentCondition as the Deployment
// controller reads and writes them, with the condition helpers of upstream
// deployment_util.go and the condition reasons the controller uses.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/json.h"
#include "api/time.h"

namespace kcm::controllers::deployment {

namespace json = api::json;

// Condition types.
inline constexpr std::string_view kAvailable = "Available";
inline constexpr std::string_view kProgressing = "Progressing";
inline constexpr std::string_view kReplicaFailure = "ReplicaFailure";

// Reasons of the Progressing condition.
inline constexpr std::string_view kReplicaSetUpdatedReason = "ReplicaSetUpdated";
inline constexpr std::string_view kFailedRSCreateReason = "ReplicaSetCreateError";
inline constexpr std::string_view kNewReplicaSetReason = "NewReplicaSetCreated";
inline constexpr std::string_view kFoundNewRSReason = "FoundNewReplicaSet";
inline constexpr std::string_view kNewRSAvailableReason = "NewReplicaSetAvailable";
inline constexpr std::string_view kTimedOutReason = "ProgressDeadlineExceeded";
inline constexpr std::string_view kPausedDeployReason = "DeploymentPaused";
inline constexpr std::string_view kResumedDeployReason = "DeploymentResumed";
// Reasons of the Available condition.
inline constexpr std::string_view kMinimumReplicasAvailable = "MinimumReplicasAvailable";
inline constexpr std::string_view kMinimumReplicasUnavailable = "MinimumReplicasUnavailable";

struct DeploymentCondition {
  std::string type;
  std::string status;  // "True", "False", "Unknown"
  api::Time last_update_time;
  api::Time last_transition_time;
  std::string reason;
  std::string message;
  json::object unknown;  // members this struct does not model, kept for the write

  static DeploymentCondition from_json(const json::object& o);
  // Go's member order; zero times are null, empty reason and message omitted.
  json::object to_json() const;
  friend bool operator==(const DeploymentCondition&, const DeploymentCondition&) = default;
};

struct DeploymentStatus {
  std::int64_t observed_generation = 0;
  std::int32_t replicas = 0;
  std::int32_t updated_replicas = 0;
  std::int32_t ready_replicas = 0;
  std::int32_t available_replicas = 0;
  std::int32_t unavailable_replicas = 0;
  // Unset when unknown (or the DeploymentReplicaSetTerminatingReplicas gate is off).
  std::optional<std::int32_t> terminating_replicas;
  std::vector<DeploymentCondition> conditions;
  std::optional<std::int32_t> collision_count;

  // Lenient: absent or mistyped members are Go's zero value.
  static DeploymentStatus from_json(const json::value* status);
  // Writes the modelled members into `status` in Go's order and omitempty
  // rules, keeping members it does not model.
  void write_to(json::object& status) const;
  json::object to_json() const;
  friend bool operator==(const DeploymentStatus&, const DeploymentStatus&) = default;
};

// NewDeploymentCondition: both times set to `now`.
DeploymentCondition new_deployment_condition(std::string_view type, std::string_view status,
                                             std::string_view reason, std::string_view message,
                                             api::Time now);
// GetDeploymentCondition: the first condition of `type`, or nullptr.
const DeploymentCondition* get_deployment_condition(const DeploymentStatus& status,
                                                    std::string_view type);
// SetDeploymentCondition: a no-op when a condition of that type already has the
// same status and reason. Otherwise the old condition of that type is removed
// and `condition` appended at the end; when only the reason changed, the old
// lastTransitionTime is kept.
void set_deployment_condition(DeploymentStatus& status, DeploymentCondition condition);
// RemoveDeploymentCondition: drops every condition of `type`.
void remove_deployment_condition(DeploymentStatus& status, std::string_view type);

// ReplicaSetToDeploymentCondition: the RS condition's members, with both
// times taken from its lastTransitionTime.
DeploymentCondition replica_set_to_deployment_condition(std::string_view type,
                                                        std::string_view status,
                                                        api::Time last_transition_time,
                                                        std::string_view reason,
                                                        std::string_view message);

}  // namespace kcm::controllers::deployment
