// The Deployment controller (upstream pkg/controller/deployment): rolls each
// apps/v1 Deployment out through ReplicaSets, one per pod template, with the
// RollingUpdate or Recreate strategy, proportional scaling, pause, rollback,
// revision history clean-up and the Progressing / Available conditions.
//
// Informer handlers only compute keys (DeploymentEventHandlers); workers take
// keys from a rate-limited queue and run DeploymentSyncer::sync_deployment.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "api/result.h"
#include "api/status.h"
#include "api/time.h"
#include "cache/event_handler.h"
#include "cache/informer_factory.h"
#include "cache/wait.h"
#include "client/clientset.h"
#include "controllers/deployment/deployment_api.h"
#include "controllers/deployment/deployment_syncer.h"
#include "controllers/deployment/event_handlers.h"
#include "record/event_recorder.h"
#include "workqueue/rate_limiting_queue.h"

namespace kcm::controllers::deployment {

// A key that failed this many times in a row is dropped (upstream maxRetries).
inline constexpr int kMaxRetries = 15;

struct DeploymentControllerOptions {
  // Report status.terminatingReplicas: the DeploymentReplicaSetTerminatingReplicas
  // gate, alpha and off at kcm's version (1.33), as for the ReplicaSet controller.
  bool terminating_replicas = false;
  // nullptr: clientset_deployment_api(clients). Tests pass a fake.
  std::shared_ptr<DeploymentApi> api;
  // The wall clock for conditions and deadlines; unset: the real one.
  std::function<api::Time()> now;
};

class DeploymentController {
 public:
  // Requests the apps/v1 deployments and replicasets and v1 pods informers
  // from `informers` and registers its handlers; starts nothing.
  DeploymentController(std::shared_ptr<client::Clientset> clients,
                       cache::SharedInformerFactory& informers,
                       std::shared_ptr<record::EventRecorder> recorder,
                       DeploymentControllerOptions options = {});
  // Removes its handlers from the informers (they outlive the controller).
  ~DeploymentController();
  DeploymentController(const DeploymentController&) = delete;
  DeploymentController& operator=(const DeploymentController&) = delete;

  // Waits for the caches (started by the owner of the informer factory), runs
  // `workers` workers until `stop`, then lets them finish the keys they hold.
  void run(int workers, std::stop_token stop);

  // syncDeployment for one "namespace/name" key; what the workers call.
  SyncResult sync(const std::string& key);

  // For tests.
  workqueue::RateLimitingQueue<std::string>& queue() { return queue_; }

 private:
  class QueueRequeuer final : public Requeuer {
   public:
    explicit QueueRequeuer(workqueue::RateLimitingQueue<std::string>& queue) : queue_(queue) {}
    void requeue_rate_limited(const std::string& key) override { queue_.add_rate_limited(key); }
    void requeue_after(const std::string& key, std::chrono::nanoseconds after) override {
      queue_.add_after(key, std::chrono::duration_cast<workqueue::Duration>(after));
    }

   private:
    workqueue::RateLimitingQueue<std::string>& queue_;
  };

  bool process_next_item();
  // handleErr: forget on success or a terminating namespace, retry with
  // back-off up to kMaxRetries, then drop.
  void handle_error(const std::string& key, const SyncResult& result);

  const std::shared_ptr<record::EventRecorder> recorder_;
  const std::shared_ptr<DeploymentApi> api_;

  const std::shared_ptr<cache::SharedIndexInformer> d_informer_;
  const std::shared_ptr<cache::SharedIndexInformer> rs_informer_;
  const std::shared_ptr<cache::SharedIndexInformer> pod_informer_;

  workqueue::RateLimitingQueue<std::string> queue_;
  QueueRequeuer requeuer_;
  DeploymentEventHandlers handlers_;
  DeploymentSyncer syncer_;

  std::vector<std::shared_ptr<cache::ResourceEventHandlerRegistration>> registrations_;
  std::vector<cache::InformerSynced> synced_;
};

}  // namespace kcm::controllers::deployment
