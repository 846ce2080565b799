// How to reach an API server: address, TLS, credentials and client-side
// limits (client-go's rest.Config). Built from a kubeconfig, in-cluster
// settings or flags (see kubeconfig.h, in_cluster.h and build_config.h).
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/result.h"

namespace kcm::client {

// The client.authentication.k8s.io exec credential plugin of a kubeconfig user.
struct ExecConfig {
  std::string command;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;
  std::string api_version;  // client.authentication.k8s.io/v1 or v1beta1
  std::string install_hint;
  bool provide_cluster_info = false;
  std::string interactive_mode;  // Never | IfAvailable | Always
  // The cluster's "client.authentication.k8s.io/exec" extension as JSON text
  // (passed to the plugin as spec.cluster.config); empty when absent.
  std::string cluster_config_json;

  friend bool operator==(const ExecConfig&, const ExecConfig&) = default;
};

struct RestConfig {
  // "https://127.0.0.1:6443" (scheme, host, port, optional path prefix). A
  // kubeconfig server without a scheme becomes "http://..." exactly as
  // client-go decides (it then also carries no TLS settings or credentials).
  std::string host;
  std::string proxy_url;  // the cluster's proxy-url; empty: from the environment
  bool disable_compression = false;

  // TLS
  std::string ca_pem;   // CA bundle (PEM) to verify the server; empty: system roots
  std::string ca_file;  // where ca_pem was read from (messages only)
  std::string client_cert_pem;
  std::string client_key_pem;
  std::string client_cert_file;  // where the PEMs were read from (messages only)
  std::string client_key_file;
  bool insecure_skip_tls_verify = false;
  std::string tls_server_name;  // SNI and verification name override

  // Credentials (only ever sent over TLS, as client-go does); make_token_source()
  // in token_source.h turns them into Authorization headers.
  std::string bearer_token;
  std::string bearer_token_file;  // re-read when it changes (in-cluster rotation)
  std::string username;
  std::string password;
  std::optional<ExecConfig> exec;

  // Client-side limits (kube-controller-manager: --kube-api-qps 20, --kube-api-burst 30).
  // client-go: QPS 0 means 5 and burst 0 means 10; a negative QPS disables limiting.
  float qps = 5;
  int burst = 10;
  std::chrono::milliseconds timeout{0};  // 0: none (watches have their own timeouts)

  std::string user_agent;  // empty: default_user_agent()
  // Where the settings came from, for error messages ("kubeconfig /root/.kube/config").
  std::string source;
};

// The version kcm reports where client-go reports its build's gitVersion and
// gitCommit. The user agent keeps the version up to its first '-' (so
// "v0.1.0-kcm" shows as "v0.1.0") and the commit's first 7 characters; an
// empty commit shows as "unknown". Define KCM_GIT_COMMIT when compiling
// rest_config.cc to stamp a commit.
inline constexpr std::string_view kGitVersion = "v0.1.0-kcm";

// rest.DefaultKubernetesUserAgent with `binary` in place of os.Args[0]:
// "<basename(binary)>/<version> (<os>/<arch>) kubernetes/<commit>", e.g.
// "kcm/v0.1.0 (linux/amd64) kubernetes/unknown". Empty parts become "unknown".
std::string default_user_agent(std::string_view binary = "kcm");

// The formatting rule behind default_user_agent, exposed for tests.
std::string build_user_agent(std::string_view command, std::string_view git_version,
                             std::string_view os, std::string_view arch,
                             std::string_view git_commit);

// rest.AddUserAgent: sets the user agent to default_user_agent(binary) + "/" +
// name (whatever it was before), e.g. ".../deployment-controller".
void add_user_agent(RestConfig& config, std::string_view name, std::string_view binary = "kcm");

// os.ReadFile with Go's error text, which clientcmd's messages embed:
// "open /x: no such file or directory", "read /x: is a directory".
Result<std::string> read_file_go(const std::string& path);
// The text Go prints for an errno ("no such file or directory").
std::string go_errno_text(int err);

}  // namespace kcm::client
