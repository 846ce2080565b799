// An in-memory DeleterApi: one namespace object, discovery answers and the
// objects of each resource, with the API server's deletion rules that matter
// to the namespace controller (finalizers and graceful pods keep an object).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "controllers/namespace/deleter_api.h"

namespace kcm::controllers::ns::testing {

class FakeDeleterApi final : public DeleterApi {
 public:
  std::optional<boost::json::value> namespace_object;
  client::PreferredResources discovery;
  std::optional<api::Status> discovery_error;
  // "<resource>" -> objects in the namespace under test.
  std::map<std::string, std::vector<boost::json::value>> objects;
  // Resources whose deletecollection / list answer 405.
  std::vector<std::string> collection_not_allowed;
  // Pods with a grace period are only marked on delete (the kubelet removes them).
  bool graceful_pods = false;
  // The next N status updates answer Conflict.
  int status_conflicts = 0;

  // What was called, in order ("get", "status", "finalize", "deletecollection pods", ...).
  std::vector<std::string> calls;
  std::vector<boost::json::value> status_updates;
  std::vector<boost::json::value> finalize_requests;

  Result<boost::json::value, api::Status> get_namespace(std::string_view name) override;
  Result<boost::json::value, api::Status> update_namespace_status(
      const boost::json::value& obj) override;
  Result<boost::json::value, api::Status> finalize_namespace(
      const boost::json::value& obj) override;
  Result<client::PreferredResources, api::Status> discover() override;
  Result<void, api::Status> delete_collection(const api::GroupVersionResource& gvr,
                                              std::string_view ns) override;
  Result<std::vector<boost::json::value>, api::Status> list(const api::GroupVersionResource& gvr,
                                                            std::string_view ns) override;
  Result<std::vector<boost::json::value>, api::Status> list_pods(std::string_view ns) override {
    return list({"", "v1", "pods"}, ns);
  }
  Result<void, api::Status> delete_object(const api::GroupVersionResource& gvr, std::string_view ns,
                                          std::string_view name) override;

 private:
  // Deletes or marks one object; true when it is gone.
  bool remove(const std::string& resource, boost::json::value& obj);
};

// A discovered resource with `verbs`.
client::ApiResource resource(std::string group, std::string version, std::string name,
                             std::vector<std::string> verbs, bool namespaced = true);
// The verbs of an ordinary resource.
std::vector<std::string> all_verbs();

}  // namespace kcm::controllers::ns::testing
