// A point-in-time copy of a metric family: what collectors hand the registry
// and what the text format renders.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kcm::metrics {

enum class MetricType { kCounter, kGauge, kHistogram };

// "counter", "gauge", "histogram" as in a `# TYPE` line.
std::string_view type_name(MetricType type);

struct LabelPair {
  std::string name;
  std::string value;
};

struct MetricSnapshot {
  // Sorted by label name (client_golang sorts a metric's label pairs).
  std::vector<LabelPair> labels;
  double value = 0;  // counters and gauges
  // Histograms: one cumulative count per upper bound (without +Inf), the sum
  // and the total count (the +Inf bucket).
  std::vector<std::uint64_t> cumulative_counts;
  double sum = 0;
  std::uint64_t count = 0;
};

struct FamilySnapshot {
  std::string name;
  std::string help;  // already carrying its stability prefix
  MetricType type = MetricType::kGauge;
  std::vector<double> upper_bounds;  // histograms only
  std::vector<MetricSnapshot> metrics;
};

}  // namespace kcm::metrics
