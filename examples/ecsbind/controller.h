// The ecsbind-controller: keeps one Node for every EcsBind.
//
// Its shape is every kcm controller's: informer event handlers only enqueue
// the EcsBind's name; workers take names off a rate-limited queue and
// reconcile one EcsBind at a time from the informers' caches; a failed
// reconcile is retried with back-off. Which Node to write and what the status
// says are decided in reconciler.h; this file does the I/O.
//
// The finalizer ecsbind.kcm.dev/cleanup (controller::finalize) makes sure a
// deleted EcsBind's Node goes first: the EcsBind stays, with a
// deletionTimestamp, until the controller has deleted its Node.
#pragma once

#include <memory>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "api/result.h"
#include "cache/informer_factory.h"
#include "cache/shared_informer.h"
#include "cache/typed_lister.h"
#include "cache/wait.h"
#include "client/clientset.h"
#include "client/typed_client.h"
#include "ecsbind/ecsbind_types.h"
#include "ecsbind/reconciler.h"
#include "metrics/counter.h"
#include "record/event_recorder.h"
#include "workqueue/rate_limiting_queue.h"

namespace kcm::ecsbind {

inline constexpr std::string_view kControllerName = "ecsbind-controller";

class EcsBindController {
 public:
  // Requests the EcsBind and Node informers from `informers` and registers
  // its handlers; starts nothing. `reconciles` (may be null) counts
  // reconciles by result ("success", "error").
  EcsBindController(std::shared_ptr<client::Clientset> clients,
                    cache::SharedInformerFactory& informers,
                    std::shared_ptr<record::EventRecorder> recorder,
                    std::shared_ptr<metrics::CounterVec> reconciles = nullptr);
  // Removes its handlers from the informers (they may outlive the controller).
  ~EcsBindController();
  EcsBindController(const EcsBindController&) = delete;
  EcsBindController& operator=(const EcsBindController&) = delete;

  // Waits for the caches (started by whoever owns the informer factory), runs
  // `workers` workers until `stop`, then lets them finish the name they hold.
  void run(int workers, std::stop_token stop);

  // Brings the EcsBind `name` and its Node in line; what the workers call.
  // An error requeues the name with back-off.
  Result<void> reconcile(const std::string& name);

 private:
  bool process_next_item();
  // finalize's two branches: keep the Node (and the status), or remove it.
  Result<void> apply(const EcsBind& bind);
  Result<void> cleanup(const EcsBind& bind);
  // Makes the Node of the desired name ours and as wanted; the outcome for the status.
  Result<Outcome> ensure_node(const EcsBind& bind);
  Result<void> write_status(const EcsBind& bind, const Outcome& outcome);
  // A write answered 409 Conflict: success, the newer version's event reconciles again.
  Result<void> requeued_by_newer_version(const std::string& name);
  void record(const EcsBind& bind, std::string_view type, std::string_view reason,
              const std::string& message);
  void count(std::string_view result);

  const std::shared_ptr<client::Clientset> clients_;
  const std::shared_ptr<record::EventRecorder> recorder_;
  const std::shared_ptr<metrics::CounterVec> reconciles_;
  client::TypedClient<EcsBind> binds_client_;
  client::TypedClient<Node> nodes_client_;
  const cache::TypedInformer<EcsBind> binds_;
  const cache::TypedInformer<Node> nodes_;
  workqueue::RateLimitingQueue<std::string> queue_;

  std::vector<std::shared_ptr<cache::ResourceEventHandlerRegistration>> bind_registrations_;
  std::vector<std::shared_ptr<cache::ResourceEventHandlerRegistration>> node_registrations_;
  std::vector<cache::InformerSynced> synced_;
};

}  // namespace kcm::ecsbind
