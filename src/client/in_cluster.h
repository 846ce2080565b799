// In-cluster configuration (rest.InClusterConfig): the API server from the
// KUBERNETES_SERVICE_HOST/PORT environment and the pod's service account
// token and CA bundle.
#pragma once

#include <string>

#include "api/result.h"
#include "client/rest_config.h"

namespace kcm::client {

inline constexpr const char* kServiceAccountTokenFile =
    "/var/run/secrets/kubernetes.io/serviceaccount/token";
inline constexpr const char* kServiceAccountCaFile =
    "/var/run/secrets/kubernetes.io/serviceaccount/ca.crt";

// The inputs of in-cluster config; tests fill them in directly.
struct InClusterEnv {
  std::string service_host;  // KUBERNETES_SERVICE_HOST
  std::string service_port;  // KUBERNETES_SERVICE_PORT
  std::string token_file = kServiceAccountTokenFile;
  std::string ca_file = kServiceAccountCaFile;

  // The process environment and the standard service account paths.
  static InClusterEnv from_environment();
};

// host "https://<host>:<port>" (IPv6 in brackets), the token as bearer_token
// plus bearer_token_file so that it is re-read when the kubelet rotates it,
// and the CA bundle when it loads. Errors are upstream's:
// `unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and
// KUBERNETES_SERVICE_PORT must be defined`, or the token file's read error.
// A CA file that does not load is not an error (upstream logs it and falls
// back to the system roots); its message goes to `ca_warning` when given.
Result<RestConfig> in_cluster_config(const InClusterEnv& env = InClusterEnv::from_environment(),
                                     std::string* ca_warning = nullptr);

// inClusterClientConfig.Possible: both variables set and the token file exists
// and is not a directory.
bool in_cluster_possible(const InClusterEnv& env = InClusterEnv::from_environment());

}  // namespace kcm::client
