// kcm-local's API server, assembled: credentials, the persistent store, the
// REST semantics, the HTTP handler and the HTTPS listener.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "api/result.h"
#include "local/apiserver/api_handler.h"
#include "local/apiserver/crd_controller.h"
#include "local/registry/resource_catalog.h"

namespace kcm::local::apiserver {

struct ApiServerOptions {
  std::filesystem::path data_dir;
  std::string host = "127.0.0.1";
  unsigned short port = 6443;            // 0: any free port
  std::filesystem::path kubeconfig_out;  // empty: <data_dir>/kubeconfig
  VersionInfo version;
  bool fsync = true;
  std::size_t threads = 0;
  std::size_t history_per_resource = 10000;
  // The feature gates that change what the built-in kinds keep.
  registry::ApiFeatures features;
  // What Services allocate from.
  registry::ServiceRanges service_ranges;
};

class ApiServer {
 public:
  // Starts serving. Recovery warnings (e.g. a truncated log tail) are appended
  // to `warnings`.
  static Result<std::unique_ptr<ApiServer>> start(const ApiServerOptions& options,
                                                  std::vector<std::string>* warnings);
  ~ApiServer();

  unsigned short port() const { return port_; }
  std::string url() const;
  const std::filesystem::path& kubeconfig() const { return kubeconfig_; }
  storage::Store& store() { return *store_; }
  RestStore& rest() { return *rest_; }
  // The built-in kinds (fixed); catalog() also has the custom resources.
  const registry::ResourceTable& resources() const { return catalog_->builtins(); }
  const registry::ResourceCatalog& catalog() const { return *catalog_; }

  void stop();

 private:
  ApiServer() = default;

  std::unique_ptr<registry::ResourceCatalog> catalog_;
  std::unique_ptr<storage::Store> store_;
  std::unique_ptr<RestStore> rest_;
  std::unique_ptr<CrdController> crd_controller_;
  std::unique_ptr<ApiHandler> handler_;
  std::unique_ptr<HttpServer> http_;
  std::string host_;
  unsigned short port_ = 0;
  std::filesystem::path kubeconfig_;
};

// The default data directory: $KCM_LOCAL_HOME, else ~/.kcm-local.
std::filesystem::path default_data_dir();

}  // namespace kcm::local::apiserver
