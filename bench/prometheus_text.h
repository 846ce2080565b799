// Reading counters out of a Prometheus text exposition (a /metrics page).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kcm::bench {

struct PrometheusSample {
  std::map<std::string, std::string> labels;
  double value = 0;
};

// Every sample of the metric `name` (exactly that name: not its _bucket,
// _sum or _count series). Lines that do not parse are skipped.
std::vector<PrometheusSample> prometheus_samples(std::string_view text, std::string_view name);

// True when the page declares or carries the metric `name`.
bool has_prometheus_metric(std::string_view text, std::string_view name);

// The samples of `name` summed by the value of `label` ("method" -> "POST").
std::map<std::string, double> sum_by_label(const std::vector<PrometheusSample>& samples,
                                           std::string_view label);

}  // namespace kcm::bench
