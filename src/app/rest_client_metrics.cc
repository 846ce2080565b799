#include "app/rest_client_metrics.h"

#include <mutex>
#include <string>
#include <vector>

namespace kcm::app {
namespace {

metrics::Opts opts(std::string name, std::string help) {
  return {"", "", std::move(name), std::move(help), metrics::StabilityLevel::kAlpha};
}

// component-base's bounds: latencies 5ms to 60s, sizes 64 bytes to 16MiB.
const std::vector<double>& latency_buckets() {
  static const std::vector<double> b = {0.005, 0.025, 0.1, 0.25, 0.5,  1.0,
                                        2.0,   4.0,   8.0, 15.0, 30.0, 60.0};
  return b;
}
const std::vector<double>& size_buckets() {
  static const std::vector<double> b = {64,    256,    512,     1024,    4096,    16384,
                                        65536, 262144, 1048576, 4194304, 16777216};
  return b;
}

double seconds(std::chrono::nanoseconds d) {
  return std::chrono::duration<double>(d).count();
}

template <class Vec>
auto child(Vec& vec, std::string_view a, std::string_view b) {
  auto r = vec.with_label_values({std::string(a), std::string(b)});
  return r ? *r : nullptr;
}
template <class Vec>
auto child(Vec& vec, std::string_view a, std::string_view b, std::string_view c) {
  auto r = vec.with_label_values({std::string(a), std::string(b), std::string(c)});
  return r ? *r : nullptr;
}

constexpr std::string_view kHooksTaken = "rest client metrics hooks are already registered";

}  // namespace

Result<std::shared_ptr<RestClientMetrics>> RestClientMetrics::create(metrics::Registry& registry) {
  auto requests = metrics::CounterVec::create(
      opts("rest_client_requests_total",
           "Number of HTTP requests, partitioned by status code, method, and host."),
      {"code", "method", "host"});
  auto duration = metrics::HistogramVec::create(
      opts("rest_client_request_duration_seconds",
           "Request latency in seconds. Broken down by verb, and host."),
      latency_buckets(), {"verb", "host"});
  auto limiter = metrics::HistogramVec::create(
      opts("rest_client_rate_limiter_duration_seconds",
           "Client side rate limiter latency in seconds. Broken down by verb, and host."),
      latency_buckets(), {"verb", "host"});
  auto retries = metrics::CounterVec::create(
      opts("rest_client_request_retries_total",
           "Number of request retries, partitioned by status code, verb, and host."),
      {"code", "verb", "host"});
  auto request_size =
      metrics::HistogramVec::create(opts("rest_client_request_size_bytes",
                                         "Request size in bytes. Broken down by verb and host."),
                                    size_buckets(), {"verb", "host"});
  auto response_size =
      metrics::HistogramVec::create(opts("rest_client_response_size_bytes",
                                         "Response size in bytes. Broken down by verb and host."),
                                    size_buckets(), {"verb", "host"});
  if (!requests || !duration || !limiter || !retries || !request_size || !response_size) {
    return fail("invalid rest client metric definition");  // unreachable: the names are fixed
  }
  auto m = std::make_shared<RestClientMetrics>(
      Key{}, Families{*requests, *duration, *limiter, *retries, *request_size, *response_size});
  if (auto ok = m->register_on(registry); !ok) return fail(ok.error());
  return m;
}

std::vector<std::shared_ptr<const metrics::Collector>> RestClientMetrics::collectors() const {
  return {families_.requests, families_.request_duration, families_.rate_limiter_duration,
          families_.retries,  families_.request_size,     families_.response_size};
}

Result<void> RestClientMetrics::register_on(metrics::Registry& registry) const {
  const auto all = collectors();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (auto ok = registry.register_collector(all[i]); !ok) {
      for (std::size_t j = 0; j < i; ++j)
        registry.unregister(all[j]->name());
      return fail(ok.error());
    }
  }
  return {};
}

void RestClientMetrics::unregister_from(metrics::Registry& registry) const {
  for (const auto& c : collectors())
    registry.unregister(c->name());
}

void RestClientMetrics::request_latency(std::string_view verb, std::string_view host,
                                        std::chrono::nanoseconds latency) {
  if (auto h = child(*families_.request_duration, verb, host)) h->observe(seconds(latency));
}

void RestClientMetrics::rate_limiter_latency(std::string_view verb, std::string_view host,
                                             std::chrono::nanoseconds latency) {
  if (auto h = child(*families_.rate_limiter_duration, verb, host)) h->observe(seconds(latency));
}

void RestClientMetrics::request_result(std::string_view code, std::string_view method,
                                       std::string_view host) {
  if (auto c = child(*families_.requests, code, method, host)) c->inc();
}

void RestClientMetrics::request_retry(std::string_view code, std::string_view method,
                                      std::string_view host) {
  if (auto c = child(*families_.retries, code, method, host)) c->inc();
}

void RestClientMetrics::request_size(std::string_view verb, std::string_view host, double bytes) {
  if (auto h = child(*families_.request_size, verb, host)) h->observe(bytes);
}

void RestClientMetrics::response_size(std::string_view verb, std::string_view host, double bytes) {
  if (auto h = child(*families_.response_size, verb, host)) h->observe(bytes);
}

Result<std::shared_ptr<RestClientMetrics>> register_rest_client_metrics(
    metrics::Registry& registry) {
  static std::mutex mu;
  static std::shared_ptr<RestClientMetrics> process;  // the installed hooks
  std::lock_guard lock(mu);
  if (process) {
    if (auto ok = process->register_on(registry); !ok) return fail(ok.error());
    return process;
  }
  if (client::client_metrics() != nullptr) return fail(std::string(kHooksTaken));
  auto created = RestClientMetrics::create(registry);
  if (!created) return fail(created.error());
  if (!client::register_client_metrics(*created)) {
    (*created)->unregister_from(registry);
    return fail(std::string(kHooksTaken));
  }
  process = *created;
  return process;
}

}  // namespace kcm::app
