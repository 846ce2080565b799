// Histograms: observations counted into cumulative `le` buckets.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "api/result.h"
#include "metrics/metric_vec.h"
#include "metrics/opts.h"

namespace kcm::metrics {

class Histogram {
 public:
  // upper_bounds: strictly increasing, without +Inf.
  explicit Histogram(std::shared_ptr<const std::vector<double>> upper_bounds);

  // Counts v into the first bucket whose bound is >= v (NaN lands in +Inf only).
  void observe(double v);

  // Cumulative counts per bound, then the total count and the sum.
  void snapshot(std::vector<std::uint64_t>& cumulative, std::uint64_t& count, double& sum) const;
  std::uint64_t count() const;
  double sum() const { return sum_.load(std::memory_order_relaxed); }

 private:
  const std::shared_ptr<const std::vector<double>> bounds_;
  std::vector<std::atomic<std::uint64_t>> counts_;  // one per bound, plus the +Inf overflow
  std::atomic<double> sum_{0};
};

class HistogramVec final : public MetricVec<Histogram> {
 public:
  // Empty buckets mean default_buckets(); a trailing +Inf is dropped. Errors as
  // make_desc, plus "\"le\" is not allowed as label name in histograms" and
  // "histogram buckets must be in increasing order: 2.000000 >= 1.000000".
  static Result<std::shared_ptr<HistogramVec>> create(const Opts& opts, std::vector<double> buckets,
                                                      std::vector<std::string> label_names = {});
  FamilySnapshot collect() const override;
  const std::vector<double>& upper_bounds() const { return *bounds_; }

 private:
  HistogramVec(Desc desc, std::shared_ptr<const std::vector<double>> bounds);
  const std::shared_ptr<const std::vector<double>> bounds_;
};

}  // namespace kcm::metrics
