// upstream rollback.go: the deprecated rollback annotation. The target
// revision's template is copied into the Deployment, which is then updated
// with the annotation cleared; the rollout itself happens in later syncs.
#include <utility>

#include "controllers/deployment/deployment_syncer.h"
#include "controllers/deployment/events.h"
#include "controllers/deployment/rollback.h"
#include "log/log.h"

namespace kcm::controllers::deployment {

SyncResult DeploymentSyncer::rollback(SyncState& s) {
  auto all = get_all_replica_sets_and_sync_revision(s, true);
  if (!all.ok()) return fail(std::move(all).error());
  const std::optional<std::int64_t> revision = rollback_to(s.d);
  if (!revision) return {};  // the caller checked; nothing to roll back to

  const RollbackPlan plan = plan_rollback(s.deployment, s.d, *revision, all->all());
  // Warnings go out whatever the update does; the rollback event only once
  // the Deployment really changed.
  if (!plan.rolled_back) record_event(s, plan.event_type, plan.event_reason, plan.event_message);
  auto updated = api_.update_deployment(plan.deployment);
  if (!updated.ok()) return fail(std::move(updated).error());
  if (plan.rolled_back) {
    if (log::v(4)) {
      log::info("Rolled back deployment", {{"deployment", s.key}, {"revision", plan.revision}});
    }
    record_event(s, plan.event_type, plan.event_reason, plan.event_message);
  }
  return {};
}

}  // namespace kcm::controllers::deployment
