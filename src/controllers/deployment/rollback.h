// Rollback through the deprecated `deprecated.deployment.rollback.to`
// annotation (upstream rollback.go). kubectl rollout undo does not use it;
// only legacy API versions write it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "api/json.h"
#include "controllers/deployment/views.h"

namespace kcm::controllers::deployment {

// getRollbackTo: the annotation as an int64; nullopt when absent, empty or
// not an integer (then there is no rollback).
std::optional<std::int64_t> rollback_to(const DeploymentView& d);

struct RollbackPlan {
  // The Deployment to Update: the rollback annotation cleared and, when
  // rolled_back, the target's template (without pod-template-hash) and
  // annotations (SetDeploymentAnnotationsTo).
  json::object deployment;
  bool rolled_back = false;
  std::int64_t revision = 0;  // the revision looked for (after resolving 0)
  // The event to record; for a rollback (Normal DeploymentRollback) only
  // once the update succeeded.
  std::string event_type;
  std::string event_reason;
  std::string event_message;
};

// rollback(): revision 0 means LastRevision(all_rss) ("Unable to find last
// revision." when there is none); the first RS with that revision is the
// target (DeploymentRollbackTemplateUnchanged when its template is already
// the Deployment's); "Unable to find the revision to rollback to." when no RS
// has it. `all_rss` are the old RSs and the new one (after
// getAllReplicaSetsAndSyncRevision created it), each with `object` set.
RollbackPlan plan_rollback(const json::object& deployment, const DeploymentView& d,
                           std::int64_t revision, const ReplicaSetList& all_rss);

// setRollbackTo(d, nil): removes the rollback annotation.
void clear_rollback_to(json::object& deployment);

}  // namespace kcm::controllers::deployment
