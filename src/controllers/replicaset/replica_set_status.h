// apps/v1 ReplicaSetStatus as the ReplicaSet controller computes it, with the
// condition helpers of upstream replica_set_utils.go and the API server's
// status validation (ValidateReplicaSetStatus).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/field_error.h"
#include "api/json.h"
#include "api/time.h"

namespace kcm::controllers::replicaset {

namespace json = api::json;

// The only condition type apps/v1 defines for ReplicaSets.
inline constexpr std::string_view kReplicaFailure = "ReplicaFailure";

struct ReplicaSetCondition {
  std::string type;
  std::string status;  // "True", "False", "Unknown"
  api::Time last_transition_time;
  std::string reason;
  std::string message;
  json::object unknown;  // members this struct does not model, kept for the write

  static ReplicaSetCondition from_json(const json::object& o);
  json::object to_json() const;
  friend bool operator==(const ReplicaSetCondition&, const ReplicaSetCondition&) = default;
};

struct ReplicaSetStatus {
  std::int32_t replicas = 0;
  std::int32_t fully_labeled_replicas = 0;
  std::int32_t ready_replicas = 0;
  std::int32_t available_replicas = 0;
  // Unset when the DeploymentReplicaSetTerminatingReplicas gate is off.
  std::optional<std::int32_t> terminating_replicas;
  std::int64_t observed_generation = 0;
  std::vector<ReplicaSetCondition> conditions;

  // Reads `status` leniently: absent or mistyped members are Go's zero value.
  static ReplicaSetStatus from_json(const json::value* status);
  // Writes the modelled members into `status` in Go's order and omitempty
  // rules, keeping members it does not model.
  void write_to(json::object& status) const;
  json::object to_json() const;
  friend bool operator==(const ReplicaSetStatus&, const ReplicaSetStatus&) = default;
};

// NewReplicaSetCondition, stamped with `now`.
ReplicaSetCondition new_replica_set_condition(std::string_view type, std::string_view status,
                                              std::string_view reason, std::string_view message,
                                              api::Time now);
// GetCondition: the first condition of `type`, or nullptr.
const ReplicaSetCondition* get_condition(const ReplicaSetStatus& status, std::string_view type);
// SetCondition: a no-op when a condition of that type already has the same
// status and reason; otherwise removes conditions of that type and appends
// `condition` (lastTransitionTime is not carried over).
void set_condition(ReplicaSetStatus& status, ReplicaSetCondition condition);
// RemoveCondition: drops every condition of `type`.
void remove_condition(ReplicaSetStatus& status, std::string_view type);

// ValidateReplicaSetStatus: counts and observedGeneration non-negative;
// fullyLabeled, ready and available at most replicas ("cannot be greater than
// status.replicas"); available at most ready ("cannot be greater than
// readyReplicas"). Fields are under `path` ("status").
api::FieldErrors validate_replica_set_status(const ReplicaSetStatus& status,
                                             std::string_view path = "status");

}  // namespace kcm::controllers::replicaset
