// Counters: values that only go up.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "api/result.h"
#include "metrics/metric_vec.h"
#include "metrics/opts.h"

namespace kcm::metrics {

class Counter {
 public:
  void inc() { add(1); }
  // Negative or NaN increments are dropped (Go panics on them).
  void add(double delta);
  double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0};
};

class CounterVec final : public MetricVec<Counter> {
 public:
  // Errors when the name or a label name is invalid (see make_desc).
  static Result<std::shared_ptr<CounterVec>> create(const Opts& opts,
                                                    std::vector<std::string> label_names = {});
  FamilySnapshot collect() const override;

 private:
  explicit CounterVec(Desc desc);
};

}  // namespace kcm::metrics
