#include "local/apiserver/api_server.h"

#include <boost/asio/ssl/context.hpp>
#include <cstdlib>
#include <future>

#include "local/apiserver/crd_controller.h"
#include "local/apiserver/stored_codec.h"
#include "local/pki/certificates.h"
#include "local/pki/kubeconfig.h"
#include "local/pki/tls_context.h"
#include "local/registry/custom_resources.h"

namespace kcm::local::apiserver {

std::filesystem::path default_data_dir() {
  if (const char* home = std::getenv("KCM_LOCAL_HOME"); home != nullptr && *home != '\0') {
    return home;
  }
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home != nullptr ? home : ".") / ".kcm-local";
}

namespace {

// The namespaces every cluster starts with.
Result<void> seed_namespaces(RestStore& rest, const registry::ResourceTable& table) {
  const ResourceInfo* namespaces = table.find("", "v1", "namespaces");
  for (const char* name : {"default", "kube-system", "kube-public", "kube-node-lease"}) {
    if (rest.get(*namespaces, "", name)) continue;
    std::promise<Result<WriteResult, api::Status>> done;
    json::object ns{
        {"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", json::object{{"name", name}}}};
    rest.create(*namespaces, "", std::move(ns), {},
                [&done](Result<WriteResult, api::Status> r) { done.set_value(std::move(r)); });
    auto result = done.get_future().get();
    if (!result && result.error().code != 409) {
      return fail("cannot create namespace " + std::string(name) + ": " + result.error().message);
    }
  }
  return {};
}

// The `kubernetes` Service every cluster has, which kube-apiserver creates
// when it is missing and whose port it points at itself on every start: the
// range's first IP, 443 to the API server's port.
Result<void> seed_kubernetes_service(RestStore& rest, const registry::ResourceTable& table,
                                     const registry::ServiceRanges& ranges, unsigned short port) {
  const ResourceInfo* services = table.find("", "v1", "services");
  if (services == nullptr) return {};
  const json::array ports{json::object{{"name", "https"},
                                       {"port", 443},
                                       {"protocol", "TCP"},
                                       {"targetPort", static_cast<int>(port)}}};
  WriteOptions options;
  options.field_manager = "kube-apiserver";
  std::promise<Result<WriteResult, api::Status>> done;
  const auto finish = [&done](Result<WriteResult, api::Status> r) { done.set_value(std::move(r)); };
  if (auto existing = rest.get(*services, "default", "kubernetes"); existing && *existing) {
    const json::object current = parse_stored(**existing);
    const json::object* spec = api::find_object(current, "spec");
    const json::value* now = spec != nullptr ? spec->if_contains("ports") : nullptr;
    if (now != nullptr && *now == json::value(ports)) return {};
    rest.update_with(
        *services, "default", "kubernetes", Subresource::kNone,
        [&ports](const json::object& svc) -> Result<json::object, api::Status> {
          json::object updated = svc;
          api::ensure_object(updated, "spec")["ports"] = ports;
          return updated;
        },
        options, finish);
  } else {
    json::object service{
        {"apiVersion", "v1"},
        {"kind", "Service"},
        {"metadata", json::object{{"name", "kubernetes"},
                                  {"labels", json::object{{"component", "apiserver"},
                                                          {"provider", "kubernetes"}}}}},
        {"spec", json::object{{"clusterIP", ranges.first_cluster_ip()}, {"ports", ports}}}};
    rest.create(*services, "default", std::move(service), options, finish);
  }
  auto result = done.get_future().get();
  if (!result && result.error().code != 409) {
    return fail("cannot write the kubernetes service: " + result.error().message);
  }
  return {};
}

}  // namespace

Result<std::unique_ptr<ApiServer>> ApiServer::start(const ApiServerOptions& options,
                                                    std::vector<std::string>* warnings) {
  std::unique_ptr<ApiServer> server(new ApiServer());
  server->catalog_ = std::make_unique<registry::ResourceCatalog>(
      registry::builtin_resources(options.features, options.service_ranges));
  std::error_code ec;
  std::filesystem::create_directories(options.data_dir, ec);
  if (ec)
    return fail("cannot create data directory " + options.data_dir.string() + ": " + ec.message());

  std::vector<std::string> sans;
  if (options.host != "0.0.0.0" && options.host != "::") sans.push_back(options.host);
  auto creds = pki::load_or_create(options.data_dir, sans);
  if (!creds) return fail(creds.error());

  storage::StoreOptions store_options;
  store_options.fsync = options.fsync;
  store_options.history_per_resource = options.history_per_resource;
  const registry::ResourceTable& table = server->catalog_->builtins();
  auto factory = [&table](std::string_view resource,
                          std::string json) -> Result<storage::ObjectPtr> {
    const ResourceInfo* info = table.find_store_name(resource);
    // Custom resources: their CRDs are read only after recovery, and nothing
    // but name and namespace is selectable on them.
    if (info == nullptr) return decode_stored(registry::custom_storage_info(), std::move(json));
    return decode_stored(*info, std::move(json));
  };
  auto store = storage::Store::open(options.data_dir / "store", store_options, factory, warnings);
  if (!store) return fail(store.error());
  server->store_ = std::move(*store);
  server->rest_ = std::make_unique<RestStore>(*server->store_, table);
  if (auto seeded = seed_namespaces(*server->rest_, table); !seeded) {
    return fail(seeded.error());
  }

  // Serve the stored CRDs' resources before the first request.
  auto crds = CrdController::start(*server->rest_, *server->catalog_);
  if (!crds) return fail(crds.error());
  server->crd_controller_ = std::move(*crds);

  auto tls = std::make_shared<net::ssl::context>(net::ssl::context::tls_server);
  if (auto ok = pki::configure_server_tls(*tls, *creds); !ok) return fail(ok.error());

  const std::string display_host = options.host == "0.0.0.0" ? "127.0.0.1" : options.host;
  server->host_ = display_host;
  server->handler_ =
      std::make_unique<ApiHandler>(*server->rest_, *server->catalog_, options.version,
                                   display_host + ":" + std::to_string(options.port));
  HttpServerOptions http_options;
  http_options.host = options.host;
  http_options.port = options.port;
  http_options.threads = options.threads;
  auto token_creds = std::make_shared<pki::Credentials>(*creds);
  http_options.token_ok = [token_creds](std::string_view token) {
    return pki::token_matches(*token_creds, token);
  };
  ApiHandler* handler = server->handler_.get();
  server->http_ = std::make_unique<HttpServer>(
      http_options, tls, [handler](Exchange& ex) { return handler->handle(ex); });
  auto port = server->http_->start();
  if (!port) return fail(port.error());
  server->port_ = *port;
  // With port 0 the real port is known only now; nobody can have connected yet.
  server->handler_->set_server_address(display_host + ":" + std::to_string(*port));
  if (auto seeded = seed_kubernetes_service(*server->rest_, table, options.service_ranges, *port);
      !seeded) {
    return fail(seeded.error());
  }

  server->kubeconfig_ =
      options.kubeconfig_out.empty() ? options.data_dir / "kubeconfig" : options.kubeconfig_out;
  if (auto ok = pki::write_kubeconfig(server->kubeconfig_, server->url(), *creds); !ok) {
    return fail(ok.error());
  }
  return server;
}

std::string ApiServer::url() const {
  const bool v6 = host_.find(':') != std::string::npos;
  return "https://" + (v6 ? "[" + host_ + "]" : host_) + ":" + std::to_string(port_);
}

void ApiServer::stop() {
  if (http_) http_->stop();
}

ApiServer::~ApiServer() {
  stop();
  http_.reset();
  handler_.reset();
  crd_controller_.reset();  // before the REST store it writes through
  rest_.reset();
  store_.reset();  // flushes the log
}

}  // namespace kcm::local::apiserver
