#include "controllers/namespace/namespace_controller.h"

#include <algorithm>
#include <thread>
#include <utility>
#include <vector>

#include "controller/run_workers.h"
#include "log/log.h"
#include "workqueue/rate_limiters.h"

namespace kcm::controllers::ns {

namespace {

const api::GroupVersionResource kNamespaces{"", "v1", "namespaces"};

// The queue's name, as upstream's (it labels the workqueue metrics).
constexpr std::string_view kQueueName = "namespace";

std::shared_ptr<DeleterApi> api_for(const std::shared_ptr<client::Clientset>& clients,
                                    const NamespaceControllerOptions& options) {
  if (options.api) return options.api;
  return std::shared_ptr<DeleterApi>(clientset_deleter_api(clients));
}

}  // namespace

std::shared_ptr<workqueue::RateLimiter<std::string>> ns_controller_rate_limiter() {
  using std::chrono::milliseconds;
  using std::chrono::seconds;
  using Limiter = workqueue::RateLimiter<std::string>;
  return std::make_shared<workqueue::MaxOfRateLimiter<std::string>>(
      std::vector<std::shared_ptr<Limiter>>{
          std::make_shared<workqueue::ItemExponentialFailureRateLimiter<std::string>>(
              milliseconds(5), seconds(60)),
          std::make_shared<workqueue::BucketRateLimiter<std::string>>(
              std::make_shared<workqueue::TokenBucket>(10, 100)),
      });
}

std::chrono::seconds requeue_delay(std::int64_t estimate) {
  return std::chrono::seconds(estimate / 2 + 1);
}

NamespaceController::NamespaceController(std::shared_ptr<client::Clientset> clients,
                                         cache::SharedInformerFactory& informers,
                                         NamespaceControllerOptions options)
    : api_(api_for(clients, options)),
      deletion_grace_period_(options.deletion_grace_period),
      informer_(informers.informer_for(kNamespaces)),
      lister_(informers.lister_for(kNamespaces)),
      deleter_(*api_, options.deleter),
      queue_(ns_controller_rate_limiter(), {.name = std::string(kQueueName)}) {
  auto handler = std::make_shared<cache::EventHandlerFuncs>();
  handler->add = [this](const cache::ObjectPtr& ns, bool) { enqueue(ns); };
  handler->update = [this](const cache::ObjectPtr&, const cache::ObjectPtr& ns) { enqueue(ns); };
  handler->delivery_mode = cache::HandlerDelivery::kInline;  // it only queues keys
  auto registered = informer_->add_event_handler(std::move(handler), options.resync_period);
  if (!registered.ok()) {
    // Only once the informer stopped: nothing will ever sync.
    log::error("Cannot register event handler",
               {{"controller", kControllerName}, {"err", registered.error()}});
    synced_ = [] { return false; };
    return;
  }
  registration_ = *registered;
  synced_ = [reg = registration_] { return reg->has_synced(); };
}

NamespaceController::~NamespaceController() {
  // The informer is shared and may outlive us: stop our handler first.
  if (registration_) (void)informer_->remove_event_handler(registration_);
  queue_.shut_down();
}

std::optional<std::string> NamespaceController::key_to_queue(const cache::CachedObject& ns) {
  if (!ns.deletion_timestamp()) return std::nullopt;
  return std::string(ns.key());
}

void NamespaceController::enqueue(const cache::ObjectPtr& ns) {
  const auto key = key_to_queue(*ns);
  if (!key) return;  // not being deleted
  // Delayed so that HA API servers observe the deletion, and last-moment
  // creations inside the namespace land, before we clean up.
  queue_.add_after(*key, std::chrono::duration_cast<workqueue::Duration>(deletion_grace_period_));
}

void NamespaceController::run(int workers, std::stop_token stop) {
  controller::run_workers({.controller = kControllerName,
                           .synced = {synced_},
                           .process_next = [this] { return process_next_item(); },
                           .shut_down = [this] { queue_.shut_down(); }},
                          workers, stop);
}

Result<void, DeleteError> NamespaceController::sync(const std::string& key) {
  const auto start = std::chrono::steady_clock::now();
  auto cached = lister_.get(key);
  Result<void, DeleteError> result;
  if (!cached.ok()) {
    if (cached.error().is(api::reason::kNotFound)) {
      log::info("Namespace has been deleted", {{"namespace", key}});
    } else {
      result = fail(DeleteError{cached.error().message, std::nullopt});
    }
  } else {
    result = deleter_.delete_namespace((*cached)->name());
  }
  if (log::v(4)) {
    const auto took = std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - start);
    log::info("Finished syncing namespace",
              {{"namespace", key}, {"duration", static_cast<std::int64_t>(took.count())}});
  }
  return result;
}

bool NamespaceController::process_next_item() {
  const std::optional<std::string> key = queue_.get();
  if (!key) return false;
  const auto result = sync(*key);
  if (result.ok()) {
    queue_.forget(*key);
  } else if (const auto& estimate = result.error().remaining_estimate) {
    const auto wait = requeue_delay(*estimate);
    if (log::v(4)) {
      log::info("Content remaining in namespace",
                {{"namespace", *key}, {"waitSeconds", static_cast<std::int64_t>(wait.count())}});
    }
    queue_.add_after(*key, std::chrono::duration_cast<workqueue::Duration>(wait));
  } else {
    // Sooner than a full resync.
    queue_.add_rate_limited(*key);
    log::error("deletion of namespace failed",
               {{"namespace", *key}, {"err", result.error().message}});
  }
  queue_.done(*key);
  return true;
}

}  // namespace kcm::controllers::ns
