#include "leaderelection/lease_store_client.h"

#include "client/resource_client.h"

namespace kcm::leaderelection {
namespace {

client::ResourceClient leases(const std::shared_ptr<client::RestClient>& client,
                              std::string_view ns) {
  return client::ResourceClient(client, {"coordination.k8s.io", "v1", "leases"}, std::string(ns));
}

}  // namespace

ClientLeaseStore::ClientLeaseStore(std::shared_ptr<client::RestClient> client)
    : client_(std::move(client)) {}

Result<api::json::value, api::Status> ClientLeaseStore::get(std::string_view ns,
                                                            std::string_view name) {
  return leases(client_, ns).get(name);
}

Result<api::json::value, api::Status> ClientLeaseStore::create(std::string_view ns,
                                                               const api::json::value& lease) {
  return leases(client_, ns).create(lease);
}

Result<api::json::value, api::Status> ClientLeaseStore::update(std::string_view ns,
                                                               const api::json::value& lease) {
  return leases(client_, ns).update(lease);
}

}  // namespace kcm::leaderelection
