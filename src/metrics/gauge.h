// Gauges: values that go up and down or are set.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "api/result.h"
#include "metrics/metric_vec.h"
#include "metrics/opts.h"

namespace kcm::metrics {

class Gauge {
 public:
  void set(double v) { value_.store(v, std::memory_order_relaxed); }
  void inc() { add(1); }
  void dec() { add(-1); }
  void add(double delta);
  void sub(double delta) { add(-delta); }
  double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0};
};

class GaugeVec final : public MetricVec<Gauge> {
 public:
  static Result<std::shared_ptr<GaugeVec>> create(const Opts& opts,
                                                  std::vector<std::string> label_names = {});
  FamilySnapshot collect() const override;

 private:
  explicit GaugeVec(Desc desc);
};

}  // namespace kcm::metrics
