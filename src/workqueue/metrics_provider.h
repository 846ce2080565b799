// How queues get their metrics (client-go's MetricsProvider): the queue asks
// a provider for one metric of each kind per queue name. Without a provider,
// or for an unnamed queue, a queue keeps no metrics at all.
#pragma once

#include <memory>
#include <string>

namespace kcm::workqueue {

class GaugeMetric {
 public:
  virtual ~GaugeMetric() = default;
  virtual void inc() = 0;
  virtual void dec() = 0;
};

class SettableGaugeMetric {
 public:
  virtual ~SettableGaugeMetric() = default;
  virtual void set(double v) = 0;
};

class CounterMetric {
 public:
  virtual ~CounterMetric() = default;
  virtual void inc() = 0;
};

class HistogramMetric {
 public:
  virtual ~HistogramMetric() = default;
  virtual void observe(double v) = 0;
};

class MetricsProvider {
 public:
  virtual ~MetricsProvider() = default;
  virtual std::unique_ptr<GaugeMetric> new_depth_metric(const std::string& name) = 0;
  virtual std::unique_ptr<CounterMetric> new_adds_metric(const std::string& name) = 0;
  virtual std::unique_ptr<HistogramMetric> new_latency_metric(const std::string& name) = 0;
  virtual std::unique_ptr<HistogramMetric> new_work_duration_metric(const std::string& name) = 0;
  virtual std::unique_ptr<SettableGaugeMetric> new_unfinished_work_seconds_metric(
      const std::string& name) = 0;
  virtual std::unique_ptr<SettableGaugeMetric> new_longest_running_processor_seconds_metric(
      const std::string& name) = 0;
  virtual std::unique_ptr<CounterMetric> new_retries_metric(const std::string& name) = 0;
};

// Sets the provider for queues created afterwards without one of their own.
// Only the first call has an effect (client-go's SetProvider); false after that.
bool set_metrics_provider(std::shared_ptr<MetricsProvider> provider);
// The global provider, null until set.
std::shared_ptr<MetricsProvider> global_metrics_provider();

}  // namespace kcm::workqueue
