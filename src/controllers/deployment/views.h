// What the Deployment controller reads of an apps/v1 Deployment and of its
// ReplicaSets, parsed once per sync. The pure planning functions of this
// folder work on these views; writes go back to the JSON objects, so members
// kcm does not model survive a read-modify-write.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/int_or_string.h"
#include "api/json.h"
#include "api/label_selector.h"
#include "api/result.h"
#include "api/time.h"
#include "controllers/deployment/deployment_status.h"

namespace kcm::controllers::deployment {

using Annotations = std::map<std::string, std::string, std::less<>>;

inline constexpr std::string_view kRollingUpdateStrategy = "RollingUpdate";
inline constexpr std::string_view kRecreateStrategy = "Recreate";

// metadata.annotations of an object (string members only).
Annotations annotations_of(const json::object& obj);

struct DeploymentView {
  std::string namespace_;
  std::string name;
  std::string uid;
  std::int64_t generation = 0;
  bool being_deleted = false;
  Annotations annotations;
  // spec.replicas; the API server defaults it to 1, so an absent value reads as 1.
  std::int32_t replicas = 1;
  std::optional<api::LabelSelector> selector;  // nullopt: absent
  std::string strategy_type;                   // spec.strategy.type as written
  // spec.strategy.rollingUpdate.maxSurge / maxUnavailable (nullopt: unset).
  std::optional<api::IntOrString> max_surge;
  std::optional<api::IntOrString> max_unavailable;
  std::int32_t min_ready_seconds = 0;
  std::optional<std::int32_t> revision_history_limit;
  std::optional<std::int32_t> progress_deadline_seconds;
  bool paused = false;
  DeploymentStatus status;

  // Lenient like the other views: mistyped members read as zero values. A
  // selector or an IntOrString that does not decode is an error.
  static Result<DeploymentView> from_json(const json::object& deployment);
  bool is_rolling_update() const { return strategy_type == kRollingUpdateStrategy; }
  std::string key() const { return namespace_ + "/" + name; }
};

// What the Deployment controller reads of one of its ReplicaSets.
struct ReplicaSetInfo {
  std::string namespace_;
  std::string name;
  std::string uid;
  api::Time creation_timestamp;
  std::int64_t generation = 0;
  bool being_deleted = false;
  Annotations annotations;
  // The uid of its controller ownerReference, if any.
  std::optional<std::string> controller_uid;
  // spec.replicas; absent reads as 1 (the API server's default).
  std::int32_t spec_replicas = 1;
  std::int32_t min_ready_seconds = 0;
  // status
  std::int32_t status_replicas = 0;
  std::int32_t ready_replicas = 0;
  std::int32_t available_replicas = 0;
  std::optional<std::int32_t> terminating_replicas;
  std::int64_t observed_generation = 0;
  // Its ReplicaFailure conditions, already converted
  // (ReplicaSetToDeploymentCondition), in order.
  std::vector<DeploymentCondition> replica_failures;
  // The object this view was read from (not owned; may be null).
  const json::object* object = nullptr;

  static ReplicaSetInfo from_json(const json::object& rs);
};

using ReplicaSetList = std::vector<const ReplicaSetInfo*>;

}  // namespace kcm::controllers::deployment
