// What the Deployment controller's informer handlers enqueue (upstream
// addDeployment ... deletePod in deployment_controller.go). They only
// compute keys: owners are resolved through the listers by name and uid,
// orphans wake every Deployment whose selector matches them, and a pod
// deletion wakes a Recreate Deployment once its last pod is gone.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "cache/cached_object.h"
#include "cache/lister.h"
#include "controllers/deployment/deployment_api.h"

namespace kcm::controllers::deployment {

class DeploymentEventHandlers {
 public:
  using Enqueue = std::function<void(const std::string& key)>;

  // Listers of apps/v1 deployments, apps/v1 replicasets and v1 pods; `api`
  // (for the live ReplicaSet list of delete_pod) must outlive the handlers.
  DeploymentEventHandlers(cache::Lister deployments, cache::Lister replica_sets, cache::Lister pods,
                          DeploymentApi& api, Enqueue enqueue);

  void add_deployment(const cache::ObjectPtr& d);
  void update_deployment(const cache::ObjectPtr& old_d, const cache::ObjectPtr& cur_d);
  void delete_deployment(const cache::DeletedObject& d);

  // A ReplicaSet being deleted is handled as a deletion; one with a
  // controllerRef wakes that owner; an orphan wakes every matching Deployment.
  void add_replica_set(const cache::ObjectPtr& rs);
  // Resyncs (same resourceVersion) are ignored; a changed controllerRef also
  // wakes the old owner; an orphan wakes the matching Deployments when its
  // labels or controllerRef changed.
  void update_replica_set(const cache::ObjectPtr& old_rs, const cache::ObjectPtr& cur_rs);
  // Wakes the owner; deleted orphans are ignored.
  void delete_replica_set(const cache::DeletedObject& rs);
  // Wakes a Recreate Deployment (the pod's RS's owner) once a live list of
  // its ReplicaSets finds none of their pods left.
  void delete_pod(const cache::DeletedObject& pod);

  // resolveControllerRef: the Deployment `ref` names in `namespace_` when
  // its kind is Deployment and the uid matches; nullptr otherwise.
  cache::ObjectPtr resolve_controller_ref(std::string_view namespace_,
                                          const cache::OwnerRef& ref) const;
  // GetDeploymentsForReplicaSet: Deployments of the RS's namespace whose
  // (valid, non-empty) selector matches its labels; none for an RS without labels.
  std::vector<cache::ObjectPtr> deployments_for_replica_set(const cache::CachedObject& rs) const;
  // getDeploymentForPod: the owner of the pod's controlling ReplicaSet.
  cache::ObjectPtr deployment_for_pod(const cache::CachedObject& pod) const;

 private:
  void enqueue(const cache::CachedObject& d) const { enqueue_(std::string(d.key())); }

  const cache::Lister deployments_;
  const cache::Lister replica_sets_;
  const cache::Lister pods_;
  DeploymentApi& api_;
  const Enqueue enqueue_;
};

}  // namespace kcm::controllers::deployment
