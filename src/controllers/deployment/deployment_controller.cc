#include "controllers/deployment/deployment_controller.h"

#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>

#include "cache/controller_index.h"
#include "cache/label_index.h"
#include "controller/run_workers.h"
#include "controllers/deployment/template_equality.h"
#include "log/log.h"
#include "workqueue/rate_limiters.h"

namespace kcm::controllers::deployment {

namespace {

const api::GroupVersionResource kDeployments{"apps", "v1", "deployments"};
const api::GroupVersionResource kReplicaSets{"apps", "v1", "replicasets"};
const api::GroupVersionResource kPods{"", "v1", "pods"};

// The queue's name, as upstream's (it labels the workqueue metrics).
constexpr std::string_view kQueueName = "deployment";

std::shared_ptr<DeploymentApi> api_for(const std::shared_ptr<client::Clientset>& clients,
                                       const DeploymentControllerOptions& options) {
  if (options.api) return options.api;
  return std::shared_ptr<DeploymentApi>(clientset_deployment_api(clients));
}

}  // namespace

DeploymentController::DeploymentController(std::shared_ptr<client::Clientset> clients,
                                           cache::SharedInformerFactory& informers,
                                           std::shared_ptr<record::EventRecorder> recorder,
                                           DeploymentControllerOptions options)
    : recorder_(std::move(recorder)),
      api_(api_for(clients, options)),
      d_informer_(informers.informer_for(kDeployments)),
      rs_informer_(informers.informer_for(kReplicaSets)),
      pod_informer_(informers.informer_for(kPods)),
      queue_(workqueue::default_controller_rate_limiter<std::string>(),
             {.name = std::string(kQueueName)}),
      requeuer_(queue_),
      handlers_(informers.lister_for(kDeployments), informers.lister_for(kReplicaSets),
                informers.lister_for(kPods), *api_,
                [this](const std::string& key) { queue_.add(key); }),
      syncer_(informers.lister_for(kDeployments), informers.lister_for(kReplicaSets),
              informers.lister_for(kPods), *api_, *recorder_, requeuer_,
              SyncerOptions{.status = {.terminating_replicas = options.terminating_replicas},
                            .now = std::move(options.now)}) {
  auto d_handler = std::make_shared<cache::EventHandlerFuncs>();
  d_handler->add = [this](const cache::ObjectPtr& d, bool) { handlers_.add_deployment(d); };
  d_handler->update = [this](const cache::ObjectPtr& old_d, const cache::ObjectPtr& cur_d) {
    handlers_.update_deployment(old_d, cur_d);
  };
  // The sync of a deleted Deployment finds nothing and does nothing.
  d_handler->remove = [this](const cache::DeletedObject& d) { handlers_.delete_deployment(d); };
  // The handlers only read the caches and queue keys.
  d_handler->delivery_mode = cache::HandlerDelivery::kInline;

  auto rs_handler = std::make_shared<cache::EventHandlerFuncs>();
  rs_handler->add = [this](const cache::ObjectPtr& rs, bool) { handlers_.add_replica_set(rs); };
  rs_handler->update = [this](const cache::ObjectPtr& old_rs, const cache::ObjectPtr& cur_rs) {
    handlers_.update_replica_set(old_rs, cur_rs);
  };
  rs_handler->remove = [this](const cache::DeletedObject& rs) { handlers_.delete_replica_set(rs); };
  rs_handler->delivery_mode = cache::HandlerDelivery::kInline;

  // Only deletions: they let a Recreate rollout go on once the old pods are gone.
  auto pod_handler = std::make_shared<cache::EventHandlerFuncs>();
  pod_handler->remove = [this](const cache::DeletedObject& pod) { handlers_.delete_pod(pod); };
  pod_handler->delivery_mode = cache::HandlerDelivery::kInline;

  const auto register_handler = [this](const std::shared_ptr<cache::SharedIndexInformer>& informer,
                                       std::shared_ptr<cache::ResourceEventHandler> handler) {
    auto r = informer->add_event_handler(std::move(handler));
    if (!r.ok()) {
      // Only once the informer stopped: nothing will ever sync.
      log::error("Cannot register event handler",
                 {{"controller", kControllerName}, {"err", r.error()}});
      registrations_.push_back(nullptr);
      synced_.emplace_back([] { return false; });
      return;
    }
    registrations_.push_back(*r);
    synced_.emplace_back([reg = *r] { return reg->has_synced(); });
  };
  // Syncs look their ReplicaSets and pods up by controller UID (controller_index.h).
  for (const auto& informer : {rs_informer_, pod_informer_}) {
    if (auto added = cache::add_controller_uid_index(*informer); !added.ok()) {
      log::error("Cannot add the controller UID index; syncs will scan the namespace",
                 {{"controller", kControllerName}, {"err", added.error()}});
    }
  }
  // Every ReplicaSet we make selects its pods by pod-template-hash: listing
  // them (the ReplicaSet controller's related pods on scale-down) then reads
  // one index entry instead of the namespace (label_index.h).
  if (auto added = cache::add_label_index(*pod_informer_, kPodTemplateHashLabel); !added.ok()) {
    log::error("Cannot add the pod-template-hash index",
               {{"controller", kControllerName}, {"err", added.error()}});
  }
  register_handler(d_informer_, std::move(d_handler));
  register_handler(rs_informer_, std::move(rs_handler));
  register_handler(pod_informer_, std::move(pod_handler));
}

DeploymentController::~DeploymentController() {
  // The informers are shared and may outlive us: stop our handlers (this
  // waits for a running one) before the members they use go away.
  const std::shared_ptr<cache::SharedIndexInformer> informers[] = {d_informer_, rs_informer_,
                                                                   pod_informer_};
  for (std::size_t i = 0; i < registrations_.size() && i < 3; ++i) {
    if (registrations_[i]) (void)informers[i]->remove_event_handler(registrations_[i]);
  }
  queue_.shut_down();
}

void DeploymentController::run(int workers, std::stop_token stop) {
  controller::run_workers({.controller = kQueueName,
                           .synced = synced_,
                           .process_next = [this] { return process_next_item(); },
                           .shut_down = [this] { queue_.shut_down_with_drain(); }},
                          workers, stop);
}

SyncResult DeploymentController::sync(const std::string& key) {
  const auto start = std::chrono::steady_clock::now();
  if (log::v(4)) log::info("Started syncing deployment", {{"deployment", key}});
  SyncResult result = syncer_.sync_deployment(key);
  if (log::v(4)) {
    const auto took = std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - start);
    log::info("Finished syncing deployment",
              {{"deployment", key}, {"duration", static_cast<std::int64_t>(took.count())}});
  }
  return result;
}

bool DeploymentController::process_next_item() {
  const std::optional<std::string> key = queue_.get();
  if (!key) return false;
  handle_error(*key, sync(*key));
  queue_.done(*key);
  return true;
}

void DeploymentController::handle_error(const std::string& key, const SyncResult& result) {
  // Writes into a terminating namespace fail until it is gone: not retried.
  if (result.ok() || has_status_cause(result.error(), kNamespaceTerminatingCause)) {
    queue_.forget(key);
    return;
  }
  if (queue_.num_requeues(key) < kMaxRetries) {
    if (log::v(2)) {
      log::info("Error syncing deployment", {{"deployment", key}, {"err", result.error().message}});
    }
    queue_.add_rate_limited(key);
    return;
  }
  log::error("Dropping deployment out of the queue",
             {{"deployment", key}, {"err", result.error().message}});
  queue_.forget(key);
}

}  // namespace kcm::controllers::deployment
