// client-go's retry rules for REST requests (rest/with_retry.go and
// request.go), as pure functions the REST client applies per attempt.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace kcm::client {

// rest.Request's default: up to 10 retries after the first attempt.
inline constexpr int kDefaultMaxRetries = 10;

// retryAfterSeconds: the Retry-After header as strconv.Atoi reads it (an
// optional sign and decimal digits only; HTTP dates are not understood).
std::optional<long long> retry_after_seconds(std::string_view header_value);

// checkWait: a 429 or any status >= 500 whose Retry-After parses; the
// seconds to wait (possibly 0 or negative, which means "no wait").
std::optional<long long> check_wait(int status_code,
                                    std::optional<std::string_view> retry_after_header);

// How a transport error that carried no response looks to the retry rules.
enum class TransportError {
  kOther,
  kConnectionReset,  // ECONNRESET ("connection reset by peer")
  kProbableEof,      // EOF, unexpected EOF, closed connection, HTTP/2 GOAWAY / lost connection
  kTimeout,
};

// Which request flavour is being retried; each has its own error rule.
enum class RequestMode {
  kDo,      // Do/DoRaw: GET only, connection reset or probable EOF
  kWatch,   // Watch: probable EOF or timeout, any verb
  kStream,  // Stream: never on errors
};

// IsRetryableErrorFunc for the mode.
bool is_retryable_error(RequestMode mode, std::string_view method, TransportError error);

// The outcome of one attempt: a response, or a transport error.
struct AttemptOutcome {
  std::optional<int> status_code;          // set when a response arrived
  std::optional<std::string> retry_after;  // its first Retry-After value
  std::string flow_schema_uid;             // X-Kubernetes-PF-FlowSchema-UID
  std::optional<TransportError> error;     // set when no response arrived
  std::string error_message;               // the error's text, for the reason
};

struct RetryDecision {
  bool retry = false;
  std::chrono::seconds wait{0};  // sleep this long, then throttle again and resend
  std::string reason;            // getRetryReason, for throttle_message()'s retry_info
};

// withRetry.IsNextRetry after attempt number `attempt` (1 for the first) of
// a request allowed `max_retries` retries. A retryable transport error counts
// as a 500 with "Retry-After: 1". Bodies that cannot be replayed (opaque
// streams) must not be retried; that is the caller's check.
RetryDecision next_retry(int attempt, int max_retries, RequestMode mode, std::string_view method,
                         const AttemptOutcome& outcome);

// getRetryReason: "retries: 2, retry-after: 1s - retry-reason: 503", or for a
// 429 "... - retry-reason: due to server-side throttling, FlowSchema UID: \"<uid>\"",
// or for an error "... - retry-reason: due to retryable error, error: <err>".
std::string retry_reason(int retries, long long seconds, const AttemptOutcome& outcome);

// WrapPreviousError: "<current> - error from a previous attempt: <previous>",
// or `current` alone when there is no different previous error.
std::string wrap_previous_error(std::string_view current, std::string_view previous);

}  // namespace kcm::client
