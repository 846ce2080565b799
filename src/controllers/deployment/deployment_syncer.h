// syncDeployment (upstream deployment_controller.go, sync.go, rolling.go,
// recreate.go, rollback.go and progress.go): one pass over one Deployment.
// It reads the Deployment, its ReplicaSets and its pods from the listers,
// decides with the pure functions of this folder, and acts through a
// DeploymentApi, recording events on the Deployment.
//
// The syncer holds no state between calls, so several workers may call it
// at once for different keys. The methods are spread over files by concern,
// as upstream's are: deployment_syncer.cc (the entry point, claiming and the
// pod map), sync.cc (new ReplicaSet, scaling, clean-up, status),
// rollout_rolling.cc, rollout_recreate.cc, rollout_rollback.cc and
// rollout_status.cc (progress and its requeue).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "api/result.h"
#include "api/status.h"
#include "api/time.h"
#include "cache/lister.h"
#include "controllers/deployment/deployment_api.h"
#include "controllers/deployment/progress.h"
#include "controllers/deployment/scale_action.h"
#include "controllers/deployment/sync_state.h"
#include "record/event_recorder.h"

namespace kcm::controllers::deployment {

inline constexpr std::string_view kControllerName = "deployment-controller";
// The cause of errors for writes into a namespace being deleted (never retried).
inline constexpr std::string_view kNamespaceTerminatingCause = "NamespaceTerminating";

// A sync's error: the API server's Status, or a message (reason empty) for
// the controller's own failures.
using SyncResult = Result<void, api::Status>;
api::Status sync_error(std::string message);
// errors.HasStatusCause(err, cause).
bool has_status_cause(const api::Status& status, std::string_view cause);

// Where a sync asks for its Deployment to be looked at again (the workqueue).
class Requeuer {
 public:
  virtual ~Requeuer() = default;
  virtual void requeue_rate_limited(const std::string& key) = 0;
  virtual void requeue_after(const std::string& key, std::chrono::nanoseconds after) = 0;
};

struct SyncerOptions {
  // Which optional status fields are computed (feature gates).
  StatusOptions status;
  // The wall clock for conditions and deadlines; unset: the real one.
  std::function<api::Time()> now;
};

class DeploymentSyncer {
 public:
  // The listers are apps/v1 deployments, apps/v1 replicasets and v1 pods.
  // `api`, `recorder` and `requeuer` must outlive the syncer.
  DeploymentSyncer(cache::Lister deployments, cache::Lister replica_sets, cache::Lister pods,
                   DeploymentApi& api, record::EventRecorder& recorder, Requeuer& requeuer,
                   SyncerOptions options = {});

  // syncDeployment for a "namespace/name" key. A Deployment that is not in
  // the cache is done (it was deleted).
  SyncResult sync_deployment(std::string_view key);

 private:
  // The ReplicaSets getAllReplicaSetsAndSyncRevision returns.
  struct AllReplicaSets {
    const ReplicaSetInfo* new_rs = nullptr;  // may be null
    ReplicaSetList old_rss;                  // every other RS, oldest first
    // old_rss + [new_rs] (new_rs may be null), as upstream's allRSs.
    ReplicaSetList all() const;
  };
  // One RS update of a ScaleAction: whether the size changed (and the event
  // was recorded) and the RS as written.
  struct Scaled {
    bool scaled = false;
    const ReplicaSetInfo* rs = nullptr;
  };

  api::Time now() const;
  void record_event(const SyncState& s, std::string_view type, std::string_view reason,
                    std::string_view message);
  // UpdateStatus of s.deployment; on success the sync continues from the
  // written resourceVersion.
  SyncResult write_status(SyncState& s);

  // deployment_syncer.cc
  SyncResult claim_replica_sets(SyncState& s);  // getReplicaSetsForDeployment
  // getPodMapForDeployment's list: the pods of s.rs_list matching the
  // selector, from the cache, not yet grouped. Its only error, a selector
  // that does not convert, has already failed claim_replica_sets.
  Result<std::vector<cache::ObjectPtr>, api::Status> list_pods(const SyncState& s) const;

  // sync.cc
  SyncResult sync_status_only(SyncState& s);
  SyncResult sync(SyncState& s);  // scaling events and paused Deployments
  SyncResult check_paused_conditions(SyncState& s);
  Result<AllReplicaSets, api::Status> get_all_replica_sets_and_sync_revision(SyncState& s,
                                                                             bool create);
  Result<const ReplicaSetInfo*, api::Status> get_new_replica_set(SyncState& s,
                                                                 const ReplicaSetList& old_rss,
                                                                 bool create);
  Result<const ReplicaSetInfo*, api::Status> create_new_replica_set(SyncState& s,
                                                                    const ReplicaSetList& old_rss,
                                                                    const std::string& revision);
  Result<bool, api::Status> is_scaling_event(SyncState& s);
  SyncResult scale(SyncState& s, const ReplicaSetInfo* new_rs, const ReplicaSetList& old_rss);
  // scaleReplicaSet for a planned action, applied to `rs` (the action's RS,
  // or the version an earlier action of the same plan wrote).
  Result<Scaled, api::Status> scale_replica_set(SyncState& s, const ReplicaSetInfo& rs,
                                                const ScaleAction& action);
  // Applies `actions` in order; each action after the first on the same RS
  // starts from what the previous one wrote. Stops at the first failure.
  Result<bool, api::Status> apply_scale_actions(SyncState& s, const ScaleActions& actions);
  SyncResult cleanup_deployment(SyncState& s, const ReplicaSetList& old_rss);
  SyncResult sync_deployment_status(SyncState& s, const ReplicaSetList& all_rss,
                                    const ReplicaSetInfo* new_rs);

  // rollout_rolling.cc
  SyncResult rollout_rolling(SyncState& s);
  Result<bool, api::Status> reconcile_new_replica_set(SyncState& s, const ReplicaSetList& all_rss,
                                                      const ReplicaSetInfo& new_rs);
  bool reconcile_old_replica_sets(SyncState& s, const ReplicaSetList& all_rss,
                                  const ReplicaSetList& old_rss, const ReplicaSetInfo& new_rs);

  // rollout_recreate.cc
  SyncResult rollout_recreate(SyncState& s);

  // rollout_rollback.cc
  SyncResult rollback(SyncState& s);

  // rollout_status.cc
  SyncResult sync_rollout_status(SyncState& s, const ReplicaSetList& all_rss,
                                 const ReplicaSetInfo* new_rs);
  void requeue_stuck_deployment(const SyncState& s, const DeploymentStatus& new_status);

  const cache::Lister deployments_;
  const cache::Lister replica_sets_;
  const cache::Lister pods_;
  DeploymentApi& api_;
  record::EventRecorder& recorder_;
  Requeuer& requeuer_;
  const SyncerOptions options_;
};

}  // namespace kcm::controllers::deployment
