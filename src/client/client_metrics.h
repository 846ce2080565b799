// The REST client's metric hooks (client-go's tools/metrics): the client
// reports through whatever the process registered once, and through nothing
// (a single atomic load per hook point) until then. The Prometheus families
// behind these hooks live in the application (app/rest_client_metrics.h).
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace kcm::client {

// Labels are passed as client-go passes them: `verb`/`method` is the HTTP
// method ("GET"), `host` the server's host:port ("127.0.0.1:6443"), `code`
// the HTTP status as text ("200") or "<error>" when no response arrived.
// Every method may be called from any thread. The defaults do nothing, so an
// implementation overrides only what it records (client-go's nil fields).
class ClientMetrics {
 public:
  virtual ~ClientMetrics() = default;

  // A whole send(), throttling and retries included (RequestLatency).
  virtual void request_latency(std::string_view /*verb*/, std::string_view /*host*/,
                               std::chrono::nanoseconds /*latency*/) {}
  // One wait on the client-side rate limiter (RateLimiterLatency).
  virtual void rate_limiter_latency(std::string_view /*verb*/, std::string_view /*host*/,
                                    std::chrono::nanoseconds /*latency*/) {}
  // Every attempt's outcome, retries and watches included (RequestResult).
  virtual void request_result(std::string_view /*code*/, std::string_view /*method*/,
                              std::string_view /*host*/) {}
  // The outcome of each attempt after the first (RequestRetry).
  virtual void request_retry(std::string_view /*code*/, std::string_view /*method*/,
                             std::string_view /*host*/) {}
  // The body bytes sent per attempt (RequestSize).
  virtual void request_size(std::string_view /*verb*/, std::string_view /*host*/,
                            double /*bytes*/) {}
  // The body bytes of the final response, when there is one (ResponseSize).
  virtual void response_size(std::string_view /*verb*/, std::string_view /*host*/,
                             double /*bytes*/) {}
};

// metrics.Register: installs `metrics` for the whole process. Only the first
// call with a non-null argument takes effect (later ones return false and
// change nothing); the hook stays installed until the process exits.
bool register_client_metrics(std::shared_ptr<ClientMetrics> metrics);

// The installed hooks, or nullptr before register_client_metrics().
ClientMetrics* client_metrics();

// The `code` label of an attempt (client-go's sanitize): the status code in
// decimal, or "<error>" when the attempt got no response.
std::string result_code_label(std::optional<int> status);

}  // namespace kcm::client
