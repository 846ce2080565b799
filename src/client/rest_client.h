// REST requests against the Kubernetes API (client-go's rest.Request and
// RESTClient): the /api/v1 vs /apis/<group>/<version> path layout, query
// parameters, client-side rate limiting, retries on 429/5xx with Retry-After
// (client/retry_policy.h),
// warnings, and API errors as api::Status values.
// Blocking and thread-safe.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/group_version.h"
#include "api/json.h"
#include "api/result.h"
#include "api/status.h"
#include "client/rate_limiter.h"
#include "client/retry_policy.h"
#include "client/transport.h"

namespace kcm::client {

using QueryParams = std::vector<std::pair<std::string, std::string>>;

struct Request {
  std::string verb = "GET";
  // The path is /api/v1 (core group) or /apis/<group>/<version>, then
  // [namespaces/<namespace>/]<resource>[/<name>[/<subresource>]].
  api::GroupVersion group_version{"", "v1"};
  // Replaces the group/version prefix when set ("/version", "/apis").
  std::string abs_path;
  std::optional<std::string> namespace_name;  // set: namespaced (may be "" for all namespaces)
  std::string resource;
  std::string name;
  std::string subresource;
  QueryParams params;
  std::string body;
  std::string content_type;  // default application/json when there is a body
  Headers headers;
  // Per-request timeout (0: the config's); also sent as the `timeout` parameter.
  std::chrono::milliseconds timeout{0};
  int max_retries = kDefaultMaxRetries;
};

// The escaped request path and query relative to the server ("/api/v1/pods?limit=5").
// Errors are client-go's request construction errors, e.g.
// `invalid resource name "a/b": [may not contain '/']`.
Result<std::string> request_target(std::string_view path_prefix, const Request& request);

// Go's url.Values.Encode(): keys sorted, values in order, QueryEscape'd.
std::string encode_query(const QueryParams& params);

// The API error for a non-2xx response, as client-go's transformResponse:
// the Status in the body when it is one, else a synthesized one
// (errors.NewGenericServerResponse), e.g. 404 without a Status:
// "the server could not find the requested resource (get pods foo)".
api::Status error_from_response(int code, std::string_view content_type, std::string_view body,
                                std::string_view method, const api::GroupResource& resource,
                                std::string_view name, int retry_after_seconds);

// A failure with no HTTP response (connection refused, TLS, timeout,
// request construction): code 0, no reason, the error text as message.
api::Status client_error(std::string message);
// Whether a Status came from client_error() (no response from the server).
bool is_client_error(const api::Status& status);

// The texts of `Warning: 299 - "text"` headers (RFC 7234; code 299 only).
std::vector<std::string> parse_warnings(const Headers& headers);

struct RestClientOptions {
  // The client-side limiter every request (but watches) waits on first
  // (client/rate_limiter.h). nullptr: no limit.
  std::shared_ptr<TokenBucketRateLimiter> rate_limiter;
  // Receives each warning text. Empty: warnings are logged as "Warning: <text>".
  std::function<void(const std::string&)> warning_handler;
  // Log lines with a klog-style verbosity (0 most important). Empty: verbosity 0
  // goes to stderr, the rest is dropped.
  std::function<void(int verbosity, const std::string& message)> logger;
  // The process's -v as it is now (it can change at run time, /debug/flags/v),
  // for the throttled logger's choice of level. Empty: 0.
  std::function<int()> verbosity;
  std::string accept = "application/json, */*";
};

struct Response {
  int status = 0;
  Headers headers;
  std::string body;
  std::vector<std::string> warnings;
};

// What a writer reads back of the object it wrote, when it keeps what it sent:
// the name the server gave it (for generateName) and the resourceVersion
// written ("" when the answer has none).
struct WrittenMeta {
  std::string name;
  std::string resource_version;
};

class RestClient {
 public:
  RestClient(std::shared_ptr<Transport> transport, RestClientOptions options);

  // Sends the request (after the rate limiter), retrying as the policy says.
  // Non-2xx answers are errors (see error_from_response).
  Result<Response, api::Status> send(const Request& request);
  // send() and parse the body; a 2xx Status body with status Failure is an error too.
  Result<boost::json::value, api::Status> send_json(const Request& request);
  // send() for the outcome only, as client-go's Result.Error(): a successful
  // answer's body is not decoded.
  Result<void, api::Status> send_for_error(const Request& request);
  // send_json() for the written object's name and resourceVersion only: for
  // writers that keep what they sent. The answer is read without building it
  // (api::scan_strings); it is refused as send_json refuses it.
  Result<WrittenMeta, api::Status> send_for_meta(const Request& request);
  // For watches: not rate limited (as client-go), returns once the headers
  // arrived with a 2xx status; the caller reads the body.
  Result<std::unique_ptr<ResponseStream>, api::Status> stream(const Request& request);

  Transport& transport() { return *transport_; }

 private:
  // The body of a successful answer as JSON; a 2xx Status body with status
  // Failure is an error too.
  Result<boost::json::value, api::Status> decode(const Request& request,
                                                 const Response& response) const;
  void log(int verbosity, const std::string& message) const;
  void handle_warnings(const Headers& headers, std::vector<std::string>* out) const;
  Result<void, api::Status> throttle(const Request& request, const std::string& target,
                                     const std::string& retry_info);

  std::shared_ptr<Transport> transport_;
  RestClientOptions options_;
};

}  // namespace kcm::client
