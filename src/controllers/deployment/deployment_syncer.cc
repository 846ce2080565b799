#include "controllers/deployment/deployment_syncer.h"

#include <utility>

#include "api/label_selector.h"
#include "controller/controller_ref_manager.h"
#include "controllers/deployment/events.h"
#include "controllers/deployment/rollback.h"
#include "log/log.h"
#include "record/object_reference.h"

namespace kcm::controllers::deployment {

api::Status sync_error(std::string message) {
  api::Status s;
  s.message = std::move(message);
  return s;
}

bool has_status_cause(const api::Status& status, std::string_view cause) {
  if (!status.details) return false;
  for (const api::StatusCause& c : status.details->causes) {
    if (c.type == cause) return true;
  }
  return false;
}

ReplicaSetList DeploymentSyncer::AllReplicaSets::all() const {
  ReplicaSetList out = old_rss;
  out.push_back(new_rs);
  return out;
}

DeploymentSyncer::DeploymentSyncer(cache::Lister deployments, cache::Lister replica_sets,
                                   cache::Lister pods, DeploymentApi& api,
                                   record::EventRecorder& recorder, Requeuer& requeuer,
                                   SyncerOptions options)
    : deployments_(std::move(deployments)),
      replica_sets_(std::move(replica_sets)),
      pods_(std::move(pods)),
      api_(api),
      recorder_(recorder),
      requeuer_(requeuer),
      options_(std::move(options)) {}

api::Time DeploymentSyncer::now() const {
  return options_.now ? options_.now() : api::Time::now();
}

void DeploymentSyncer::record_event(const SyncState& s, std::string_view type,
                                    std::string_view reason, std::string_view message) {
  const json::object* meta = api::find_object(s.deployment, "metadata");
  const record::ObjectReference ref{
      .kind = "Deployment",
      .namespace_ = s.d.namespace_,
      .name = s.d.name,
      .uid = s.d.uid,
      .api_version = "apps/v1",
      .resource_version = std::string(
          meta != nullptr ? api::find_string(*meta, "resourceVersion").value_or("") : ""),
  };
  recorder_.event(ref, type, reason, message);
}

SyncResult DeploymentSyncer::write_status(SyncState& s) {
  auto written = api_.update_deployment_status(s.deployment);
  if (!written.ok()) return fail(std::move(written).error());
  s.take_resource_version(*written);
  return {};
}

SyncResult DeploymentSyncer::sync_deployment(std::string_view key) {
  auto split = cache::split_key(key);
  if (!split.ok()) {
    log::error("Failed to split meta namespace cache key", {{"cacheKey", key}});
    return fail(sync_error(split.error()));
  }
  const auto& [namespace_, name] = *split;

  auto cached = deployments_.namespace_(namespace_).get(name);
  if (!cached.ok()) {
    if (cached.error().is(api::reason::kNotFound)) {
      if (log::v(2)) log::info("Deployment has been deleted", {{"deployment", key}});
      return {};
    }
    return fail(std::move(cached).error());
  }

  // A copy: the cache's object is shared and immutable.
  SyncState s;
  s.key = std::string(key);
  json::value object = (*cached)->object(s.storage());
  if (!object.is_object()) return fail(sync_error("deployment " + s.key + " is not an object"));
  s.deployment = std::move(object.as_object());
  auto view = DeploymentView::from_json(s.deployment);
  if (!view.ok()) {
    return fail(sync_error("deployment " + s.key + " has invalid spec: " + view.error()));
  }
  s.d = std::move(*view);

  // An empty selector would select every pod of the namespace; apps/v1
  // refuses it, so only old data can get here.
  if (s.d.selector && s.d.selector->empty()) {
    record_event(s, kEventWarning, kSelectingAllReason, kSelectingAllMessage);
    if (s.d.status.observed_generation < s.d.generation) {
      DeploymentStatus status = s.d.status;
      status.observed_generation = s.d.generation;
      s.set_status(status);
      (void)write_status(s);  // upstream ignores this error
    }
    return {};
  }

  if (auto r = claim_replica_sets(s); !r.ok()) return r;
  // Upstream lists the pods here (getPodMapForDeployment) on every sync, but
  // only Recreate reads them: rollout_recreate lists them.

  if (s.d.being_deleted) return sync_status_only(s);

  // Pausing and resuming are recorded in the Progressing condition, so that
  // the time spent paused never counts against the progress deadline.
  if (auto r = check_paused_conditions(s); !r.ok()) return r;
  if (s.d.paused) return sync(s);

  // Rollback is not re-entrant: the ReplicaSets are not touched until the
  // rollback annotation is gone.
  if (rollback_to(s.d)) return rollback(s);

  auto scaling = is_scaling_event(s);
  if (!scaling.ok()) return fail(std::move(scaling).error());
  if (*scaling) return sync(s);

  if (s.d.strategy_type == kRecreateStrategy) return rollout_recreate(s);
  if (s.d.strategy_type == kRollingUpdateStrategy) return rollout_rolling(s);
  return fail(sync_error("unexpected deployment strategy type: " + s.d.strategy_type));
}

SyncResult DeploymentSyncer::claim_replica_sets(SyncState& s) {
  // The RSs we control (owned ones that stopped matching are released) and
  // the orphans we may adopt; those of other controllers are never claimed.
  const std::vector<cache::ObjectPtr> all =
      replica_sets_.namespace_(s.d.namespace_).controlled_by(s.d.uid, cache::Orphans::kInclude);
  auto selector = api::as_selector(s.d.selector);
  if (!selector.ok()) {
    return fail(
        sync_error("deployment " + s.key + " has invalid label selector: " + selector.error()));
  }

  std::vector<controller::Dependent> dependents;
  dependents.reserve(all.size());
  for (const cache::ObjectPtr& rs : all)
    dependents.push_back(controller::dependent_from_cached(*rs, *selector));

  // Before the first adoption, an uncached read makes sure the Deployment is
  // still there and not being deleted (upstream #42639).
  const std::string namespace_ = s.d.namespace_;
  const std::string name = s.d.name;
  const std::string uid = s.d.uid;
  auto can_adopt = controller::recheck_deletion_timestamp(
      [this, namespace_, name, uid]() -> Result<controller::FreshController> {
        auto fresh = api_.get_deployment(namespace_, name);
        if (!fresh.ok()) return fail(fresh.error().message);
        const json::object* meta = api::find_object(*fresh, "metadata");
        const std::string_view fresh_uid =
            meta != nullptr ? api::find_string(*meta, "uid").value_or("") : "";
        if (fresh_uid != uid) {
          return fail("original Deployment " + namespace_ + "/" + name + " is gone: got uid " +
                      std::string(fresh_uid) + ", wanted " + uid);
        }
        controller::FreshController out{namespace_, name, std::nullopt};
        if (const json::value* ts =
                meta != nullptr ? api::find(*meta, "deletionTimestamp") : nullptr;
            ts != nullptr && !ts->is_null()) {
          auto t = api::Time::from_json(*ts);
          out.deletion_timestamp = t.ok() ? *t : api::Time{};
        }
        return out;
      });

  controller::ControllerRefManager manager(
      controller::ControllerInfo{"apps/v1", "Deployment", namespace_, name, uid, s.d.being_deleted},
      "ReplicaSet",
      [this](std::string_view ns, std::string_view rs_name, std::string_view patch) {
        return api_.patch_replica_set(ns, rs_name, patch);
      },
      std::move(can_adopt));
  const controller::ControllerRefManager::ClaimResult claimed = manager.claim(dependents);
  if (auto err = claimed.error()) return fail(sync_error(*err));

  s.rs_list.clear();
  for (const std::size_t i : claimed.claimed) {
    json::value rs = all[i]->object(s.storage());
    if (rs.is_object()) s.rs_list.push_back(s.pool.add(std::move(rs.as_object())));
  }
  return {};
}

Result<std::vector<cache::ObjectPtr>, api::Status> DeploymentSyncer::list_pods(
    const SyncState& s) const {
  auto selector = api::as_selector(s.d.selector);
  if (!selector.ok()) return fail(sync_error(selector.error()));
  // getPodMapForDeployment keeps only the pods of the claimed RSs.
  std::vector<cache::ObjectPtr> pods;
  const cache::NamespaceLister namespace_pods = pods_.namespace_(s.d.namespace_);
  for (const ReplicaSetInfo* rs : s.rs_list) {
    for (cache::ObjectPtr& pod : namespace_pods.controlled_by(rs->uid, cache::Orphans::kExclude))
      if (pod->matches(*selector)) pods.push_back(std::move(pod));
  }
  return pods;
}

}  // namespace kcm::controllers::deployment
