#include "controllers/deployment/scale.h"

#include "controllers/deployment/annotations.h"
#include "controllers/deployment/replica_math.h"
#include "controllers/deployment/replica_sets.h"

namespace kcm::controllers::deployment {

bool is_scaling_event(const DeploymentView& d, const ReplicaSetInfo* new_rs,
                      const ReplicaSetList& old_rss) {
  ReplicaSetList all = old_rss;
  all.push_back(new_rs);
  for (const ReplicaSetInfo* rs : filter_active_replica_sets(all)) {
    const std::optional<std::int32_t> desired = desired_replicas_annotation(*rs);
    if (desired && *desired != d.replicas) return true;
  }
  return false;
}

ScaleActions plan_scale(const DeploymentView& d, const ReplicaSetInfo* new_rs,
                        const ReplicaSetList& old_rss) {
  ScaleActions actions;
  // Upstream's FindActiveOrLatest sorts the old RSs newest first in place,
  // the order in which a saturated new RS then scales them down.
  ReplicaSetList old_newest_first = old_rss;
  // At most one active RS: it takes the whole size.
  if (const ReplicaSetInfo* active = find_active_or_latest(new_rs, old_newest_first)) {
    if (active->spec_replicas != d.replicas) {
      if (auto a = scale_replica_set_and_record_event(*active, d.replicas, d)) {
        actions.push_back(std::move(*a));
      }
    }
    return actions;
  }
  // The new RS is saturated: the old ones should be gone.
  if (is_saturated(d, new_rs)) {
    for (const ReplicaSetInfo* old : filter_active_replica_sets(old_newest_first)) {
      if (auto a = scale_replica_set_and_record_event(*old, 0, d)) actions.push_back(std::move(*a));
    }
    return actions;
  }
  if (!d.is_rolling_update()) return actions;

  ReplicaSetList all = old_rss;
  all.push_back(new_rs);
  ReplicaSetList active = filter_active_replica_sets(all);
  const std::int32_t allowed = d.replicas > 0 ? d.replicas + max_surge(d) : 0;
  const std::int32_t to_add = allowed - replica_count(active);
  if (to_add > 0) {
    sort_by_size_newer(active);
  } else if (to_add < 0) {
    sort_by_size_older(active);
  }
  std::vector<std::int32_t> sizes;
  sizes.reserve(active.size());
  std::int32_t added = 0;
  for (const ReplicaSetInfo* rs : active) {
    const std::int32_t p = to_add != 0 ? replica_set_proportion(rs, d, to_add, added) : 0;
    sizes.push_back(rs->spec_replicas + p);
    added += p;
  }
  for (std::size_t i = 0; i < active.size(); ++i) {
    // The leftover goes to (or comes from) the first, largest RS.
    if (i == 0 && to_add != 0) {
      sizes[0] += to_add - added;
      if (sizes[0] < 0) sizes[0] = 0;
    }
    if (auto a = scale_replica_set(*active[i], sizes[i], d)) {
      actions.push_back(std::move(*a));
    }
  }
  return actions;
}

}  // namespace kcm::controllers::deployment
