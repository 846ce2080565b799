// Per-request credentials (client-go's bearer/basic auth round trippers,
// cached token file source and exec credential plugin): what the transport
// asks for the Authorization header (and, for exec plugins, a client
// certificate) before each request.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "api/result.h"
#include "client/rest_config.h"

namespace kcm::client {

struct Credentials {
  std::string authorization;     // "Bearer <token>", "Basic <base64>", or empty: send none
  std::string client_cert_pem;   // set by exec plugins that return a certificate
  std::string client_key_pem;    // (the transport then uses these instead of the config's)
  std::uint64_t generation = 0;  // identifies this credential for invalidate()
};

// Thread-safe.
class TokenSource {
 public:
  virtual ~TokenSource() = default;
  // The credentials for the next request (cached; may read a file or run a
  // plugin). Errors: exec plugin failures, an unreadable token file when no
  // token was ever read.
  virtual Result<Credentials> credentials() = 0;
  // The server answered 401 to a request sent with `used`: the next
  // credentials() re-reads the token file or re-runs the plugin, unless they
  // were already rotated since `used`.
  virtual void invalidate(const Credentials& used) = 0;
};

struct TokenSourceOptions {
  // Wall clock (token file cache period, exec credential expiry); empty: system_clock.
  std::function<std::chrono::system_clock::time_point()> now;
  // Where an exec plugin's stderr goes when it succeeds and where "Unable to
  // rotate token" messages go; empty: the process's stderr.
  std::function<void(const std::string&)> log;
};

// client-go's choice for the config: bearer token and/or token file, else
// basic auth (username), else the exec plugin unless a client certificate and
// key are configured, else no Authorization header. Errors:
// `username/password or bearer token may be set, but not both`, an unreadable
// token file with no bearer_token to fall back to
// (`failed to read token file "<path>": open <path>: no such file or directory`),
// `exec plugin: invalid apiVersion "<v>"`.
// Exec plugins are shared process-wide per (exec config, cluster), as
// client-go's authenticator cache does, unless options.now is set.
Result<std::shared_ptr<TokenSource>> make_token_source(const RestConfig& config,
                                                       const TokenSourceOptions& options = {});

// The cached token file source alone (NewCachedFileTokenSource): re-reads the
// file once the cached token is 50s old (period 1m minus 10s leeway); a failed
// re-read keeps the previous token; `fallback` is used when the file never read.
std::shared_ptr<TokenSource> make_file_token_source(std::string path, std::string fallback,
                                                    const TokenSourceOptions& options = {});

// clientauthentication's ExecCredential spec.cluster for `config` (what a
// plugin with provideClusterInfo receives), as JSON text.
std::string exec_cluster_json(const RestConfig& config);

// The tls.X509KeyPair check exec plugin output goes through; nullopt when the
// PEM certificate and key parse and match, else Go's message, e.g.
// "tls: private key does not match public key".
std::optional<std::string> check_key_pair(const std::string& cert_pem, const std::string& key_pem);

}  // namespace kcm::client
