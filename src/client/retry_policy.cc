#include "client/retry_policy.h"

#include <fmt/format.h>

#include <charconv>
#include <limits>

namespace kcm::client {

std::optional<long long> retry_after_seconds(std::string_view v) {
  if (v.empty()) return std::nullopt;
  std::string_view digits = v;
  bool negative = false;
  if (digits.front() == '+' || digits.front() == '-') {
    negative = digits.front() == '-';
    digits.remove_prefix(1);
  }
  if (digits.empty()) return std::nullopt;
  // strconv.Atoi takes an int64: out-of-range values are errors, not clamps.
  unsigned long long magnitude = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  constexpr unsigned long long kMax = 9223372036854775807ULL;
  if (magnitude > kMax + (negative ? 1 : 0)) return std::nullopt;
  if (negative)
    return magnitude == kMax + 1 ? std::numeric_limits<long long>::min()
                                 : -static_cast<long long>(magnitude);
  return static_cast<long long>(magnitude);
}

std::optional<long long> check_wait(int status_code,
                                    std::optional<std::string_view> retry_after_header) {
  if (status_code != 429 && status_code < 500) return std::nullopt;
  if (!retry_after_header) return std::nullopt;
  return retry_after_seconds(*retry_after_header);
}

bool is_retryable_error(RequestMode mode, std::string_view method, TransportError error) {
  switch (mode) {
    case RequestMode::kDo:
      return method == "GET" &&
             (error == TransportError::kConnectionReset || error == TransportError::kProbableEof);
    case RequestMode::kWatch:
      return error == TransportError::kProbableEof || error == TransportError::kTimeout;
    case RequestMode::kStream:
      return false;
  }
  return false;
}

std::string retry_reason(int retries, long long seconds, const AttemptOutcome& outcome) {
  const std::string message = fmt::format("retries: {}, retry-after: {}s", retries, seconds);
  if (outcome.error) {
    return fmt::format("{} - retry-reason: due to retryable error, error: {}", message,
                       outcome.error_message);
  }
  const int code = outcome.status_code.value_or(0);
  if (code == 429) {
    return fmt::format("{} - retry-reason: due to server-side throttling, FlowSchema UID: \"{}\"",
                       message, outcome.flow_schema_uid);
  }
  return fmt::format("{} - retry-reason: {}", message, code);
}

RetryDecision next_retry(int attempt, int max_retries, RequestMode mode, std::string_view method,
                         const AttemptOutcome& outcome) {
  RetryDecision d;
  if (!outcome.status_code && !outcome.error) return d;  // nothing happened: bad input
  if (attempt > max_retries) return d;

  std::optional<long long> seconds;
  if (outcome.error) {
    if (!is_retryable_error(mode, method, *outcome.error)) return d;
    seconds = check_wait(500, "1");  // the artificial Retry-After response
  } else {
    seconds = check_wait(
        *outcome.status_code,
        outcome.retry_after ? std::optional<std::string_view>(*outcome.retry_after) : std::nullopt);
  }
  if (!seconds) return d;
  d.retry = true;
  d.wait = std::chrono::seconds(*seconds);
  d.reason = retry_reason(attempt, *seconds, outcome);
  return d;
}

std::string wrap_previous_error(std::string_view current, std::string_view previous) {
  if (previous.empty() || current == previous) return std::string(current);
  return fmt::format("{} - error from a previous attempt: {}", current, previous);
}

}  // namespace kcm::client
