#include "metrics/histogram.h"

#include <cmath>
#include <cstdio>

#include "metrics/atomic_double.h"
#include "metrics/buckets.h"

namespace kcm::metrics {

Histogram::Histogram(std::shared_ptr<const std::vector<double>> upper_bounds)
    : bounds_(std::move(upper_bounds)), counts_(bounds_->size() + 1) {}

void Histogram::observe(double v) {
  const std::vector<double>& bounds = *bounds_;
  std::size_t i = 0;
  while (i < bounds.size() && !(v <= bounds[i]))
    ++i;
  counts_[i].fetch_add(1, std::memory_order_relaxed);
  atomic_add(sum_, v);
}

void Histogram::snapshot(std::vector<std::uint64_t>& cumulative, std::uint64_t& count,
                         double& sum) const {
  // Counts are read before the sum so the sum never trails far behind.
  cumulative.assign(bounds_->size(), 0);
  std::uint64_t running = 0;
  for (std::size_t i = 0; i < bounds_->size(); ++i) {
    running += counts_[i].load(std::memory_order_relaxed);
    cumulative[i] = running;
  }
  count = running + counts_.back().load(std::memory_order_relaxed);
  sum = sum_.load(std::memory_order_relaxed);
}

std::uint64_t Histogram::count() const {
  std::uint64_t total = 0;
  for (const auto& c : counts_)
    total += c.load(std::memory_order_relaxed);
  return total;
}

HistogramVec::HistogramVec(Desc desc, std::shared_ptr<const std::vector<double>> bounds)
    : MetricVec(std::move(desc), [bounds] { return std::make_shared<Histogram>(bounds); }),
      bounds_(std::move(bounds)) {}

Result<std::shared_ptr<HistogramVec>> HistogramVec::create(const Opts& opts,
                                                           std::vector<double> buckets,
                                                           std::vector<std::string> label_names) {
  for (const std::string& label : label_names) {
    if (label == "le") return fail("\"le\" is not allowed as label name in histograms");
  }
  auto desc = make_desc(opts, std::move(label_names));
  if (!desc) return fail(std::move(desc).error());
  if (buckets.empty()) buckets = default_buckets();
  if (std::isinf(buckets.back()) && buckets.back() > 0) buckets.pop_back();
  for (std::size_t i = 1; i < buckets.size(); ++i) {
    if (!(buckets[i] > buckets[i - 1])) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "histogram buckets must be in increasing order: %f >= %f",
                    buckets[i - 1], buckets[i]);
      return fail(buf);
    }
  }
  auto bounds = std::make_shared<const std::vector<double>>(std::move(buckets));
  return std::shared_ptr<HistogramVec>(new HistogramVec(std::move(*desc), std::move(bounds)));
}

FamilySnapshot HistogramVec::collect() const {
  return {desc_.name, desc_.help, MetricType::kHistogram, *bounds_,
          snapshot_children([](MetricSnapshot& m, const Histogram& h) {
            h.snapshot(m.cumulative_counts, m.count, m.sum);
          })};
}

}  // namespace kcm::metrics
