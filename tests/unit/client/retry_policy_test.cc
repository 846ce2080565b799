#include "client/retry_policy.h"

#include <gtest/gtest.h>

#include <limits>

namespace kcm::client {
namespace {

TEST(RetryPolicyTest, RetryAfterSecondsIsStrconvAtoi) {
  const std::pair<std::string, std::optional<long long>> cases[] = {
      {"1", 1},
      {"120", 120},
      {"+5", 5},
      {"-1", -1},
      {"0", 0},
      {"007", 7},
      {"", std::nullopt},
      {"+", std::nullopt},
      {"1.5", std::nullopt},
      {" 1", std::nullopt},
      {"1 ", std::nullopt},
      {"Fri, 31 Dec 1999 23:59:59 GMT", std::nullopt},
      {"9223372036854775807", std::numeric_limits<long long>::max()},
      {"9223372036854775808", std::nullopt},
      {"-9223372036854775808", std::numeric_limits<long long>::min()},
      {"-9223372036854775809", std::nullopt},
  };
  for (const auto& [in, want] : cases)
    EXPECT_EQ(retry_after_seconds(in), want) << in;
}

TEST(RetryPolicyTest, CheckWait) {
  struct Case {
    int status;
    std::optional<std::string_view> header;
    std::optional<long long> want;
  };
  const Case cases[] = {
      {429, "3", 3},
      {500, "1", 1},
      {503, "10", 10},
      {504, "0", 0},
      {600, "2", 2},
      {500, std::nullopt, std::nullopt},
      {503, "soon", std::nullopt},
      {404, "1", std::nullopt},
      {499, "1", std::nullopt},
      {200, "1", std::nullopt},
      {401, "1", std::nullopt},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(check_wait(c.status, c.header), c.want) << c.status;
  }
}

TEST(RetryPolicyTest, RetryableErrors) {
  struct Case {
    RequestMode mode;
    std::string method;
    TransportError error;
    bool want;
  };
  const Case cases[] = {
      {RequestMode::kDo, "GET", TransportError::kConnectionReset, true},
      {RequestMode::kDo, "GET", TransportError::kProbableEof, true},
      {RequestMode::kDo, "GET", TransportError::kTimeout, false},
      {RequestMode::kDo, "GET", TransportError::kOther, false},
      {RequestMode::kDo, "POST", TransportError::kConnectionReset, false},
      {RequestMode::kDo, "PUT", TransportError::kProbableEof, false},
      {RequestMode::kWatch, "GET", TransportError::kProbableEof, true},
      {RequestMode::kWatch, "GET", TransportError::kTimeout, true},
      {RequestMode::kWatch, "GET", TransportError::kConnectionReset, false},
      {RequestMode::kStream, "GET", TransportError::kProbableEof, false},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(is_retryable_error(c.mode, c.method, c.error), c.want)
        << static_cast<int>(c.mode) << " " << c.method << " " << static_cast<int>(c.error);
  }
}

AttemptOutcome response(int code, std::optional<std::string> retry_after = std::nullopt,
                        std::string flow_schema_uid = "") {
  AttemptOutcome o;
  o.status_code = code;
  o.retry_after = std::move(retry_after);
  o.flow_schema_uid = std::move(flow_schema_uid);
  return o;
}

AttemptOutcome transport_error(TransportError e, std::string message) {
  AttemptOutcome o;
  o.error = e;
  o.error_message = std::move(message);
  return o;
}

TEST(RetryPolicyTest, NextRetry) {
  struct Case {
    std::string name;
    int attempt;
    RequestMode mode;
    std::string method;
    AttemptOutcome outcome;
    bool retry;
    std::chrono::seconds wait;
    std::string reason;
  };
  const Case cases[] = {
      {"503 with Retry-After", 1, RequestMode::kDo, "GET", response(503, "2"), true,
       std::chrono::seconds(2), "retries: 1, retry-after: 2s - retry-reason: 503"},
      {"429 names the flow schema", 3, RequestMode::kDo, "POST", response(429, "1", "uid-1"), true,
       std::chrono::seconds(1),
       "retries: 3, retry-after: 1s - retry-reason: due to server-side throttling, FlowSchema UID: "
       "\"uid-1\""},
      {"429 without flow schema", 1, RequestMode::kDo, "GET", response(429, "0"), true,
       std::chrono::seconds(0),
       "retries: 1, retry-after: 0s - retry-reason: due to server-side throttling, FlowSchema UID: "
       "\"\""},
      {"last allowed retry", 10, RequestMode::kDo, "GET", response(500, "1"), true,
       std::chrono::seconds(1), "retries: 10, retry-after: 1s - retry-reason: 500"},
      {"retries exhausted", 11, RequestMode::kDo, "GET", response(500, "1"), false, {}, ""},
      {"5xx without Retry-After", 1, RequestMode::kDo, "GET", response(500), false, {}, ""},
      {"4xx with Retry-After", 1, RequestMode::kDo, "GET", response(409, "1"), false, {}, ""},
      {"unparsable Retry-After", 1, RequestMode::kDo, "GET", response(503, "1s"), false, {}, ""},
      {"GET connection reset", 2, RequestMode::kDo, "GET",
       transport_error(TransportError::kConnectionReset, "read: connection reset by peer"), true,
       std::chrono::seconds(1),
       "retries: 2, retry-after: 1s - retry-reason: due to retryable error, error: read: "
       "connection reset by peer"},
      {"POST connection reset",
       1,
       RequestMode::kDo,
       "POST",
       transport_error(TransportError::kConnectionReset, "reset"),
       false,
       {},
       ""},
      {"watch timeout", 1, RequestMode::kWatch, "GET",
       transport_error(TransportError::kTimeout, "i/o timeout"), true, std::chrono::seconds(1),
       "retries: 1, retry-after: 1s - retry-reason: due to retryable error, error: i/o timeout"},
      {"stream EOF",
       1,
       RequestMode::kStream,
       "GET",
       transport_error(TransportError::kProbableEof, "EOF"),
       false,
       {},
       ""},
      {"no outcome", 1, RequestMode::kDo, "GET", AttemptOutcome{}, false, {}, ""},
  };
  for (const auto& c : cases) {
    const RetryDecision d = next_retry(c.attempt, kDefaultMaxRetries, c.mode, c.method, c.outcome);
    EXPECT_EQ(d.retry, c.retry) << c.name;
    EXPECT_EQ(d.wait, c.wait) << c.name;
    EXPECT_EQ(d.reason, c.reason) << c.name;
  }
  EXPECT_EQ(kDefaultMaxRetries, 10);
  EXPECT_FALSE(next_retry(1, 0, RequestMode::kDo, "GET", response(503, "1")).retry);
}

TEST(RetryPolicyTest, WrapPreviousError) {
  EXPECT_EQ(wrap_previous_error("context deadline exceeded", ""), "context deadline exceeded");
  EXPECT_EQ(wrap_previous_error("EOF", "EOF"), "EOF");
  EXPECT_EQ(wrap_previous_error("context deadline exceeded", "EOF"),
            "context deadline exceeded - error from a previous attempt: EOF");
}

}  // namespace
}  // namespace kcm::client
