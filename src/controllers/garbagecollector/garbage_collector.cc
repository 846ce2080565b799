#include "controllers/garbagecollector/garbage_collector.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <condition_variable>
#include <set>
#include <thread>

#include "cache/wait.h"
#include "controllers/garbagecollector/dump.h"
#include "controllers/garbagecollector/patch.h"
#include "log/log.h"
#include "log/thread_name.h"
#include "workqueue/rate_limiters.h"

namespace kcm::controllers::garbagecollector {

namespace json = api::json;

namespace {

std::string monitor_key(const api::GroupVersionResource& gvr) {
  return gvr.group + "/" + gvr.version + "/" + gvr.resource;
}

bool is_not_found(const api::Status& s) {
  return s.is(api::reason::kNotFound) || s.code == 404;
}
bool is_conflict(const api::Status& s) {
  return s.is(api::reason::kConflict) || s.code == 409;
}

// Attempts of removeFinalizer on conflicts (upstream retry.DefaultBackoff.Steps).
constexpr int kUpdateMaxRetries = 4;

// upstream garbagecollector/metrics.go.
std::shared_ptr<metrics::Counter> sync_error_counter(metrics::Registry* registry) {
  if (registry == nullptr) return nullptr;
  auto vec =
      metrics::CounterVec::create({.subsystem = "garbagecollector_controller",
                                   .name = "resources_sync_error_total",
                                   .help = "Number of garbage collector resources sync errors"});
  if (!vec.ok()) return nullptr;
  if (auto registered = registry->register_collector(*vec); !registered.ok()) {
    log::error("Cannot register metric",
               {{"controller", kControllerName}, {"err", registered.error()}});
  }
  auto counter = (*vec)->with_label_values({});
  return counter.ok() ? *counter : nullptr;
}

}  // namespace

std::vector<api::GroupResource> default_ignored_resources() {
  return {{"", "events"}};
}

std::vector<client::ApiResource> deletable_resources(
    const std::vector<client::ApiResource>& resources,
    const std::vector<api::GroupResource>& ignored) {
  std::vector<client::ApiResource> out;
  for (const client::ApiResource& r : resources) {
    if (r.is_subresource() || !r.supports_all({"delete", "list", "watch"})) continue;
    const api::GroupResource gr{r.group_version.group, r.name};
    if (std::find(ignored.begin(), ignored.end(), gr) != ignored.end()) continue;
    out.push_back(r);
  }
  return out;
}

GarbageCollector::GarbageCollector(std::shared_ptr<client::Clientset> clients,
                                   cache::SharedInformerFactory* informers,
                                   std::shared_ptr<record::EventRecorder> recorder,
                                   GarbageCollectorOptions options)
    : clients_(std::move(clients)),
      informers_(informers),
      metadata_informers_(options.metadata_informers),
      recorder_(std::move(recorder)),
      options_(std::move(options)),
      api_(options_.api ? options_.api : clientset_gc_api(clients_)),
      absent_owners_(std::make_shared<ReferenceCache>()),
      sync_errors_(sync_error_counter(options_.metrics)),
      attempt_to_delete_(workqueue::default_controller_rate_limiter<std::string>(),
                         {.name = std::string(kAttemptToDeleteQueueName)}),
      attempt_to_orphan_(workqueue::default_controller_rate_limiter<std::string>(),
                         {.name = std::string(kAttemptToOrphanQueueName)}),
      builder_(
          absent_owners_,
          GraphBuilderSinks{
              .attempt_to_delete = [this](const std::string& uid) { attempt_to_delete_.add(uid); },
              .attempt_to_delete_rate_limited =
                  [this](const std::string& uid) { attempt_to_delete_.add_rate_limited(uid); },
              .attempt_to_orphan = [this](const std::string& uid) { attempt_to_orphan_.add(uid); },
              .recorder = recorder_,
          }) {
  if (!options_.discover && clients_) {
    options_.discover = [rest = clients_->rest()] {
      return client::DiscoveryClient(rest).server_preferred_resources();
    };
  }
}

GarbageCollector::~GarbageCollector() {
  // The informers are shared and outlive us: our handlers go first.
  {
    const std::lock_guard lock(monitors_mu_);
    for (auto& [key, m] : monitors_) {
      if (m.registration) (void)m.informer->remove_event_handler(m.registration);
    }
    monitors_.clear();
  }
  builder_.shut_down();
  attempt_to_delete_.shut_down();
  attempt_to_orphan_.shut_down();
}

std::shared_ptr<cache::ResourceEventHandler> GarbageCollector::make_handler(std::string api_version,
                                                                            std::string kind) {
  auto h = std::make_shared<cache::EventHandlerFuncs>();
  const auto event = [api_version, kind](EventType type, const cache::CachedObject& obj) {
    Event e;
    e.type = type;
    e.api_version = api_version;
    e.kind = kind;
    e.object = object_meta_of(obj);
    return e;
  };
  h->add = [this, event](const cache::ObjectPtr& obj, bool) {
    builder_.enqueue(event(EventType::kAdd, *obj));
  };
  h->update = [this, event](const cache::ObjectPtr& old_obj, const cache::ObjectPtr& new_obj) {
    Event e = event(EventType::kUpdate, *new_obj);
    e.old_object = object_meta_of(*old_obj);
    builder_.enqueue(std::move(e));
  };
  h->remove = [this, event](const cache::DeletedObject& d) {
    // A tombstone without a last state has nothing the graph could use.
    if (const cache::ObjectPtr& obj = cache::object_of(d)) {
      builder_.enqueue(event(EventType::kDelete, *obj));
    }
  };
  h->delivery_mode = cache::HandlerDelivery::kInline;  // it only queues graph changes
  return h;
}

Result<void, api::Status> GarbageCollector::sync_monitors() {
  if (!options_.discover) return fail(api::internal_error("no discovery"));
  auto discovered = options_.discover();
  if (!discovered.ok()) {
    if (sync_errors_) sync_errors_->inc();
    return fail(discovered.error());
  }
  for (const auto& [gv, err] : discovered->failed) {
    log::error("Failed to discover a group version; its resources are not monitored",
               {{"controller", kControllerName}, {"groupVersion", gv}, {"err", err}});
  }
  resync_monitors(discovered->resources);
  return {};
}

void GarbageCollector::resync_monitors(const std::vector<client::ApiResource>& resources) {
  mapper_.reset(resources);
  if (informers_ == nullptr) return;
  const std::vector<client::ApiResource> wanted =
      deletable_resources(resources, options_.ignored_resources);
  bool added = false;
  {
    const std::lock_guard lock(monitors_mu_);
    std::set<std::string> keep;
    for (const client::ApiResource& r : wanted) {
      const std::string key = monitor_key(r.gvr());
      keep.insert(key);
      if (monitors_.contains(key)) continue;
      Monitor m;
      m.informer = monitor_informer(r.gvr());
      auto reg = m.informer->add_event_handler(make_handler(r.group_version.api_version(), r.kind));
      if (!reg.ok()) {
        log::error("Cannot register event handler",
                   {{"controller", kControllerName}, {"resource", key}, {"err", reg.error()}});
        continue;
      }
      m.registration = *reg;
      monitors_.emplace(key, std::move(m));
      added = true;
    }
    for (auto it = monitors_.begin(); it != monitors_.end();) {
      if (keep.contains(it->first)) {
        ++it;
        continue;
      }
      (void)it->second.informer->remove_event_handler(it->second.registration);
      it = monitors_.erase(it);
    }
    if (log::v(4)) {
      log::info("Synced monitors", {{"controller", kControllerName},
                                    {"monitors", static_cast<std::int64_t>(monitors_.size())}});
    }
    // Informers requested after the factories started need starting.
    if (added && running_) start_informers();
  }
}

std::shared_ptr<cache::SharedIndexInformer> GarbageCollector::monitor_informer(
    const api::GroupVersionResource& gvr) {
  if (metadata_informers_ == nullptr) return informers_->informer_for(gvr);
  if (auto shared = informers_->find_informer(gvr)) return shared;
  return metadata_informers_->informer_for(gvr);
}

void GarbageCollector::start_informers() {
  informers_->start(run_stop_);
  if (metadata_informers_ != nullptr) metadata_informers_->start(run_stop_);
}

bool GarbageCollector::is_synced() const {
  const std::lock_guard lock(monitors_mu_);
  if (monitors_.empty()) return informers_ == nullptr;
  return std::all_of(monitors_.begin(), monitors_.end(),
                     [](const auto& m) { return m.second.registration->has_synced(); });
}

void GarbageCollector::sync_monitors_logging_failure() {
  if (auto synced = sync_monitors(); !synced.ok()) {
    log::error("Failed to discover resources; the garbage collector retries",
               {{"controller", kControllerName}, {"err", synced.error().message}});
  }
}

bool GarbageCollector::has_monitors() const {
  const std::lock_guard lock(monitors_mu_);
  return !monitors_.empty();
}

void GarbageCollector::run_worker(workqueue::RateLimitingQueue<std::string>& queue,
                                  bool (GarbageCollector::*step)(const std::string&)) {
  while (const std::optional<std::string> uid = queue.get()) {
    if ((this->*step)(*uid)) {
      queue.forget(*uid);
    } else {
      queue.add_rate_limited(*uid);
    }
    queue.done(*uid);
  }
}

void GarbageCollector::run(int workers, std::stop_token stop) {
  log::info("Starting controller", {{"controller", "garbagecollector"}});
  std::vector<std::jthread> threads;
  threads.emplace_back([this] {
    log::set_thread_name("gc-graph");
    while (builder_.process_next()) {
    }
  });
  if (informers_ != nullptr) {
    // Every controller has been built by now: the shared informers they
    // asked for exist, and the monitors use them rather than metadata ones.
    sync_monitors_logging_failure();
    const std::lock_guard lock(monitors_mu_);
    run_stop_ = stop;
    running_ = true;
    start_informers();
  }
  // Until the first discovery succeeds there are no monitors and is_synced()
  // is false: retry it every discovery period meanwhile (upstream's Sync loop
  // runs beside Run for the same reason).
  auto next_discovery = std::chrono::steady_clock::now() + options_.discovery_period;
  auto synced = [&] {
    if (informers_ != nullptr && !has_monitors() &&
        std::chrono::steady_clock::now() >= next_discovery) {
      next_discovery = std::chrono::steady_clock::now() + options_.discovery_period;
      sync_monitors_logging_failure();
    }
    return is_synced();
  };
  if (cache::wait_for_named_cache_sync("garbage collector", stop, {synced})) {
    for (int i = 0; i < workers; ++i) {
      threads.emplace_back([this] {
        log::set_thread_name("gc-delete");
        run_worker(attempt_to_delete_, &GarbageCollector::attempt_to_delete_worker);
      });
      threads.emplace_back([this] {
        log::set_thread_name("gc-orphan");
        run_worker(attempt_to_orphan_, &GarbageCollector::attempt_to_orphan_worker);
      });
    }
    // Re-discovery, so new resources (CRDs) are monitored (upstream Sync).
    std::mutex mu;
    std::condition_variable_any cv;
    std::unique_lock lock(mu);
    while (true) {
      // Returns at the period's end or at once when stop is requested.
      cv.wait_for(lock, stop, options_.discovery_period, [] { return false; });
      if (stop.stop_requested()) break;
      if (informers_ != nullptr) sync_monitors_logging_failure();
    }
  }
  log::info("Shutting down controller", {{"controller", "garbagecollector"}});
  {
    const std::lock_guard lock(monitors_mu_);
    running_ = false;
  }
  builder_.shut_down();
  attempt_to_delete_.shut_down_with_drain();
  attempt_to_orphan_.shut_down_with_drain();
}

Result<json::value, api::Status> GarbageCollector::get_object(const ObjectReference& ref) {
  auto mapping = mapper_.mapping(ref.api_version, ref.kind);
  if (!mapping.ok()) return fail(api::internal_error(mapping.error()));
  return api_->get(*mapping, ref.namespace_, ref.name);
}

bool GarbageCollector::attempt_to_delete_worker(const std::string& uid) {
  const std::optional<Node> n = builder_.node(uid);
  // Gone from the graph meanwhile: its deletion was observed.
  if (!n) return true;
  auto outcome = attempt_to_delete_item(*n);
  if (!outcome.ok()) {
    log::error("Error syncing item", {{"item", n->identity.to_string()}, {"err", outcome.error()}});
    return false;
  }
  if (*outcome != ItemOutcome::kDone) return true;
  // A virtual node stays queued until an informer observes it or it is found
  // absent (upstream issue 56121).
  return !n->virtual_;
}

Result<std::optional<json::value>, std::string> GarbageCollector::owner_if_present(
    const OwnerReference& ref, const Node& item) {
  ObjectReference key{ref.api_version, ref.kind, ref.name, ref.uid, ""};
  if (absent_owners_->has(key)) return std::optional<json::value>();
  key.namespace_ = item.identity.namespace_;
  if (absent_owners_->has(key)) return std::optional<json::value>();
  auto mapping = mapper_.mapping(ref.api_version, ref.kind);
  if (!mapping.ok()) return fail(mapping.error());
  if (!mapping->namespaced) key.namespace_.clear();
  if (item.identity.namespace_.empty() && mapping->namespaced) {
    if (log::v(2)) {
      log::info("item is cluster-scoped, but refers to a namespaced owner",
                {{"item", item.identity.to_string()}, {"owner", ref.name}});
    }
    return fail(std::string(kNamespacedOwnerError));
  }
  auto owner = api_->get(*mapping, mapping->namespaced ? item.identity.namespace_ : "", ref.name);
  if (!owner.ok()) {
    if (is_not_found(owner.error())) {
      absent_owners_->add(key);
      return std::optional<json::value>();
    }
    return fail(owner.error().message);
  }
  if (object_meta_of(*owner).uid != ref.uid) {
    // Another object of the same name: the one referenced is gone.
    absent_owners_->add(key);
    return std::optional<json::value>();
  }
  return std::optional<json::value>(std::move(*owner));
}

Result<GarbageCollector::Classified, std::string> GarbageCollector::classify(
    const Node& item, const std::vector<OwnerReference>& refs) {
  Classified out;
  for (const OwnerReference& ref : refs) {
    auto owner = owner_if_present(ref, item);
    if (!owner.ok()) return fail(owner.error());
    if (!owner->has_value()) {
      out.dangling.push_back(ref);
      continue;
    }
    const ObjectMeta meta = object_meta_of(**owner);
    if (meta.being_deleted && meta.has_finalizer(kForegroundFinalizer)) {
      out.waiting.push_back(ref);
    } else {
      out.solid.push_back(ref);
    }
  }
  return out;
}

Result<ItemOutcome, std::string> GarbageCollector::attempt_to_delete_item(const Node& item) {
  if (log::v(2)) {
    log::info("Processing item", {{"item", item.identity.to_string()}, {"virtual", item.virtual_}});
  }
  // Being deleted is a one-way trip: its dependents are processed once it is gone.
  if (item.being_deleted && !item.deleting_dependents) return ItemOutcome::kDone;

  auto latest = get_object(item.identity);
  if (!latest.ok()) {
    if (!is_not_found(latest.error())) return fail(latest.error().message);
    builder_.enqueue_virtual_delete(item.identity);
    return ItemOutcome::kVirtualDeleteEnqueued;
  }
  const ObjectMeta meta = object_meta_of(*latest);
  if (meta.uid != item.identity.uid) {
    builder_.enqueue_virtual_delete(item.identity);
    return ItemOutcome::kVirtualDeleteEnqueued;
  }
  if (item.deleting_dependents) {
    auto r = process_deleting_dependents(item);
    if (!r.ok()) return fail(r.error());
    return ItemOutcome::kDone;
  }
  if (meta.owners.empty()) return ItemOutcome::kDone;

  auto classified = classify(item, meta.owners);
  if (!classified.ok()) {
    if (classified.error() == kNamespacedOwnerError)
      return ItemOutcome::kNamespacedOwnerOfClusterScoped;
    return fail(classified.error());
  }
  const Classified& c = *classified;

  if (!c.solid.empty()) {
    if (c.dangling.empty() && c.waiting.empty()) return ItemOutcome::kDone;
    // Waiting references go too, or their owners would wait for this item forever.
    std::vector<std::string> uids;
    for (const auto* refs : {&c.dangling, &c.waiting}) {
      for (const OwnerReference& r : *refs)
        uids.push_back(r.uid);
    }
    if (log::v(2)) {
      log::info("remove dangling references and waiting references for item",
                {{"item", item.identity.to_string()}});
    }
    auto patched = patch_object(item.identity, delete_owner_refs_patch(*latest, uids));
    if (!patched.ok()) return fail(patched.error());
    return ItemOutcome::kDone;
  }
  if (!c.waiting.empty() && !builder_.dependents(item.identity.uid).empty()) {
    for (const Node& dep : builder_.dependents(item.identity.uid)) {
      if (!dep.deleting_dependents) continue;
      // A possible cycle: unblock our owners so they need not wait for us.
      auto unblocked = patch_object(item.identity, unblock_owner_refs_patch(*latest));
      if (!unblocked.ok()) return fail(unblocked.error());
      break;
    }
    auto deleted = delete_object(item.identity, meta.resource_version, meta.owners, "Foreground");
    if (!deleted.ok()) return fail(deleted.error());
    return ItemOutcome::kDone;
  }
  // No solid owner: collect it, honouring a cascade already requested.
  std::string_view policy = "Background";
  if (meta.has_finalizer(kOrphanFinalizer)) {
    policy = "Orphan";
  } else if (meta.has_finalizer(kForegroundFinalizer)) {
    policy = "Foreground";
  }
  if (log::v(2)) {
    log::info("Deleting item",
              {{"item", item.identity.to_string()}, {"propagationPolicy", policy}});
  }
  auto deleted = delete_object(item.identity, meta.resource_version, meta.owners, policy);
  if (!deleted.ok()) return fail(deleted.error());
  return ItemOutcome::kDone;
}

Result<void, std::string> GarbageCollector::process_deleting_dependents(const Node& item) {
  const std::vector<Node> blocking = builder_.blocking_dependents(item.identity.uid);
  if (blocking.empty()) {
    if (log::v(2)) {
      log::info("remove DeleteDependents finalizer for item",
                {{"item", item.identity.to_string()}});
    }
    return remove_finalizer(item.identity, kForegroundFinalizer);
  }
  for (const Node& dep : blocking) {
    if (!dep.deleting_dependents) attempt_to_delete_.add(dep.identity.uid);
  }
  return {};
}

Result<void, std::string> GarbageCollector::patch_object(const ObjectReference& ref,
                                                         const std::string& patch) {
  auto mapping = mapper_.mapping(ref.api_version, ref.kind);
  if (!mapping.ok()) return fail(mapping.error());
  auto r = api_->patch(*mapping, ref.namespace_, ref.name, client::PatchType::kMerge, patch);
  if (!r.ok()) return fail(r.error().message);
  return {};
}

Result<void, std::string> GarbageCollector::remove_finalizer(const ObjectReference& ref,
                                                             std::string_view finalizer) {
  auto mapping = mapper_.mapping(ref.api_version, ref.kind);
  if (!mapping.ok()) return fail(mapping.error());
  for (int attempt = 0; attempt < kUpdateMaxRetries; ++attempt) {
    auto latest = api_->get(*mapping, ref.namespace_, ref.name);
    if (!latest.ok()) {
      if (is_not_found(latest.error())) return {};
      return fail(
          fmt::format("cannot finalize owner {}, because cannot get it: {}. The garbage collector "
                      "will retry later.",
                      ref.to_string(), latest.error().message));
    }
    const ObjectMeta meta = object_meta_of(*latest);
    if (meta.uid != ref.uid || !meta.has_finalizer(finalizer)) return {};
    auto patched = api_->patch(*mapping, ref.namespace_, ref.name, client::PatchType::kMerge,
                               remove_finalizer_patch(*latest, finalizer));
    if (patched.ok() || is_not_found(patched.error())) return {};
    if (!is_conflict(patched.error())) return fail(patched.error().message);
  }
  return fail(fmt::format(
      "updateMaxRetries({}) has reached. The garbage collector will retry later for owner {}.",
      kUpdateMaxRetries, ref.to_string()));
}

Result<void, std::string> GarbageCollector::delete_object(const ObjectReference& ref,
                                                          std::string resource_version,
                                                          const std::vector<OwnerReference>& owners,
                                                          std::string_view policy) {
  auto mapping = mapper_.mapping(ref.api_version, ref.kind);
  if (!mapping.ok()) return fail(mapping.error());
  for (int attempt = 0; attempt < kUpdateMaxRetries; ++attempt) {
    client::DeleteOptions options;
    options.preconditions = client::Preconditions{ref.uid, std::nullopt};
    if (!resource_version.empty()) options.preconditions->resource_version = resource_version;
    options.propagation_policy = std::string(policy);
    auto deleted = api_->delete_object(*mapping, ref.namespace_, ref.name, options);
    if (deleted.ok()) return {};
    if (!is_conflict(deleted.error()) || resource_version.empty())
      return fail(deleted.error().message);
    // Changed since we decided: still the same owners means the decision stands.
    auto live = api_->get(*mapping, ref.namespace_, ref.name);
    if (!live.ok() && is_not_found(live.error())) return {};
    if (!live.ok()) return fail(deleted.error().message);
    const ObjectMeta meta = object_meta_of(*live);
    if (meta.uid != ref.uid || meta.resource_version == resource_version || meta.owners != owners)
      return fail(deleted.error().message);
    resource_version = meta.resource_version;
  }
  return fail(fmt::format("too many conflicts deleting {}", ref.to_string()));
}

bool GarbageCollector::attempt_to_orphan_worker(const std::string& uid) {
  const std::optional<Node> owner = builder_.node(uid);
  if (!owner) return true;
  std::vector<std::string> errors;
  for (const Node& dep : builder_.dependents(uid)) {
    auto latest = get_object(dep.identity);
    if (!latest.ok()) {
      if (!is_not_found(latest.error()))
        errors.push_back(fmt::format("orphaning {} failed, {}", dep.identity.to_string(),
                                     latest.error().message));
      continue;
    }
    const ObjectMeta meta = object_meta_of(*latest);
    if (meta.uid != dep.identity.uid) continue;
    const bool refers = std::any_of(meta.owners.begin(), meta.owners.end(),
                                    [&](const OwnerReference& r) { return r.uid == uid; });
    if (!refers) continue;
    auto patched = patch_object(dep.identity, delete_owner_refs_patch(*latest, {uid}));
    if (!patched.ok()) {
      errors.push_back(
          fmt::format("orphaning {} failed, {}", dep.identity.to_string(), patched.error()));
    }
  }
  if (!errors.empty()) {
    log::error("orphanDependents failed",
               {{"owner", owner->identity.to_string()},
                {"err", fmt::format("failed to orphan dependents of owner {}, got errors: {}",
                                    owner->identity.to_string(), fmt::join(errors, ", "))}});
    return false;
  }
  if (auto removed = remove_finalizer(owner->identity, kOrphanFinalizer); !removed.ok()) {
    log::error("removeOrphanFinalizer failed",
               {{"owner", owner->identity.to_string()}, {"err", removed.error()}});
    return false;
  }
  return true;
}

std::string GarbageCollector::graph_dot(const std::optional<std::vector<std::string>>& uids) const {
  // The vertices are copies: the text is written outside the graph's lock.
  const DotGraph graph = builder_.read_graph(
      [&](const Graph& g) { return uids ? dot_graph_for(g, *uids) : dot_graph(g); });
  return marshal_dot(graph);
}

}  // namespace kcm::controllers::garbagecollector
