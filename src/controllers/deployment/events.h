// Event reasons and messages the Deployment controller records on the
// Deployment (upstream sync.go, rollback.go and deployment_controller.go).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kcm::controllers::deployment {

inline constexpr std::string_view kEventNormal = "Normal";
inline constexpr std::string_view kEventWarning = "Warning";

inline constexpr std::string_view kScalingReplicaSetReason = "ScalingReplicaSet";
inline constexpr std::string_view kSelectingAllReason = "SelectingAll";
inline constexpr std::string_view kSelectingAllMessage =
    "This deployment is selecting all pods. A non-empty selector is required.";
// Also the Progressing reason of a failed creation (kFailedRSCreateReason).
inline constexpr std::string_view kReplicaSetCreateErrorReason = "ReplicaSetCreateError";
inline constexpr std::string_view kRollbackRevisionNotFound = "DeploymentRollbackRevisionNotFound";
inline constexpr std::string_view kRollbackTemplateUnchanged =
    "DeploymentRollbackTemplateUnchanged";
inline constexpr std::string_view kRollbackDone = "DeploymentRollback";

// `"<s>"`: a name in double quotes, as upstream's messages print it with %q
// (names need no escaping).
inline std::string quoted(std::string_view s) {
  return "\"" + std::string(s) + "\"";
}

// "Scaled <up|down> replica set <name> from <old> to <n>" (upstream #125118,
// v1.31; older releases said "to <n> from <old>").
std::string scaling_replica_set_message(std::string_view operation, std::string_view rs_name,
                                        std::int32_t new_replicas, std::int32_t old_replicas);
// A created RS: "Scaled up replica set <name> from 0 to <n>".
std::string created_replica_set_scaled_message(std::string_view rs_name, std::int32_t replicas);
// `Failed to create new replica set "<name>": <err>`.
std::string failed_create_replica_set_message(std::string_view rs_name, std::string_view error);
// `Rolled back deployment "<name>" to revision <n>`.
std::string rolled_back_message(std::string_view deployment_name, std::int64_t revision);
// `The rollback revision contains the same template as current deployment "<name>"`.
std::string rollback_template_unchanged_message(std::string_view deployment_name);
inline constexpr std::string_view kRollbackLastRevisionNotFoundMessage =
    "Unable to find last revision.";
inline constexpr std::string_view kRollbackRevisionNotFoundMessage =
    "Unable to find the revision to rollback to.";

}  // namespace kcm::controllers::deployment
