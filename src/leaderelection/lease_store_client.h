// LeaseStore over the REST client: coordination.k8s.io/v1 leases.
#pragma once

#include <memory>

#include "client/rest_client.h"
#include "leaderelection/lease_store.h"

namespace kcm::leaderelection {

class ClientLeaseStore : public LeaseStore {
 public:
  explicit ClientLeaseStore(std::shared_ptr<client::RestClient> client);

  Result<api::json::value, api::Status> get(std::string_view ns, std::string_view name) override;
  Result<api::json::value, api::Status> create(std::string_view ns,
                                               const api::json::value& lease) override;
  Result<api::json::value, api::Status> update(std::string_view ns,
                                               const api::json::value& lease) override;

 private:
  std::shared_ptr<client::RestClient> client_;
};

}  // namespace kcm::leaderelection
