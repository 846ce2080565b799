#include "controllers/replicaset/replica_set_controller.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <set>

#include "api/duration.h"
#include "api/label_selector.h"
#include "api/labels.h"
#include "cache/controller_index.h"
#include "controller/cached_pod.h"
#include "controller/client_pod_control.h"
#include "controller/pod_template.h"
#include "controller/run_workers.h"
#include "controller/slow_start_batch.h"
#include "controllers/replicaset/pods_to_delete.h"
#include "controllers/replicaset/replica_set_utils.h"
#include "log/log.h"
#include "workqueue/rate_limiters.h"

namespace kcm::controllers::replicaset {

namespace {

// The first block of the arena a pod event handler decodes a ReplicaSet into.
constexpr std::size_t kLookArenaBytes = 8 * 1024;

const api::GroupVersionResource kReplicaSets{"apps", "v1", "replicasets"};
const api::GroupVersionResource kPods{"", "v1", "pods"};
constexpr std::string_view kKind = "ReplicaSet";
constexpr std::string_view kApiVersion = "apps/v1";

// utilruntime.HandleError: an error nobody returns, only logged.
void handle_error(const std::string& message) {
  log::error("Unhandled Error", {{"err", message}});
}

class ClientsetReplicaSetClient final : public ReplicaSetClient {
 public:
  explicit ClientsetReplicaSetClient(std::shared_ptr<client::Clientset> clients)
      : clients_(std::move(clients)) {}
  Result<json::value, api::Status> get(std::string_view namespace_,
                                       std::string_view name) override {
    return clients_->replicasets(std::string(namespace_)).get(name);
  }
  Result<void, api::Status> update_status(const json::value& rs) override {
    const std::string ns(api::as_string_view(api::find_path(rs, {"metadata", "namespace"})));
    return clients_->replicasets(ns).update_status_outcome(rs);
  }

 private:
  const std::shared_ptr<client::Clientset> clients_;
};

// The decoded selector of a cached ReplicaSet (LabelSelectorAsSelector on
// spec.selector); an error for one that does not convert.
Result<api::labels::Selector> selector_of(const json::value& rs) {
  auto parsed =
      api::label_selector_from_json(api::find_path(rs, {"spec", "selector"}), "spec.selector");
  if (!parsed.ok()) return fail(parsed.error());
  return api::as_selector(*parsed);
}

bool same_labels(const cache::CachedObject& a, const cache::CachedObject& b) {
  if (a.label_count() != b.label_count()) return false;
  for (std::size_t i = 0; i < a.label_count(); ++i) {
    if (a.label(i) != b.label(i)) return false;
  }
  return true;
}

// reflect.DeepEqual of two GetControllerOf results.
bool same_controller_ref(const std::optional<cache::OwnerRef>& a,
                         const std::optional<cache::OwnerRef>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  return a->api_version == b->api_version && a->kind == b->kind && a->name == b->name &&
         a->uid == b->uid && a->controller == b->controller &&
         a->block_owner_deletion == b->block_owner_deletion;
}

std::string labels_text(const cache::CachedObject& obj) {
  std::string out = "map[";
  for (std::size_t i = 0; i < obj.label_count(); ++i) {
    if (i > 0) out += " ";
    const auto [k, v] = obj.label(i);
    out += std::string(k) + ":" + std::string(v);
  }
  return out + "]";
}

}  // namespace

std::unique_ptr<ReplicaSetClient> clientset_replica_set_client(
    std::shared_ptr<client::Clientset> clients) {
  return std::make_unique<ClientsetReplicaSetClient>(std::move(clients));
}

ReplicaSetController::ReplicaSetController(std::shared_ptr<client::Clientset> clients,
                                           cache::SharedInformerFactory& informers,
                                           std::shared_ptr<record::EventRecorder> recorder,
                                           std::shared_ptr<controller::PodControl> pod_control,
                                           int burst_replicas, ReplicaSetControllerOptions options)
    : pod_control_(pod_control ? std::move(pod_control)
                               : std::make_shared<controller::ClientPodControl>(
                                     clients, std::move(recorder))),
      burst_replicas_(burst_replicas),
      options_(std::move(options)),
      replica_sets_(options_.replica_sets
                        ? options_.replica_sets
                        : std::shared_ptr<ReplicaSetClient>(clientset_replica_set_client(clients))),
      pod_calls_(options_.max_parallel_pod_calls),
      rs_informer_(informers.informer_for(kReplicaSets)),
      pod_informer_(informers.informer_for(kPods)),
      rs_lister_(informers.lister_for(kReplicaSets)),
      pod_lister_(informers.lister_for(kPods)),
      queue_(workqueue::default_controller_rate_limiter<std::string>(), {.name = "replicaset"}) {
  auto rs_handler = std::make_shared<cache::EventHandlerFuncs>();
  rs_handler->add = [this](const cache::ObjectPtr& rs, bool) { add_rs(rs); };
  rs_handler->update = [this](const cache::ObjectPtr& old_rs, const cache::ObjectPtr& cur_rs) {
    update_rs(old_rs, cur_rs);
  };
  rs_handler->remove = [this](const cache::DeletedObject& rs) { delete_rs(rs); };
  // The handlers only read the caches and queue keys.
  rs_handler->delivery_mode = cache::HandlerDelivery::kInline;
  // Every pod change wakes its ReplicaSet (status changes too): the sync only
  // reads the caches, so spurious syncs are cheap.
  auto pod_handler = std::make_shared<cache::EventHandlerFuncs>();
  pod_handler->add = [this](const cache::ObjectPtr& pod, bool) { add_pod(pod); };
  pod_handler->update = [this](const cache::ObjectPtr& old_pod, const cache::ObjectPtr& cur_pod) {
    update_pod(old_pod, cur_pod);
  };
  pod_handler->remove = [this](const cache::DeletedObject& pod) { delete_pod(pod); };
  pod_handler->delivery_mode = cache::HandlerDelivery::kInline;

  const auto register_handler =
      [this](const std::shared_ptr<cache::SharedIndexInformer>& informer,
             std::shared_ptr<cache::ResourceEventHandler> handler,
             std::shared_ptr<cache::ResourceEventHandlerRegistration>& registration) {
        auto r = informer->add_event_handler(std::move(handler));
        if (!r.ok()) {
          handle_error("cannot register handler: " + r.error());
          synced_.emplace_back([] { return false; });
          return;
        }
        registration = *r;
        synced_.emplace_back([reg = *r] { return reg->has_synced(); });
      };
  // Each sync looks up what it owns by controller UID (controller_index.h).
  for (const auto& informer : {rs_informer_, pod_informer_}) {
    if (auto added = cache::add_controller_uid_index(*informer); !added.ok())
      handle_error("cannot add the controller UID index: " + added.error());
  }
  // Each sync reads the facts of all the ReplicaSet's pods (without them,
  // CachedPod decodes each pod).
  if (auto kept = pod_informer_->set_summarizer(controller::summarize_pod); !kept.ok())
    handle_error("cannot keep pod summaries: " + kept.error());
  register_handler(rs_informer_, std::move(rs_handler), rs_registration_);
  register_handler(pod_informer_, std::move(pod_handler), pod_registration_);
}

ReplicaSetController::~ReplicaSetController() {
  // The informers are shared and may outlive us: stop our handlers (this
  // waits for a running one) before the members they use go away.
  if (rs_registration_) (void)rs_informer_->remove_event_handler(rs_registration_);
  if (pod_registration_) (void)pod_informer_->remove_event_handler(pod_registration_);
  queue_.shut_down();
}

api::Time ReplicaSetController::now() const {
  return options_.now ? options_.now() : api::Time::now();
}

void ReplicaSetController::run(int workers, std::stop_token stop) {
  controller::run_workers({.controller = kControllerName,
                           .synced = synced_,
                           .process_next = [this] { return process_next_item(); },
                           .shut_down = [this] { queue_.shut_down_with_drain(); }},
                          workers, stop);
}

bool ReplicaSetController::process_next_item() {
  const std::optional<std::string> key = queue_.get();
  if (!key) return false;
  auto synced = sync(*key);
  if (synced.ok()) {
    queue_.forget(*key);
  } else {
    handle_error("sync \"" + *key + "\" failed with " + synced.error());
    queue_.add_rate_limited(*key);
  }
  queue_.done(*key);
  return true;
}

// --- event handlers ---------------------------------------------------------

cache::ObjectPtr ReplicaSetController::resolve_controller_ref(std::string_view namespace_,
                                                              const cache::OwnerRef& ref) const {
  // Only a name lookup is possible; the uid tells whether it is the same object.
  if (ref.kind != kKind) return nullptr;
  auto rs = rs_lister_.namespace_(std::string(namespace_)).get(ref.name);
  if (!rs.ok() || (*rs)->uid() != ref.uid) return nullptr;
  return *rs;
}

std::vector<cache::ObjectPtr> ReplicaSetController::get_pod_replica_sets(
    const cache::CachedObject& pod) const {
  std::vector<cache::ObjectPtr> matching;
  if (pod.label_count() == 0) return matching;
  for (const cache::ObjectPtr& rs : rs_lister_.namespace_(std::string(pod.namespace_()))
                                        .list(api::labels::Selector::everything())) {
    auto selector = selector_of(rs->object());
    // An invalid selector matches nothing; so does an empty one here.
    if (!selector.ok() || selector->empty() || !pod.matches(*selector)) continue;
    matching.push_back(rs);
  }
  if (matching.size() > 1) {
    // ControllerRef keeps this safe, but it is still the user's mistake.
    handle_error("user error! more than one ReplicaSet is selecting pods with labels: " +
                 labels_text(pod));
  }
  return matching;
}

void ReplicaSetController::add_rs(const cache::ObjectPtr& rs) {
  if (log::v(4)) log::info("Adding", {{"replicaSet", rs->key()}});
  queue_.add(std::string(rs->key()));
}

void ReplicaSetController::update_rs(const cache::ObjectPtr& old_rs,
                                     const cache::ObjectPtr& cur_rs) {
  // Deleted and recreated under the same name between two watch events.
  if (cur_rs->uid() != old_rs->uid()) {
    delete_rs(cache::DeletedFinalStateUnknown{std::string(old_rs->key()), old_rs});
  }
  if (log::v(4)) {
    const json::value old_obj = old_rs->object();
    const json::value cur_obj = cur_rs->object();
    const json::value* old_replicas = api::find_path(old_obj, {"spec", "replicas"});
    const json::value* cur_replicas = api::find_path(cur_obj, {"spec", "replicas"});
    if (old_replicas && cur_replicas && *old_replicas != *cur_replicas) {
      log::info("replicaSet updated. Desired pod count change.",
                {{"replicaSet", old_rs->key()},
                 {"oldReplicas", json::serialize(*old_replicas)},
                 {"newReplicas", json::serialize(*cur_replicas)}});
    }
  }
  // Always sync: a resync retries ReplicaSets whose last creations failed.
  queue_.add(std::string(cur_rs->key()));
}

void ReplicaSetController::delete_rs(const cache::DeletedObject& obj) {
  const cache::ObjectPtr& rs = cache::object_of(obj);
  if (!rs) {
    handle_error("couldn't get object from tombstone " + std::string(cache::key_of(obj)));
    return;
  }
  const std::string key(rs->key());
  if (log::v(4)) log::info("Deleting", {{"replicaSet", key}});
  // A new ReplicaSet of the same name starts clean.
  expectations_.delete_expectations(key);
  queue_.add(key);
}

void ReplicaSetController::add_pod(const cache::ObjectPtr& pod) {
  if (pod->deletion_timestamp()) {
    // After a restart a pod may show up already being deleted: that is no
    // creation to observe.
    delete_pod(pod);
    return;
  }
  if (const std::optional<cache::OwnerRef> ref = pod->controller_ref()) {
    const cache::ObjectPtr rs = resolve_controller_ref(pod->namespace_(), *ref);
    if (!rs) return;
    const std::string key(rs->key());
    if (log::v(4)) log::info("Pod created", {{"pod", pod->key()}});
    expectations_.creation_observed(key);
    queue_.add(key);
    return;
  }
  // An orphan: wake every ReplicaSet that may adopt it (no controller waits
  // for an orphan's creation).
  const std::vector<cache::ObjectPtr> rss = get_pod_replica_sets(*pod);
  if (rss.empty()) return;
  if (log::v(4)) log::info("Orphan Pod created", {{"pod", pod->key()}});
  for (const cache::ObjectPtr& rs : rss)
    queue_.add(std::string(rs->key()));
}

void ReplicaSetController::update_pod(const cache::ObjectPtr& old_pod,
                                      const cache::ObjectPtr& cur_pod) {
  // A periodic resync: two versions of one pod always differ in resourceVersion.
  if (cur_pod->resource_version() == old_pod->resource_version()) return;

  const bool label_changed = !same_labels(*old_pod, *cur_pod);
  if (cur_pod->deletion_timestamp()) {
    // A graceful delete starts with this update; replacements should not wait
    // for the pod to be gone. A deletionTimestamp is never unset, so the old
    // pod needs no check.
    delete_pod(cur_pod);
    if (label_changed) delete_pod(old_pod);
    return;
  }

  const std::optional<cache::OwnerRef> cur_ref = cur_pod->controller_ref();
  const std::optional<cache::OwnerRef> old_ref = old_pod->controller_ref();
  const bool ref_changed = !same_controller_ref(cur_ref, old_ref);
  if (ref_changed && old_ref) {
    if (const cache::ObjectPtr rs = resolve_controller_ref(old_pod->namespace_(), *old_ref)) {
      queue_.add(std::string(rs->key()));
    }
  }

  if (cur_ref) {
    const cache::ObjectPtr rs = resolve_controller_ref(cur_pod->namespace_(), *cur_ref);
    if (!rs) return;
    const std::string key(rs->key());
    if (log::v(4)) log::info("Pod objectMeta updated.", {{"pod", old_pod->key()}});
    queue_.add(key);
    // A pod that just became ready turns available minReadySeconds later,
    // with no event of its own: look again then (one second more absorbs
    // clock granularity).
    if (controller::CachedPod(old_pod).facts().ready ||
        !controller::CachedPod(cur_pod).facts().ready) {
      return;
    }
    // Decoded for this look only: into an arena that starts on the stack.
    unsigned char first_block[kLookArenaBytes];
    json::monotonic_resource arena(first_block, sizeof first_block);
    const json::value rs_obj = rs->object(&arena);
    const json::object* rs_spec =
        rs_obj.is_object() ? api::find_object(rs_obj.as_object(), "spec") : nullptr;
    const std::int64_t min_ready =
        rs_spec != nullptr ? api::find_int(*rs_spec, "minReadySeconds").value_or(0) : 0;
    if (min_ready > 0) {
      if (log::v(2)) {
        log::info("pod will be enqueued after a while for availability check",
                  {{"duration", min_ready}, {"kind", kKind}, {"pod", old_pod->key()}});
      }
      queue_.add_after(key, std::chrono::seconds(min_ready) + std::chrono::seconds(1));
    }
    return;
  }

  // An orphan: if anything changed, someone may want to adopt it now.
  if (label_changed || ref_changed) {
    const std::vector<cache::ObjectPtr> rss = get_pod_replica_sets(*cur_pod);
    if (rss.empty()) return;
    if (log::v(4)) log::info("Orphan Pod objectMeta updated.", {{"pod", old_pod->key()}});
    for (const cache::ObjectPtr& rs : rss)
      queue_.add(std::string(rs->key()));
  }
}

void ReplicaSetController::delete_pod(const cache::DeletedObject& obj) {
  // A tombstone's last state may be stale: a pod that changed labels wakes
  // its new ReplicaSet only at the next resync.
  const cache::ObjectPtr& pod = cache::object_of(obj);
  if (!pod) {
    handle_error("couldn't get object from tombstone " + std::string(cache::key_of(obj)));
    return;
  }
  const std::optional<cache::OwnerRef> ref = pod->controller_ref();
  if (!ref) return;  // nobody cares about a deleted orphan
  const cache::ObjectPtr rs = resolve_controller_ref(pod->namespace_(), *ref);
  if (!rs) return;
  const std::string key(rs->key());
  if (log::v(4)) {
    log::info("Pod deleted", {{"deletion_timestamp", pod->deletion_timestamp().value_or("<nil>")},
                              {"pod", pod->key()}});
  }
  expectations_.deletion_observed(key, pod->key());
  queue_.add(key);
}

// --- sync ---------------------------------------------------------------------

std::vector<controller::CachedPod> ReplicaSetController::indirectly_related_pods(
    const cache::CachedObject& rs) const {
  std::vector<controller::CachedPod> related;
  const std::optional<cache::OwnerRef> owner = rs.controller_ref();
  if (!owner) {
    handle_error("ReplicaSet has no controller: " + std::string(rs.key()));
    return related;
  }
  const std::vector<cache::ObjectPtr> siblings =
      rs_lister_.namespace_(std::string(rs.namespace_()))
          .controlled_by(owner->uid, cache::Orphans::kExclude);
  if (log::v(2)) {
    std::string names;
    for (const cache::ObjectPtr& s : siblings)
      names += (names.empty() ? "" : " ") + std::string(s->key());
    log::info("Found related ReplicaSets",
              {{"replicaSet", rs.key()}, {"relatedReplicaSets", "[" + names + "]"}});
  }
  std::set<std::string, std::less<>> seen;
  for (const cache::ObjectPtr& sibling : siblings) {
    auto selector = selector_of(sibling->object());
    if (!selector.ok()) continue;  // an invalid selector matches no pods
    for (const cache::ObjectPtr& pod :
         pod_lister_.namespace_(std::string(sibling->namespace_())).list(*selector)) {
      if (!seen.emplace(pod->uid()).second) continue;  // selected by two siblings
      related.emplace_back(pod);
    }
  }
  if (log::v(4)) {
    log::info("Found related pods", {{"kind", kKind},
                                     {"replicaSet", rs.key()},
                                     {"pods", static_cast<std::int64_t>(related.size())}});
  }
  return related;
}

Result<void> ReplicaSetController::sync(const std::string& key) {
  const auto start = std::chrono::steady_clock::now();
  struct FinishedLog {
    const std::string& key;
    std::chrono::steady_clock::time_point start;
    ~FinishedLog() {
      if (!log::v(4)) return;
      log::info("Finished syncing",
                {{"kind", kKind},
                 {"key", key},
                 {"duration", api::format_duration(std::chrono::steady_clock::now() - start)}});
    }
  } finished{key, start};

  auto split = cache::split_key(key);
  if (!split.ok()) return fail(split.error());
  // Named references, not structured bindings: clang 14 cannot capture those.
  const std::string& namespace_ = split->first;
  const std::string& name = split->second;
  auto cached = rs_lister_.namespace_(namespace_).get(name);
  if (!cached.ok()) {
    if (cached.error().is(api::reason::kNotFound)) {
      if (log::v(4)) log::info("deleted", {{"kind", kKind}, {"key", key}});
      expectations_.delete_expectations(key);
      return {};
    }
    return fail(cached.error().message);
  }
  const cache::ObjectPtr& rs_cached = *cached;

  const bool needs_sync = expectations_.satisfied_expectations(key);
  json::value rs_value = rs_cached->object();
  json::object& rs = rs_value.as_object();
  // Events name the ReplicaSet by kind and apiVersion.
  if (!api::find_string(rs, "kind")) rs["kind"] = kKind;
  if (!api::find_string(rs, "apiVersion")) rs["apiVersion"] = kApiVersion;
  auto view = ReplicaSetView::from_json(rs);
  Result<api::labels::Selector> selector = view.ok()
                                               ? api::as_selector(view->selector)
                                               : Result<api::labels::Selector>(fail(view.error()));
  if (!view.ok() || !selector.ok()) {
    // Retrying cannot fix a selector.
    handle_error("error converting pod selector to selector for rs " + key + ": " +
                 (view.ok() ? selector.error() : view.error()));
    return {};
  }
  const std::string& uid = view->uid;

  // Only pods we control or orphans we may adopt can be claimed. Pods that
  // stopped matching but still name us are kept so that they are released.
  std::vector<controller::CachedPod> pods;
  for (cache::ObjectPtr& pod :
       pod_lister_.namespace_(namespace_).controlled_by(uid, cache::Orphans::kInclude)) {
    if (pod->controller_ref() || pod->matches(*selector)) pods.emplace_back(std::move(pod));
  }
  const std::vector<const controller::CachedPod*> all_pods = controller::pointers_to(pods);
  const std::vector<const controller::CachedPod*> active = controller::filter_active_pods(all_pods);

  // Adoption first re-reads the ReplicaSet from the API server: the cache may
  // not show yet that it is being deleted (upstream #42639).
  controller::ControllerInfo info{
      std::string(kApiVersion), std::string(kKind), namespace_, name, uid, view->being_deleted};
  auto can_adopt = controller::recheck_deletion_timestamp(
      [this, &namespace_, &name, &uid]() -> Result<controller::FreshController> {
        auto fresh = replica_sets_->get(namespace_, name);
        if (!fresh.ok()) return fail(fresh.error().message);
        const std::string_view fresh_uid =
            api::as_string_view(api::find_path(*fresh, {"metadata", "uid"}));
        if (fresh_uid != uid) {
          return fail("original ReplicaSet " + namespace_ + "/" + name + " is gone: got uid " +
                      std::string(fresh_uid) + ", wanted " + uid);
        }
        controller::FreshController fc{namespace_, name, std::nullopt};
        if (const json::value* ts = api::find_path(*fresh, {"metadata", "deletionTimestamp"});
            ts != nullptr && !ts->is_null()) {
          auto t = api::Time::from_json(*ts);
          fc.deletion_timestamp = t.ok() ? *t : api::Time();
        }
        return fc;
      });
  auto manager = controller::pod_controller_ref_manager(*pod_control_, info, std::move(can_adopt));
  std::vector<controller::Dependent> dependents;
  dependents.reserve(active.size());
  for (const controller::CachedPod* pod : active)
    dependents.push_back(controller::dependent_from_cached(pod->object(), *selector));
  const auto claim = manager.claim(dependents);
  if (auto err = claim.error()) return fail(*err);
  std::vector<const controller::CachedPod*> claimed;
  claimed.reserve(claim.claimed.size());
  for (const std::size_t i : claim.claimed)
    claimed.push_back(active[i]);

  std::vector<const controller::CachedPod*> terminating;
  if (options_.terminating_replicas) {
    terminating =
        filter_claimed_pods(uid, *selector, controller::filter_terminating_pods(all_pods));
  }

  std::optional<std::string> manage_error;
  if (needs_sync && !view->being_deleted) {
    if (auto managed = manage_replicas(claimed, *rs_cached, rs, *view, key); !managed.ok()) {
      manage_error = managed.error();
    }
  }

  const api::Time status_now = now();
  const ReplicaSetStatus new_status =
      calculate_status(*view, claimed, terminating, manage_error, status_now,
                       {.terminating_replicas = options_.terminating_replicas});
  // Always: the status follows pods as they come up or die.
  auto updated = update_status(std::move(rs_value), *view, new_status);
  if (!updated.ok()) return fail(updated.error().message);
  // A failed manage is retried with backoff; the availability look waits.
  if (manage_error) return fail(*manage_error);

  if (updated->is_object()) {
    auto updated_view = ReplicaSetView::from_json(updated->as_object());
    if (updated_view.ok()) {
      if (const auto after = availability_requeue_after(
              updated_view->min_ready_seconds, updated_view->status, claimed, status_now, now())) {
        queue_.add_after(key, *after);
      }
    }
  }
  return {};
}

Result<void> ReplicaSetController::manage_replicas(
    const std::vector<const controller::CachedPod*>& active_pods,
    const cache::CachedObject& rs_cached, const json::object& rs, const ReplicaSetView& view,
    const std::string& key) {
  const ReplicaPlan plan = plan_replicas(active_pods.size(), view.spec_replicas, burst_replicas_);
  if (plan.create > 0) {
    // Creations are counted, not tracked by uid: the uid exists only once
    // the POST returns.
    expectations_.expect_creations(key, plan.create);
    if (log::v(2)) {
      log::info("Too few replicas",
                {{"replicaSet", key}, {"need", view.spec_replicas}, {"creating", plan.create}});
    }
    static const json::object kEmpty;
    const json::object* spec = api::find_object(rs, "spec");
    const json::object* tmpl = spec != nullptr ? api::find_object(*spec, "template") : nullptr;
    const json::object& pod_template = tmpl != nullptr ? *tmpl : kEmpty;
    const json::object pod = controller::pod_from_template(
        pod_template, view.name,
        controller::new_controller_ref(kApiVersion, kKind, view.name, view.uid));
    // Slow start: a quota or admission failure costs one request, not 500.
    const auto created = controller::slow_start_batch<api::Status>(
        plan.create, controller::kSlowStartInitialBatchSize,
        [&]() -> Result<void, api::Status> {
          auto r = pod_control_->create_pod(view.namespace_, pod, rs);
          // A terminating namespace refuses every creation; nothing to retry.
          if (!r.ok() &&
              controller::has_status_cause(r.error(), controller::kNamespaceTerminatingCause)) {
            return {};
          }
          return r;
        },
        &pod_calls_);
    // The pods never attempted (or failed) will not be observed.
    if (const int skipped = skipped_creations(plan.create, created.successes); skipped > 0) {
      if (log::v(2)) {
        log::info("Slow-start failure. Skipping creation of pods, decrementing expectations",
                  {{"podsSkipped", skipped}, {"kind", kKind}, {"replicaSet", key}});
      }
      for (int i = 0; i < skipped; ++i)
        expectations_.creation_observed(key);
    }
    if (created.error) return fail(created.error->message);
    return {};
  }
  if (plan.remove > 0) {
    if (log::v(2)) {
      log::info("Too many replicas",
                {{"replicaSet", key}, {"need", view.spec_replicas}, {"deleting", plan.remove}});
    }
    const std::vector<controller::CachedPod> related_pods = indirectly_related_pods(rs_cached);
    const std::vector<const controller::CachedPod*> victims =
        get_pods_to_delete(active_pods, controller::pointers_to(related_pods),
                           static_cast<std::size_t>(plan.remove), now(), options_.rank);
    // Keys, not counts: a pod's graceful-delete update and its final delete
    // then count once.
    expectations_.expect_deletions(key, get_pod_keys(victims));
    std::mutex mu;
    std::optional<api::Status> first_error;
    pod_calls_.run(victims.size(), [&](std::size_t i) {
      const cache::CachedObject& victim = victims[i]->object();
      auto r = pod_control_->delete_pod(view.namespace_, victim.name(), rs);
      if (r.ok()) return;
      // The informer will not see this deletion.
      const std::string pod_key(victim.key());
      expectations_.deletion_observed(key, pod_key);
      if (r.error().is(api::reason::kNotFound)) return;
      if (log::v(2)) {
        log::info("Failed to delete pod, decremented expectations",
                  {{"pod", pod_key}, {"kind", kKind}, {"replicaSet", key}});
      }
      const std::lock_guard lock(mu);
      if (!first_error) first_error = r.error();
    });
    // The errors were recorded as events and are likely alike: report one.
    if (first_error) return fail(first_error->message);
  }
  return {};
}

Result<json::value, api::Status> ReplicaSetController::update_status(
    json::value rs, const ReplicaSetView& view, const ReplicaSetStatus& new_status) {
  if (!status_needs_update(view, new_status)) return rs;
  ReplicaSetStatus status = new_status;
  status.observed_generation = view.generation;
  json::value current = std::move(rs);
  for (int attempt = 0;; ++attempt) {
    if (log::v(4)) {
      const ReplicaSetStatus before =
          ReplicaSetStatus::from_json(api::find_path(current, {"status"}));
      log::info(fmt::format(
          "Updating status for ReplicaSet: {}/{}, replicas {}->{} (need {}), "
          "fullyLabeledReplicas {}->{}, readyReplicas {}->{}, "
          "availableReplicas {}->{}, sequence No: {}->{}",
          view.namespace_, view.name, before.replicas, status.replicas, view.spec_replicas,
          before.fully_labeled_replicas, status.fully_labeled_replicas, before.ready_replicas,
          status.ready_replicas, before.available_replicas, status.available_replicas,
          before.observed_generation, status.observed_generation));
    }
    status.write_to(api::ensure_object(current.as_object(), "status"));
    auto written = replica_sets_->update_status(current);
    if (written.ok()) return current;
    if (attempt >= kStatusUpdateRetries) return fail(std::move(written).error());
    // Most likely a conflict: apply the status to the latest version.
    auto fresh = replica_sets_->get(view.namespace_, view.name);
    if (!fresh.ok()) return fail(std::move(fresh).error());
    if (!fresh->is_object()) return fail(client::client_error("ReplicaSet is not an object"));
    current = std::move(*fresh);
  }
}

}  // namespace kcm::controllers::replicaset
