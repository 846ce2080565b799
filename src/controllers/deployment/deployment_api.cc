#include "controllers/deployment/deployment_api.h"

#include <string>
#include <utility>

namespace kcm::controllers::deployment {

namespace {

// A response body that is not an object (which a conformant server never
// sends) is reported like any other failed call.
Result<json::object, api::Status> object_of(Result<json::value, api::Status> r) {
  if (!r.ok()) return fail(std::move(r).error());
  if (!r->is_object()) {
    api::Status s;
    s.message = "the response is not a JSON object";
    return fail(std::move(s));
  }
  return std::move(r->as_object());
}

std::string_view namespace_of(const json::object& obj) {
  const json::object* meta = api::find_object(obj, "metadata");
  return meta != nullptr ? api::find_string(*meta, "namespace").value_or("") : "";
}

class ClientsetDeploymentApi final : public DeploymentApi {
 public:
  explicit ClientsetDeploymentApi(std::shared_ptr<client::Clientset> clients)
      : clients_(std::move(clients)) {}

  Result<json::object, api::Status> get_deployment(std::string_view namespace_,
                                                   std::string_view name) override {
    return object_of(clients_->deployments(std::string(namespace_)).get(name));
  }
  Result<json::object, api::Status> update_deployment(const json::object& deployment) override {
    return object_of(
        clients_->deployments(std::string(namespace_of(deployment))).update(deployment));
  }
  Result<std::string, api::Status> update_deployment_status(
      const json::object& deployment) override {
    auto written = clients_->deployments(std::string(namespace_of(deployment)))
                       .update_status_for_meta(deployment);
    if (!written) return fail(std::move(written).error());
    return std::move(written->resource_version);
  }

  Result<std::vector<json::object>, api::Status> list_replica_sets(
      std::string_view namespace_, std::string_view label_selector) override {
    client::ListOptions options;
    options.label_selector = std::string(label_selector);
    auto page = clients_->replicasets(std::string(namespace_)).list_all(options);
    if (!page.ok()) return fail(std::move(page).error());
    std::vector<json::object> out;
    out.reserve(page->items.size());
    for (json::value& item : page->items) {
      if (item.is_object()) out.push_back(std::move(item.as_object()));
    }
    return out;
  }
  Result<json::object, api::Status> create_replica_set(std::string_view namespace_,
                                                       const json::object& rs) override {
    return object_of(clients_->replicasets(std::string(namespace_)).create(rs));
  }
  Result<json::object, api::Status> update_replica_set(const json::object& rs) override {
    return object_of(clients_->replicasets(std::string(namespace_of(rs))).update(rs));
  }
  Result<void, api::Status> patch_replica_set(std::string_view namespace_, std::string_view name,
                                              std::string_view patch) override {
    auto r = clients_->replicasets(std::string(namespace_))
                 .patch(name, client::PatchType::kStrategicMerge, patch);
    if (!r.ok()) return fail(std::move(r).error());
    return {};
  }
  Result<void, api::Status> delete_replica_set(std::string_view namespace_,
                                               std::string_view name) override {
    auto r = clients_->replicasets(std::string(namespace_)).delete_object(name);
    if (!r.ok()) return fail(std::move(r).error());
    return {};
  }

 private:
  const std::shared_ptr<client::Clientset> clients_;
};

}  // namespace

std::unique_ptr<DeploymentApi> clientset_deployment_api(
    std::shared_ptr<client::Clientset> clients) {
  return std::make_unique<ClientsetDeploymentApi>(std::move(clients));
}

}  // namespace kcm::controllers::deployment
