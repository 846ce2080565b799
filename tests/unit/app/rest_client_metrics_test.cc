#include "app/rest_client_metrics.h"

#include <gtest/gtest.h>

#include <string>

#include "metrics/counter.h"
#include "metrics/registry.h"

namespace kcm::app {
namespace {

using namespace std::chrono_literals;

constexpr const char* kHost = "127.0.0.1:6443";

// The bucket lines of one series: each bound with its cumulative count.
std::string buckets(const std::string& family, const std::string& labels,
                    const std::vector<std::pair<std::string, int>>& counts) {
  std::string out;
  for (const auto& [le, n] : counts)
    out += family + "_bucket{" + labels + ",le=\"" + le + "\"} " + std::to_string(n) + "\n";
  return out;
}

TEST(RestClientMetricsTest, RendersAsComponentBase) {
  metrics::Registry registry;
  auto m = RestClientMetrics::create(registry);
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(registry.render_text(), "");  // no series yet

  RestClientMetrics& r = **m;
  r.request_result("200", "GET", kHost);
  r.request_result("200", "GET", kHost);
  r.request_result("<error>", "POST", kHost);
  r.request_retry("503", "GET", kHost);
  r.request_latency("GET", kHost, 300ms);
  r.rate_limiter_latency("GET", kHost, 0ns);
  r.request_size("POST", kHost, 100);
  r.response_size("GET", kHost, 5'000'000);

  const std::string gl = "host=\"127.0.0.1:6443\",verb=\"GET\"";
  const std::string pl = "host=\"127.0.0.1:6443\",verb=\"POST\"";
  const std::string want =
      "# HELP rest_client_rate_limiter_duration_seconds [ALPHA] Client side rate limiter latency "
      "in seconds. Broken down by verb, and host.\n"
      "# TYPE rest_client_rate_limiter_duration_seconds histogram\n" +
      buckets("rest_client_rate_limiter_duration_seconds", gl,
              {{"0.005", 1},
               {"0.025", 1},
               {"0.1", 1},
               {"0.25", 1},
               {"0.5", 1},
               {"1", 1},
               {"2", 1},
               {"4", 1},
               {"8", 1},
               {"15", 1},
               {"30", 1},
               {"60", 1},
               {"+Inf", 1}}) +
      "rest_client_rate_limiter_duration_seconds_sum{" + gl + "} 0\n" +
      "rest_client_rate_limiter_duration_seconds_count{" + gl + "} 1\n" +
      "# HELP rest_client_request_duration_seconds [ALPHA] Request latency in seconds. Broken "
      "down by verb, and host.\n"
      "# TYPE rest_client_request_duration_seconds histogram\n" +
      buckets("rest_client_request_duration_seconds", gl,
              {{"0.005", 0},
               {"0.025", 0},
               {"0.1", 0},
               {"0.25", 0},
               {"0.5", 1},
               {"1", 1},
               {"2", 1},
               {"4", 1},
               {"8", 1},
               {"15", 1},
               {"30", 1},
               {"60", 1},
               {"+Inf", 1}}) +
      "rest_client_request_duration_seconds_sum{" + gl + "} 0.3\n" +
      "rest_client_request_duration_seconds_count{" + gl + "} 1\n" +
      "# HELP rest_client_request_retries_total [ALPHA] Number of request retries, partitioned "
      "by status code, verb, and host.\n"
      "# TYPE rest_client_request_retries_total counter\n"
      "rest_client_request_retries_total{code=\"503\",host=\"127.0.0.1:6443\",verb=\"GET\"} 1\n"
      "# HELP rest_client_request_size_bytes [ALPHA] Request size in bytes. Broken down by verb "
      "and host.\n"
      "# TYPE rest_client_request_size_bytes histogram\n" +
      buckets("rest_client_request_size_bytes", pl,
              {{"64", 0},
               {"256", 1},
               {"512", 1},
               {"1024", 1},
               {"4096", 1},
               {"16384", 1},
               {"65536", 1},
               {"262144", 1},
               {"1.048576e+06", 1},
               {"4.194304e+06", 1},
               {"1.6777216e+07", 1},
               {"+Inf", 1}}) +
      "rest_client_request_size_bytes_sum{" + pl + "} 100\n" +
      "rest_client_request_size_bytes_count{" + pl + "} 1\n" +
      "# HELP rest_client_requests_total [ALPHA] Number of HTTP requests, partitioned by status "
      "code, method, and host.\n"
      "# TYPE rest_client_requests_total counter\n"
      "rest_client_requests_total{code=\"200\",host=\"127.0.0.1:6443\",method=\"GET\"} 2\n"
      "rest_client_requests_total{code=\"<error>\",host=\"127.0.0.1:6443\",method=\"POST\"} 1\n"
      "# HELP rest_client_response_size_bytes [ALPHA] Response size in bytes. Broken down by "
      "verb and host.\n"
      "# TYPE rest_client_response_size_bytes histogram\n" +
      buckets("rest_client_response_size_bytes", gl,
              {{"64", 0},
               {"256", 0},
               {"512", 0},
               {"1024", 0},
               {"4096", 0},
               {"16384", 0},
               {"65536", 0},
               {"262144", 0},
               {"1.048576e+06", 0},
               {"4.194304e+06", 0},
               {"1.6777216e+07", 1},
               {"+Inf", 1}}) +
      "rest_client_response_size_bytes_sum{" + gl + "} 5e+06\n" +
      "rest_client_response_size_bytes_count{" + gl + "} 1\n";
  EXPECT_EQ(registry.render_text(), want);
}

TEST(RestClientMetricsTest, DuplicateRegistrationRegistersNothing) {
  metrics::Registry registry;
  metrics::Opts other;
  other.name = "rest_client_response_size_bytes";
  other.help = "someone else's";
  auto taken = metrics::CounterVec::create(other);
  ASSERT_TRUE(taken);
  ASSERT_TRUE(registry.register_collector(*taken));
  (*taken)->with_label_values({}).value()->inc();
  const std::string before = registry.render_text();

  auto m = RestClientMetrics::create(registry);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error(), "duplicate metrics collector registration attempted");
  // The five registered before the clash were taken back.
  EXPECT_EQ(registry.render_text(), before);
  EXPECT_EQ(registry.gather().size(), 1u);
}

// The only test in this binary that installs the process-wide client hooks.
TEST(RestClientMetricsTest, RegisterInstallsTheClientHooksOnce) {
  metrics::Registry first;
  auto m = register_rest_client_metrics(first);
  ASSERT_TRUE(m) << m.error();
  ASSERT_EQ(client::client_metrics(), m->get());

  // What the REST client reports lands in every registry that has the families.
  metrics::Registry second;
  auto again = register_rest_client_metrics(second);
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(again->get(), m->get());
  client::client_metrics()->request_result("201", "POST", kHost);
  const std::string line =
      "rest_client_requests_total{code=\"201\",host=\"127.0.0.1:6443\",method=\"POST\"} 1\n";
  EXPECT_NE(first.render_text().find(line), std::string::npos) << first.render_text();
  EXPECT_NE(second.render_text().find(line), std::string::npos) << second.render_text();

  auto twice = register_rest_client_metrics(first);
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error(), "duplicate metrics collector registration attempted");

  // Other hooks cannot replace them.
  EXPECT_FALSE(client::register_client_metrics(std::make_shared<client::ClientMetrics>()));
  EXPECT_EQ(client::client_metrics(), m->get());
}

}  // namespace
}  // namespace kcm::app
