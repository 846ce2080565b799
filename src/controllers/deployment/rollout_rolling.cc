// upstream rolling.go: the RollingUpdate strategy. The new ReplicaSet grows
// within maxSurge, then old ones shrink within maxUnavailable; every pass
// ends by writing the rollout status.
#include <utility>

#include "controllers/deployment/deployment_syncer.h"
#include "controllers/deployment/replica_math.h"
#include "controllers/deployment/rolling.h"
#include "log/log.h"

namespace kcm::controllers::deployment {

SyncResult DeploymentSyncer::rollout_rolling(SyncState& s) {
  auto all = get_all_replica_sets_and_sync_revision(s, true);
  if (!all.ok()) return fail(std::move(all).error());
  if (all->new_rs == nullptr) return fail(sync_error("no new replica set for " + s.key));
  const ReplicaSetInfo& new_rs = *all->new_rs;
  const ReplicaSetList all_rss = all->all();

  // Scale up, if we can.
  auto scaled_up = reconcile_new_replica_set(s, all_rss, new_rs);
  if (!scaled_up.ok()) return fail(std::move(scaled_up).error());
  if (*scaled_up) return sync_rollout_status(s, all_rss, &new_rs);

  // Scale down, if we can.
  if (reconcile_old_replica_sets(s, all_rss, filter_active_replica_sets(all->old_rss), new_rs)) {
    return sync_rollout_status(s, all_rss, &new_rs);
  }

  // Judged on the status this sync started from, so clean-up trails
  // completion by one sync (as upstream's does).
  if (deployment_complete(s.d, s.d.status)) {
    if (auto r = cleanup_deployment(s, all->old_rss); !r.ok()) return r;
  }
  return sync_rollout_status(s, all_rss, &new_rs);
}

Result<bool, api::Status> DeploymentSyncer::reconcile_new_replica_set(
    SyncState& s, const ReplicaSetList& all_rss, const ReplicaSetInfo& new_rs) {
  auto plan = plan_reconcile_new_replica_set(s.d, all_rss, new_rs);
  if (!plan.ok()) return fail(sync_error(plan.error()));
  return apply_scale_actions(s, *plan);
}

bool DeploymentSyncer::reconcile_old_replica_sets(SyncState& s, const ReplicaSetList& all_rss,
                                                  const ReplicaSetList& old_rss,
                                                  const ReplicaSetInfo& new_rs) {
  const OldReplicaSetsPlan plan = plan_reconcile_old_replica_sets(all_rss, old_rss, new_rs, s.d);
  // Upstream reports a failed clean-up or scale-down as "nothing scaled"
  // and goes on to write the status; the updates sent before the failure stay.
  auto applied = apply_scale_actions(s, plan.actions);
  if (!applied.ok()) {
    if (log::v(4)) {
      log::info("Failed to scale down old replica sets",
                {{"deployment", s.key}, {"err", applied.error().message}});
    }
    return false;
  }
  if (plan.error) {
    if (log::v(4)) log::info("Cannot scale down old replica sets", {{"err", *plan.error}});
    return false;
  }
  return plan.scaled();
}

}  // namespace kcm::controllers::deployment
