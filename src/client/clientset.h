// One connection pool and rate limiter per API server configuration, handing
// out dynamic resource clients (client-go's Clientset / dynamic.Interface).
// Thread-safe; clients it hands out share its transport and limiter.
#pragma once

#include <memory>
#include <string>

#include "api/group_version.h"
#include "api/result.h"
#include "client/resource_client.h"
#include "client/rest_client.h"
#include "client/rest_config.h"
#include "client/transport.h"

namespace kcm::client {

struct ClientsetOptions {
  // Logging and warnings; the rate limiter is built from the config's QPS/burst.
  RestClientOptions rest;
  bool disable_compression = false;
};

class Clientset {
 public:
  // Builds the transport (TLS, credentials) and the QPS/burst limiter.
  static Result<std::shared_ptr<Clientset>> create(const RestConfig& config,
                                                   ClientsetOptions options = {});
  // Over a transport the caller built (a recording one in tests, say); rate
  // limited only when `options` carries a limiter.
  static std::shared_ptr<Clientset> over(std::shared_ptr<Transport> transport,
                                         RestClientOptions options = {});

  ResourceClient resource(const api::GroupVersionResource& resource, std::string ns = "") const;
  // client-go's metadata client: the same requests, answered with
  // PartialObjectMetadata(List) objects (metadata_only()).
  ResourceClient metadata(const api::GroupVersionResource& resource, std::string ns = "") const;

  // Built-ins ("" namespace: all namespaces for list/watch).
  ResourceClient pods(std::string ns = "") const;
  ResourceClient nodes() const;
  ResourceClient namespaces() const;
  ResourceClient services(std::string ns = "") const;
  ResourceClient endpoints(std::string ns = "") const;
  ResourceClient configmaps(std::string ns = "") const;
  ResourceClient secrets(std::string ns = "") const;
  ResourceClient serviceaccounts(std::string ns = "") const;
  ResourceClient events(std::string ns = "") const;     // core/v1 Events
  ResourceClient events_v1(std::string ns = "") const;  // events.k8s.io/v1
  ResourceClient leases(std::string ns = "") const;
  ResourceClient deployments(std::string ns = "") const;
  ResourceClient replicasets(std::string ns = "") const;
  ResourceClient statefulsets(std::string ns = "") const;
  ResourceClient daemonsets(std::string ns = "") const;
  ResourceClient jobs(std::string ns = "") const;
  ResourceClient cronjobs(std::string ns = "") const;

  const std::shared_ptr<RestClient>& rest() const { return rest_; }
  Transport& transport() const { return *transport_; }

 private:
  Clientset(std::shared_ptr<Transport> transport, std::shared_ptr<RestClient> rest)
      : transport_(std::move(transport)), rest_(std::move(rest)) {}
  std::shared_ptr<Transport> transport_;
  std::shared_ptr<RestClient> rest_;
};

}  // namespace kcm::client
