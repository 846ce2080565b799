// kubeconfig files (clientcmd): parsing, KUBECONFIG-style merging, and turning
// the selected context into a RestConfig with clientcmd's validation and
// error messages.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/result.h"
#include "client/rest_config.h"

namespace kcm::client {

struct KubeconfigCluster {
  std::string server;
  std::string tls_server_name;
  bool insecure_skip_tls_verify = false;
  std::string certificate_authority;       // a path
  std::string certificate_authority_data;  // decoded bytes (PEM)
  std::string proxy_url;
  bool disable_compression = false;
  std::string exec_extension_json;  // extensions["client.authentication.k8s.io/exec"]
  std::string location_of_origin;   // the file this entry was read from
};

struct KubeconfigAuthInfo {
  std::string client_certificate;       // a path
  std::string client_certificate_data;  // decoded bytes (PEM)
  std::string client_key;               // a path
  std::string client_key_data;          // decoded bytes (PEM)
  std::string token;
  std::string token_file;
  std::string username;
  std::string password;
  std::optional<ExecConfig> exec;
  std::string auth_provider;  // auth-provider.name; kcm supports none
  std::string location_of_origin;
};

struct KubeconfigContext {
  std::string cluster;
  std::string user;
  std::string namespace_name;
  std::string location_of_origin;
};

struct Kubeconfig {
  std::map<std::string, KubeconfigCluster> clusters;
  std::map<std::string, KubeconfigAuthInfo> users;
  std::map<std::string, KubeconfigContext> contexts;
  std::string current_context;
};

// clientcmd.Load: parses kubeconfig YAML (or JSON). Empty input is an empty
// config. Relative paths are kept as written. Errors name the field, e.g.
// `users[0].user.client-certificate-data: illegal base64 data at input byte 4`.
Result<Kubeconfig> parse_kubeconfig(std::string_view text);

// clientcmd.LoadFromFile: reads and parses one file and records it as every
// entry's location of origin (paths stay relative). Errors are the bare cause,
// e.g. `open /x: no such file or directory`.
Result<Kubeconfig> load_kubeconfig_file(const std::string& path);

// ClientConfigLoadingRules.Load for a list of files (the KUBECONFIG list, or
// just the explicit --kubeconfig path): the first file to define a cluster,
// user or context name wins the whole entry, the first non-empty
// current-context wins; relative paths (certificate-authority, client-certificate,
// client-key, tokenFile, an exec command containing '/') are resolved against
// the directory of the file each entry came from.
// With `explicit_path`, `paths` must hold exactly that file and its absence is
// the error `stat <path>: no such file or directory`; otherwise missing files
// are skipped. Unreadable or malformed files are the error
// `error loading config file "<path>": <cause>` (several: "[e1, e2]").
Result<Kubeconfig> load_kubeconfig_files(const std::vector<std::string>& paths,
                                         bool explicit_path = false);

// The KUBECONFIG environment value as a file list: colon-separated, empty
// elements dropped, duplicates removed keeping the first (filepath.SplitList
// and clientcmd's deduplicate).
std::vector<std::string> split_kubeconfig_list(std::string_view value);

// What command-line flags override (clientcmd.ConfigOverrides, the subset kcm uses).
struct ConfigOverrides {
  std::string context;  // --context
  std::string server;   // --master / --server
};

// DirectClientConfig.ClientConfig for `overrides.context`, or current-context:
// resolves the context, its cluster and user, validates them as clientcmd's
// ConfirmUsable does, and reads the files they name. Errors are clientcmd's,
// e.g. `context "foo" does not exist`,
// `invalid configuration: no server found for cluster "c"`, and
// `invalid configuration: no configuration has been provided, try setting
// KUBERNETES_MASTER environment variable` (see is_empty_config_error).
Result<RestConfig> client_config(const Kubeconfig& config, const ConfigOverrides& overrides = {});

// True for client_config's "no configuration has been provided" error
// (clientcmd.IsEmptyConfig), after which callers may try in-cluster config.
bool is_empty_config_error(std::string_view error);

}  // namespace kcm::client
