// The API calls of the garbage collector (upstream operations.go), behind an
// interface so its decisions can be tested against a fake server. Objects
// are addressed by their resource mapping; `ns` is "" for cluster-scoped ones.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "api/json.h"
#include "api/result.h"
#include "api/status.h"
#include "client/clientset.h"
#include "client/resource_client.h"
#include "controllers/garbagecollector/rest_mapper.h"

namespace kcm::controllers::garbagecollector {

class GcApi {
 public:
  virtual ~GcApi() = default;
  virtual Result<api::json::value, api::Status> get(const ResourceMapping& resource,
                                                    const std::string& ns,
                                                    const std::string& name) = 0;
  virtual Result<api::json::value, api::Status> patch(const ResourceMapping& resource,
                                                      const std::string& ns,
                                                      const std::string& name,
                                                      client::PatchType type,
                                                      std::string_view data) = 0;
  virtual Result<void, api::Status> delete_object(const ResourceMapping& resource,
                                                  const std::string& ns, const std::string& name,
                                                  const client::DeleteOptions& options) = 0;
};

// The real one: metadata clients of `clients` (as upstream's GC, which
// reads and patches only metadata).
std::shared_ptr<GcApi> clientset_gc_api(std::shared_ptr<client::Clientset> clients);

}  // namespace kcm::controllers::garbagecollector
