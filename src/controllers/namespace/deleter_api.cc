#include "controllers/namespace/deleter_api.h"

#include <utility>

namespace kcm::controllers::ns {

namespace json = boost::json;

namespace {

client::DeleteOptions background() {
  client::DeleteOptions options;
  options.propagation_policy = "Background";
  return options;
}

Result<std::vector<json::value>, api::Status> items(Result<cache::ListPage, api::Status> page) {
  if (!page.ok()) return fail(std::move(page).error());
  return std::move(page->items);
}

// Metadata-only requests where metadata is all the deleter needs, as upstream.
class ClientsetDeleterApi final : public DeleterApi {
 public:
  explicit ClientsetDeleterApi(std::shared_ptr<client::Clientset> clients)
      : clients_(std::move(clients)), discovery_(clients_->rest()) {}

  Result<json::value, api::Status> get_namespace(std::string_view name) override {
    return clients_->namespaces().get(name);
  }
  Result<json::value, api::Status> update_namespace_status(const json::value& obj) override {
    return clients_->namespaces().update_status(obj);
  }
  Result<json::value, api::Status> finalize_namespace(const json::value& obj) override {
    return clients_->namespaces().update(obj, {}, "finalize");
  }
  Result<client::PreferredResources, api::Status> discover() override {
    return discovery_.server_preferred_resources();
  }
  Result<void, api::Status> delete_collection(const api::GroupVersionResource& gvr,
                                              std::string_view ns) override {
    auto r = clients_->metadata(gvr, std::string(ns)).delete_collection(background(), {});
    if (!r.ok()) return fail(std::move(r).error());
    return {};
  }
  Result<std::vector<json::value>, api::Status> list(const api::GroupVersionResource& gvr,
                                                     std::string_view ns) override {
    return items(clients_->metadata(gvr, std::string(ns)).list_all({}));
  }
  Result<std::vector<json::value>, api::Status> list_pods(std::string_view ns) override {
    return items(clients_->pods(std::string(ns)).list_all({}));
  }
  Result<void, api::Status> delete_object(const api::GroupVersionResource& gvr, std::string_view ns,
                                          std::string_view name) override {
    auto r = clients_->metadata(gvr, std::string(ns)).delete_object(name, background());
    if (!r.ok()) return fail(std::move(r).error());
    return {};
  }

 private:
  const std::shared_ptr<client::Clientset> clients_;
  const client::DiscoveryClient discovery_;
};

}  // namespace

std::unique_ptr<DeleterApi> clientset_deleter_api(std::shared_ptr<client::Clientset> clients) {
  return std::make_unique<ClientsetDeleterApi>(std::move(clients));
}

}  // namespace kcm::controllers::ns
