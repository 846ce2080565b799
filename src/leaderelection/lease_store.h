// Reads and writes Lease objects (coordination.k8s.io/v1 "leases"): what the
// LeaseLock needs from a client. lease_store_client.h implements it over the
// REST client's ResourceClient; tests use in-memory fakes.
#pragma once

#include <string_view>

#include "api/json.h"
#include "api/result.h"
#include "api/status.h"

namespace kcm::leaderelection {

class LeaseStore {
 public:
  virtual ~LeaseStore() = default;
  // The Lease, or a NotFound Status.
  virtual Result<api::json::value, api::Status> get(std::string_view ns, std::string_view name) = 0;
  // Returns the stored Lease (with its resourceVersion).
  virtual Result<api::json::value, api::Status> create(std::string_view ns,
                                                       const api::json::value& lease) = 0;
  // PUT; metadata.resourceVersion is the precondition (Conflict when stale).
  virtual Result<api::json::value, api::Status> update(std::string_view ns,
                                                       const api::json::value& lease) = 0;
};

}  // namespace kcm::leaderelection
