#include "controllers/deployment/rolling.h"

#include <algorithm>
#include <list>
#include <string>

#include "controllers/deployment/replica_math.h"
#include "controllers/deployment/replica_sets.h"

namespace kcm::controllers::deployment {

namespace {

std::string invalid_scale_down(std::string_view what, const ReplicaSetInfo& rs,
                               std::int32_t new_size) {
  return "when " + std::string(what) + ", got invalid request to scale down " + rs.namespace_ +
         "/" + rs.name + " " + std::to_string(rs.spec_replicas) + " -> " + std::to_string(new_size);
}

// The clean-up and the scale-down work on the sizes the previous step left;
// these copies stand in for the updated RSs upstream carries along.
struct Working {
  std::list<ReplicaSetInfo> copies;
  const ReplicaSetInfo* updated(const ReplicaSetInfo& original, std::int32_t spec) {
    ReplicaSetInfo& c = copies.emplace_back(original);
    c.spec_replicas = spec;
    return &c;
  }
};

// Actions point at the caller's RSs, not at the working copies.
const ReplicaSetInfo* original_of(const ReplicaSetInfo* rs, const ReplicaSetList& originals) {
  for (const ReplicaSetInfo* o : originals) {
    if (o != nullptr && o->uid == rs->uid && o->name == rs->name) return o;
  }
  return rs;
}

OldReplicaSetsPlan cleanup_unhealthy(ReplicaSetList& old_rss, const DeploymentView& d,
                                     std::int32_t max_cleanup, Working& working) {
  OldReplicaSetsPlan plan;
  sort_by_creation_timestamp(old_rss);
  for (const ReplicaSetInfo*& rs : old_rss) {
    if (plan.cleaned_up >= max_cleanup) break;
    if (rs->spec_replicas == 0) continue;                       // cannot shrink
    if (rs->spec_replicas == rs->available_replicas) continue;  // all healthy
    const std::int32_t count =
        std::min(max_cleanup - plan.cleaned_up, rs->spec_replicas - rs->available_replicas);
    const std::int32_t new_size = rs->spec_replicas - count;
    if (new_size > rs->spec_replicas) {
      plan.error = invalid_scale_down("cleaning up unhealthy replicas", *rs, new_size);
      return plan;
    }
    if (auto a = scale_replica_set_and_record_event(*rs, new_size, d)) {
      plan.actions.push_back(std::move(*a));
      rs = working.updated(*rs, new_size);
    }
    plan.cleaned_up += count;
  }
  return plan;
}

}  // namespace

Result<ScaleActions> plan_reconcile_new_replica_set(const DeploymentView& d,
                                                    const ReplicaSetList& all_rss,
                                                    const ReplicaSetInfo& new_rs) {
  ScaleActions actions;
  if (new_rs.spec_replicas == d.replicas) return actions;
  std::int32_t target = d.replicas;
  if (new_rs.spec_replicas < d.replicas) {
    auto n = new_rs_new_replicas(d, all_rss, new_rs);
    if (!n.ok()) return fail(n.error());
    target = *n;
  }
  if (auto a = scale_replica_set_and_record_event(new_rs, target, d)) {
    actions.push_back(std::move(*a));
  }
  return actions;
}

OldReplicaSetsPlan plan_cleanup_unhealthy_replicas(const ReplicaSetList& old_rss,
                                                   const DeploymentView& d,
                                                   std::int32_t max_cleanup) {
  ReplicaSetList sorted = old_rss;
  Working working;
  return cleanup_unhealthy(sorted, d, max_cleanup, working);
}

OldReplicaSetsPlan plan_scale_down_old_replica_sets_for_rolling_update(
    const ReplicaSetList& all_rss, ReplicaSetList old_rss, const DeploymentView& d) {
  OldReplicaSetsPlan plan;
  const std::int32_t min_available_count = d.replicas - max_unavailable(d);
  const std::int32_t available = available_replica_count(all_rss);
  if (available <= min_available_count) return plan;
  sort_by_creation_timestamp(old_rss);
  const std::int32_t budget = available - min_available_count;
  for (const ReplicaSetInfo* rs : old_rss) {
    if (plan.scaled_down >= budget) break;
    if (rs->spec_replicas == 0) continue;
    const std::int32_t count = std::min(rs->spec_replicas, budget - plan.scaled_down);
    const std::int32_t new_size = rs->spec_replicas - count;
    if (new_size > rs->spec_replicas) {
      plan.error = invalid_scale_down("scaling down old RS", *rs, new_size);
      return plan;
    }
    if (auto a = scale_replica_set_and_record_event(*rs, new_size, d)) {
      plan.actions.push_back(std::move(*a));
    }
    plan.scaled_down += count;
  }
  return plan;
}

OldReplicaSetsPlan plan_reconcile_old_replica_sets(const ReplicaSetList& all_rss,
                                                   const ReplicaSetList& old_rss,
                                                   const ReplicaSetInfo& new_rs,
                                                   const DeploymentView& d) {
  OldReplicaSetsPlan plan;
  if (replica_count(old_rss) == 0) return plan;  // nothing to scale down
  const std::int32_t all_pods = replica_count(all_rss);
  const std::int32_t min_available_count = d.replicas - max_unavailable(d);
  const std::int32_t new_unavailable = new_rs.spec_replicas - new_rs.available_replicas;
  const std::int32_t max_scaled_down = all_pods - min_available_count - new_unavailable;
  if (max_scaled_down <= 0) return plan;

  Working working;
  ReplicaSetList old = old_rss;
  plan = cleanup_unhealthy(old, d, max_scaled_down, working);
  if (plan.error) return plan;

  ReplicaSetList all = old;
  all.push_back(&new_rs);
  OldReplicaSetsPlan down = plan_scale_down_old_replica_sets_for_rolling_update(all, old, d);
  for (ScaleAction& a : down.actions) {
    a.rs = original_of(a.rs, old_rss);
    plan.actions.push_back(std::move(a));
  }
  plan.scaled_down = down.scaled_down;
  plan.error = std::move(down.error);
  return plan;
}

}  // namespace kcm::controllers::deployment
