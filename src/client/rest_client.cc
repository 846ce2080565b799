#include "client/rest_client.h"

#include <algorithm>
#include <cstdio>
#include <thread>

#include "api/duration.h"
#include "api/field_error.h"
#include "api/json_scan.h"
#include "client/ascii_text.h"
#include "client/client_metrics.h"

namespace kcm::client {

using api::go_quote;

namespace {

// apimachinery's IsValidPathSegmentName, formatted as Go prints a []string.
std::string path_segment_problems(std::string_view name) {
  if (name == "." || name == "..") return "[may not be '" + std::string(name) + "']";
  std::vector<std::string> problems;
  if (name.find('/') != std::string_view::npos) problems.emplace_back("may not contain '/'");
  if (name.find('%') != std::string_view::npos) problems.emplace_back("may not contain '%'");
  if (problems.empty()) return "";
  std::string out = "[";
  for (std::size_t i = 0; i < problems.size(); ++i)
    out += (i ? " " : "") + problems[i];
  return out + "]";
}

bool unreserved(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || c == '~';
}

void percent_encode(std::string* out, char c) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  const auto u = static_cast<unsigned char>(c);
  *out += '%';
  *out += kHex[u >> 4];
  *out += kHex[u & 0xf];
}

std::string query_escape(std::string_view s) {
  std::string out;
  for (const char c : s) {
    if (unreserved(c)) {
      out += c;
    } else if (c == ' ') {
      out += '+';
    } else {
      percent_encode(&out, c);
    }
  }
  return out;
}

// Go's url.URL path escaping (encodePath): sub-delims and ':' '@' '/' stay.
std::string path_escape(std::string_view s) {
  std::string out;
  for (const char c : s) {
    if (unreserved(c) || c == '$' || c == '&' || c == '+' || c == ',' || c == '/' || c == ':' ||
        c == ';' || c == '=' || c == '@') {
      out += c;
    } else {
      percent_encode(&out, c);
    }
  }
  return out;
}

// path.Join semantics for the pieces we join: no empty segments, no doubled slashes.
void append_segment(std::string* path, std::string_view segment) {
  std::size_t i = 0;
  while (i < segment.size()) {
    const auto next = segment.find('/', i);
    const auto part = segment.substr(i, next == std::string_view::npos ? next : next - i);
    if (!part.empty()) {
      if (path->empty() || path->back() != '/') *path += '/';
      *path += part;
    }
    if (next == std::string_view::npos) break;
    i = next + 1;
  }
}

std::string media_type(std::string_view content_type) {
  return ascii_lower(trim_space(content_type.substr(0, content_type.find(';'))));
}

// errors.NewGenericServerResponse with isUnexpectedResponse.
api::Status generic_server_response(int code, std::string_view method, const api::GroupResource& gr,
                                    std::string_view name, const std::string& server_message,
                                    int retry_after) {
  api::Status s;
  s.code = code;
  std::string message = "the server responded with the status code " + std::to_string(code) +
                        " but did not return more information";
  switch (code) {
    case 409:
      s.reason = method == "POST" ? api::reason::kAlreadyExists : api::reason::kConflict;
      message = "the server reported a conflict";
      break;
    case 404:
      s.reason = api::reason::kNotFound;
      message = "the server could not find the requested resource";
      break;
    case 400:
      s.reason = api::reason::kBadRequest;
      message = "the server rejected our request for an unknown reason";
      break;
    case 401:
      s.reason = api::reason::kUnauthorized;
      message = "the server has asked for the client to provide credentials";
      break;
    case 403:
      s.reason = api::reason::kForbidden;
      message = server_message;
      break;
    case 406:
      s.reason = api::reason::kNotAcceptable;
      message = server_message.empty() || server_message == "unknown"
                    ? "the server was unable to respond with a content type that the client "
                      "supports"
                    : server_message;
      break;
    case 415:
      s.reason = api::reason::kUnsupportedMediaType;
      message = server_message;
      break;
    case 405:
      s.reason = api::reason::kMethodNotAllowed;
      message = "the server does not allow this method on the requested resource";
      break;
    case 422:
      s.reason = api::reason::kInvalid;
      message = "the server rejected our request due to an error in our request";
      break;
    case 503:
      s.reason = api::reason::kServiceUnavailable;
      message = "the server is currently unable to handle the request";
      break;
    case 504:
      s.reason = api::reason::kTimeout;
      message =
          "the server was unable to return a response in the time allotted, but may still be "
          "processing the request";
      break;
    case 429:
      s.reason = api::reason::kTooManyRequests;
      message = "the server has received too many requests and has asked us to try again later";
      break;
    default:
      if (code >= 500) {
        s.reason = api::reason::kInternalError;
        message = "an error on the server (" + go_quote(server_message) +
                  ") has prevented the request from succeeding";
      }
  }
  if (!gr.resource.empty()) {
    message += " (" + ascii_lower(method) + " " + gr.string() + (name.empty() ? "" : " ") +
               std::string(name) + ")";
  }
  s.message = std::move(message);
  api::StatusDetails details;
  details.group = gr.group;
  details.kind = gr.resource;
  details.name = std::string(name);
  details.retry_after_seconds = retry_after;
  details.causes.push_back({"UnexpectedServerResponse", server_message, ""});
  s.details = std::move(details);
  return s;
}

int retry_after_header_seconds(const Headers& headers) {
  const auto h = find_header(headers, "Retry-After");
  if (!h) return 0;
  return static_cast<int>(retry_after_seconds(*h).value_or(0));
}

// net.IsProbableEOF / IsConnectionReset / IsTimeout read error texts too.
TransportError classify(const std::string& error) {
  if (error.find("connection reset by peer") != std::string::npos) {
    return TransportError::kConnectionReset;
  }
  if (error.ends_with(": EOF") || error.find("broken pipe") != std::string::npos ||
      error.find("use of closed network connection") != std::string::npos) {
    return TransportError::kProbableEof;
  }
  if (error.find("deadline exceeded") != std::string::npos ||
      error.find("timed out") != std::string::npos) {
    return TransportError::kTimeout;
  }
  return TransportError::kOther;
}

ThrottledLogger& throttled_logger() {
  static ThrottledLogger logger;
  return logger;
}

// The metrics' `host` label: the base URL's host:port (Go's url.URL.Host).
std::string_view metrics_host(const std::string& base_url) {
  const std::string_view url = base_url;
  const auto scheme_end = url.find("://");
  return scheme_end == std::string_view::npos ? url : url.substr(scheme_end + 3);
}

// Reports a whole request's latency when it leaves scope, whichever way it
// returns (client-go defers RequestLatency.Observe in request()).
class RequestLatencyScope {
 public:
  RequestLatencyScope(ClientMetrics* metrics, std::string_view verb, std::string_view host)
      : metrics_(metrics),
        verb_(verb),
        host_(host),
        start_(metrics ? std::chrono::steady_clock::now()
                       : std::chrono::steady_clock::time_point{}) {}
  RequestLatencyScope(const RequestLatencyScope&) = delete;
  RequestLatencyScope& operator=(const RequestLatencyScope&) = delete;
  ~RequestLatencyScope() {
    if (metrics_)
      metrics_->request_latency(verb_, host_, std::chrono::steady_clock::now() - start_);
  }

 private:
  ClientMetrics* const metrics_;
  const std::string_view verb_;
  const std::string_view host_;
  const std::chrono::steady_clock::time_point start_;
};

// withRetry.After: every attempt counts as a result, the second and later
// ones also as retries, each with its own outcome.
void report_attempt(ClientMetrics* metrics, int attempt, std::optional<int> status,
                    std::string_view method, std::string_view host) {
  if (!metrics) return;
  const std::string code = result_code_label(status);
  metrics->request_result(code, method, host);
  if (attempt > 1) metrics->request_retry(code, method, host);
}

}  // namespace

std::string encode_query(const QueryParams& params) {
  std::vector<const std::pair<std::string, std::string>*> sorted;
  for (const auto& p : params)
    sorted.push_back(&p);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto* a, const auto* b) { return a->first < b->first; });
  std::string out;
  for (const auto* p : sorted) {
    if (!out.empty()) out += '&';
    out += query_escape(p->first) + "=" + query_escape(p->second);
  }
  return out;
}

Result<std::string> request_target(std::string_view path_prefix, const Request& r) {
  if (!r.resource.empty()) {
    if (auto p = path_segment_problems(r.resource); !p.empty())
      return fail("invalid resource " + go_quote(r.resource) + ": " + p);
  }
  if (!r.name.empty()) {
    if (auto p = path_segment_problems(r.name); !p.empty())
      return fail("invalid resource name " + go_quote(r.name) + ": " + p);
  }
  if (r.namespace_name) {
    if (auto p = path_segment_problems(*r.namespace_name); !p.empty())
      return fail("invalid namespace " + go_quote(*r.namespace_name) + ": " + p);
    if (r.namespace_name->empty()) {
      if (r.verb == "POST") return fail("an empty namespace may not be set during creation");
      if ((r.verb == "GET" || r.verb == "PUT" || r.verb == "DELETE") && !r.name.empty()) {
        return fail("an empty namespace may not be set when a resource name is provided");
      }
    }
  }
  if (!r.subresource.empty()) {
    if (auto p = path_segment_problems(r.subresource); !p.empty())
      return fail("invalid subresource " + go_quote(r.subresource) + ": " + p);
  }
  std::string path;
  append_segment(&path, path_prefix);
  if (!r.abs_path.empty()) {
    append_segment(&path, r.abs_path);
  } else {
    if (r.group_version.group.empty()) {
      append_segment(&path, "api");
    } else {
      append_segment(&path, "apis");
      append_segment(&path, r.group_version.group);
    }
    append_segment(&path, r.group_version.version);
  }
  if (r.namespace_name && !r.namespace_name->empty()) {
    append_segment(&path, "namespaces");
    append_segment(&path, *r.namespace_name);
  }
  append_segment(&path, ascii_lower(r.resource));
  append_segment(&path, r.name);
  append_segment(&path, r.subresource);
  if (path.empty()) path = "/";
  std::string target = path_escape(path);
  QueryParams params = r.params;
  if (r.timeout.count() > 0) {
    params.erase(std::remove_if(params.begin(), params.end(),
                                [](const auto& p) { return p.first == "timeout"; }),
                 params.end());
    params.emplace_back("timeout", api::format_duration(r.timeout));
  }
  if (const auto q = encode_query(params); !q.empty()) target += "?" + q;
  return target;
}

api::Status error_from_response(int code, std::string_view content_type, std::string_view body,
                                std::string_view method, const api::GroupResource& resource,
                                std::string_view name, int retry_after_seconds) {
  constexpr std::size_t kMaxUnstructuredBytes = 2048;
  const std::string media = media_type(content_type);
  const bool text = content_type.empty() || media.starts_with("text/");
  const std::string server_message =
      text ? trim_space(body.substr(0, std::min(body.size(), kMaxUnstructuredBytes))) : "unknown";
  api::Status unstructured =
      generic_server_response(code, method, resource, name, server_message, retry_after_seconds);
  // The client decodes JSON; an absent Content-Type is taken as its own (JSON).
  if (!(content_type.empty() || media == "application/json") || body.empty()) {
    return unstructured;
  }
  std::string ignored;
  const auto value = api::parse_json(body, &ignored);
  if (!value || !value->is_object()) return unstructured;
  const auto& o = value->get_object();
  if (api::find_string(o, "kind").value_or("") != "Status") return unstructured;
  if (api::find_string(o, "status").value_or("") != "Failure") return unstructured;
  return api::Status::from_json(*value);
}

api::Status client_error(std::string message) {
  api::Status s;
  s.code = 0;
  s.message = std::move(message);
  return s;
}

bool is_client_error(const api::Status& status) {
  return status.code == 0;
}

std::vector<std::string> parse_warnings(const Headers& headers) {
  std::vector<std::string> out;
  for (const auto& [name, value] : headers) {
    if (ascii_lower(name) != "warning") continue;
    // warning-value = warn-code SP warn-agent SP warn-text [ SP warn-date ], comma-separated.
    std::size_t i = 0;
    const std::string& v = value;
    while (i < v.size()) {
      while (i < v.size() && (v[i] == ' ' || v[i] == ','))
        ++i;
      const auto sp1 = v.find(' ', i);
      if (sp1 == std::string::npos) break;
      const std::string code = v.substr(i, sp1 - i);
      const auto sp2 = v.find(' ', sp1 + 1);
      if (sp2 == std::string::npos || sp2 + 1 >= v.size() || v[sp2 + 1] != '"') break;
      std::string text;
      std::size_t j = sp2 + 2;
      bool closed = false;
      for (; j < v.size(); ++j) {
        if (v[j] == '\\' && j + 1 < v.size()) {
          text += v[++j];
        } else if (v[j] == '"') {
          closed = true;
          ++j;
          break;
        } else {
          text += v[j];
        }
      }
      if (!closed) break;
      // Skip an optional quoted warn-date.
      while (j < v.size() && v[j] != ',')
        ++j;
      if (code == "299" && !text.empty()) out.push_back(std::move(text));
      i = j;
    }
  }
  return out;
}

RestClient::RestClient(std::shared_ptr<Transport> transport, RestClientOptions options)
    : transport_(std::move(transport)), options_(std::move(options)) {}

void RestClient::log(int verbosity, const std::string& message) const {
  if (options_.logger) {
    options_.logger(verbosity, message);
  } else if (verbosity == 0) {
    std::fprintf(stderr, "%s\n", message.c_str());
  }
}

void RestClient::handle_warnings(const Headers& headers, std::vector<std::string>* out) const {
  for (auto& w : parse_warnings(headers)) {
    if (options_.warning_handler) {
      options_.warning_handler(w);
    } else {
      log(0, "Warning: " + w);
    }
    out->push_back(std::move(w));
  }
}

Result<void, api::Status> RestClient::throttle(const Request& request, const std::string& target,
                                               const std::string& retry_info) {
  if (!options_.rate_limiter) return {};
  auto waited = options_.rate_limiter->wait();
  if (auto* metrics = client_metrics()) {
    // Without a stop token or deadline, Wait fails at once: no time was spent.
    metrics->rate_limiter_latency(request.verb, metrics_host(transport_->base_url()),
                                  waited ? *waited : std::chrono::nanoseconds::zero());
  }
  if (!waited) {
    return fail(client_error("client rate limiter Wait returned an error: " + waited.error()));
  }
  const auto latency = *waited;
  if (latency <= kLongThrottleLatency) return {};
  const std::string message =
      throttle_message(latency, request.verb, transport_->base_url() + target, retry_info);
  log(3, message);
  if (latency > kExtraLongThrottleLatency) {
    const int verbosity = options_.verbosity ? options_.verbosity() : 0;
    if (const auto level = throttled_logger().attempt_to_log(verbosity)) {
      log(*level, message);
    }
  }
  return {};
}

namespace {

AttemptOutcome outcome_of(const Result<HttpResponse>& response) {
  AttemptOutcome outcome;
  if (!response) {
    outcome.error = classify(response.error());
    outcome.error_message = response.error();
    return outcome;
  }
  outcome.status_code = response->status;
  outcome.retry_after = find_header(response->headers, "Retry-After");
  outcome.flow_schema_uid =
      find_header(response->headers, "X-Kubernetes-PF-FlowSchema-UID").value_or("");
  return outcome;
}

}  // namespace

Result<Response, api::Status> RestClient::send(const Request& request) {
  ClientMetrics* const metrics = client_metrics();
  const std::string_view host = metrics ? metrics_host(transport_->base_url()) : std::string_view();
  const RequestLatencyScope latency(metrics, request.verb, host);
  auto target = request_target(transport_->path_prefix(), request);
  if (!target) return fail(client_error(target.error()));
  HttpRequest http;
  http.method = request.verb;
  http.target = *target;
  http.headers = request.headers;
  if (!find_header(http.headers, "Accept")) http.headers.emplace_back("Accept", options_.accept);
  if (!request.body.empty()) {
    http.body = request.body;
    if (!find_header(http.headers, "Content-Type")) {
      http.headers.emplace_back(
          "Content-Type", request.content_type.empty() ? "application/json" : request.content_type);
    }
  }
  http.timeout = request.timeout;
  const api::GroupResource gr{request.group_version.group, request.resource};

  RetryDecision decision;
  std::string previous_error;
  for (int attempt = 1;; ++attempt) {
    if (attempt > 1) std::this_thread::sleep_for(decision.wait);
    if (auto t = throttle(request, *target, decision.reason); !t) return fail(t.error());
    auto response = transport_->round_trip(http);
    if (metrics) {
      metrics->request_size(request.verb, host, static_cast<double>(http.body.size()));
      report_attempt(metrics, attempt, response ? std::optional(response->status) : std::nullopt,
                     request.verb, host);
    }
    if (response && response->status >= 200 && response->status <= 206) {
      if (metrics) {
        metrics->response_size(request.verb, host, static_cast<double>(response->body.size()));
      }
      Response out{response->status, std::move(response->headers), std::move(response->body), {}};
      handle_warnings(out.headers, &out.warnings);
      return out;
    }
    decision = next_retry(attempt, request.max_retries, RequestMode::kDo, request.verb,
                          outcome_of(response));
    if (!response) {
      if (decision.retry) {
        previous_error = response.error();
        continue;
      }
      return fail(client_error(wrap_previous_error(response.error(), previous_error)));
    }
    std::vector<std::string> warnings;
    handle_warnings(response->headers, &warnings);
    if (decision.retry) continue;
    // Do() records the size of an error answer only when it has a body.
    if (metrics && !response->body.empty()) {
      metrics->response_size(request.verb, host, static_cast<double>(response->body.size()));
    }
    return fail(error_from_response(response->status,
                                    find_header(response->headers, "Content-Type").value_or(""),
                                    response->body, request.verb, gr, request.name,
                                    retry_after_header_seconds(response->headers)));
  }
}

Result<boost::json::value, api::Status> RestClient::decode(const Request& request,
                                                           const Response& response) const {
  std::string parse_error;
  auto value = api::parse_json(response.body, &parse_error);
  if (!value) {
    return fail(client_error("unable to decode the response of " + request.verb + " " +
                             transport_->base_url() + " (status " +
                             std::to_string(response.status) + "): " + parse_error));
  }
  if (const auto* o = value->if_object();
      o && api::find_string(*o, "kind").value_or("") == "Status" &&
      api::find_string(*o, "status").value_or("Success") != "Success") {
    return fail(api::Status::from_json(*value));
  }
  return std::move(*value);
}

Result<boost::json::value, api::Status> RestClient::send_json(const Request& request) {
  auto response = send(request);
  if (!response) return fail(std::move(response).error());
  return decode(request, *response);
}

Result<void, api::Status> RestClient::send_for_error(const Request& request) {
  auto response = send(request);
  if (!response) return fail(std::move(response).error());
  return {};
}

Result<WrittenMeta, api::Status> RestClient::send_for_meta(const Request& request) {
  auto response = send(request);
  if (!response) return fail(std::move(response).error());
  static constexpr std::string_view kKind[] = {"kind"};
  static constexpr std::string_view kStatus[] = {"status"};
  static constexpr std::string_view kName[] = {"metadata", "name"};
  static constexpr std::string_view kResourceVersion[] = {"metadata", "resourceVersion"};
  api::ScannedString members[] = {{kKind, {}}, {kStatus, {}}, {kName, {}}, {kResourceVersion, {}}};
  const bool scanned = api::scan_strings(response->body, members, nullptr);
  if (!scanned ||
      (members[0].value == "Status" && members[1].value.value_or("Success") != "Success")) {
    // What decode() refuses, it refuses with the message send_json gives.
    auto value = decode(request, *response);
    if (!value) return fail(std::move(value).error());
  }
  return WrittenMeta{std::move(members[2].value).value_or(""),
                     std::move(members[3].value).value_or("")};
}

Result<std::unique_ptr<ResponseStream>, api::Status> RestClient::stream(const Request& request) {
  auto target = request_target(transport_->path_prefix(), request);
  if (!target) return fail(client_error(target.error()));
  HttpRequest http;
  http.method = request.verb;
  http.target = *target;
  http.headers = request.headers;
  if (!find_header(http.headers, "Accept")) http.headers.emplace_back("Accept", options_.accept);
  http.timeout = request.timeout;
  const api::GroupResource gr{request.group_version.group, request.resource};
  // Watches are neither throttled nor timed; their attempts count as results.
  ClientMetrics* const metrics = client_metrics();
  const std::string_view host = metrics ? metrics_host(transport_->base_url()) : std::string_view();
  RetryDecision decision;
  for (int attempt = 1;; ++attempt) {
    if (attempt > 1) std::this_thread::sleep_for(decision.wait);
    auto s = transport_->stream(http);
    report_attempt(metrics, attempt, s ? std::optional((*s)->status()) : std::nullopt, request.verb,
                   host);
    if (!s) {
      Result<HttpResponse> failed = fail(s.error());
      decision = next_retry(attempt, request.max_retries, RequestMode::kWatch, request.verb,
                            outcome_of(failed));
      if (decision.retry) continue;
      return fail(client_error(s.error()));
    }
    auto& stream = *s;
    std::vector<std::string> warnings;
    handle_warnings(stream->headers(), &warnings);
    const int status = stream->status();
    if (status >= 200 && status <= 206) return std::move(stream);
    // An error answer: read its (small) body whole.
    HttpResponse answer{status, stream->headers(), {}};
    while (answer.body.size() < (1u << 20)) {
      auto piece = stream->read();
      if (!piece || !*piece) break;
      answer.body += **piece;
    }
    decision = next_retry(attempt, request.max_retries, RequestMode::kWatch, request.verb,
                          outcome_of(answer));
    if (decision.retry) continue;
    return fail(error_from_response(
        status, find_header(answer.headers, "Content-Type").value_or(""), answer.body, request.verb,
        gr, request.name, retry_after_header_seconds(answer.headers)));
  }
}

}  // namespace kcm::client
