#include "controllers/deployment/event_handlers.h"

#include <set>
#include <utility>

#include "api/label_selector.h"
#include "controllers/deployment/views.h"
#include "log/log.h"

namespace kcm::controllers::deployment {

namespace {

constexpr std::string_view kDeploymentKind = "Deployment";
constexpr std::string_view kReplicaSetKind = "ReplicaSet";

// spec.selector of a Deployment's JSON; nullopt when nil.
Result<std::optional<api::LabelSelector>> selector_of(const json::value& d) {
  return api::label_selector_from_json(api::find_path(d, {"spec", "selector"}), "spec.selector");
}

bool same_owner_ref(const std::optional<cache::OwnerRef>& a,
                    const std::optional<cache::OwnerRef>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  return a->api_version == b->api_version && a->kind == b->kind && a->name == b->name &&
         a->uid == b->uid && a->controller == b->controller &&
         a->block_owner_deletion == b->block_owner_deletion;
}

bool same_labels(const cache::CachedObject& a, const cache::CachedObject& b) {
  if (a.label_count() != b.label_count()) return false;
  for (std::size_t i = 0; i < a.label_count(); ++i) {
    if (a.label(i) != b.label(i)) return false;
  }
  return true;
}

}  // namespace

DeploymentEventHandlers::DeploymentEventHandlers(cache::Lister deployments,
                                                 cache::Lister replica_sets, cache::Lister pods,
                                                 DeploymentApi& api, Enqueue enqueue)
    : deployments_(std::move(deployments)),
      replica_sets_(std::move(replica_sets)),
      pods_(std::move(pods)),
      api_(api),
      enqueue_(std::move(enqueue)) {}

void DeploymentEventHandlers::add_deployment(const cache::ObjectPtr& d) {
  if (log::v(4)) log::info("Adding deployment", {{"deployment", d->key()}});
  enqueue(*d);
}

void DeploymentEventHandlers::update_deployment(const cache::ObjectPtr& old_d,
                                                const cache::ObjectPtr& cur_d) {
  if (log::v(4)) log::info("Updating deployment", {{"deployment", old_d->key()}});
  enqueue(*cur_d);
}

void DeploymentEventHandlers::delete_deployment(const cache::DeletedObject& d) {
  const cache::ObjectPtr& obj = cache::object_of(d);
  if (obj == nullptr) {
    log::error("Tombstone contained object that is not a Deployment", {{"key", cache::key_of(d)}});
    return;
  }
  if (log::v(4)) log::info("Deleting deployment", {{"deployment", obj->key()}});
  // The sync finds it gone and does nothing.
  enqueue(*obj);
}

cache::ObjectPtr DeploymentEventHandlers::resolve_controller_ref(std::string_view namespace_,
                                                                 const cache::OwnerRef& ref) const {
  // Only a lookup by name is possible; the uid tells whether it is the same object.
  if (ref.kind != kDeploymentKind) return nullptr;
  auto d = deployments_.namespace_(std::string(namespace_)).get(ref.name);
  if (!d.ok() || (*d)->uid() != ref.uid) return nullptr;
  return *d;
}

std::vector<cache::ObjectPtr> DeploymentEventHandlers::deployments_for_replica_set(
    const cache::CachedObject& rs) const {
  std::vector<cache::ObjectPtr> out;
  if (rs.label_count() == 0) return out;
  for (const cache::ObjectPtr& d : deployments_.namespace_(std::string(rs.namespace_()))
                                       .list(api::labels::Selector::everything())) {
    auto selector = selector_of(d->object());
    if (!selector.ok()) continue;  // an invalid selector matches nothing
    auto s = api::as_selector(*selector);
    // A nil or empty selector must match nothing here, not everything.
    if (!s.ok() || s->empty() || !rs.matches(*s)) continue;
    out.push_back(d);
  }
  if (out.size() > 1 && log::v(4)) {
    // ControllerRef keeps this safe, but it is still the user's mistake.
    log::info("user error! more than one deployment is selecting replica set",
              {{"replicaSet", rs.key()}, {"deployment", out.front()->key()}});
  }
  return out;
}

void DeploymentEventHandlers::add_replica_set(const cache::ObjectPtr& rs) {
  if (rs->deletion_timestamp()) {
    // Seen already being deleted (e.g. after a restart of the controller).
    delete_replica_set(rs);
    return;
  }
  if (const auto ref = rs->controller_ref()) {
    if (const cache::ObjectPtr d = resolve_controller_ref(rs->namespace_(), *ref)) {
      if (log::v(4)) log::info("ReplicaSet added", {{"replicaSet", rs->key()}});
      enqueue(*d);
    }
    return;
  }
  // An orphan: whoever matches may want to adopt it.
  const std::vector<cache::ObjectPtr> ds = deployments_for_replica_set(*rs);
  if (ds.empty()) return;
  if (log::v(4)) log::info("Orphan ReplicaSet added", {{"replicaSet", rs->key()}});
  for (const cache::ObjectPtr& d : ds)
    enqueue(*d);
}

void DeploymentEventHandlers::update_replica_set(const cache::ObjectPtr& old_rs,
                                                 const cache::ObjectPtr& cur_rs) {
  // A periodic resync: two versions of one object always differ in resourceVersion.
  if (cur_rs->resource_version() == old_rs->resource_version()) return;

  const std::optional<cache::OwnerRef> cur_ref = cur_rs->controller_ref();
  const std::optional<cache::OwnerRef> old_ref = old_rs->controller_ref();
  const bool ref_changed = !same_owner_ref(cur_ref, old_ref);
  if (ref_changed && old_ref) {
    if (const cache::ObjectPtr d = resolve_controller_ref(old_rs->namespace_(), *old_ref)) {
      enqueue(*d);
    }
  }
  if (cur_ref) {
    if (const cache::ObjectPtr d = resolve_controller_ref(cur_rs->namespace_(), *cur_ref)) {
      if (log::v(4)) log::info("ReplicaSet updated", {{"replicaSet", cur_rs->key()}});
      enqueue(*d);
    }
    return;
  }
  // An orphan: when its labels or owner changed, someone may adopt it now.
  if (!same_labels(*cur_rs, *old_rs) || ref_changed) {
    const std::vector<cache::ObjectPtr> ds = deployments_for_replica_set(*cur_rs);
    if (ds.empty()) return;
    if (log::v(4)) log::info("Orphan ReplicaSet updated", {{"replicaSet", cur_rs->key()}});
    for (const cache::ObjectPtr& d : ds)
      enqueue(*d);
  }
}

void DeploymentEventHandlers::delete_replica_set(const cache::DeletedObject& rs) {
  // A tombstone's object may be stale; a label change is then only noticed
  // at the next resync, as upstream.
  const cache::ObjectPtr& obj = cache::object_of(rs);
  if (obj == nullptr) {
    log::error("Tombstone contained object that is not a ReplicaSet", {{"key", cache::key_of(rs)}});
    return;
  }
  const auto ref = obj->controller_ref();
  if (!ref) return;  // nobody cares about deleted orphans
  const cache::ObjectPtr d = resolve_controller_ref(obj->namespace_(), *ref);
  if (d == nullptr) return;
  if (log::v(4)) log::info("ReplicaSet deleted", {{"replicaSet", obj->key()}});
  enqueue(*d);
}

cache::ObjectPtr DeploymentEventHandlers::deployment_for_pod(const cache::CachedObject& pod) const {
  const auto ref = pod.controller_ref();
  if (!ref || ref->kind != kReplicaSetKind) return nullptr;
  auto rs = replica_sets_.namespace_(std::string(pod.namespace_())).get(ref->name);
  if (!rs.ok() || (*rs)->uid() != ref->uid) return nullptr;
  const auto rs_ref = (*rs)->controller_ref();
  if (!rs_ref) return nullptr;
  return resolve_controller_ref((*rs)->namespace_(), *rs_ref);
}

void DeploymentEventHandlers::delete_pod(const cache::DeletedObject& pod) {
  const cache::ObjectPtr& obj = cache::object_of(pod);
  if (obj == nullptr) {
    log::error("Tombstone contained object that is not a pod", {{"key", cache::key_of(pod)}});
    return;
  }
  if (log::v(4)) log::info("Pod deleted", {{"pod", obj->key()}});
  const cache::ObjectPtr d = deployment_for_pod(*obj);
  if (d == nullptr) return;
  const json::value object = d->object();
  if (api::as_string_view(api::find_path(object, {"spec", "strategy", "type"})) !=
      kRecreateStrategy) {
    return;
  }

  // Only the last pod matters: list the RSs live (the cache may lag) and
  // count the pods that are still theirs.
  auto selector = selector_of(object);
  if (!selector.ok()) return;
  std::string selector_text;
  if (*selector) {
    auto text = api::to_selector_string(**selector);
    if (!text.ok()) return;
    selector_text = std::move(*text);
  }
  auto rs_list = api_.list_replica_sets(d->namespace_(), selector_text);
  if (!rs_list.ok()) return;
  std::set<std::string, std::less<>> owned;
  for (const json::object& rs : *rs_list) {
    const ReplicaSetInfo info = ReplicaSetInfo::from_json(rs);
    if (info.controller_uid && *info.controller_uid == d->uid()) owned.insert(info.uid);
  }
  auto pod_selector = api::as_selector(*selector);
  if (!pod_selector.ok()) return;
  const cache::NamespaceLister namespace_pods = pods_.namespace_(std::string(d->namespace_()));
  for (const std::string& rs_uid : owned) {
    for (const cache::ObjectPtr& p : namespace_pods.controlled_by(rs_uid, cache::Orphans::kExclude))
      if (p->matches(*pod_selector)) return;  // pods are left
  }
  enqueue(*d);
}

}  // namespace kcm::controllers::deployment
