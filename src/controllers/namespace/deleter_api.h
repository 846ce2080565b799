// What the namespace deleter needs from the API server, narrow enough to fake
// in unit tests: the namespace itself, discovery, and generic list and delete
// of any namespaced resource.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/group_version.h"
#include "api/json.h"
#include "api/result.h"
#include "api/status.h"
#include "client/clientset.h"
#include "client/discovery.h"

namespace kcm::controllers::ns {

class DeleterApi {
 public:
  virtual ~DeleterApi() = default;

  virtual Result<boost::json::value, api::Status> get_namespace(std::string_view name) = 0;
  // PUT namespaces/<name>/status.
  virtual Result<boost::json::value, api::Status> update_namespace_status(
      const boost::json::value& namespace_object) = 0;
  // PUT namespaces/<name>/finalize (only spec.finalizers changes).
  virtual Result<boost::json::value, api::Status> finalize_namespace(
      const boost::json::value& namespace_object) = 0;

  // upstream ServerPreferredNamespacedResources (callers filter namespaced).
  virtual Result<client::PreferredResources, api::Status> discover() = 0;

  // With propagationPolicy Background, as upstream: the garbage collector must
  // not add the orphan finalizer to what the namespace controller removes.
  virtual Result<void, api::Status> delete_collection(const api::GroupVersionResource& gvr,
                                                      std::string_view ns) = 0;
  // Metadata is all the deleter reads of the objects of a resource (upstream
  // lists them through the metadata client)...
  virtual Result<std::vector<boost::json::value>, api::Status> list(
      const api::GroupVersionResource& gvr, std::string_view ns) = 0;
  // ...but of pods, whole objects: the graceful-termination estimate reads their spec.
  virtual Result<std::vector<boost::json::value>, api::Status> list_pods(std::string_view ns) = 0;
  virtual Result<void, api::Status> delete_object(const api::GroupVersionResource& gvr,
                                                  std::string_view ns, std::string_view name) = 0;
};

// The real one, through `clients` (and its discovery client).
std::unique_ptr<DeleterApi> clientset_deleter_api(std::shared_ptr<client::Clientset> clients);

}  // namespace kcm::controllers::ns
