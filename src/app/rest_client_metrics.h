// component-base's rest-client metrics (metrics/prometheus/restclient), the
// Prometheus side of the REST client's hooks (client/client_metrics.h), as
// kube-controller-manager exposes them on /metrics:
//   rest_client_requests_total{code,host,method}            counter
//   rest_client_request_duration_seconds{host,verb}         histogram
//   rest_client_rate_limiter_duration_seconds{host,verb}    histogram
//   rest_client_request_retries_total{code,host,verb}       counter
//   rest_client_request_size_bytes{host,verb}               histogram
//   rest_client_response_size_bytes{host,verb}              histogram
// All ALPHA, so their HELP reads "[ALPHA] ...".
#pragma once

#include <chrono>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "api/result.h"
#include "client/client_metrics.h"
#include "metrics/counter.h"
#include "metrics/histogram.h"
#include "metrics/registry.h"

namespace kcm::app {

class RestClientMetrics final : public client::ClientMetrics {
 public:
  // New families, registered on `registry`; nothing is registered when one
  // of them is there already ("duplicate metrics collector registration
  // attempted"). Does not install them as the client's hooks.
  static Result<std::shared_ptr<RestClientMetrics>> create(metrics::Registry& registry);

  // Registers these same families on another registry as well (all or none).
  Result<void> register_on(metrics::Registry& registry) const;
  // Removes the six families' names from `registry`.
  void unregister_from(metrics::Registry& registry) const;

  void request_latency(std::string_view verb, std::string_view host,
                       std::chrono::nanoseconds latency) override;
  void rate_limiter_latency(std::string_view verb, std::string_view host,
                            std::chrono::nanoseconds latency) override;
  void request_result(std::string_view code, std::string_view method,
                      std::string_view host) override;
  void request_retry(std::string_view code, std::string_view method,
                     std::string_view host) override;
  void request_size(std::string_view verb, std::string_view host, double bytes) override;
  void response_size(std::string_view verb, std::string_view host, double bytes) override;

 private:
  struct Key {};  // only create() constructs

 public:
  struct Families {
    std::shared_ptr<metrics::CounterVec> requests;
    std::shared_ptr<metrics::HistogramVec> request_duration;
    std::shared_ptr<metrics::HistogramVec> rate_limiter_duration;
    std::shared_ptr<metrics::CounterVec> retries;
    std::shared_ptr<metrics::HistogramVec> request_size;
    std::shared_ptr<metrics::HistogramVec> response_size;
  };
  RestClientMetrics(Key, Families families) : families_(std::move(families)) {}

 private:
  std::vector<std::shared_ptr<const metrics::Collector>> collectors() const;

  const Families families_;
};

// What kube-controller-manager does by importing the restclient package:
// the process's one RestClientMetrics, created on the first call and
// installed as the REST client's hooks, registered on `registry`. Later
// calls register the same families (process-wide counts) on their registry.
// Errors: the registry has the families already, or other hooks were
// installed first ("rest client metrics hooks are already registered").
// Neither is fatal to kcm: it runs with fewer metrics.
Result<std::shared_ptr<RestClientMetrics>> register_rest_client_metrics(
    metrics::Registry& registry);

}  // namespace kcm::app
