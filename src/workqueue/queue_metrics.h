// Per-queue metric bookkeeping (client-go's defaultQueueMetrics). Not
// thread-safe: the queue calls it under its own lock.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>

#include "workqueue/clock.h"
#include "workqueue/metrics_provider.h"

namespace kcm::workqueue {

template <class T>
class QueueMetrics {
 public:
  // Disabled: every call is a no-op.
  QueueMetrics() = default;
  QueueMetrics(MetricsProvider& provider, const std::string& name, std::shared_ptr<Clock> clock)
      : clock_(std::move(clock)),
        depth_(provider.new_depth_metric(name)),
        adds_(provider.new_adds_metric(name)),
        latency_(provider.new_latency_metric(name)),
        work_duration_(provider.new_work_duration_metric(name)),
        unfinished_work_seconds_(provider.new_unfinished_work_seconds_metric(name)),
        longest_running_processor_(provider.new_longest_running_processor_seconds_metric(name)) {}

  bool enabled() const { return clock_ != nullptr; }

  void add(const T& item) {
    if (!enabled()) return;
    adds_->inc();
    depth_->inc();
    add_times_.try_emplace(item, clock_->now());  // the first add counts
  }

  void get(const T& item) {
    if (!enabled()) return;
    depth_->dec();
    const TimePoint now = clock_->now();
    processing_start_times_[item] = now;
    if (const auto it = add_times_.find(item); it != add_times_.end()) {
      latency_->observe(seconds_between(it->second, now));
      add_times_.erase(it);
    }
  }

  void done(const T& item) {
    if (!enabled()) return;
    if (const auto it = processing_start_times_.find(item); it != processing_start_times_.end()) {
      work_duration_->observe(seconds_between(it->second, clock_->now()));
      processing_start_times_.erase(it);
    }
  }

  // Sum and maximum of the ages of the items being processed.
  void update_unfinished_work() {
    if (!enabled()) return;
    const TimePoint now = clock_->now();
    double total = 0;
    double oldest = 0;
    for (const auto& [item, start] : processing_start_times_) {
      const double age = seconds_between(start, now);
      total += age;
      if (age > oldest) oldest = age;
    }
    unfinished_work_seconds_->set(total);
    longest_running_processor_->set(oldest);
  }

 private:
  static double seconds_between(TimePoint from, TimePoint to) {
    return std::chrono::duration<double>(to - from).count();
  }

  std::shared_ptr<Clock> clock_;
  std::unique_ptr<GaugeMetric> depth_;
  std::unique_ptr<CounterMetric> adds_;
  std::unique_ptr<HistogramMetric> latency_;
  std::unique_ptr<HistogramMetric> work_duration_;
  std::unique_ptr<SettableGaugeMetric> unfinished_work_seconds_;
  std::unique_ptr<SettableGaugeMetric> longest_running_processor_;
  std::unordered_map<T, TimePoint> add_times_;
  std::unordered_map<T, TimePoint> processing_start_times_;
};

}  // namespace kcm::workqueue
