// The workqueue_* metric families (component-base's workqueue metrics
// provider), labelled name=<queue name>, registered on a kcm::metrics registry.
#pragma once

#include <memory>
#include <string>

#include "api/result.h"
#include "metrics/counter.h"
#include "metrics/gauge.h"
#include "metrics/histogram.h"
#include "metrics/registry.h"
#include "workqueue/metrics_provider.h"

namespace kcm::workqueue {

class PrometheusMetricsProvider final : public MetricsProvider {
 public:
  // Registers workqueue_depth, _adds_total, _queue_duration_seconds,
  // _work_duration_seconds, _unfinished_work_seconds,
  // _longest_running_processor_seconds and _retries_total (BETA). Errors if
  // any of them is registered on registry already.
  static Result<std::shared_ptr<PrometheusMetricsProvider>> create(metrics::Registry& registry);

  std::unique_ptr<GaugeMetric> new_depth_metric(const std::string& name) override;
  std::unique_ptr<CounterMetric> new_adds_metric(const std::string& name) override;
  std::unique_ptr<HistogramMetric> new_latency_metric(const std::string& name) override;
  std::unique_ptr<HistogramMetric> new_work_duration_metric(const std::string& name) override;
  std::unique_ptr<SettableGaugeMetric> new_unfinished_work_seconds_metric(
      const std::string& name) override;
  std::unique_ptr<SettableGaugeMetric> new_longest_running_processor_seconds_metric(
      const std::string& name) override;
  std::unique_ptr<CounterMetric> new_retries_metric(const std::string& name) override;

 private:
  PrometheusMetricsProvider() = default;

  std::shared_ptr<metrics::GaugeVec> depth_;
  std::shared_ptr<metrics::CounterVec> adds_;
  std::shared_ptr<metrics::HistogramVec> latency_;
  std::shared_ptr<metrics::HistogramVec> work_duration_;
  std::shared_ptr<metrics::GaugeVec> unfinished_;
  std::shared_ptr<metrics::GaugeVec> longest_running_processor_;
  std::shared_ptr<metrics::CounterVec> retries_;
};

}  // namespace kcm::workqueue
