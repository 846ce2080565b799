// What the Deployment controller asks of the API server: its writes
// (ReplicaSets created, updated, patched and deleted; Deployments updated and
// their status written) and the two reads that must not come from a cache
// (the Deployment re-checked before adopting, and the ReplicaSets a pod
// deletion is checked against). Implemented over a clientset; tests fake it.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "api/json.h"
#include "api/result.h"
#include "api/status.h"
#include "client/clientset.h"

namespace kcm::controllers::deployment {

namespace json = api::json;

class DeploymentApi {
 public:
  virtual ~DeploymentApi() = default;

  // An uncached GET of the Deployment.
  virtual Result<json::object, api::Status> get_deployment(std::string_view namespace_,
                                                           std::string_view name) = 0;
  // PUT the Deployment (rollback).
  virtual Result<json::object, api::Status> update_deployment(const json::object& deployment) = 0;
  // PUT .../deployments/<name>/status; annotations travel along. Returns the
  // resourceVersion written: the answer is otherwise unused, as upstream's.
  virtual Result<std::string, api::Status> update_deployment_status(
      const json::object& deployment) = 0;

  // A live list of the ReplicaSets in `namespace_` matching `label_selector`
  // (the string form).
  virtual Result<std::vector<json::object>, api::Status> list_replica_sets(
      std::string_view namespace_, std::string_view label_selector) = 0;
  virtual Result<json::object, api::Status> create_replica_set(std::string_view namespace_,
                                                               const json::object& rs) = 0;
  virtual Result<json::object, api::Status> update_replica_set(const json::object& rs) = 0;
  // A strategic merge patch (adoption and release).
  virtual Result<void, api::Status> patch_replica_set(std::string_view namespace_,
                                                      std::string_view name,
                                                      std::string_view patch) = 0;
  virtual Result<void, api::Status> delete_replica_set(std::string_view namespace_,
                                                       std::string_view name) = 0;
};

// The DeploymentApi over a clientset (thread-safe, as the clientset is).
std::unique_ptr<DeploymentApi> clientset_deployment_api(std::shared_ptr<client::Clientset> clients);

}  // namespace kcm::controllers::deployment
