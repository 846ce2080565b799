// upstream recreate.go: the Recreate strategy. Every old pod is gone (or
// terminal) before the new ReplicaSet is created and scaled up.
#include <utility>
#include <vector>

#include "controllers/deployment/deployment_syncer.h"
#include "controllers/deployment/progress.h"
#include "controllers/deployment/recreate.h"
#include "controllers/deployment/replica_math.h"

namespace kcm::controllers::deployment {

SyncResult DeploymentSyncer::rollout_recreate(SyncState& s) {
  // No new RS yet: creating it now would scale up before the old pods go.
  auto all = get_all_replica_sets_and_sync_revision(s, false);
  if (!all.ok()) return fail(std::move(all).error());
  const ReplicaSetInfo* new_rs = all->new_rs;
  ReplicaSetList old_rss = all->old_rss;
  ReplicaSetList all_rss = all->all();

  auto scaled_down = apply_scale_actions(
      s, plan_scale_down_old_replica_sets_for_recreate(filter_active_replica_sets(old_rss), s.d));
  if (!scaled_down.ok()) return fail(std::move(scaled_down).error());
  if (*scaled_down) return sync_rollout_status(s, all_rss, new_rs);

  // getPodMapForDeployment: the pods of every owned RS, terminal ones too.
  auto listed = list_pods(s);
  if (!listed.ok()) return fail(std::move(listed).error());
  std::vector<json::value> pod_objects;
  pod_objects.reserve(listed->size());
  for (const cache::ObjectPtr& pod : *listed)
    pod_objects.push_back(pod->object());
  std::vector<const json::object*> pods;
  for (const json::value& pod : pod_objects) {
    if (pod.is_object()) pods.push_back(&pod.as_object());
  }
  const PodMap pod_map = pod_map_for_deployment(pods, s.rs_list);
  if (old_pods_running(new_rs, old_rss, pod_map)) return sync_rollout_status(s, all_rss, new_rs);

  if (new_rs == nullptr) {
    auto created = get_all_replica_sets_and_sync_revision(s, true);
    if (!created.ok()) return fail(std::move(created).error());
    new_rs = created->new_rs;
    old_rss = created->old_rss;
    all_rss = created->all();
    if (new_rs == nullptr) return fail(sync_error("no new replica set for " + s.key));
  }

  auto scaled_up = apply_scale_actions(s, plan_scale_up_new_replica_set_for_recreate(*new_rs, s.d));
  if (!scaled_up.ok()) return fail(std::move(scaled_up).error());

  if (deployment_complete(s.d, s.d.status)) {
    if (auto r = cleanup_deployment(s, old_rss); !r.ok()) return r;
  }
  return sync_rollout_status(s, all_rss, new_rs);
}

}  // namespace kcm::controllers::deployment
