// kube-controller-manager's --master/--kubeconfig handling
// (clientcmd.BuildConfigFromFlags).
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "api/result.h"
#include "client/in_cluster.h"
#include "client/rest_config.h"

namespace kcm::client {

struct BuildConfigOptions {
  InClusterEnv in_cluster = InClusterEnv::from_environment();
  // Receives the warnings client-go logs with klog.Warning; unset: stderr.
  std::function<void(const std::string&)> warn;
};

// 1. Both empty: warns `Neither --kubeconfig nor --master was specified.  Using
//    the inClusterConfig.  This might not work.` and returns the in-cluster
//    config, or warns `error creating inClusterConfig, falling back to default
//    config: <err>` and goes on.
// 2. Loads only the explicit kubeconfig (neither KUBECONFIG nor ~/.kube/config);
//    a missing explicit file is an error.
// 3. --master replaces the server of the current context's cluster.
// 4. An empty result falls back to in-cluster config when that is possible,
//    else is `invalid configuration: no configuration has been provided, try
//    setting KUBERNETES_MASTER environment variable`.
Result<RestConfig> build_config_from_flags(std::string_view master_url,
                                           std::string_view kubeconfig_path,
                                           const BuildConfigOptions& options = {});

}  // namespace kcm::client
