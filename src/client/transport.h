// HTTP/1.1 over TLS (or plain http for tests) to one API server: certificate
// verification, client certificates, a keep-alive connection pool, timeouts,
// gzip, the user agent and credentials (client-go's transport layer).
// Blocking and thread-safe: any number of threads may issue requests at once.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/result.h"
#include "client/rest_config.h"
#include "client/token_source.h"

namespace kcm::client {

using Headers = std::vector<std::pair<std::string, std::string>>;

// The first value of header `name` (case-insensitive).
std::optional<std::string> find_header(const Headers& headers, std::string_view name);

struct HttpRequest {
  std::string method = "GET";
  std::string target;  // absolute path and query, already escaped: "/api/v1/pods?limit=5"
  Headers headers;     // besides Host, User-Agent, Authorization and Accept-Encoding
  std::string body;
  // 0: the transport's default (RestConfig::timeout; 0 there means none).
  // For streams it bounds connecting and the response headers only.
  std::chrono::milliseconds timeout{0};
};

struct HttpResponse {
  int status = 0;
  Headers headers;
  std::string body;  // decompressed
};

// A response whose body is read as it arrives (watches).
class ResponseStream {
 public:
  virtual ~ResponseStream() = default;
  virtual int status() const = 0;
  virtual const Headers& headers() const = 0;
  // The next piece of the (decompressed) body, blocking until some arrives;
  // nullopt at the end of the body; an error when the connection failed or
  // the stream was cancelled.
  virtual Result<std::optional<std::string>> read() = 0;
  // Closes the connection from any thread; a blocked read() returns an error.
  virtual void cancel() = 0;
  virtual bool cancelled() const = 0;
};

struct TransportOptions {
  // Authorization headers (and exec-plugin client certificates) per request;
  // nullptr: none. Credentials are only ever sent over TLS.
  std::shared_ptr<TokenSource> token_source;
  bool disable_compression = false;       // no Accept-Encoding: gzip
  std::size_t max_idle_connections = 25;  // client-go's MaxIdleConnsPerHost
};

class Transport {
 public:
  // Parses config.host and builds the TLS context (CA, client certificate,
  // server name). Fails with a clear message on bad PEM or a bad host.
  static Result<std::shared_ptr<Transport>> create(const RestConfig& config,
                                                   TransportOptions options = {});
  virtual ~Transport() = default;

  // One request and its whole response. Retries once on a fresh connection
  // when a pooled one turns out broken (idempotent methods only), and once
  // after a 401 with freshly obtained credentials. Errors (no HTTP response)
  // read like Go's: `Get "https://host/path": <cause>`.
  virtual Result<HttpResponse> round_trip(const HttpRequest& request) = 0;
  // Same, but returns once the response headers arrived; the body streams.
  virtual Result<std::unique_ptr<ResponseStream>> stream(const HttpRequest& request) = 0;

  // "https://127.0.0.1:6443" (no path) and the path prefix of config.host ("" or "/prefix").
  virtual const std::string& base_url() const = 0;
  virtual const std::string& path_prefix() const = 0;
  // Idle pooled connections (tests).
  virtual std::size_t idle_connections() const = 0;
  // Connections opened so far (tests: pooling reuses them).
  virtual std::size_t connections_opened() const = 0;
};

// Splits "https://host:port/prefix" (scheme defaults to https, ports to 443/80).
struct ParsedHost {
  std::string scheme;  // "https" or "http"
  std::string host;    // without brackets for IPv6
  std::string port;
  std::string path_prefix;  // "" or "/prefix" without a trailing slash
};
Result<ParsedHost> parse_host(std::string_view host);

}  // namespace kcm::client
