// The pod counter (kcm's example controller, run by examples/pod-counter and,
// when enabled, by kcm as pod-counter-controller): keeps the number of pods
// in the cluster in the label kcm.dev/pod-count of every control-plane node,
// and records one PodCounted event on each pod the first time it is counted.
//
// Its shape is every controller's: handlers only enqueue, workers sync from
// the listers and write through the client, the caches are waited for, and
// stopping drains the queue. The decisions live in node_label.h and
// counted_pods.h.
#pragma once

#include <memory>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "api/result.h"
#include "api/status.h"
#include "cache/event_handler.h"
#include "cache/informer_factory.h"
#include "cache/lister.h"
#include "cache/shared_informer.h"
#include "cache/wait.h"
#include "client/clientset.h"
#include "controllers/podcounter/counted_pods.h"
#include "record/event_recorder.h"
#include "workqueue/rate_limiting_queue.h"

namespace kcm::controllers::podcounter {

inline constexpr std::string_view kControllerName = "pod-counter-controller";

class PodCounterController {
 public:
  // Requests the v1 pods and nodes informers from `informers` and registers
  // its handlers; starts nothing.
  PodCounterController(std::shared_ptr<client::Clientset> clients,
                       cache::SharedInformerFactory& informers,
                       std::shared_ptr<record::EventRecorder> recorder);
  // Removes its handlers from the informers (they may outlive the controller).
  ~PodCounterController();
  PodCounterController(const PodCounterController&) = delete;
  PodCounterController& operator=(const PodCounterController&) = delete;

  // Waits for the caches (started by whoever owns the informer factory),
  // reads which pods earlier runs announced, runs `workers` workers until
  // `stop`, then lets them finish the key they hold. Call once.
  void run(int workers, std::stop_token stop);

  // One sync of the count: announce newly counted pods, then patch every node
  // whose label is wrong. What the workers call.
  Result<void, api::Status> sync();

 private:
  bool process_next_item();
  void remember_announced_pods();

  const std::shared_ptr<client::Clientset> clients_;
  const std::shared_ptr<record::EventRecorder> recorder_;
  const std::shared_ptr<cache::SharedIndexInformer> pod_informer_;
  const std::shared_ptr<cache::SharedIndexInformer> node_informer_;
  const cache::Lister pods_;
  const cache::Lister nodes_;
  workqueue::RateLimitingQueue<std::string> queue_;
  CountedPods counted_;  // only sync (and run, before the workers) touch it

  std::shared_ptr<cache::ResourceEventHandlerRegistration> pod_registration_;
  std::shared_ptr<cache::ResourceEventHandlerRegistration> node_registration_;
  std::vector<cache::InformerSynced> synced_;
};

}  // namespace kcm::controllers::podcounter
