// The ReplicaSet controller (upstream pkg/controller/replicaset/replica_set.go):
// keeps spec.replicas active pods for every apps/v1 ReplicaSet, adopting
// matching orphans and releasing pods that stopped matching, and reports
// what it sees in the ReplicaSet's status.
//
// Event handlers only compute keys (and observe expectations); workers sync
// one key at a time from the listers and write through the client.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "api/json.h"
#include "api/result.h"
#include "api/status.h"
#include "api/time.h"
#include "cache/cached_object.h"
#include "cache/event_handler.h"
#include "cache/informer_factory.h"
#include "cache/lister.h"
#include "cache/wait.h"
#include "client/clientset.h"
#include "controller/active_pods.h"
#include "controller/controller_ref_manager.h"
#include "controller/expectations.h"
#include "controller/parallel_calls.h"
#include "controllers/replicaset/manage_replicas.h"
#include "controllers/replicaset/replica_set_utils.h"
#include "record/event_recorder.h"
#include "workqueue/rate_limiting_queue.h"

namespace kcm::controllers::replicaset {

inline constexpr std::string_view kControllerName = "replicaset-controller";

// What the controller asks the API server about ReplicaSets beyond its
// cache: the uncached GET (before adopting, and before retrying a status
// write) and the status write itself.
class ReplicaSetClient {
 public:
  virtual ~ReplicaSetClient() = default;
  virtual Result<json::value, api::Status> get(std::string_view namespace_,
                                               std::string_view name) = 0;
  // PUT .../replicasets/<name>/status with `rs`. Only the outcome: the
  // controller goes on with what it wrote (upstream reads the same fields,
  // spec and status, back from the answer).
  virtual Result<void, api::Status> update_status(const json::value& rs) = 0;
};

// The ReplicaSetClient over a clientset.
std::unique_ptr<ReplicaSetClient> clientset_replica_set_client(
    std::shared_ptr<client::Clientset> clients);

struct ReplicaSetControllerOptions {
  // Report status.terminatingReplicas: the DeploymentReplicaSetTerminatingReplicas
  // gate, alpha and off at kcm's version (1.33). The API server must keep the
  // field (its own gate on): a field it drops makes every sync write again.
  bool terminating_replicas = false;
  // The PodDeletionCost and LogarithmicScaleDown gates, for choosing the pods
  // to delete.
  controller::RankOptions rank;
  // How many pod creations or deletions of one batch run at once (upstream
  // starts one goroutine per call).
  int max_parallel_pod_calls = 16;
  // nullptr: clientset_replica_set_client(clients). Tests pass a fake.
  std::shared_ptr<ReplicaSetClient> replica_sets;
  // The wall clock for availability and deletion ranking; unset: the real one.
  std::function<api::Time()> now;
};

class ReplicaSetController {
 public:
  // Requests the apps/v1 replicasets and v1 pods informers from `informers`
  // and registers its handlers; starts nothing. `pod_control` nullptr: a
  // ClientPodControl over `clients` recording through `recorder`.
  ReplicaSetController(std::shared_ptr<client::Clientset> clients,
                       cache::SharedInformerFactory& informers,
                       std::shared_ptr<record::EventRecorder> recorder,
                       std::shared_ptr<controller::PodControl> pod_control = nullptr,
                       int burst_replicas = kBurstReplicas,
                       ReplicaSetControllerOptions options = {});
  // Removes its handlers from the informers (they outlive the controller).
  ~ReplicaSetController();
  ReplicaSetController(const ReplicaSetController&) = delete;
  ReplicaSetController& operator=(const ReplicaSetController&) = delete;

  // Waits for the caches (started by the owner of the informer factory), runs
  // `workers` workers until `stop`, then lets them finish the keys they hold.
  void run(int workers, std::stop_token stop);

  // syncReplicaSet for one "namespace/name" key; what the workers call.
  Result<void> sync(const std::string& key);

  // For tests.
  workqueue::RateLimitingQueue<std::string>& queue() { return queue_; }
  controller::UidTrackingControllerExpectations& expectations() { return expectations_; }

 private:
  // Handlers (upstream addRS, updateRS, deleteRS, addPod, updatePod, deletePod).
  void add_rs(const cache::ObjectPtr& rs);
  void update_rs(const cache::ObjectPtr& old_rs, const cache::ObjectPtr& cur_rs);
  void delete_rs(const cache::DeletedObject& rs);
  void add_pod(const cache::ObjectPtr& pod);
  void update_pod(const cache::ObjectPtr& old_pod, const cache::ObjectPtr& cur_pod);
  void delete_pod(const cache::DeletedObject& pod);

  // The ReplicaSet a pod's controllerRef names, from the cache: the kind must
  // be ReplicaSet and the uid must match. nullptr otherwise.
  cache::ObjectPtr resolve_controller_ref(std::string_view namespace_,
                                          const cache::OwnerRef& ref) const;
  // The ReplicaSets whose selectors match an orphan pod's labels.
  std::vector<cache::ObjectPtr> get_pod_replica_sets(const cache::CachedObject& pod) const;
  // The pods of every ReplicaSet with the same controller as `rs`.
  std::vector<controller::CachedPod> indirectly_related_pods(const cache::CachedObject& rs) const;

  bool process_next_item();
  // manageReplicas: creates or deletes pods toward spec.replicas.
  Result<void> manage_replicas(const std::vector<const controller::CachedPod*>& active_pods,
                               const cache::CachedObject& rs_cached, const json::object& rs,
                               const ReplicaSetView& view, const std::string& key);
  // updateReplicaSetStatus: the ReplicaSet as written (or unchanged).
  Result<json::value, api::Status> update_status(json::value rs, const ReplicaSetView& view,
                                                 const ReplicaSetStatus& new_status);
  api::Time now() const;

  const std::shared_ptr<controller::PodControl> pod_control_;
  const int burst_replicas_;
  const ReplicaSetControllerOptions options_;
  const std::shared_ptr<ReplicaSetClient> replica_sets_;
  controller::ParallelCalls pod_calls_;  // the pod creations and deletions of a batch

  const std::shared_ptr<cache::SharedIndexInformer> rs_informer_;
  const std::shared_ptr<cache::SharedIndexInformer> pod_informer_;
  const cache::Lister rs_lister_;
  const cache::Lister pod_lister_;

  controller::UidTrackingControllerExpectations expectations_;
  workqueue::RateLimitingQueue<std::string> queue_;

  std::shared_ptr<cache::ResourceEventHandlerRegistration> rs_registration_;
  std::shared_ptr<cache::ResourceEventHandlerRegistration> pod_registration_;
  std::vector<cache::InformerSynced> synced_;
};

}  // namespace kcm::controllers::replicaset
