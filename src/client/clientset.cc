#include "client/clientset.h"

#include "client/rate_limiter.h"
#include "client/token_source.h"

namespace kcm::client {

Result<std::shared_ptr<Clientset>> Clientset::create(const RestConfig& config,
                                                     ClientsetOptions options) {
  TransportOptions transport_options;
  transport_options.disable_compression = options.disable_compression;
  auto tokens = make_token_source(config);
  if (!tokens) return fail(tokens.error());
  transport_options.token_source = std::move(*tokens);
  auto transport = Transport::create(config, std::move(transport_options));
  if (!transport) return fail(transport.error());
  RestClientOptions rest_options = std::move(options.rest);
  if (!rest_options.rate_limiter) {
    rest_options.rate_limiter = make_rate_limiter(config.qps, config.burst);
  }
  return over(std::move(*transport), std::move(rest_options));
}

std::shared_ptr<Clientset> Clientset::over(std::shared_ptr<Transport> transport,
                                           RestClientOptions options) {
  auto rest = std::make_shared<RestClient>(transport, std::move(options));
  return std::shared_ptr<Clientset>(new Clientset(std::move(transport), std::move(rest)));
}

ResourceClient Clientset::resource(const api::GroupVersionResource& resource,
                                   std::string ns) const {
  return ResourceClient(rest_, resource, std::move(ns));
}

ResourceClient Clientset::metadata(const api::GroupVersionResource& resource,
                                   std::string ns) const {
  return ResourceClient(rest_, resource, std::move(ns), metadata_only());
}

ResourceClient Clientset::pods(std::string ns) const {
  return resource({"", "v1", "pods"}, std::move(ns));
}
ResourceClient Clientset::nodes() const {
  return resource({"", "v1", "nodes"});
}
ResourceClient Clientset::namespaces() const {
  return resource({"", "v1", "namespaces"});
}
ResourceClient Clientset::services(std::string ns) const {
  return resource({"", "v1", "services"}, std::move(ns));
}
ResourceClient Clientset::endpoints(std::string ns) const {
  return resource({"", "v1", "endpoints"}, std::move(ns));
}
ResourceClient Clientset::configmaps(std::string ns) const {
  return resource({"", "v1", "configmaps"}, std::move(ns));
}
ResourceClient Clientset::secrets(std::string ns) const {
  return resource({"", "v1", "secrets"}, std::move(ns));
}
ResourceClient Clientset::serviceaccounts(std::string ns) const {
  return resource({"", "v1", "serviceaccounts"}, std::move(ns));
}
ResourceClient Clientset::events(std::string ns) const {
  return resource({"", "v1", "events"}, std::move(ns));
}
ResourceClient Clientset::events_v1(std::string ns) const {
  return resource({"events.k8s.io", "v1", "events"}, std::move(ns));
}
ResourceClient Clientset::leases(std::string ns) const {
  return resource({"coordination.k8s.io", "v1", "leases"}, std::move(ns));
}
ResourceClient Clientset::deployments(std::string ns) const {
  return resource({"apps", "v1", "deployments"}, std::move(ns));
}
ResourceClient Clientset::replicasets(std::string ns) const {
  return resource({"apps", "v1", "replicasets"}, std::move(ns));
}
ResourceClient Clientset::statefulsets(std::string ns) const {
  return resource({"apps", "v1", "statefulsets"}, std::move(ns));
}
ResourceClient Clientset::daemonsets(std::string ns) const {
  return resource({"apps", "v1", "daemonsets"}, std::move(ns));
}
ResourceClient Clientset::jobs(std::string ns) const {
  return resource({"batch", "v1", "jobs"}, std::move(ns));
}
ResourceClient Clientset::cronjobs(std::string ns) const {
  return resource({"batch", "v1", "cronjobs"}, std::move(ns));
}

}  // namespace kcm::client
