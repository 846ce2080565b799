#include "controllers/garbagecollector/operations.h"

namespace kcm::controllers::garbagecollector {

namespace {

class ClientsetGcApi final : public GcApi {
 public:
  explicit ClientsetGcApi(std::shared_ptr<client::Clientset> clients)
      : clients_(std::move(clients)) {}

  Result<api::json::value, api::Status> get(const ResourceMapping& resource, const std::string& ns,
                                            const std::string& name) override {
    return client(resource, ns).get(name);
  }
  Result<api::json::value, api::Status> patch(const ResourceMapping& resource,
                                              const std::string& ns, const std::string& name,
                                              client::PatchType type,
                                              std::string_view data) override {
    return client(resource, ns).patch(name, type, data);
  }
  Result<void, api::Status> delete_object(const ResourceMapping& resource, const std::string& ns,
                                          const std::string& name,
                                          const client::DeleteOptions& options) override {
    auto r = client(resource, ns).delete_object(name, options);
    if (!r.ok()) return fail(r.error());
    return {};
  }

 private:
  client::ResourceClient client(const ResourceMapping& resource, const std::string& ns) const {
    return clients_->metadata(resource.resource, resource.namespaced ? ns : "");
  }

  const std::shared_ptr<client::Clientset> clients_;
};

}  // namespace

std::shared_ptr<GcApi> clientset_gc_api(std::shared_ptr<client::Clientset> clients) {
  return std::make_shared<ClientsetGcApi>(std::move(clients));
}

}  // namespace kcm::controllers::garbagecollector
