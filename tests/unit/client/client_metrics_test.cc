#include "client/client_metrics.h"

#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "client/rate_limiter.h"
#include "client/rest_client.h"
#include "fake_clock.h"
#include "recording_transport.h"

namespace kcm::client {
namespace {

using namespace std::chrono_literals;

// Every hook call as one line: "result 200 GET 127.0.0.1:6443". Request
// latencies are wall-clock, so only their labels are kept; rate-limiter
// latencies come from a fake clock and keep their value in milliseconds.
class RecordingMetrics final : public ClientMetrics {
 public:
  void request_latency(std::string_view verb, std::string_view host,
                       std::chrono::nanoseconds latency) override {
    add("latency " + std::string(verb) + " " + std::string(host));
    std::lock_guard lock(mu_);
    last_latency_ = latency;
  }
  void rate_limiter_latency(std::string_view verb, std::string_view host,
                            std::chrono::nanoseconds latency) override {
    add("throttle " + std::string(verb) + " " + std::string(host) + " " +
        std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(latency).count()) +
        "ms");
  }
  void request_result(std::string_view code, std::string_view method,
                      std::string_view host) override {
    add("result " + std::string(code) + " " + std::string(method) + " " + std::string(host));
  }
  void request_retry(std::string_view code, std::string_view method,
                     std::string_view host) override {
    add("retry " + std::string(code) + " " + std::string(method) + " " + std::string(host));
  }
  void request_size(std::string_view verb, std::string_view host, double bytes) override {
    add("request_size " + std::string(verb) + " " + std::string(host) + " " +
        std::to_string(static_cast<long>(bytes)));
  }
  void response_size(std::string_view verb, std::string_view host, double bytes) override {
    add("response_size " + std::string(verb) + " " + std::string(host) + " " +
        std::to_string(static_cast<long>(bytes)));
  }

  std::vector<std::string> take() {
    std::lock_guard lock(mu_);
    return std::exchange(events_, {});
  }
  std::chrono::nanoseconds last_latency() {
    std::lock_guard lock(mu_);
    return last_latency_;
  }

 private:
  void add(std::string e) {
    std::lock_guard lock(mu_);
    events_.push_back(std::move(e));
  }
  std::mutex mu_;
  std::vector<std::string> events_;
  std::chrono::nanoseconds last_latency_{0};
};

// The process-wide hook can be installed once, so the whole binary shares
// this recorder; each test starts by draining it.
RecordingMetrics& recorder() {
  static const std::shared_ptr<RecordingMetrics> r = [] {
    auto m = std::make_shared<RecordingMetrics>();
    register_client_metrics(m);
    return m;
  }();
  r->take();
  return *r;
}

using test_support::RecordingTransport;

// A transport that gives `answers` in order, at `base_url`.
std::shared_ptr<RecordingTransport> scripted(const std::deque<RecordingTransport::Answer>& answers,
                                             std::string base_url = "https://127.0.0.1:6443") {
  auto transport = std::make_shared<RecordingTransport>(std::move(base_url));
  for (const RecordingTransport::Answer& a : answers)
    transport->answer(a);
  return transport;
}

RecordingTransport::Answer answer(int status, std::string body = "", Headers headers = {}) {
  return {.status = status, .body = std::move(body), .headers = std::move(headers)};
}
RecordingTransport::Answer failed_answer(std::string error) {
  return {.status = 0, .error = std::move(error)};
}

RestClientOptions quiet_options() {
  RestClientOptions o;
  o.logger = [](int, const std::string&) {};
  o.warning_handler = [](const std::string&) {};
  return o;
}

Request pods_request(std::string verb = "GET", std::string body = "") {
  Request r;
  r.verb = std::move(verb);
  r.namespace_name = "default";
  r.resource = "pods";
  r.body = std::move(body);
  return r;
}

constexpr const char* kHost = "127.0.0.1:6443";

TEST(ClientMetricsTest, RegistrationIsOnce) {
  RecordingMetrics& r = recorder();
  EXPECT_EQ(client_metrics(), &r);
  EXPECT_FALSE(register_client_metrics(std::make_shared<RecordingMetrics>()));
  EXPECT_FALSE(register_client_metrics(nullptr));
  EXPECT_EQ(client_metrics(), &r);
}

TEST(ClientMetricsTest, ResultCodeLabel) {
  EXPECT_EQ(result_code_label(200), "200");
  EXPECT_EQ(result_code_label(503), "503");
  EXPECT_EQ(result_code_label(std::nullopt), "<error>");
}

TEST(ClientMetricsTest, RecordsEachOutcome) {
  struct Case {
    std::string name;
    std::deque<RecordingTransport::Answer> answers;
    Request request;
    bool ok;
    std::vector<std::string> want;
  };
  const std::string h = kHost;
  const std::vector<Case> cases = {
      {"success",
       {answer(200, R"({"kind":"PodList"})")},
       pods_request(),
       true,
       {"request_size GET " + h + " 0", "result 200 GET " + h, "response_size GET " + h + " 18",
        "latency GET " + h}},
      {"http error with a body",
       {answer(404, "404 page not found", {{"Content-Type", "text/plain"}})},
       pods_request(),
       false,
       {"request_size GET " + h + " 0", "result 404 GET " + h, "response_size GET " + h + " 18",
        "latency GET " + h}},
      {"http error without a body",
       {answer(409)},
       pods_request("POST", "{}"),
       false,
       {"request_size POST " + h + " 2", "result 409 POST " + h, "latency POST " + h}},
      {"transport error",
       {failed_answer("Post \"https://127.0.0.1:6443/api/v1/namespaces/default/pods\": dial "
                      "tcp 127.0.0.1:6443: connect: connection refused")},
       pods_request("POST", R"({"a":1})"),
       false,
       {"request_size POST " + h + " 7", "result <error> POST " + h, "latency POST " + h}},
      {"retried until success, each retry with its own code",
       {answer(429, "", {{"Retry-After", "0"}}), answer(500, "", {{"Retry-After", "0"}}),
        answer(201, "{}")},
       pods_request("POST", "{}"),
       true,
       {"request_size POST " + h + " 2", "result 429 POST " + h, "request_size POST " + h + " 2",
        "result 500 POST " + h, "retry 500 POST " + h, "request_size POST " + h + " 2",
        "result 201 POST " + h, "retry 201 POST " + h, "response_size POST " + h + " 2",
        "latency POST " + h}},
      {"retries exhausted",
       {answer(503, "busy", {{"Retry-After", "0"}}), answer(503, "busy", {{"Retry-After", "0"}})},
       [] {
         Request r = pods_request();
         r.max_retries = 1;
         return r;
       }(),
       false,
       {"request_size GET " + h + " 0", "result 503 GET " + h, "request_size GET " + h + " 0",
        "result 503 GET " + h, "retry 503 GET " + h, "response_size GET " + h + " 4",
        "latency GET " + h}},
      {"construction error: timed, never sent",
       {},
       [] {
         Request r = pods_request();
         r.name = "a/b";
         return r;
       }(),
       false,
       {"latency GET " + h}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    RecordingMetrics& r = recorder();
    auto transport = scripted(c.answers);
    RestClient client(transport, quiet_options());
    const auto got = client.send(c.request);
    EXPECT_EQ(got.ok(), c.ok);
    EXPECT_EQ(transport->unanswered(), 0u);
    EXPECT_EQ(r.take(), c.want);
  }
}

TEST(ClientMetricsTest, RetriedTransportErrorCountsAsErrorThenItsRetry) {
  RecordingMetrics& r = recorder();
  // A reset GET is retried after client-go's artificial "Retry-After: 1".
  auto transport = scripted(
      {failed_answer("Get \"https://127.0.0.1:6443/api/v1/namespaces/default/pods\": read tcp "
                     "127.0.0.1:40000->127.0.0.1:6443: read: connection reset by peer"),
       answer(200, "{}")});
  RestClient client(transport, quiet_options());
  ASSERT_TRUE(client.send(pods_request()).ok());
  const std::string h = kHost;
  EXPECT_EQ(r.take(),
            (std::vector<std::string>{"request_size GET " + h + " 0", "result <error> GET " + h,
                                      "request_size GET " + h + " 0", "result 200 GET " + h,
                                      "retry 200 GET " + h, "response_size GET " + h + " 2",
                                      "latency GET " + h}));
  // The request latency covers the wait between the attempts.
  EXPECT_GE(r.last_latency(), 1s);
}

TEST(ClientMetricsTest, RateLimiterWaitsAreObservedPerThrottle) {
  RecordingMetrics& r = recorder();
  auto clock = std::make_shared<FakeClock>();
  RestClientOptions options = quiet_options();
  options.rate_limiter = std::make_shared<TokenBucketRateLimiter>(1, 1, clock);
  auto transport =
      scripted({answer(200, "{}"), answer(503, "", {{"Retry-After", "0"}}), answer(200, "{}")});
  RestClient client(transport, options);
  ASSERT_TRUE(client.send(pods_request()).ok());
  // The second request waits a second for its token, and its retry another.
  ASSERT_TRUE(client.send(pods_request()).ok());
  std::vector<std::string> throttles;
  for (auto& e : r.take()) {
    if (e.starts_with("throttle ")) throttles.push_back(e);
  }
  const std::string h = kHost;
  EXPECT_EQ(throttles,
            (std::vector<std::string>{"throttle GET " + h + " 0ms", "throttle GET " + h + " 1000ms",
                                      "throttle GET " + h + " 1000ms"}));
}

TEST(ClientMetricsTest, FailedLimiterWaitIsObservedAsNoWait) {
  RecordingMetrics& r = recorder();
  RestClientOptions options = quiet_options();
  options.rate_limiter =
      std::make_shared<TokenBucketRateLimiter>(1, 0, std::make_shared<FakeClock>());
  auto transport = scripted({});
  RestClient client(transport, options);
  const auto got = client.send(pods_request());
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(
      got.error().message,
      "client rate limiter Wait returned an error: rate: Wait(n=1) exceeds limiter's burst 0");
  const std::string h = kHost;
  EXPECT_EQ(r.take(), (std::vector<std::string>{"throttle GET " + h + " 0ms", "latency GET " + h}));
}

TEST(ClientMetricsTest, WatchesCountTheirStart) {
  struct Case {
    std::string name;
    std::deque<RecordingTransport::Answer> answers;
    bool ok;
    std::vector<std::string> want;
  };
  const std::string h = "[::1]:6443";
  const std::vector<Case> cases = {
      {"stream started", {answer(200)}, true, {"result 200 GET " + h}},
      {"expired",
       {answer(410, R"({"kind":"Status","status":"Failure","code":410})")},
       false,
       {"result 410 GET " + h}},
      {"refused",
       {failed_answer("dial tcp [::1]:6443: connect: connection refused")},
       false,
       {"result <error> GET " + h}},
      {"retried after a 500",
       {answer(500, "", {{"Retry-After", "0"}}), answer(200)},
       true,
       {"result 500 GET " + h, "result 200 GET " + h, "retry 200 GET " + h}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    RecordingMetrics& r = recorder();
    auto transport = scripted(c.answers, "https://[::1]:6443");
    RestClient client(transport, quiet_options());
    Request watch = pods_request();
    watch.params = {{"watch", "true"}};
    const auto got = client.stream(watch);
    EXPECT_EQ(got.ok(), c.ok);
    EXPECT_EQ(transport->unanswered(), 0u);
    EXPECT_EQ(r.take(), c.want);
  }
}

}  // namespace
}  // namespace kcm::client
