// The namespace controller (upstream pkg/controller/namespace): for every
// namespace being deleted, empties it through NamespacedResourcesDeleter and
// then releases its `kubernetes` finalizer so the API server can remove it.
//
// The informer handler queues only namespaces with a deletionTimestamp, after
// a grace period that lets last-moment creations land; workers retry a
// namespace with content left after about half its estimate.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

#include "cache/event_handler.h"
#include "cache/informer_factory.h"
#include "cache/lister.h"
#include "cache/wait.h"
#include "client/clientset.h"
#include "controllers/namespace/deleter_api.h"
#include "controllers/namespace/namespaced_resources_deleter.h"
#include "workqueue/rate_limiter.h"
#include "workqueue/rate_limiting_queue.h"

namespace kcm::controllers::ns {

inline constexpr std::string_view kControllerName = "namespace-controller";

// upstream namespaceDeletionGracePeriod: the wait before a deleted
// namespace's first pass (HA API servers must see the deletion and refuse
// new content first).
inline constexpr std::chrono::seconds kNamespaceDeletionGracePeriod{5};

// upstream nsControllerRateLimiter: per namespace 5ms * 2^failures up to 60s
// (a retry at least every minute), and 10 qps with a burst of 100 overall.
std::shared_ptr<workqueue::RateLimiter<std::string>> ns_controller_rate_limiter();

// The worker's delay after a pass that left content going away (estimate/2 + 1 seconds).
std::chrono::seconds requeue_delay(std::int64_t estimate);

struct NamespaceControllerOptions {
  // The resync period of the namespace handler (--namespace-sync-period).
  std::chrono::milliseconds resync_period = std::chrono::minutes(5);
  std::chrono::milliseconds deletion_grace_period = kNamespaceDeletionGracePeriod;
  // nullptr: clientset_deleter_api(clients). Tests pass a fake.
  std::shared_ptr<DeleterApi> api;
  DeleterOptions deleter;
};

class NamespaceController {
 public:
  // Requests the v1 namespaces informer and registers its handler; starts nothing.
  NamespaceController(std::shared_ptr<client::Clientset> clients,
                      cache::SharedInformerFactory& informers,
                      NamespaceControllerOptions options = {});
  ~NamespaceController();
  NamespaceController(const NamespaceController&) = delete;
  NamespaceController& operator=(const NamespaceController&) = delete;

  // Waits for the namespace cache, runs `workers` workers until `stop`.
  void run(int workers, std::stop_token stop);

  // syncNamespaceFromKey: one pass over the namespace named `key`.
  Result<void, DeleteError> sync(const std::string& key);

  // The queue key for a namespace that is being deleted (nullopt otherwise).
  static std::optional<std::string> key_to_queue(const cache::CachedObject& ns);

  workqueue::RateLimitingQueue<std::string>& queue() { return queue_; }

 private:
  void enqueue(const cache::ObjectPtr& ns);
  bool process_next_item();

  const std::shared_ptr<DeleterApi> api_;
  const std::chrono::milliseconds deletion_grace_period_;
  const std::shared_ptr<cache::SharedIndexInformer> informer_;
  const cache::Lister lister_;
  NamespacedResourcesDeleter deleter_;
  workqueue::RateLimitingQueue<std::string> queue_;
  std::shared_ptr<cache::ResourceEventHandlerRegistration> registration_;
  cache::InformerSynced synced_;
};

}  // namespace kcm::controllers::ns
