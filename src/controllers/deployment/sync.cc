// upstream sync.go: the new ReplicaSet and the revisions, scaling events and
// paused Deployments, clean-up of old ReplicaSets, and the plain status.
#include <map>
#include <utility>

#include "controllers/deployment/annotations.h"
#include "controllers/deployment/cleanup.h"
#include "controllers/deployment/deployment_syncer.h"
#include "controllers/deployment/events.h"
#include "controllers/deployment/replica_math.h"
#include "controllers/deployment/replica_sets.h"
#include "controllers/deployment/rollback.h"
#include "controllers/deployment/scale.h"
#include "log/log.h"

namespace kcm::controllers::deployment {

SyncResult DeploymentSyncer::sync_status_only(SyncState& s) {
  auto all = get_all_replica_sets_and_sync_revision(s, false);
  if (!all.ok()) return fail(std::move(all).error());
  return sync_deployment_status(s, all->all(), all->new_rs);
}

SyncResult DeploymentSyncer::sync(SyncState& s) {
  auto all = get_all_replica_sets_and_sync_revision(s, false);
  if (!all.ok()) return fail(std::move(all).error());
  // A failed scale aborts: the Deployment is requeued.
  if (auto r = scale(s, all->new_rs, all->old_rss); !r.ok()) return r;
  // Clean up while paused, unless a rollback is in flight.
  if (s.d.paused && !rollback_to(s.d)) {
    if (auto r = cleanup_deployment(s, all->old_rss); !r.ok()) return r;
  }
  return sync_deployment_status(s, all->all(), all->new_rs);
}

SyncResult DeploymentSyncer::check_paused_conditions(SyncState& s) {
  const std::optional<DeploymentStatus> status = paused_conditions_status(s.d, now());
  if (!status) return {};
  s.set_status(*status);
  return write_status(s);
}

Result<DeploymentSyncer::AllReplicaSets, api::Status>
DeploymentSyncer::get_all_replica_sets_and_sync_revision(SyncState& s, bool create) {
  ReplicaSetList list = s.rs_list;
  AllReplicaSets out;
  out.old_rss = find_old_replica_sets(template_of(s.deployment), list).all;
  auto new_rs = get_new_replica_set(s, out.old_rss, create);
  if (!new_rs.ok()) return fail(std::move(new_rs).error());
  out.new_rs = *new_rs;
  return out;
}

Result<const ReplicaSetInfo*, api::Status> DeploymentSyncer::get_new_replica_set(
    SyncState& s, const ReplicaSetList& old_rss, bool create) {
  ReplicaSetList list = s.rs_list;
  const ReplicaSetInfo* existing = find_new_replica_set(template_of(s.deployment), list);
  const std::string revision_text = new_revision(old_rss);

  if (existing != nullptr) {
    // Bring the RS's annotations (revision, copied annotations) and
    // minReadySeconds up to date first; the Deployment follows next time.
    if (auto refreshed = refresh_new_replica_set(s.d, *existing->object, revision_text)) {
      if (refreshed->write) {
        auto updated = api_.update_replica_set(refreshed->rs);
        if (!updated.ok()) return fail(std::move(updated).error());
        return s.replace_replica_set(std::move(*updated));
      }
      // Upstream's unwritten copy stands for the RS for the rest of the sync.
      existing = s.replace_replica_set(std::move(refreshed->rs));
    }
    const bool needs_update =
        sync_deployment_with_new_replica_set(s.deployment, s.d, *existing, now());
    s.refresh_view();
    if (needs_update) {
      if (auto r = write_status(s); !r.ok()) return fail(std::move(r).error());
    }
    return existing;
  }

  if (!create) return static_cast<const ReplicaSetInfo*>(nullptr);
  return create_new_replica_set(s, old_rss, revision_text);
}

Result<const ReplicaSetInfo*, api::Status> DeploymentSyncer::create_new_replica_set(
    SyncState& s, const ReplicaSetList& old_rss, const std::string& revision_text) {
  auto built = new_replica_set(s.deployment, s.d, old_rss, revision_text);
  if (!built.ok()) return fail(sync_error(built.error()));
  const ReplicaSetInfo* wanted = s.pool.add(std::move(*built));
  const std::string name = wanted->name;
  const std::int32_t replicas = wanted->spec_replicas;

  const ReplicaSetInfo* created = nullptr;
  bool already_exists = false;
  auto answer = api_.create_replica_set(s.d.namespace_, *wanted->object);
  if (answer.ok()) {
    created = s.pool.add(std::move(*answer));
  } else if (answer.error().is(api::reason::kAlreadyExists)) {
    // A slow cache or a quick resync: it may be ours already.
    already_exists = true;
    auto cached = replica_sets_.namespace_(s.d.namespace_).get(name);
    if (!cached.ok()) return fail(std::move(cached).error());
    json::value object = (*cached)->object(s.storage());
    if (object.is_object()) {
      const ReplicaSetInfo* existing = s.pool.add(std::move(object.as_object()));
      if (is_own_replica_set(s.d, s.deployment, *existing)) created = existing;
    }
    if (created == nullptr) {
      // A hash collision: another template hashed to this name. A new
      // collisionCount gives the next sync another hash.
      DeploymentStatus status = s.d.status;
      const std::int32_t previous = status.collision_count.value_or(0);
      status.collision_count = next_collision_count(status.collision_count);
      s.set_status(status);
      if (write_status(s).ok()) {
        if (log::v(2)) {
          log::info("Found a hash collision for deployment - bumping collisionCount to resolve it",
                    {{"deployment", s.key},
                     {"oldCollisionCount", previous},
                     {"newCollisionCount", *status.collision_count}});
        }
      }
      return fail(std::move(answer).error());
    }
  } else if (has_status_cause(answer.error(), kNamespaceTerminatingCause)) {
    // Every create will fail until the namespace is gone: nothing to report.
    return fail(std::move(answer).error());
  } else {
    const std::string message = failed_create_replica_set_message(name, answer.error().message);
    if (has_progress_deadline(s.d)) {
      set_replica_set_create_error(s.deployment, s.d, message, now());
      s.refresh_view();
      (void)write_status(s);  // the create error is what matters
    }
    record_event(s, kEventWarning, kReplicaSetCreateErrorReason, message);
    return fail(std::move(answer).error());
  }

  if (!already_exists && replicas > 0) {
    record_event(s, kEventNormal, kScalingReplicaSetReason,
                 created_replica_set_scaled_message(created->name, replicas));
  }
  const bool needs_update = sync_deployment_with_created_replica_set(
      s.deployment, s.d, revision_text, created->name, !already_exists, now());
  s.refresh_view();
  if (needs_update) {
    if (auto r = write_status(s); !r.ok()) return fail(std::move(r).error());
  }
  return created;
}

Result<bool, api::Status> DeploymentSyncer::is_scaling_event(SyncState& s) {
  auto all = get_all_replica_sets_and_sync_revision(s, false);
  if (!all.ok()) return fail(std::move(all).error());
  return deployment::is_scaling_event(s.d, all->new_rs, all->old_rss);
}

SyncResult DeploymentSyncer::scale(SyncState& s, const ReplicaSetInfo* new_rs,
                                   const ReplicaSetList& old_rss) {
  auto applied = apply_scale_actions(s, plan_scale(s.d, new_rs, old_rss));
  if (!applied.ok()) return fail(std::move(applied).error());
  return {};
}

Result<DeploymentSyncer::Scaled, api::Status> DeploymentSyncer::scale_replica_set(
    SyncState& s, const ReplicaSetInfo& rs, const ScaleAction& action) {
  auto updated = api_.update_replica_set(scaled_replica_set(*rs.object, action.replicas, s.d));
  if (!updated.ok()) return fail(std::move(updated).error());
  Scaled out;
  out.rs = s.pool.add(std::move(*updated));
  if (action.size_changed()) {
    out.scaled = true;
    record_event(s, kEventNormal, kScalingReplicaSetReason,
                 scaling_replica_set_message(action.operation(), out.rs->name, action.replicas,
                                             action.previous));
  }
  return out;
}

Result<bool, api::Status> DeploymentSyncer::apply_scale_actions(SyncState& s,
                                                                const ScaleActions& actions) {
  // The version each RS was last written as, by uid.
  std::map<std::string, const ReplicaSetInfo*, std::less<>> latest;
  bool scaled = false;
  for (const ScaleAction& action : actions) {
    const auto it = latest.find(action.rs->uid);
    const ReplicaSetInfo& rs = it != latest.end() ? *it->second : *action.rs;
    auto r = scale_replica_set(s, rs, action);
    if (!r.ok()) return fail(std::move(r).error());
    latest[action.rs->uid] = r->rs;
    scaled = scaled || r->scaled;
  }
  return scaled;
}

SyncResult DeploymentSyncer::cleanup_deployment(SyncState& s, const ReplicaSetList& old_rss) {
  const ReplicaSetList doomed = replica_sets_to_clean_up(old_rss, s.d);
  if (!doomed.empty() && log::v(4)) {
    log::info("Looking to cleanup old replica sets for deployment", {{"deployment", s.key}});
  }
  for (const ReplicaSetInfo* rs : doomed) {
    if (log::v(4)) {
      log::info("Trying to cleanup replica set for deployment",
                {{"replicaSet", rs->namespace_ + "/" + rs->name}, {"deployment", s.key}});
    }
    auto deleted = api_.delete_replica_set(rs->namespace_, rs->name);
    // Stop at the first real error rather than keep loading the API server.
    if (!deleted.ok() && !deleted.error().is(api::reason::kNotFound)) {
      return fail(std::move(deleted).error());
    }
  }
  return {};
}

SyncResult DeploymentSyncer::sync_deployment_status(SyncState& s, const ReplicaSetList& all_rss,
                                                    const ReplicaSetInfo* new_rs) {
  const DeploymentStatus status = calculate_status(all_rss, new_rs, s.d, now(), options_.status);
  if (status == s.d.status) return {};
  s.set_status(status);
  return write_status(s);
}

}  // namespace kcm::controllers::deployment
