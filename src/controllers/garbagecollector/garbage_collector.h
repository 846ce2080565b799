// The garbage collector (upstream pkg/controller/garbagecollector): deletes
// objects whose owners are gone and carries out the foreground and orphan
// cascades the API server requests through finalizers (spec §10.1).
//
// Monitors: every deletable resource the server serves (discovery when run()
// starts, again every 30 s so CRDs appear) gets a handler on an informer:
// the full shared one when another controller asked for it, else a
// metadata-only one (upstream informerfactory); events go to the
// GraphBuilder. The GC reads only metadata, and its API calls ask for
// metadata only too (operations.h). Workers: `workers` attemptToDelete and attemptToOrphan
// threads take UIDs from their rate-limited queues.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <vector>

#include "api/group_version.h"
#include "api/result.h"
#include "api/status.h"
#include "cache/event_handler.h"
#include "cache/informer_factory.h"
#include "client/clientset.h"
#include "client/discovery.h"
#include "controllers/garbagecollector/graph_builder.h"
#include "controllers/garbagecollector/operations.h"
#include "controllers/garbagecollector/rest_mapper.h"
#include "controllers/garbagecollector/uid_cache.h"
#include "metrics/counter.h"
#include "metrics/registry.h"
#include "record/event_recorder.h"
#include "workqueue/rate_limiting_queue.h"

namespace kcm::controllers::garbagecollector {

inline constexpr std::string_view kControllerName = "garbage-collector-controller";
inline constexpr std::string_view kAttemptToDeleteQueueName = "garbage_collector_attempt_to_delete";
inline constexpr std::string_view kAttemptToOrphanQueueName = "garbage_collector_attempt_to_orphan";

// upstream DefaultIgnoredResources: core events.
std::vector<api::GroupResource> default_ignored_resources();
// upstream GetDeletableResources: resources supporting delete, list and
// watch, minus `ignored`.
std::vector<client::ApiResource> deletable_resources(
    const std::vector<client::ApiResource>& resources,
    const std::vector<api::GroupResource>& ignored);

struct GarbageCollectorOptions {
  std::vector<api::GroupResource> ignored_resources = default_ignored_resources();
  std::chrono::milliseconds discovery_period{30000};
  // null: clientset_gc_api(clients). Tests pass a fake.
  std::shared_ptr<GcApi> api;
  // null: DiscoveryClient(clients->rest()).server_preferred_resources().
  std::function<Result<client::PreferredResources, api::Status>()> discover;
  // Where garbagecollector_controller_resources_sync_error_total is registered; may be null.
  metrics::Registry* metrics = nullptr;
  // Metadata-only informers for resources without a full shared informer
  // when the monitors are made. Null: the shared informers for every resource.
  cache::SharedInformerFactory* metadata_informers = nullptr;
};

inline constexpr std::string_view kNamespacedOwnerError =
    "cluster-scoped objects cannot refer to namespaced owners";

// Why attemptToDeleteItem stopped without an ordinary error.
enum class ItemOutcome {
  kDone,
  kVirtualDeleteEnqueued,          // upstream enqueuedVirtualDeleteEventErr
  kNamespacedOwnerOfClusterScoped  // upstream namespacedOwnerOfClusterScopedObjectErr
};

class GarbageCollector {
 public:
  // `informers` may be null (tests feed graph_builder() by hand); otherwise
  // run() discovers the resources and registers its handlers, so informers
  // other controllers asked for in their constructors are shared.
  GarbageCollector(std::shared_ptr<client::Clientset> clients,
                   cache::SharedInformerFactory* informers,
                   std::shared_ptr<record::EventRecorder> recorder,
                   GarbageCollectorOptions options = {});
  ~GarbageCollector();
  GarbageCollector(const GarbageCollector&) = delete;
  GarbageCollector& operator=(const GarbageCollector&) = delete;

  // Processes graph changes, waits for the monitors, runs the workers and
  // re-discovers every discovery_period until `stop`.
  void run(int workers, std::stop_token stop);

  // Discovery, then resync_monitors (upstream Sync's body). An error when
  // discovery failed as a whole; failed group versions are logged.
  Result<void, api::Status> sync_monitors();
  // Monitors exactly the deletable ones of `resources`; all of them feed the mapper.
  void resync_monitors(const std::vector<client::ApiResource>& resources);
  // Failed discoveries (garbagecollector_controller_resources_sync_error_total).
  double sync_error_count() const { return sync_errors_ ? sync_errors_->value() : 0; }
  // Every monitor's handler has processed its informer's initial list. As
  // upstream's IsSynced, false while there are no monitors (discovery has not
  // succeeded yet), unless the collector has no informers to monitor with.
  bool is_synced() const;

  // The workers' steps (upstream attemptToDeleteWorker / attemptToOrphanWorker):
  // true to forget the uid, false to requeue it rate-limited.
  bool attempt_to_delete_worker(const std::string& uid);
  bool attempt_to_orphan_worker(const std::string& uid);
  // upstream attemptToDeleteItem.
  Result<ItemOutcome, std::string> attempt_to_delete_item(const Node& item);

  // The debugging endpoint's graph (upstream debugHTTPHandler): DOT text of
  // the whole graph, or with `uids` of the part connected to them.
  std::string graph_dot(const std::optional<std::vector<std::string>>& uids) const;

  GraphBuilder& graph_builder() { return builder_; }
  RestMapper& rest_mapper() { return mapper_; }
  ReferenceCache& absent_owners() { return *absent_owners_; }
  workqueue::RateLimitingQueue<std::string>& attempt_to_delete_queue() {
    return attempt_to_delete_;
  }
  workqueue::RateLimitingQueue<std::string>& attempt_to_orphan_queue() {
    return attempt_to_orphan_;
  }

 private:
  struct Monitor {
    std::shared_ptr<cache::SharedIndexInformer> informer;
    std::shared_ptr<cache::ResourceEventHandlerRegistration> registration;
  };
  struct Classified {
    std::vector<OwnerReference> solid;
    std::vector<OwnerReference> dangling;
    std::vector<OwnerReference> waiting;  // owner deleting its dependents in the foreground
  };

  // The informer a new monitor of `gvr` watches (see the class comment).
  std::shared_ptr<cache::SharedIndexInformer> monitor_informer(
      const api::GroupVersionResource& gvr);
  // Runs the informers requested so far (monitors_mu_ held).
  void start_informers();
  std::shared_ptr<cache::ResourceEventHandler> make_handler(std::string api_version,
                                                            std::string kind);
  Result<api::json::value, api::Status> get_object(const ObjectReference& ref);
  // upstream isDangling: nullopt when `ref` names an absent owner, else its
  // latest state. kNamespacedOwnerError for a cluster-scoped item naming a
  // namespaced owner.
  Result<std::optional<api::json::value>, std::string> owner_if_present(const OwnerReference& ref,
                                                                        const Node& item);
  Result<Classified, std::string> classify(const Node& item,
                                           const std::vector<OwnerReference>& refs);
  Result<void, std::string> process_deleting_dependents(const Node& item);
  Result<void, std::string> remove_finalizer(const ObjectReference& ref,
                                             std::string_view finalizer);
  Result<void, std::string> patch_object(const ObjectReference& ref, const std::string& patch);
  Result<void, std::string> delete_object(const ObjectReference& ref, std::string resource_version,
                                          const std::vector<OwnerReference>& owners,
                                          std::string_view policy);
  // run()'s discoveries: a failure is logged, and the next period retries.
  void sync_monitors_logging_failure();
  bool has_monitors() const;
  void run_worker(workqueue::RateLimitingQueue<std::string>& queue,
                  bool (GarbageCollector::*step)(const std::string&));

  const std::shared_ptr<client::Clientset> clients_;
  cache::SharedInformerFactory* const informers_;
  cache::SharedInformerFactory* const metadata_informers_;  // may be null
  const std::shared_ptr<record::EventRecorder> recorder_;
  GarbageCollectorOptions options_;
  const std::shared_ptr<GcApi> api_;

  const std::shared_ptr<ReferenceCache> absent_owners_;
  std::shared_ptr<metrics::Counter> sync_errors_;  // null without a registry
  RestMapper mapper_;
  workqueue::RateLimitingQueue<std::string> attempt_to_delete_;
  workqueue::RateLimitingQueue<std::string> attempt_to_orphan_;
  GraphBuilder builder_;

  mutable std::mutex monitors_mu_;
  std::map<std::string, Monitor> monitors_;  // by "group/version/resource"
  std::stop_token run_stop_;                 // set once run() started
  bool running_ = false;
};

}  // namespace kcm::controllers::garbagecollector
