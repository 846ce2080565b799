#include "workqueue/prometheus_metrics.h"

#include "metrics/buckets.h"

namespace kcm::workqueue {
namespace {

// Adapters from the queue's metric interfaces to registry children. A child
// that cannot be had (a queue name that is not UTF-8) becomes a no-op.
class GaugeAdapter final : public GaugeMetric, public SettableGaugeMetric {
 public:
  explicit GaugeAdapter(std::shared_ptr<metrics::Gauge> g) : g_(std::move(g)) {}
  void inc() override {
    if (g_) g_->inc();
  }
  void dec() override {
    if (g_) g_->dec();
  }
  void set(double v) override {
    if (g_) g_->set(v);
  }

 private:
  const std::shared_ptr<metrics::Gauge> g_;
};

class CounterAdapter final : public CounterMetric {
 public:
  explicit CounterAdapter(std::shared_ptr<metrics::Counter> c) : c_(std::move(c)) {}
  void inc() override {
    if (c_) c_->inc();
  }

 private:
  const std::shared_ptr<metrics::Counter> c_;
};

class HistogramAdapter final : public HistogramMetric {
 public:
  explicit HistogramAdapter(std::shared_ptr<metrics::Histogram> h) : h_(std::move(h)) {}
  void observe(double v) override {
    if (h_) h_->observe(v);
  }

 private:
  const std::shared_ptr<metrics::Histogram> h_;
};

template <class Vec>
auto child(Vec& vec, const std::string& name) {
  auto r = vec.with_label_values({name});
  return r ? *r : nullptr;
}

metrics::Opts opts(std::string name, std::string help) {
  return {"", "workqueue", std::move(name), std::move(help), metrics::StabilityLevel::kBeta};
}

}  // namespace

Result<std::shared_ptr<PrometheusMetricsProvider>> PrometheusMetricsProvider::create(
    metrics::Registry& registry) {
  std::shared_ptr<PrometheusMetricsProvider> p(new PrometheusMetricsProvider());
  // 10ns, 100ns, ... 10s.
  const auto buckets = metrics::exponential_buckets(10e-9, 10, 10);
  if (!buckets) return fail(buckets.error());

  auto depth = metrics::GaugeVec::create(opts("depth", "Current depth of workqueue"), {"name"});
  auto adds = metrics::CounterVec::create(
      opts("adds_total", "Total number of adds handled by workqueue"), {"name"});
  auto latency = metrics::HistogramVec::create(
      opts("queue_duration_seconds",
           "How long in seconds an item stays in workqueue before being requested."),
      *buckets, {"name"});
  auto work = metrics::HistogramVec::create(
      opts("work_duration_seconds", "How long in seconds processing an item from workqueue takes."),
      *buckets, {"name"});
  auto unfinished = metrics::GaugeVec::create(
      opts("unfinished_work_seconds",
           "How many seconds of work has done that is in progress and hasn't been observed by "
           "work_duration. Large values indicate stuck threads. One can deduce the number of "
           "stuck threads by observing the rate at which this increases."),
      {"name"});
  auto longest = metrics::GaugeVec::create(
      opts("longest_running_processor_seconds",
           "How many seconds has the longest running processor for workqueue been running."),
      {"name"});
  auto retries = metrics::CounterVec::create(
      opts("retries_total", "Total number of retries handled by workqueue"), {"name"});
  if (!depth || !adds || !latency || !work || !unfinished || !longest || !retries) {
    return fail("invalid workqueue metric definition");  // unreachable: the names are fixed
  }
  p->depth_ = *depth;
  p->adds_ = *adds;
  p->latency_ = *latency;
  p->work_duration_ = *work;
  p->unfinished_ = *unfinished;
  p->longest_running_processor_ = *longest;
  p->retries_ = *retries;
  for (std::shared_ptr<const metrics::Collector> c :
       {std::shared_ptr<const metrics::Collector>(p->depth_),
        {p->adds_},
        {p->latency_},
        {p->work_duration_},
        {p->unfinished_},
        {p->longest_running_processor_},
        {p->retries_}}) {
    if (auto ok = registry.register_collector(c); !ok) return fail(ok.error());
  }
  return p;
}

std::unique_ptr<GaugeMetric> PrometheusMetricsProvider::new_depth_metric(const std::string& name) {
  return std::make_unique<GaugeAdapter>(child(*depth_, name));
}
std::unique_ptr<CounterMetric> PrometheusMetricsProvider::new_adds_metric(const std::string& name) {
  return std::make_unique<CounterAdapter>(child(*adds_, name));
}
std::unique_ptr<HistogramMetric> PrometheusMetricsProvider::new_latency_metric(
    const std::string& name) {
  return std::make_unique<HistogramAdapter>(child(*latency_, name));
}
std::unique_ptr<HistogramMetric> PrometheusMetricsProvider::new_work_duration_metric(
    const std::string& name) {
  return std::make_unique<HistogramAdapter>(child(*work_duration_, name));
}
std::unique_ptr<SettableGaugeMetric> PrometheusMetricsProvider::new_unfinished_work_seconds_metric(
    const std::string& name) {
  return std::make_unique<GaugeAdapter>(child(*unfinished_, name));
}
std::unique_ptr<SettableGaugeMetric>
PrometheusMetricsProvider::new_longest_running_processor_seconds_metric(const std::string& name) {
  return std::make_unique<GaugeAdapter>(child(*longest_running_processor_, name));
}
std::unique_ptr<CounterMetric> PrometheusMetricsProvider::new_retries_metric(
    const std::string& name) {
  return std::make_unique<CounterAdapter>(child(*retries_, name));
}

}  // namespace kcm::workqueue
