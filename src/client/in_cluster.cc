#include "client/in_cluster.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cstdlib>

namespace kcm::client {
namespace {

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);  // NOLINT(concurrency-mt-unsafe): read once at startup
  return v == nullptr ? std::string() : std::string(v);
}

// net.JoinHostPort.
std::string join_host_port(const std::string& host, const std::string& port) {
  if (host.find(':') != std::string::npos) return fmt::format("[{}]:{}", host, port);
  return fmt::format("{}:{}", host, port);
}

// certutil.NewPool's acceptance test: the file reads and holds at least one
// PEM certificate block.
std::optional<std::string> load_ca(const std::string& path, std::string& pem) {
  auto data = read_file_go(path);
  if (!data) return data.error();
  if (data->find("-----BEGIN CERTIFICATE-----") == std::string::npos) {
    return fmt::format(
        "error reading {}: data does not contain any valid RSA or ECDSA certificates", path);
  }
  pem = std::move(*data);
  return std::nullopt;
}

}  // namespace

InClusterEnv InClusterEnv::from_environment() {
  InClusterEnv env;
  env.service_host = env_or_empty("KUBERNETES_SERVICE_HOST");
  env.service_port = env_or_empty("KUBERNETES_SERVICE_PORT");
  return env;
}

Result<RestConfig> in_cluster_config(const InClusterEnv& env, std::string* ca_warning) {
  if (env.service_host.empty() || env.service_port.empty()) {
    return fail(
        "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and "
        "KUBERNETES_SERVICE_PORT must be defined");
  }
  auto token = read_file_go(env.token_file);
  if (!token) return fail(token.error());

  RestConfig rc;
  rc.source = "in-cluster";
  rc.host = "https://" + join_host_port(env.service_host, env.service_port);
  rc.bearer_token = std::move(*token);
  rc.bearer_token_file = env.token_file;
  if (auto err = load_ca(env.ca_file, rc.ca_pem)) {
    if (ca_warning != nullptr) {
      *ca_warning = fmt::format("Expected to load root CA config from {}, but got err: {}",
                                env.ca_file, *err);
    }
  } else {
    rc.ca_file = env.ca_file;
  }
  return rc;
}

bool in_cluster_possible(const InClusterEnv& env) {
  struct stat st {};
  return !env.service_host.empty() && !env.service_port.empty() &&
         ::stat(env.token_file.c_str(), &st) == 0 && !S_ISDIR(st.st_mode);
}

}  // namespace kcm::client
