#include "client/build_config.h"

#include <cstdio>

#include "client/kubeconfig.h"

namespace kcm::client {
namespace {

void warn(const BuildConfigOptions& options, const std::string& message) {
  if (options.warn) {
    options.warn(message);
  } else {
    std::fprintf(stderr, "W %s\n", message.c_str());
  }
}

Result<RestConfig> in_cluster_with_warnings(const BuildConfigOptions& options) {
  std::string ca_warning;
  auto rc = in_cluster_config(options.in_cluster, &ca_warning);
  if (!ca_warning.empty()) warn(options, ca_warning);
  return rc;
}

}  // namespace

Result<RestConfig> build_config_from_flags(std::string_view master_url,
                                           std::string_view kubeconfig_path,
                                           const BuildConfigOptions& options) {
  if (master_url.empty() && kubeconfig_path.empty()) {
    warn(options,
         "Neither --kubeconfig nor --master was specified.  Using the inClusterConfig.  This might "
         "not work.");
    auto rc = in_cluster_with_warnings(options);
    if (rc) return rc;
    warn(options, "error creating inClusterConfig, falling back to default config: " + rc.error());
  }

  std::vector<std::string> paths;
  if (!kubeconfig_path.empty()) paths.emplace_back(kubeconfig_path);
  auto kubeconfig = load_kubeconfig_files(paths, /*explicit_path=*/!kubeconfig_path.empty());
  if (!kubeconfig) return fail(kubeconfig.error());

  ConfigOverrides overrides;
  overrides.server = std::string(master_url);
  auto rc = client_config(*kubeconfig, overrides);
  if (rc || !is_empty_config_error(rc.error())) return rc;

  // DeferredLoadingClientConfig: an empty config falls back to in-cluster
  // settings, with --master still overriding the host.
  if (in_cluster_possible(options.in_cluster)) {
    auto icc = in_cluster_with_warnings(options);
    if (icc && !master_url.empty()) icc->host = std::string(master_url);
    return icc;
  }
  return rc;
}

}  // namespace kcm::client
